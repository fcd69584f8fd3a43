"""The hosted worker: S3 ``ObjectCreated`` notifications arrive through SQS in batches.

Each record is handled on one event loop kept for the life of the Lambda process (the connection
pool is bound to it). A record whose job must be retried is reported as a partial batch failure,
so SQS redelivers only that message, and after ``maxReceiveCount`` moves it to the DLQ.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any
from urllib.parse import unquote_plus

import anyio.to_thread
from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from memory_mcp.config import get_settings
from memory_mcp.db import processing as db
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.documents.setup import build_extractors, build_storage
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)

#: Seconds kept back from the invocation's remaining time to mark a slow job failed cleanly.
DEADLINE_MARGIN_SECONDS = 15.0

_loop: asyncio.AbstractEventLoop | None = None
_state: tuple[Runtime, Extractors] | None = None


def _event_loop() -> asyncio.AbstractEventLoop:
    global _loop
    if _loop is None or _loop.is_closed():
        _loop = asyncio.new_event_loop()
    return _loop


async def _resources() -> tuple[Runtime, Extractors]:
    global _state
    if _state is None:
        from memory_mcp.services.startup import create_runtime

        settings = get_settings()
        rt = await create_runtime(settings)
        _state = (rt, build_extractors(settings, rt.storage or build_storage(settings)))
    return _state


def use_resources(rt: Runtime, tools: Extractors) -> None:
    """Inject resources (tests, or a caller that already built them)."""
    global _state
    _state = (rt, tools)


async def handle_key(key: str, deadline: float | None = None) -> str:
    rt, tools = await _resources()
    async with rt.transaction(system=True) as conn:
        doc = await db.by_storage_key(conn, key)
    if doc is None or doc["deleted_at"] is not None:
        # An upload URL still valid after deleteDocument (or a row removed by an operator) would
        # leave an object nothing will ever process: remove it.
        log.warning("no live document for uploaded object %s; removing it", key)
        await anyio.to_thread.run_sync(tools.storage.delete, key)
        return "skipped"
    return await process(rt, tools, doc["id"], deadline)


def object_keys(body: str) -> list[str]:
    """The S3 keys of the ObjectCreated records in one message (none for ``s3:TestEvent``)."""
    message = json.loads(body)
    if message.get("Event") == "s3:TestEvent":
        return []
    return [
        unquote_plus(record["s3"]["object"]["key"])
        for record in message.get("Records", [])
        if str(record.get("eventName", "")).startswith("ObjectCreated")
    ]


def _deadline(context: Any) -> float | None:
    """What is left of this invocation, less a margin to record the outcome before the kill."""
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    if remaining is None:
        return None
    return time.monotonic() + float(remaining()) / 1000 - DEADLINE_MARGIN_SECONDS


def _record_handler(record: SQSRecord, lambda_context: Any = None) -> list[str]:
    loop = _event_loop()
    return [loop.run_until_complete(handle_key(key, _deadline(lambda_context)))
            for key in object_keys(record.body)]


def process_sqs_event(event: dict[str, Any], context: Any) -> dict[str, Any]:
    # Report every failed record, even when all of them failed, rather than failing the whole
    # invocation: SQS then redelivers exactly those messages either way.
    processor = BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)
    result = process_partial_response(
        event=event, record_handler=_record_handler, processor=processor, context=context)
    return dict(result)
