"""Turn one uploaded document into searchable memories (the same code hosted and local).

Status advances ``queued → extracting → embedding → done``; a problem with the file itself ends in
``failed`` with a reason a person can act on. Anything else (database, embedding provider) is
transient: the lease is released and the job is retried, until ``max_processing_attempts``.
Memories and ``done`` commit together, so redelivery or a crash never duplicates or half-writes.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any, Literal
from uuid import UUID

import anyio.to_thread

from memory_mcp.db import identity
from memory_mcp.db import memories as memories_db
from memory_mcp.db import processing as db
from memory_mcp.documents.extract import Extracted, ExtractionError, Limits, extract_text
from memory_mcp.documents.formats import ALLOWED
from memory_mcp.documents.llm import FactExtractor
from memory_mcp.documents.ocr import Ocr
from memory_mcp.documents.sniff import verify
from memory_mcp.documents.storage import ObjectStorage
from memory_mcp.documents.transcribe import Transcriber
from memory_mcp.errors import MemoryMcpError
from memory_mcp.services import validation
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)

Outcome = Literal["done", "failed", "skipped"]
EMBED_BATCH = 32


class RetryLater(Exception):
    """A transient failure: the job should be delivered again (SQS) or re-queued (local)."""


@dataclass
class Extractors:
    """The pluggable parts, built once per process from settings."""

    storage: ObjectStorage
    facts: FactExtractor
    ocr: Ocr | None = None
    transcriber: Transcriber | None = None


async def process(rt: Runtime, tools: Extractors, document_id: UUID,
                  deadline: float | None = None) -> Outcome:
    """Run one document through the pipeline; raise RetryLater for transient failures.

    ``deadline`` (``time.monotonic()``) caps the job's time budget, e.g. by what is left of a
    Lambda invocation, so a slow job ends ``failed`` with a reason instead of being killed.
    """
    s = rt.settings
    async with rt.transaction() as conn:
        doc = await db.claim(conn, document_id, s.processing_lease_seconds)
        if doc is None:
            current = await db.by_id(conn, document_id)
    if doc is None:
        return await _not_claimed(current)
    attempt = int(doc["attempts"])
    if attempt > s.max_processing_attempts:
        await _fail(rt, document_id, attempt,
                    f"Gave up after {s.max_processing_attempts} attempts.")
        return "failed"
    started = time.monotonic()
    budget = s.job_time_budget_seconds if deadline is None else min(
        s.job_time_budget_seconds, deadline - started)
    try:
        # abandon_on_cancel: a caller that gives up on a stuck parse (the local worker's
        # watchdog) is not held hostage by the thread, which finishes on its own and writes
        # nothing.
        extracted, facts, summary = await anyio.to_thread.run_sync(
            _extract, rt, tools, doc, started, budget, abandon_on_cancel=True)
        async with rt.transaction() as conn:
            if not await db.advance(conn, document_id, attempt, "embedding",
                                    s.processing_lease_seconds):
                return "skipped"  # deleted or taken over meanwhile
        vectors = await _embed(rt, facts, started, budget)
        return await _commit(rt, doc, attempt, extracted, summary, facts, vectors)
    except ExtractionError as exc:
        await _fail(rt, document_id, attempt, str(exc))
        return "failed"
    except Exception as exc:
        reason = str(exc) if isinstance(exc, MemoryMcpError) else "internal error"
        log.exception("document %s: transient failure (attempt %s)", document_id, doc["attempts"])
        if attempt >= s.max_processing_attempts:
            await _fail(rt, document_id, attempt,
                        f"Processing failed {attempt} times; last error: {reason}.")
            return "failed"
        async with rt.transaction() as conn:
            await db.release(conn, document_id, attempt,
                             f"Retrying after a temporary error: {reason}.")
        raise RetryLater(reason) from exc


async def _not_claimed(current: dict[str, Any] | None) -> Outcome:
    if current is None or current["deleted_at"] is not None:
        return "skipped"
    if current["status"] in ("done", "failed"):
        return "skipped"  # redelivery of a finished job: nothing to do
    raise RetryLater("another worker holds the lease")


def _extract(rt: Runtime, tools: Extractors, doc: dict[str, Any], started: float,
             budget: float) -> tuple[Extracted, list[str], str]:
    """CPU and I/O bound work, run in a thread: read, verify, extract, split into facts."""
    s = rt.settings
    fmt = ALLOWED.get(doc["content_type"] or "")
    if fmt is None:
        raise ExtractionError(f"Unsupported content type {doc['content_type']!r}.")
    try:
        data = tools.storage.read(doc["storage_key"], s.max_upload_bytes)
    except MemoryMcpError as exc:
        raise ExtractionError(str(exc)) from None
    if doc["size_bytes"] is not None and len(data) != doc["size_bytes"]:
        raise ExtractionError(
            f"The uploaded file has {len(data):,} bytes but {doc['size_bytes']:,} were declared.")
    verify(fmt, data)
    limits = Limits.from_settings(s, started)
    if started + budget < limits.deadline:
        limits = replace(limits, deadline=started + budget, budget_seconds=budget)
    extracted = extract_text(fmt, data, doc["filename"] or "document", limits, ocr=tools.ocr,
                             transcriber=tools.transcriber,
                             source=tools.storage.location(doc["storage_key"]))
    # Leave a fifth of the budget for embedding; past that the LLM yields to the offline splitter.
    llm_deadline = limits.deadline - budget / 5
    summary, facts = tools.facts.extract(extracted.title, extracted.text,
                                         s.max_memories_per_document, deadline=llm_deadline)
    facts = [f.strip()[: s.max_content_chars] for f in facts if f.strip()]
    if not facts:
        raise ExtractionError("No memories could be extracted: the document has no usable text.")
    if time.monotonic() > limits.deadline:
        raise ExtractionError(f"Extraction took longer than the {budget:.0f} s time budget.")
    return extracted, facts[: s.max_memories_per_document], summary


async def _embed(rt: Runtime, facts: list[str], started: float, budget: float) -> list[str]:
    vectors: list[str] = []
    deadline = started + budget
    for i in range(0, len(facts), EMBED_BATCH):
        if time.monotonic() > deadline:
            raise ExtractionError(f"Embedding took longer than the {budget:.0f} s time budget.")
        vectors += await rt.embed(facts[i:i + EMBED_BATCH])
    return vectors


async def _commit(rt: Runtime, doc: dict[str, Any], attempt: int, extracted: Extracted,
                  summary: str, facts: list[str], vectors: list[str]) -> Outcome:
    """All memories and ``done`` in one transaction; identical live memories are not repeated."""
    async with rt.transaction() as conn:
        if await db.lock_for_finish(conn, doc["id"], attempt) is None:
            return "skipped"
        for fact, vector in zip(facts, vectors, strict=True):
            new_id = uuid.uuid4()
            await memories_db.insert(
                conn, memory_id=new_id, space_id=doc["space_id"], content=fact,
                content_hash=validation.content_hash(fact), category=None, vector=vector,
                user_id=doc["created_by"], root_id=new_id, source_document_id=doc["id"])
        await db.finish(conn, doc["id"], title=extracted.title, summary=summary,
                        content=extracted.text.replace("\f", "\n\n"), pages=extracted.pages,
                        truncated=extracted.truncated)
        await identity.touch_space(conn, doc["space_id"])
    return "done"


async def _fail(rt: Runtime, document_id: UUID, attempt: int, reason: str) -> None:
    async with rt.transaction() as conn:
        await db.fail(conn, document_id, attempt, reason)
