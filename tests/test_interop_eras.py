"""Every tool, resource and the prompt in both protocol eras, with the Python SDK over real HTTP:
the 2025-11-25 ``initialize`` handshake (``mode="legacy"``) and the 2026-07-28 per-request
envelope (``server/discover``, ``_meta`` with protocol version and client capabilities, the
``Mcp-Method`` header), checked on the wire as well as in the results. The same capabilities
must be advertised in both: logging yes; subscriptions and list-changed notifications no,
because nothing could deliver them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextResourceContents
from mcp_types import CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY
from test_e2e import ALL_TOOLS

from conftest import World

pytestmark = pytest.mark.timeout(240)

#: Client mode -> the era it must end up in ("auto" probes server/discover, then adopts 2026-07-28).
MODES = {"legacy": "2025-11-25", "auto": "2026-07-28"}


@asynccontextmanager
async def recording_client(url: str, key: str, mode: str, **options: Any
                           ) -> AsyncIterator[tuple[Client, list[tuple[dict[str, str], Any]]]]:
    """A client in ``mode`` whose every HTTP request (headers, JSON body) is recorded."""
    wire: list[tuple[dict[str, str], Any]] = []

    async def record(request: httpx2.Request) -> None:
        body = json.loads(request.content) if request.content else None
        wire.append(({k.lower(): v for k, v in request.headers.items()}, body))

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60,
                              event_hooks={"request": [record]})
    async with http, Client(streamable_http_client(url, http_client=http), mode=mode,
                            **options) as client:
        yield client, wire


def _check_wire(mode: str, wire: list[tuple[dict[str, str], Any]]) -> None:
    methods = [body["method"] for _, body in wire if isinstance(body, dict) and "method" in body]
    if mode == "legacy":
        assert "initialize" in methods and "server/discover" not in methods
        assert all("mcp-method" not in headers for headers, _ in wire)
        return
    assert methods[0] == "server/discover" and "initialize" not in methods
    for headers, body in wire:
        assert headers["mcp-method"] == body["method"], body["method"]
        meta = body["params"]["_meta"]
        assert meta[PROTOCOL_VERSION_META_KEY] == "2026-07-28"
        assert CLIENT_CAPABILITIES_META_KEY in meta


async def _upload(client: Client, space: str, base: str, marker: str) -> str:
    """A small text file through upload-start, the signed PUT and upload-status, to done."""
    body = f"Runbook {marker}. The {marker} on-call hands over on Thursdays.\n".encode()
    started = await client.call_tool("upload-start", {
        "filename": f"{marker}.txt", "contentType": "text/plain", "size": len(body),
        "containerTag": space})
    target = started.structured_content or {}
    async with httpx.AsyncClient(timeout=30) as http:
        put = await http.put(target["uploadUrl"], content=body, headers=target["headers"])
    assert put.status_code == 200, put.text
    with anyio.fail_after(90):
        while True:
            status = await client.call_tool("upload-status", {"documentId": target["documentId"]})
            assert status.structured_content is not None
            if status.structured_content["document"]["status"] in ("done", "failed"):
                break
            await anyio.sleep(0.3)
    assert status.structured_content["document"]["status"] == "done"
    return str(target["documentId"])


@pytest.mark.anyio
@pytest.mark.parametrize("mode", list(MODES))
async def test_every_tool_resource_and_prompt_in_both_eras(live_server: str, world: World,
                                                           mode: str) -> None:
    space = await world.space("era")
    member = await world.member(grants={space: "readwrite"})
    marker = f"osprey{uuid.uuid4().hex[:8]}"
    fact = f"The {marker} staging cluster is patched on the first Monday"
    async with recording_client(live_server, member.key, mode) as (client, wire):
        assert client.session.protocol_version == MODES[mode]
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == ALL_TOOLS
        calls: dict[str, Any] = {}

        async def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(name, args)
            text = " ".join(getattr(c, "text", "") for c in result.content)
            assert not result.is_error, (mode, name, text)
            assert result.structured_content is not None, (mode, name)
            structured: dict[str, Any] = result.structured_content
            calls[name] = structured
            return structured

        saved = await call("add_memory", {"content": fact, "containerTag": space})
        found = await call("search_memory", {"query": f"When is the {marker} cluster patched?",
                                             "containerTag": space})
        assert found["results"][0]["id"] == saved["memory"]["id"]
        document_id = await _upload(client, space, live_server, marker)
        calls["upload-start"] = calls["upload-status"] = {"documentId": document_id}
        docs = await call("listDocuments", {"containerTag": space})
        assert [d["id"] for d in docs["documents"]] == [document_id]
        got = await call("getDocument", {"documentId": document_id, "containerTag": space})
        assert {m["sourceDocumentId"] for m in got["memories"]} == {document_id}
        await call("listMemories", {"containerTag": space})
        await call("listSpaces", {})
        assert (await call("whoAmI", {}))["user"]["email"] == member.user["email"]
        await call("select-space", {"containerTag": space})
        await call("guided-save", {"content": f"draft {marker}", "containerTag": space})
        await call("upload-file", {"containerTag": space})
        await call("memory-graph", {"containerTag": space})
        await call("deleteDocument", {"documentId": document_id, "containerTag": space})
        forgot = await call("add_memory", {"content": fact, "action": "forget",
                                           "containerTag": space})
        assert forgot["action"] == "forgotten"
        assert set(calls) == ALL_TOOLS

        resources = {str(r.uri) for r in (await client.list_resources()).resources}
        for uri in resources:
            content = (await client.read_resource(uri)).contents[0]
            assert isinstance(content, TextResourceContents) and content.text, (mode, uri)
        memories = (await client.read_resource("memory-mcp://memories")).contents[0]
        assert isinstance(memories, TextResourceContents) and marker in memories.text
        prompt = await client.get_prompt("context")
        assert f"Profile of space {space}" in json.dumps(prompt.model_dump(mode="json"))
    _check_wire(mode, wire)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", list(MODES))
async def test_advertised_capabilities_are_deliverable(live_server: str, world: World,
                                                       mode: str) -> None:
    member = await world.member(grants={await world.space("cap"): "read"})
    async with recording_client(live_server, member.key, mode) as (client, _):
        caps = client.session.server_capabilities
        assert caps is not None
        assert caps.logging is not None
        assert caps.resources is not None and caps.resources.subscribe is False
        for kind in (caps.tools, caps.resources, caps.prompts):
            assert kind is not None and kind.list_changed is False
        assert caps.completions is None
    # Nothing advertised, nothing served: subscribing is "method not found" in either era.
    headers = {"Authorization": f"Bearer {member.key}",
               "Accept": "application/json, text/event-stream"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
            "params": {"uri": "memory-mcp://memories"}}
    if mode != "legacy":
        headers["Mcp-Method"] = "resources/subscribe"
        body["params"] = {**body["params"], "_meta": {  # type: ignore[dict-item]
            PROTOCOL_VERSION_META_KEY: "2026-07-28", CLIENT_CAPABILITIES_META_KEY: {}}}
    answer = httpx.post(live_server, json=body, headers=headers, timeout=30)
    assert answer.json()["error"]["code"] == -32601, answer.text


@pytest.mark.anyio
async def test_log_levels_per_era(live_server: str, world: World) -> None:
    """logging/setLevel is accepted in the handshake era and gone in 2026-07-28 (where the
    level is a per-request _meta opt-in). JSON responses cannot carry the messages, so a
    client of this server receives none in either era (tests/test_client_log.py shows them
    delivered where a transport can)."""
    member = await world.member(grants={await world.space("log"): "read"})
    received: list[Any] = []

    async def on_log(params: Any) -> None:
        received.append(params)

    async with recording_client(live_server, member.key, "legacy",
                                logging_callback=on_log) as (client, _):
        assert (await client.set_logging_level("debug")).model_dump(exclude_none=True) in ({}, {"meta": None})
        await client.call_tool("whoAmI", {})
    async with recording_client(live_server, member.key, "auto", logging_callback=on_log,
                                log_level="debug") as (client, wire):
        await client.call_tool("whoAmI", {})
    assert all(body["params"]["_meta"][LOG_LEVEL_META_KEY] == "debug" for _, body in wire[1:])
    assert received == []
