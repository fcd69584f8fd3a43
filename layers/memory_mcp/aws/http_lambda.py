"""The FastAPI app on Lambda behind an API Gateway HTTP API (payload format 2.0), via Mangum.

One ``LambdaHttpHandler`` per execution environment: it builds the app once and sets
``app.state.keep_runtime``, so the lifespan that Mangum runs on *every* invocation makes a fresh
stateless MCP session manager each time but keeps the pool and the embedder across warm
invocations.

The event loop: psycopg's async pool is bound to the loop it was opened on. Mangum runs each
invocation with ``asyncio.get_event_loop()``, i.e. the *current* loop, which is one and the same
loop across invocations as long as nothing replaces it; but any ``asyncio.run()`` in the process
(a library, a test) closes its loop and unsets the current one. The handler therefore owns its
loop and makes it current before every invocation.

Idle execution environments: a pooled connection may have been closed by the server or RDS
Proxy (idle client timeout) while the environment was frozen, so after a pause the pool is
checked (``AsyncConnectionPool.check``: broken connections are replaced) before the request runs.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from mangum import Mangum

from memory_mcp.aws.observability import metrics
from memory_mcp.config import Settings, get_settings
from memory_mcp.http import uploads
from memory_mcp.http.app import create_app

#: Check pooled connections before serving when the environment sat idle this long.
IDLE_CHECK_SECONDS = 60.0


class LambdaHttpHandler:
    """``handler(event, context)`` for API Gateway HTTP API events; reuse one per process."""

    #: Imported on first use, not at init; ``aws/warmup.py`` imports them ahead of traffic
    #: (SnapStart, provisioned concurrency). The first request opens the pool (reading the
    #: database secret) and pins the embedder; uploads and documents follow on their own routes.
    DEFERRED = ("memory_mcp.db.pool", "memory_mcp.aws.secrets", "memory_mcp.embeddings.bedrock",
                "memory_mcp.services.uploads")

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or get_settings()
        self.app = create_app(self.settings)
        self.app.state.keep_runtime = True
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        self._mangum = Mangum(self.app, lifespan="auto", api_gateway_base_path="/")
        self._last_invocation = time.monotonic()

    def prime(self) -> None:
        """Build what the app otherwise builds on first use (the upload routes)."""
        uploads.router()

    def __call__(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        asyncio.set_event_loop(self.loop)
        self._check_idle_pool()
        response: dict[str, Any] = self._mangum(event, context)
        self._last_invocation = time.monotonic()
        metrics.add_metric(name="HttpRequests", unit=MetricUnit.Count, value=1)
        if int(response.get("statusCode", 500)) >= 500:
            metrics.add_metric(name="HttpServerErrors", unit=MetricUnit.Count, value=1)
        return response

    def _check_idle_pool(self) -> None:
        runtime = getattr(self.app.state, "runtime", None)
        if runtime is None or time.monotonic() - self._last_invocation < IDLE_CHECK_SECONDS:
            return
        self.loop.run_until_complete(runtime.pool.check())

    def close(self) -> None:
        """Close the pool and the loop (tests; Lambda simply freezes and discards the process)."""
        runtime = getattr(self.app.state, "runtime", None)
        if runtime is not None:
            self.loop.run_until_complete(runtime.pool.close())
            self.app.state.runtime = None
        self.loop.close()
