"""``create_app()``: the FastAPI application (uvicorn locally, Mangum on Lambda).

Mangum runs the ASGI lifespan on every invocation, but an MCP session manager can run only once,
so the lifespan builds a fresh stateless session manager each time while the runtime (pool,
embedder) is created once per process and reused.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from mcp.server.transport_security import TransportSecuritySettings
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from memory_mcp import __version__
from memory_mcp.config import Settings, get_settings
from memory_mcp.db import meta
from memory_mcp.errors import MemoryMcpError, StoreUnavailableError, retry_after
from memory_mcp.http import uploads
from memory_mcp.http.auth import AuthenticatedMCP
from memory_mcp.http.guards import HostGuard, http_error, invalid_request
from memory_mcp.mcp.server import build_server
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import create_runtime

log = logging.getLogger(__name__)

#: /healthz waits at most this long for a connection: a probe must answer fast either way.
HEALTH_WAIT_S = 2.0


def _transport_security(settings: Settings) -> TransportSecuritySettings:
    """Every request carries a bearer key a browser cannot attach on its own, so the SDK's
    localhost-only DNS-rebinding guard (which answers 421 behind API Gateway) is replaced by an
    explicit host allow-list, open by default."""
    if settings.allowed_hosts == ["*"]:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=settings.allowed_hosts, allowed_origins=[])


async def _start_local_jobs(app: FastAPI) -> Any:
    """Locally, uploads land in the data dir and are processed by an in-process worker (the
    same pipeline the SQS Lambda runs). Hosted (S3 storage) there is nothing to start."""
    from memory_mcp.documents.storage import LocalStorage

    rt: Runtime = app.state.runtime
    if getattr(app.state, "jobs", None) is not None or not isinstance(rt.storage, LocalStorage):
        return None
    from memory_mcp.db import processing
    from memory_mcp.documents.local_worker import LocalJobs
    from memory_mcp.documents.setup import build_extractors

    jobs = LocalJobs(rt, build_extractors(rt.settings, rt.storage))
    app.state.jobs = jobs
    async with rt.transaction(system=True) as conn:
        await processing.expire_leases(conn)  # a previous process's jobs: nobody holds them
    jobs.start_sweeping()  # resumes them all now, then anything left behind later
    return jobs


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> FastAPI:
    """Build the app. Pass ``runtime`` to share one across apps (tests, Lambda warm starts)."""
    settings = settings or get_settings()
    mcp_server = build_server(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owns_runtime = False
        if getattr(app.state, "runtime", None) is None:
            app.state.runtime = runtime or await create_runtime(settings)
            owns_runtime = runtime is None
        mcp_server.streamable_http_app(
            stateless_http=True, json_response=True,
            transport_security=_transport_security(settings),
        )
        manager = mcp_server.session_manager
        app.state.mcp_manager = manager
        jobs = await _start_local_jobs(app)
        try:
            async with manager.run():
                yield
        finally:
            if jobs is not None:
                await jobs.close()
                app.state.jobs = None
            if owns_runtime and not app.state.keep_runtime:
                await app.state.runtime.pool.close()
                app.state.runtime = None

    app = FastAPI(title="Memory-MCP", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.runtime = None
    app.state.keep_runtime = False
    app.state.jobs = None
    app.router.routes.append(Route("/mcp", endpoint=AuthenticatedMCP(), methods=["POST"]))
    upload_routes = uploads.UploadRoutes()  # the FastAPI routes are built on the first upload
    for path, methods in uploads.PATHS:
        app.router.routes.append(Route(path, endpoint=upload_routes, methods=methods))
    app.add_middleware(uploads.LocalUploadCors)
    app.add_middleware(HostGuard, allowed=settings.allowed_hosts)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        """Liveness plus a database round trip."""
        try:
            async with request.app.state.runtime.pool.connection(timeout=HEALTH_WAIT_S) as conn:
                ok = await meta.ping(conn)
        except Exception as exc:  # any failure means "not healthy"; said once, no trace
            log.warning("health check failed: %s", type(exc).__name__)
            ok = False
        return JSONResponse({"status": "ok" if ok else "unavailable", "database": ok},
                            status_code=200 if ok else 503,
                            headers=None if ok else retry_after(StoreUnavailableError()))

    @app.exception_handler(MemoryMcpError)
    async def _package_error(_: Request, exc: MemoryMcpError) -> JSONResponse:
        return JSONResponse({"error": exc.code, "message": str(exc)},
                            status_code=exc.http_status, headers=retry_after(exc))

    return app
