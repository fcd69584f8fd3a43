"""The official MCP Python client over real HTTP with a bearer key (test helper)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


@asynccontextmanager
async def connect(url: str, key: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        yield client


async def call(url: str, key: str, tool: str, args: dict[str, Any] | None = None) -> Any:
    async with connect(url, key) as client:
        return await client.call_tool(tool, args or {})
