"""``memory-mcp import``: load an export file into a space of this deployment.

1. The whole file is validated first (services/transfer_scan.py): a bad line is reported with
   its number and nothing is written.
2. Authors are mapped by email to this deployment's users; emails with no user here go to the
   importing user (``--user``), and the report lists both. Without ``--user`` an unknown author
   stops the import before it writes anything.
3. The rows are written in batches, each in one transaction (a batch is all or nothing). Ids
   are derived (``transfer_format.derive_id``), so running the same import again inserts
   nothing. Vectors are reused when the file's model is this deployment's; otherwise every text
   is embedded again with the configured model (the slow part; progress is reported).

Scope: each batch runs limited to the one target space (``write=[space]``) rather than
``system=True``: an import must write rows in any state with any author, but only there, and
row-level security then guarantees that a crafted file cannot reach another space.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import anyio
import anyio.to_thread
import psycopg

from memory_mcp.config import STORAGE_DIMENSIONS
from memory_mcp.db import identity
from memory_mcp.db import transfer as db
from memory_mcp.db.memories import vector_literal
from memory_mcp.errors import InvalidInputError, MemoryMcpError, NotFoundError
from memory_mcp.services import audit, validation
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.transfer_files import StorageWriteError, put_file, storage_key_for
from memory_mcp.services.transfer_format import (
    DocumentRecord,
    MemoryRecord,
    as_json,
    derive_id,
)
from memory_mcp.services.transfer_scan import Scan, records, scan
from memory_mcp.services.transfer_space import target_space

log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
BATCH = 200
MAX_BATCH_FILE_BYTES = 64 * 1024 * 1024
UNFINISHED = "Was still being processed when it was exported; upload the file again."


class ImportWriteError(MemoryMcpError):
    """A batch could not be written (it was rolled back); earlier batches stand."""


@dataclass
class _Run:
    rt: Runtime
    found: Scan
    space_id: UUID
    space_key: str
    authors: dict[UUID, UUID]
    reembed: bool
    progress: Progress | None
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("documents", "memories", "files", "skipped_documents", "skipped_memories",
         "skipped_history", "embedded"), 0))
    done: int = 0
    tie: tuple[datetime | None, int] = (None, 0)  # ``in_order``: the last created_at, its rank

    def new_id(self, source: UUID) -> UUID:
        return derive_id(self.space_id, self.found.header.space.id, source)

    def in_order(self, m: MemoryRecord) -> MemoryRecord:
        """``m`` as it will list here. Listings break ties on ``created_at`` by id, and a
        document's memories share one ``created_at`` (one commit) with ids that grow in document
        order; derived ids (another space) are name-based, so they would list the document
        shuffled. The file holds them in order, so each memory that ties with the one before it
        moves one microsecond later than it (``updated_at`` with it when equal): the same each
        run, invisible at any precision a person reads."""
        if self.space_id == self.found.header.space.id:
            return m  # ids kept: the order is the source's
        previous, rank = self.tie
        rank = rank + 1 if m.created_at == previous else 0
        self.tie = (m.created_at, rank)
        if not rank:
            return m
        shift = timedelta(microseconds=rank)
        return m.model_copy(update={"created_at": m.created_at + shift, "updated_at": (
            m.updated_at + shift if m.updated_at == m.created_at else m.updated_at)})

    def tick(self, n: int) -> None:
        self.done += n
        if self.progress:
            self.progress("import", self.done, len(self.found.memories) + len(self.found.documents))


async def import_space(rt: Runtime, path: Path, space_key: str, *, fallback_user: str | None = None,
                       batch: int = BATCH, progress: Progress | None = None) -> dict[str, Any]:
    """Validate, map authors, then write the file's rows into ``space_key`` batch by batch."""
    if not path.is_file():
        raise NotFoundError(f"No such file: {path}.")
    found = await anyio.to_thread.run_sync(scan, path)
    authors, mapped, fallback = await _map_authors(rt, found, fallback_user)
    space_id, created = await target_space(rt, space_key, found.header.space)
    model = found.header.embedding
    run = _Run(rt, found, space_id, space_key.strip(), authors,
               reembed=(model.model_id, model.dimensions) != (rt.embedder.model_id,
                                                             rt.embedder.dimensions),
               progress=progress)
    pending: list[tuple[int, DocumentRecord | MemoryRecord]] = []
    held = 0  # bytes of inline files in ``pending``: a batch of originals stays bounded
    for number, record in records(path):
        if isinstance(record, MemoryRecord):
            record = run.in_order(record)
        if isinstance(record, DocumentRecord | MemoryRecord):
            pending.append((number, record))
            held += len(record.file.data) if isinstance(record, DocumentRecord) and \
                record.file else 0
        if len(pending) >= batch or held >= MAX_BATCH_FILE_BYTES:
            await _write(run, pending)
            pending, held = [], 0
    if pending:
        await _write(run, pending)
    async with rt.transaction(write=[space_id]) as conn:
        # Over the whole file, not this run's rows: a run that failed half way inserted older
        # versions whose current one a later run skipped (exports list every v1 first).
        run.stats["skipped_history"] = await db.drop_headless(
            conn, space_id, [run.new_id(source) for source in found.memories])
        await db.note_activity(conn, space_id, found.header.space.last_activity_at)
        await audit.record(conn, "space.import", None, space_id=space_id, created_space=created,
                           reembedded=run.reembed, counts=dict(run.stats))
    return {"space": run.space_key, "created_space": created, "source_space":
            found.header.space.key, "source_model": model.model_id,
            "model": rt.embedder.model_id, "reembedded": run.reembed, **run.stats,
            "authors_mapped": mapped, "authors_to_importing_user": fallback}


