"""Migration custom resource Lambda (CDK Provider onEvent): applies migrations/*.sql."""

from __future__ import annotations

from typing import Any

from memory_mcp.aws.migrations_resource import handle_migration_event
from memory_mcp.aws.observability import logger, metrics, tracer
from memory_mcp.config import Settings


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle_migration_event(event, Settings())
