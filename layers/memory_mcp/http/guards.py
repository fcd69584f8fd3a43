"""Edge guards every route shares: the Host allow-list, input errors that never echo the input,
and credentials in query strings kept out of the access log.

The MCP SDK checks Host only for ``/mcp``; ``/uploads`` builds its upload URL from the Host it
is sent, so with ``MEMORY_MCP_ALLOWED_HOSTS`` set every route must check it.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: Query parameters whose value is a credential (matched case-insensitively, as a whole name).
_QUERY_CREDENTIAL = re.compile(
    r"(?i)([?&](?:sig|signature|key|api[_-]?key|token|access[_-]?token|auth|authorization|"
    r"bearer|password|passwd|secret|client[_-]?secret|x-amz-(?:signature|security-token|"
    r"credential))=)[^&\s\"]*")


def hide_query_credentials(text: str) -> str:
    return _QUERY_CREDENTIAL.sub(r"\1[REDACTED]", text)


class HideQueryCredentials(logging.Filter):
    """uvicorn's access log prints each request line whole: a local upload URL's signature, or
    a key someone put in ``?api_key=`` (refused, but still a key), never reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(hide_query_credentials(a) if isinstance(a, str) else a
                                for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = hide_query_credentials(record.msg)
        return True


def host_allowed(host: str, allowed: list[str]) -> bool:
    """The SDK's rule: an exact ``host[:port]`` or ``host:*`` for any port."""
    if allowed == ["*"]:
        return True
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return any(host == a or (a.endswith(":*") and name == a[:-2]) for a in allowed)


class HostGuard:
    """421 for any route reached under a Host not in the allow-list (when one is set)."""

    def __init__(self, app: ASGIApp, allowed: list[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.allowed != ["*"]:
            headers = dict(scope.get("headers") or [])
            host = headers.get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.allowed):
                body = json.dumps({"error": "misdirected_request",
                                   "message": "This server does not answer for that host."})
                await send({"type": "http.response.start", "status": 421, "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body.encode()})
                return
        await self.app(scope, receive, send)


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "header", "path")]
    return ".".join(parts) or "request body"


async def invalid_request(_: Request, exc: Exception) -> JSONResponse:
    """400 listing which fields are wrong and why, never the input itself (the default echoes
    it, and fails with a 500 on a lone surrogate)."""
    assert isinstance(exc, RequestValidationError)
    problems = [f"{_where(tuple(e.get('loc', ())))}: {e.get('msg', 'invalid')}"
                for e in exc.errors()[:10]]
    return JSONResponse({"error": "invalid_request", "message": "; ".join(problems)},
                        status_code=400)
