"""Bearer-key authentication in front of the MCP transport.

The key is checked before the MCP SDK sees the request, so an unauthenticated client gets a plain
HTTP 401 with ``WWW-Authenticate`` and learns nothing else (not whether the key exists, was
revoked, or belongs to a deactivated user).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from memory_mcp.errors import AuthenticationError, MemoryMcpError, retry_after
from memory_mcp.http import mcp_edge
from memory_mcp.mcp.request import Caller, current_caller
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)

WWW_AUTHENTICATE = 'Bearer realm="memory-mcp"'


async def _respond(send: Send, status: int, body_json: dict[str, Any],
                   extra: list[tuple[bytes, bytes]]) -> None:
    body = json.dumps(body_json).encode()
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()), *extra],
    })
    await send({"type": "http.response.body", "body": body})


async def unauthorized(send: Send, message: str) -> None:
    await _respond(send, 401, {"error": "unauthorized", "message": message},
                   [(b"www-authenticate", WWW_AUTHENTICATE.encode())])


class AuthenticatedMCP:
    """ASGI endpoint for ``POST /mcp``: authenticate, then hand over to the session manager."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        runtime: Runtime = request.app.state.runtime
        try:
            principal = await authenticate_header(runtime, request.headers.get("authorization"))
        except AuthenticationError as exc:
            await unauthorized(send, str(exc))
            return
        except MemoryMcpError as exc:  # e.g. the database is down: retryable, never a 500
            headers = retry_after(exc) or {}
            await _respond(send, exc.http_status,
                           {"error": exc.code, "message": str(exc)},
                           [(k.lower().encode(), v.encode()) for k, v in headers.items()])
            return
        body, receive = await mcp_edge.read_body(receive)
        problem = mcp_edge.request_problem(body, request.headers.get("content-type"))
        if problem is not None:
            await _respond(send, *problem, [])
            return
        token = current_caller.set(Caller(runtime, principal, str(request.base_url)))
        try:
            await request.app.state.mcp_manager.handle_request(
                scope, receive, mcp_edge.readable_errors(send))
        finally:
            current_caller.reset(token)
