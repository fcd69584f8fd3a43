"""Turn one uploaded document into searchable memories (the same code hosted and local).

Status advances ``queued → extracting → embedding → done``; a problem with the file itself ends in
``failed`` with a reason a person can act on. Anything else (database, embedding provider) is
transient: the lease is released and the job is retried, until ``max_processing_attempts``.
Memories and ``done`` commit together, so redelivery or a crash never duplicates or half-writes.

Nothing within the bounds is silently dropped: every statement becomes a memory, grouped into
passages when there are more than ``max_memories_per_document`` (``coverage.fit``); if the time
budget runs out while embedding, what was embedded is committed and the document records which
bound cut it and how much is indexed (``coverage.describe``), as it does for the character limit.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Any, Literal
from uuid import UUID

import anyio.to_thread

from memory_mcp.db import identity, statements
from memory_mcp.db import processing as db
from memory_mcp.documents.coverage import MAX_PASSAGE_CHARS, Fitted, describe, fit
from memory_mcp.documents.extract import Extracted, ExtractionError, Limits, extract_text
from memory_mcp.documents.formats import ALLOWED
from memory_mcp.documents.llm import FactExtractor
from memory_mcp.documents.ocr import Ocr
from memory_mcp.documents.sniff import verify
from memory_mcp.documents.storage import ObjectStorage
from memory_mcp.documents.transcribe import AnyTranscriber
from memory_mcp.errors import MemoryMcpError
from memory_mcp.services import validation
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)

Outcome = Literal["done", "failed", "skipped"]
EMBED_BATCH = 32
#: Share of the time budget kept for the commit: embedding stops (and commits what it has) there.
COMMIT_SHARE = 0.1
#: Why a document whose uploader lost write access before its memories were committed has none.
UPLOADER_LOST = ("Not indexed: the key that uploaded this document may no longer write to this "
                 "space (the key was revoked, its user deactivated or made a Reader, or its "
                 "grant lowered or removed). Someone who can write here may upload it again.")


class RetryLater(Exception):
    """A transient failure: the job should be delivered again (SQS) or re-queued (local)."""


class LeaseHeld(RetryLater):
    """Someone holds the document's lease (another worker, or this one's, left behind when
    the database went away before it could release it): retry once it may have expired."""


@dataclass
class Extractors:
    """The pluggable parts, built once per process from settings."""

    storage: ObjectStorage
    facts: FactExtractor
    ocr: Ocr | None = None
    transcriber: AnyTranscriber | None = None


async def process(rt: Runtime, tools: Extractors, document_id: UUID,
                  deadline: float | None = None) -> Outcome:
    """Run one document through the pipeline; raise RetryLater for transient failures.

    ``deadline`` (``time.monotonic()``) caps the job's time budget, e.g. by what is left of a
    Lambda invocation, so a slow job ends ``failed`` with a reason instead of being killed.
    """
    s = rt.settings
    async with rt.transaction(system=True) as conn:
        doc = await db.claim(conn, document_id, s.processing_lease_seconds)
        if doc is None:
            current = await db.by_id(conn, document_id)
        allowed = doc is None or await db.uploader_may_write(conn, doc)
    if doc is None:
        return await _not_claimed(current)
    attempt = int(doc["attempts"])
    if not allowed:  # checked again at the commit; here it saves the work
        await _fail(rt, document_id, attempt, UPLOADER_LOST)
        return "failed"
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
        extracted, fitted, summary = await anyio.to_thread.run_sync(
            _extract, rt, tools, doc, started, budget, abandon_on_cancel=True)
        async with rt.transaction(system=True) as conn:
            if not await db.advance(conn, document_id, attempt, "embedding",
                                    s.processing_lease_seconds):
                return "skipped"  # deleted or taken over meanwhile
        vectors = await _embed(rt, fitted.memories, started + budget * (1 - COMMIT_SHARE), budget)
        return await _commit(rt, doc, attempt, extracted, summary, fitted, vectors, budget)
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
        async with rt.transaction(system=True) as conn:
            await db.release(conn, document_id, attempt,
                             f"Retrying after a temporary error: {reason}.")
        raise RetryLater(reason) from exc


async def _not_claimed(current: dict[str, Any] | None) -> Outcome:
    if current is None or current["deleted_at"] is not None:
        return "skipped"
    if current["status"] in ("done", "failed"):
        return "skipped"  # redelivery of a finished job: nothing to do
    raise LeaseHeld("another worker holds the lease")


def _extract(rt: Runtime, tools: Extractors, doc: dict[str, Any], started: float,
             budget: float) -> tuple[Extracted, Fitted, str]:
    """CPU and I/O bound work, run in a thread: read, verify, extract, split into facts and fit
    them to the per-document memory bound.

    The extractor is asked for every statement (one per character is an upper bound it never
    reaches) so that grouping, and a cut if even grouping cannot fit, happen here, where they
    are recorded.
    """
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
                                         max(s.max_memories_per_document, s.max_extracted_chars),
                                         deadline=llm_deadline)
    fitted = fit(facts, s.max_memories_per_document, min(MAX_PASSAGE_CHARS, s.max_content_chars))
    if not fitted.memories:
        raise ExtractionError("No memories could be extracted: the document has no usable text.")
    if time.monotonic() > limits.deadline:
        raise ExtractionError(f"Extraction took longer than the {budget:.0f} s time budget.")
    return extracted, fitted, summary


async def _embed(rt: Runtime, texts: list[str], stop_at: float, budget: float) -> list[str]:
    """Vectors for ``texts`` in batches, for as many as ``stop_at`` leaves time for (in order)."""
    vectors: list[str] = []
    for i in range(0, len(texts), EMBED_BATCH):
        if time.monotonic() > stop_at:
            break
        vectors += await rt.embed(texts[i:i + EMBED_BATCH])
    if not vectors:
        raise ExtractionError(f"Embedding took longer than the {budget:.0f} s time budget.")
    return vectors


async def _commit(rt: Runtime, doc: dict[str, Any], attempt: int, extracted: Extracted,
                  summary: str, fitted: Fitted, vectors: list[str], budget: float) -> Outcome:
    """The embedded memories, ``done`` and the coverage in one transaction (all or nothing),
    only if the uploader's key may still write the space (a save checks the same); memories
    identical to a live one in the space are not repeated, nor texts a person has since
    corrected or forgotten (``statements.held_back``); the document is recorded as stating all
    of them."""
    s = rt.settings
    rows = [(text, validation.content_hash(text), vector)
            for text, vector in zip(fitted.memories, vectors, strict=False)]
    # As stored and paged by getDocument (a page break is a blank line): the coverage counts
    # the same characters as ``totalChars``.
    content = extracted.text.replace("\f", "\n\n")
    async with rt.transaction(system=True) as conn:
        await statements.lock_space_documents(conn, doc["space_id"])  # before the row
        if await db.lock_for_finish(conn, doc["id"], attempt) is None:
            return "skipped"
        if not await db.uploader_may_write(conn, doc):  # rolls back; process() fails the job
            raise ExtractionError(UPLOADER_LOST)
        hashes = [row[1] for row in rows]
        held = await statements.held_back(conn, doc["space_id"], hashes)
        created = await db.insert_memories(conn, space_id=doc["space_id"], document_id=doc["id"],
                                           user_id=doc["created_by"],
                                           memories=[r for r in rows if r[1] not in held])
        await statements.record(conn, document_id=doc["id"], space_id=doc["space_id"],
                                hashes=hashes, older=[h.memory_id for h in held.values()])
        kinds = [h.kind for h in held.values()]
        coverage = describe(
            source_chars=(len(content) if not extracted.truncated else None
                          if extracted.total_chars is None else
                          extracted.total_chars + len(content) - len(extracted.text)),
            extracted_chars=len(content), truncated=extracted.truncated, fitted=fitted,
            embedded=len(rows), created=created, corrected=kinds.count("corrected"),
            forgotten=kinds.count("forgotten"), pages=extracted.pages,
            pages_read=extracted.pages_read,
            limits={"max_extracted_chars": s.max_extracted_chars, "job_time_budget": budget,
                    "max_memories_per_document": s.max_memories_per_document})
        await db.finish(conn, doc["id"], title=extracted.title, summary=summary,
                        content=content, pages=extracted.pages,
                        truncated=extracted.truncated, coverage=coverage)
        await identity.touch_space(conn, doc["space_id"])
    log.info("document %s: %s", doc["id"], coverage.note)
    return "done"


async def _fail(rt: Runtime, document_id: UUID, attempt: int, reason: str) -> None:
    async with rt.transaction(system=True) as conn:
        await db.fail(conn, document_id, attempt, reason)
