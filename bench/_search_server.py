"""The live app and its MCP client for ``bench/search_latency.py``.

The end-to-end timings go through the real ``create_app`` under uvicorn and the official MCP
client, exactly as an agent would call ``search_memory``; starting and reaching that server is
plumbing the measurements should not have to carry.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import httpx2
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from memory_mcp.config import Settings
from memory_mcp.http.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(settings: Settings) -> tuple[uvicorn.Server, threading.Thread, str]:
    port = free_port()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.05)
    httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10, trust_env=False).raise_for_status()
    return server, thread, f"http://127.0.0.1:{port}/mcp"


@asynccontextmanager
async def mcp_client(url: str, key: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60,
                              trust_env=False)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        yield client
