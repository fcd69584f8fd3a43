"""Extraction worker Lambda: S3 ObjectCreated → SQS → this handler (partial batch failures)."""

from __future__ import annotations

from typing import Any

from memory_mcp.aws.observability import logger, metrics, tracer
from memory_mcp.documents.sqs import process_sqs_event


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Adapt the SQS event; the package does the work and reports failed records."""
    return process_sqs_event(event, context)
