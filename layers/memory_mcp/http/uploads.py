"""``POST /uploads`` (start an upload) and ``PUT /uploads/local/{id}`` (local object store).

Errors map from the package hierarchy: 400 bad input, 401 no/invalid key, 403 read-only or bad
signature, 404 unknown space or document, 409 already uploaded, 413 too large.

The routes are registered on first use (``UploadRoutes``): building them (FastAPI analyses each
endpoint's parameters, which imports ``pydantic.v1``) and the upload service behind them are
not on the path of an MCP request, so a Lambda cold start does not pay for them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memory_mcp.errors import AuthenticationError, InvalidInputError
from memory_mcp.http.auth import WWW_AUTHENTICATE
from memory_mcp.mcp.arguments import NO_BOOL
from memory_mcp.services.keys import authenticate_header

if TYPE_CHECKING:
    from memory_mcp.services.runtime import Runtime

LOCAL_PUT_PREFIX = "/uploads/local/"
_CORS = [(b"access-control-allow-origin", b"*"), (b"vary", b"origin")]
_PREFLIGHT = [*_CORS, (b"access-control-allow-methods", b"PUT"),
              (b"access-control-allow-headers", b"content-type"),
              (b"access-control-max-age", b"600"), (b"content-length", b"0")]


class LocalUploadCors:
    """CORS for the local PUT route only, so the upload widget (a sandboxed page with an opaque
    origin) can send the bytes and read the answer. Any origin may: the signed URL is the
    authorisation, exactly like an S3 presigned PUT, and the route takes no cookies or keys.
    Every other route stays without CORS."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(LOCAL_PUT_PREFIX):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": _PREFLIGHT})
            await send({"type": "http.response.body", "body": b""})
            return

        async def with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *_CORS]}
            await send(message)

        await self.app(scope, receive, with_cors)


class UploadRequest(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    filename: str = Field(min_length=1, max_length=255)
    content_type: str = Field(alias="contentType", min_length=1, max_length=255)
    #: ``true`` is not a size (a number sent as a string still is); the service refuses 0 and
    #: the limit in words.
    size: Annotated[int, NO_BOOL]
    container_tag: str | None = Field(default=None, alias="containerTag", max_length=63)


def _unauthorized(exc: AuthenticationError) -> JSONResponse:
    return JSONResponse({"error": "unauthorized", "message": str(exc)}, status_code=401,
                        headers={"WWW-Authenticate": WWW_AUTHENTICATE})


#: ``POST /uploads`` takes a small JSON object (filename, contentType, size, containerTag): a
#: body past this is refused while it streams in, never buffered whole (a 400 MB body once took
#: the server from 370 MB to 1.5 GB before its answer said the space tag was too long).
START_BODY_LIMIT = 16 * 1024


async def _bounded_body(request: Request, limit: int) -> bytearray | JSONResponse:
    """The request body, or a 413 as soon as its declared or received size passes ``limit``."""
    too_large = JSONResponse({"error": "too_large", "message": f"The limit is {limit:,} bytes."},
                             status_code=413)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        return too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return too_large
    return body


async def start_upload(request: Request) -> Any:
    """The key first, then the body: a caller without a valid key learns nothing about what
    the route accepts (and gets 401, not a 400 about its JSON)."""
    runtime: Runtime = request.app.state.runtime
    try:
        principal = await authenticate_header(runtime, request.headers.get("authorization"))
    except AuthenticationError as exc:
        return _unauthorized(exc)
    raw = await _bounded_body(request, START_BODY_LIMIT)
    if isinstance(raw, JSONResponse):
        return raw
    try:
        body = UploadRequest.model_validate_json(bytes(raw))
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])}
                                      for e in exc.errors(include_url=False)]) from None
    from memory_mcp.services import uploads

    result = await uploads.create_upload(
        runtime, principal, filename=body.filename, content_type=body.content_type,
        size=body.size, container_tag=body.container_tag, base_url=str(request.base_url))
    return JSONResponse(result, status_code=201)


async def local_put(
    document_id: str, request: Request,
    expires: Annotated[int, Query()], sig: Annotated[str, Query(max_length=128)],
    content_type: Annotated[str, Header()] = "",
) -> Any:
    runtime: Runtime = request.app.state.runtime
    body = await _bounded_body(request, runtime.settings.max_upload_bytes)
    if isinstance(body, JSONResponse):
        return body
    if not body:
        raise InvalidInputError("The upload body is empty.")
    from memory_mcp.services import uploads

    doc_id = await uploads.accept_local_upload(runtime, document_id, expires=expires, sig=sig,
                                               content_type=content_type, body=bytes(body))
    jobs = getattr(request.app.state, "jobs", None)
    if jobs is not None:
        jobs.submit(doc_id)
    return JSONResponse({"documentId": str(doc_id), "status": "queued"}, status_code=200)


#: The routes ``UploadRoutes`` serves: (path, methods); ``create_app`` mounts exactly these.
PATHS = (("/uploads", ["POST"]), (LOCAL_PUT_PREFIX + "{document_id}", ["PUT"]))


@lru_cache(maxsize=1)
def router() -> APIRouter:
    """The FastAPI router with both endpoints, built once per process on first use."""
    built = APIRouter()
    built.add_api_route(PATHS[0][0], start_upload, methods=PATHS[0][1])
    built.add_api_route(PATHS[1][0], local_put, methods=PATHS[1][1])
    return built


class UploadRoutes:
    """An ASGI endpoint for the app's ``/uploads`` routes that hands the request to ``router()``.
    The app's own middleware and exception handlers still apply (the scope carries them)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await router()(scope, receive, send)
