"""Admin Lambda: runs one `memory-mcp` CLI command from {"args": [...]} and returns JSON."""

from __future__ import annotations

from typing import Any

from memory_mcp.aws.admin_events import handle_admin_event
from memory_mcp.aws.observability import logger, metrics, tracer
from memory_mcp.config import Settings


@logger.inject_lambda_context(clear_state=True)
# capture_response=False: the result may hold a new API key
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle_admin_event(event, Settings(), getattr(context, "aws_request_id", None))
