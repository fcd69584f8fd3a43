"""MCP API Lambda: API Gateway HTTP API (payload 2.0) → the Memory-MCP app via Mangum."""

from __future__ import annotations

from typing import Any

from memory_mcp.aws import warmup
from memory_mcp.aws.http_lambda import LambdaHttpHandler
from memory_mcp.aws.observability import logger, metrics, tracer

#: Built once per execution environment: warm invocations reuse the app, its pool and embedder.
app = LambdaHttpHandler()
# SnapStart / provisioned concurrency: also what the first requests would import lazily.
warmup.prime(LambdaHttpHandler.DEFERRED, also=[app.prime])


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return app(event, context)
