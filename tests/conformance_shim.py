"""A loopback reverse proxy that adds ``Authorization: Bearer <key>`` (test code only).

The official conformance suite (``@modelcontextprotocol/conformance``) cannot send headers, and
every ``/mcp`` request needs a key. The shim sits between them on 127.0.0.1: it forwards each
request unchanged — method, path, body and every header *including* ``Host`` and ``Origin``, so
the server's DNS-rebinding guard sees exactly what the suite sent — plus the key, and returns the
server's answer unchanged. It lives under ``tests/`` and is never part of the product: the server
still authenticates every request itself; the shim only holds a key a test created.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from conftest import free_port

#: Hop-by-hop headers (RFC 9110 §7.6.1) and those the proxy recomputes.
_HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te",
               "trailer", "upgrade", "content-length", "content-encoding"}


class BearerShim:
    """ASGI app forwarding to ``upstream`` (``http://127.0.0.1:PORT``) with the bearer key."""

    def __init__(self, upstream: str, key: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.key = key
        self.client = httpx.AsyncClient(timeout=120)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: nothing to set up
            return
        request = Request(scope, receive)
        headers = [(k, v) for k, v in request.headers.raw
                   if k.decode("latin-1").lower() not in _HOP_BY_HOP | {"authorization"}]
        headers.append((b"authorization", f"Bearer {self.key}".encode()))
        path = scope["raw_path"].decode("latin-1") if scope.get("raw_path") else scope["path"]
        query = scope.get("query_string", b"").decode("latin-1")
        url = self.upstream + path + (f"?{query}" if query else "")
        upstream = await self.client.request(request.method, url, headers=headers,
                                             content=await request.body())
        answer = Response(upstream.content, status_code=upstream.status_code)
        answer.raw_headers = [
            (k, v) for k, v in upstream.headers.raw
            if k.decode("latin-1").lower() not in _HOP_BY_HOP] + [
            (b"content-length", str(len(upstream.content)).encode())]
        await answer(scope, receive, send)


@contextmanager
def bearer_shim(upstream: str, key: str) -> Iterator[str]:
    """Run the shim on a free loopback port for the duration; yields its ``/mcp`` URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(BearerShim(upstream, key), host="127.0.0.1",
                                           port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("conformance shim did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