async def _remove_stored(run: _Run, stored: list[tuple[UUID, str]]) -> None:
    """Undo a failed batch's stored originals (``(document id, key)``), shielded from a
    cancellation, so a failed import leaves no file that no document names. Only files whose
    document row is not there: a commit whose answer was lost (the connection dropped as it
    committed) may have stored the rows after all, and their files stay. If that cannot be
    asked, every file stays: an orphan file is better than a document without its file."""
    if run.rt.storage is None or not stored:
        return
    with anyio.CancelScope(shield=True):
        try:
            async with run.rt.transaction(read=[run.space_id]) as conn:
                kept = await db.existing_documents(conn, run.space_id, [d for d, _ in stored])
        except Exception:
            log.warning("import: could not tell whether a failed batch stored its documents; "
                        "its %d file(s) stay", len(stored), exc_info=True)
            return
        for document_id, key in stored:
            if document_id in kept:
                continue
            try:
                await anyio.to_thread.run_sync(run.rt.storage.delete, key)
            except Exception:
                log.warning("import: could not remove %s after its batch failed", key,
                            exc_info=True)


async def _map_authors(rt: Runtime, found: Scan, fallback_user: str | None
                       ) -> tuple[dict[UUID, UUID], list[str], list[str]]:
    """Source user id -> user id here; plus the emails mapped and those given to ``--user``."""
    emails = sorted({u.email.lower() for u in found.users.values()})
    async with rt.transaction() as conn:  # users carry no space rows
        here = await db.users_by_email(conn, emails)
        importer = await identity.find_user(conn, fallback_user.strip()) if fallback_user else None
    if fallback_user and importer is None:
        raise NotFoundError(f"No user with id or email {fallback_user!r} (--user).")
    missing = [e for e in emails if e not in here]
    if missing and importer is None:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise InvalidInputError(f"{len(missing)} author(s) of this export have no user here "
                                f"({shown}). Create them first, or pass --user USER to attribute "
                                "their rows to the importing user. Nothing was imported.")
    fallback_id: UUID | None = importer["id"] if importer else None
    authors: dict[UUID, UUID] = {}
    for uid, user in found.users.items():
        mapped = here.get(user.email.lower()) or fallback_id
        assert mapped is not None  # unmapped authors without --user were refused above
        authors[uid] = mapped
    return authors, [e for e in emails if e in here], missing


