"""Bearer-key authentication in front of the MCP transport.

The key is checked before the MCP SDK sees the request, so an unauthenticated client gets a plain
HTTP 401 with ``WWW-Authenticate`` and learns nothing else (not whether the key exists, was
revoked, or belongs to a deactivated user).
"""

from __future__ import annotations

import json
import logging

from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from memory_mcp.errors import AuthenticationError
from memory_mcp.mcp.request import Caller, current_caller
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)

WWW_AUTHENTICATE = 'Bearer realm="memory-mcp"'


async def unauthorized(send: Send, message: str) -> None:
    body = json.dumps({"error": "unauthorized", "message": message}).encode()
    await send({
        "type": "http.response.start",
        "status": 401,
        "headers": [
            (b"content-type", b"application/json"),
            (b"www-authenticate", WWW_AUTHENTICATE.encode()),
            (b"content-length", str(len(body)).encode()),
        ],
    })
    await send({"type": "http.response.body", "body": body})


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
        token = current_caller.set(Caller(runtime, principal))
        try:
            await request.app.state.mcp_manager.handle_request(scope, receive, send)
        finally:
            current_caller.reset(token)
