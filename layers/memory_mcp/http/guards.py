"""Edge guards every route shares: the Host/Origin check against DNS rebinding (the allow-list,
or loopback names when reached on loopback), input errors that never echo the input, and
credentials in query strings kept out of the access log.

The MCP SDK checks Host only for ``/mcp``; ``/uploads`` builds its upload URL from the Host it
is sent, so every route must be checked, before the SDK sees anything.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from memory_mcp.http.uploads import LOCAL_PUT_PREFIX

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
    """The SDK's rule: an exact ``host[:port]`` or ``host:*`` for any port (``[v6]:port`` too)."""
    if allowed == ["*"]:
        return True
    if host.startswith("[") and "]:" in host:
        name = host[:host.index("]") + 1]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return any(host == a or (a.endswith(":*") and name == a[:-2]) for a in allowed)


#: The names a loopback-bound server answers to when no allow-list is set (any port).
LOOPBACK_HOSTS = ["localhost:*", "127.0.0.1:*", "[::1]:*", "localhost", "127.0.0.1", "[::1]"]


def is_loopback_address(address: str) -> bool:
    """Whether the socket a request arrived on is a loopback one (``127.0.0.0/8``, ``::1``,
    or IPv4-mapped loopback). A name (Mangum puts the Host there) is never loopback."""
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def origin_host(origin: str) -> str | None:
    """``host[:port]`` of an ``http(s)`` Origin; None for ``null`` or anything else."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or "@" in parts.netloc:
        return None
    return parts.netloc.lower()


def _refusal(status: int, error: str, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"error": error, "message": message}).encode()


class HostGuard:
    """DNS-rebinding guard on every route, before anything else runs.

    With ``MEMORY_MCP_ALLOWED_HOSTS`` set (hosted), Host must be on that list (421). Left at its
    default ``["*"]``, a request that arrived on a *loopback* socket must name a loopback host
    (``localhost``, ``127.0.0.1``, ``[::1]``, any port): a page on ``evil.example`` whose DNS
    now points at 127.0.0.1 reaches the socket but not the server. Either way a present
    ``Origin`` must name an allowed host too (403) — except on the local upload PUT, which the
    widget sends from an opaque sandbox origin and whose signed URL is the authorisation. The
    refusal never echoes what was sent. The socket decides, not the bind setting, because that
    is what a rebinding attack reaches: a server bound to 0.0.0.0 but reached over loopback is
    guarded as well, while one reached on a public address (API Gateway, a LAN) is not.
    """

    def __init__(self, app: ASGIApp, allowed: list[str]) -> None:
        self.app = app
        self.allowed = allowed

    def _effective(self, scope: Scope) -> list[str]:
        if self.allowed != ["*"]:
            return self.allowed
        server = scope.get("server")
        if server and is_loopback_address(str(server[0])):
            return LOOPBACK_HOSTS
        return ["*"]

    def _check(self, scope: Scope) -> tuple[int, bytes] | None:
        allowed = self._effective(scope)
        if allowed == ["*"]:
            return None
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        if not host_allowed(host.lower(), allowed):
            return _refusal(421, "misdirected_request",
                            "This server does not answer for that host. A server reached on a "
                            "loopback address answers only to localhost, 127.0.0.1 and [::1]; "
                            "set MEMORY_MCP_ALLOWED_HOSTS to serve other names.")
        origin = headers.get(b"origin")
        if origin is not None and not scope["path"].startswith(LOCAL_PUT_PREFIX):
            named = origin_host(origin.decode("latin-1"))
            if named is None or not host_allowed(named, allowed):
                return _refusal(403, "forbidden_origin",
                                "Requests from that web origin are not accepted.")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._check(scope)
            if refusal is not None:
                status, body = refusal
                await send({"type": "http.response.start", "status": status, "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _where(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "header", "path")]
    return ".".join(parts) or "request body"


def _problem(e: Any) -> str:
    """One rejected part of a request in words: the framework's ("21: JSON decode error",
    "Input should be a valid dictionary or object to extract fields from") says what failed
    inside it, not what to send."""
    kind, loc = e.get("type"), tuple(e.get("loc", ()))
    if kind == "json_invalid":
        return "request body: not valid JSON" + (
            f" (near character {loc[-1]})" if loc and isinstance(loc[-1], int) else "")
    if kind in ("dict_type", "model_type", "model_attributes_type") and _where(loc) == \
            "request body":
        return "request body: must be a JSON object"
    if kind == "missing" and _where(loc) == "request body":
        return "request body: required (a JSON object)"
    return f"{_where(loc)}: {str(e.get('msg', 'invalid')).removeprefix('Value error, ')}"


async def http_error(_: Request, exc: Exception) -> JSONResponse:
    """The framework's own answers (no such route, method not allowed) in the body every other
    error has: ``{"error": <snake_case code>, "message": ...}``, not ``{"detail": ...}``."""
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    message = {404: "No such route.", 405: "That method is not allowed here."}.get(
        exc.status_code, str(exc.detail))
    return JSONResponse({"error": code, "message": message}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def invalid_request(_: Request, exc: Exception) -> JSONResponse:
    """400 listing which fields are wrong and why, never the input itself (the default echoes
    it, and fails with a 500 on a lone surrogate)."""
    assert isinstance(exc, RequestValidationError)
    problems = [_problem(e) for e in exc.errors()[:10]]
    return JSONResponse({"error": "invalid_request", "message": "; ".join(problems)},
                        status_code=400)
