"""The live-server side of the browser tests (``tests/test_widgets_browser*.py``): where the
server listens, and helpers that set data up through its own API, as a model would — a named
space, a tool call through the Python MCP client, a file upload followed to ``done`` — plus the
shape of the seeded showcase space (seeded by ``widgets_fixtures.showcase``)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx

from memory_mcp.services import admin

from conftest import World
from mcp_client import connect

PROCESSING_TIMEOUT_MS = 60_000


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@dataclass
class WidgetServer:
    base: str

    @property
    def mcp(self) -> str:
        return f"{self.base}/mcp"

    @property
    def host_page(self) -> str:
        return f"{self.base}/__test_host"


async def named_space(world: World, prefix: str, name: str, description: str) -> str:
    key = unique(prefix)
    await admin.create_space(world.rt, key, name, description)
    return key


async def call_tool(server: WidgetServer, key: str, tool: str, args: dict[str, Any] | None = None) -> Any:
    """Call a tool with the Python MCP client; return its structuredContent (fail on isError)."""
    async with connect(server.mcp, key) as client:
        result = await client.call_tool(tool, args or {})
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert not result.is_error, f"{tool} failed: {text}"
    assert result.structured_content is not None, f"{tool} returned no structuredContent: {text}"
    return result.structured_content


async def upload_document(server: WidgetServer, key: str, space: str, filename: str, content_type: str,
                          body: bytes) -> dict[str, Any]:
    """Upload through the HTTP API (as a model would) and wait until the document is done."""
    auth = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(timeout=20) as http:
        started = await http.post(f"{server.base}/uploads", headers=auth, json={
            "filename": filename, "contentType": content_type, "size": len(body),
            "containerTag": space})
        assert started.status_code == 201, started.text
        target = started.json()
        put = await http.request(target["method"], target["uploadUrl"], content=body,
                                 headers=target["headers"])
        assert put.status_code == 200, put.text
    deadline = time.monotonic() + PROCESSING_TIMEOUT_MS / 1000
    while True:
        got = await call_tool(server, key, "getDocument", {"documentId": target["documentId"],
                                                           "containerTag": space})
        document = dict(got["document"])
        if document["status"] in ("done", "failed") or time.monotonic() > deadline:
            break
        await anyio.sleep(0.2)
    assert document["status"] == "done", document
    return dict(got)


@dataclass
class Showcase:
    """A writer with three spaces; the main one holds one processed document, saved memories,
    one memory in two versions and one forgotten memory."""

    key: str
    user_name: str
    space: str
    other_spaces: list[str]
    document_id: str
    document_memories: int
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def memories(self) -> int:  # every memory node the graph should draw
        return self.document_memories + 5

    @property
    def current(self) -> int:
        return self.document_memories + 3