async def _write(run: _Run, batch: list[tuple[int, DocumentRecord | MemoryRecord]]) -> None:
    first, last = batch[0][0], batch[-1][0]
    docs = [r for _, r in batch if isinstance(r, DocumentRecord)]
    mems = [r for _, r in batch if isinstance(r, MemoryRecord)]
    doc_rows = [_document_row(run, d) for d in docs]
    async with run.rt.transaction(write=[run.space_id]) as conn:
        existing = await db.existing_memories(conn, run.space_id, [run.new_id(m.id) for m in mems])
    fresh = [m for m in mems if run.new_id(m.id) not in existing]
    vectors = await _vectors(run, fresh)
    mem_rows = [_memory_row(run, m, vectors[m.id]) for m in fresh]
    stored: list[tuple[UUID, str]] = []  # originals this batch wrote: removed if it fails
    try:
        async with run.rt.transaction(write=[run.space_id]) as conn:
            inserted_docs = set(await db.insert_documents(conn, run.space_id, doc_rows))
            for doc, row in zip(docs, doc_rows, strict=True):
                if doc.file is not None and UUID(row["id"]) in inserted_docs:
                    stored.append((UUID(row["id"]), row["storage_key"]))
                    await anyio.to_thread.run_sync(put_file, run.rt.storage, row["storage_key"],
                                                   doc.file.data, doc.content_type)
            inserted = set(await db.insert_memories(conn, run.space_id, mem_rows))
            await db.insert_statements(conn, run.space_id, _statements(run, mems))
            skipped_live = [(m, validation.content_hash(m.content)) for m in mems
                            if m.is_latest and not m.is_forgotten
                            and run.new_id(m.id) not in inserted]
            await db.fill_categories(conn, run.space_id, [
                {"content_hash": digest.hex(), "category": m.category}
                for m, digest in skipped_live if m.category])
            await db.claim_live(conn, run.space_id, [
                digest for m, digest in skipped_live
                if m.source_document_id is None or m.claimed_at is not None])
            await db.insert_recalls(conn, run.space_id, [
                {"memory_id": r["id"], "recall_count": m.recall_count,
                 "last_recalled_at": r["last_recalled_at"]}
                for m, r in zip(fresh, mem_rows, strict=True)
                if UUID(r["id"]) in inserted and (m.recall_count or m.last_recalled_at)])
    except BaseException as exc:
        await _remove_stored(run, stored)
        if not isinstance(exc, psycopg.Error | StorageWriteError):
            raise
        what = (str(exc) if isinstance(exc, StorageWriteError) else
                getattr(exc.diag, "constraint_name", None) or type(exc).__name__)
        raise ImportWriteError(
            f"lines {first}-{last} could not be written ({what}); that batch was rolled back "
            f"and nothing of it is stored. Batches before line {first} are imported; fix the "
            "cause and run the import again (it skips what is already there).") from None
    run.stats["documents"] += len(inserted_docs)
    run.stats["skipped_documents"] += len(docs) - len(inserted_docs)
    run.stats["files"] += sum(1 for d, r in zip(docs, doc_rows, strict=True)
                              if d.file is not None and UUID(r["id"]) in inserted_docs)
    run.stats["memories"] += len(inserted)
    run.stats["skipped_memories"] += len(mems) - len(inserted)
    run.tick(len(batch))


async def _vectors(run: _Run, mems: list[MemoryRecord]) -> dict[UUID, str]:
    """Storage-width literals: the file's own vectors, or new ones when the model differs."""
    out: dict[UUID, str] = {}
    todo = [m for m in mems if run.reembed or m.embedding is None]
    for m in mems:
        if not run.reembed and m.embedding is not None:
            out[m.id] = vector_literal(m.embedding, STORAGE_DIMENSIONS)
    if todo:
        literals = await run.rt.embed([m.content for m in todo])
        out.update(zip([m.id for m in todo], literals, strict=True))
        run.stats["embedded"] += len(todo)
    return out


def _document_row(run: _Run, d: DocumentRecord) -> dict[str, Any]:
    row = d.model_dump(exclude={"type", "file"})
    new_id = run.new_id(d.id)
    row |= {"id": new_id, "created_by": run.authors[d.created_by],
            "updated_by": run.authors[d.updated_by],
            "storage_key": storage_key_for(run.space_key, new_id, d.filename) if d.file else None}
    if d.status not in ("done", "failed"):
        row |= {"status": "failed", "status_reason": UNFINISHED}
    return as_json(row)


def _statements(run: _Run, mems: list[MemoryRecord]) -> list[dict[str, Any]]:
    """The documents that state each memory of the batch: its source and ``stated_in``, for
    the memory inserted or, if the space already had its text live, that memory."""
    rows = []
    for m in mems:
        docs = [m.source_document_id] if m.source_document_id else []
        rows += [{"document_id": str(run.new_id(d)), "memory_id": str(run.new_id(m.id)),
                  "content_hash": validation.content_hash(m.content).hex()}
                 for d in [*docs, *m.stated_in]]
    return rows


def _memory_row(run: _Run, m: MemoryRecord, vector: str) -> dict[str, Any]:
    row = m.model_dump(exclude={"type", "embedding", "recall_count", "stated_in"})
    row |= {"id": run.new_id(m.id), "root_id": run.new_id(m.root_id),
            "parent_id": run.new_id(m.parent_id) if m.parent_id else None,
            "source_document_id": (run.new_id(m.source_document_id) if m.source_document_id
                                   else None),
            "created_by": run.authors[m.created_by], "updated_by": run.authors[m.updated_by],
            "forgotten_by": run.authors[m.forgotten_by] if m.forgotten_by else None,
            "content_hash": validation.content_hash(m.content).hex(), "embedding": vector}
    return as_json(row)
