"""SQL for the extraction pipeline: the processing lease, status changes and the final commit.

A job *claims* a document by taking a time-limited lease in one UPDATE; only the holder of a live
lease advances it. The claim's ``attempts`` value is the lease token: every later write checks it,
so a worker whose lease expired (and was taken over) cannot change the new holder's document.
Memories and the ``done`` status are written in one transaction at the end, so
a crash at any point leaves either nothing or everything, and a retry starts cleanly.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from psycopg import AsyncConnection

if TYPE_CHECKING:
    from memory_mcp.documents.coverage import Coverage

Row = dict[str, Any]
Conn = AsyncConnection[Row]

#: Rows per INSERT statement: ~500 rows of a 3,072-wide vector literal is a few MB per statement.
INSERT_BATCH = 500

_FIELDS = """id, space_id, title, filename, content_type, size_bytes, status, status_reason,
    storage_key, created_by, created_by_key, attempts, lease_until, deleted_at, uploaded_at"""


async def by_storage_key(conn: Conn, key: str) -> Row | None:
    cur = await conn.execute(f"SELECT {_FIELDS} FROM documents WHERE storage_key = %s", (key,))
    return await cur.fetchone()


async def by_id(conn: Conn, document_id: UUID) -> Row | None:
    cur = await conn.execute(f"SELECT {_FIELDS} FROM documents WHERE id = %s", (document_id,))
    return await cur.fetchone()


async def claim_upload(conn: Conn, document_id: UUID) -> bool:
    """Mark the bytes as arriving; False if another PUT got there first (or it was deleted)."""
    cur = await conn.execute(
        """UPDATE documents SET uploaded_at = now(), updated_at = now()
           WHERE id = %s AND uploaded_at IS NULL AND deleted_at IS NULL""",
        (document_id,),
    )
    return cur.rowcount == 1


async def unclaim_upload(conn: Conn, document_id: UUID) -> None:
    """Storing the bytes failed: let the client retry the same URL."""
    await conn.execute(
        "UPDATE documents SET uploaded_at = NULL WHERE id = %s AND status = 'queued'",
        (document_id,),
    )


async def claim(conn: Conn, document_id: UUID, lease_seconds: int) -> Row | None:
    """Take the lease if the document is queued or its previous holder's lease expired."""
    cur = await conn.execute(
        f"""UPDATE documents
            SET status = 'extracting', attempts = attempts + 1, status_reason = NULL,
                lease_until = now() + make_interval(secs => %s), updated_at = now(),
                uploaded_at = coalesce(uploaded_at, now())
            WHERE id = %s AND deleted_at IS NULL
              AND (status = 'queued'
                   OR (status IN ('extracting', 'embedding') AND lease_until < now()))
            RETURNING {_FIELDS}""",
        (lease_seconds, document_id),
    )
    return await cur.fetchone()


async def uploader_may_write(conn: Conn, document: Row) -> bool:
    """Whether the key that uploaded ``document`` may still write its space (key live, user
    active and a Writer, grant ReadWrite: ``memory_mcp_still_writable``, migration 0016).
    A document with no key recorded (uploaded before migration 0021) is not checked."""
    if document["created_by_key"] is None:
        return True
    cur = await conn.execute(
        "SELECT memory_mcp_still_writable(%s, ARRAY[%s]::uuid[]) <> '' AS ok",
        (document["created_by_key"], document["space_id"]))
    row = await cur.fetchone()
    return bool(row and row["ok"])


async def advance(conn: Conn, document_id: UUID, attempt: int, status: str,
                  lease_seconds: int) -> bool:
    """Move to the next in-progress status, renewing the lease; False if we lost it."""
    cur = await conn.execute(
        """UPDATE documents SET status = %s, lease_until = now() + make_interval(secs => %s),
                  updated_at = now()
           WHERE id = %s AND attempts = %s AND status IN ('extracting', 'embedding')
             AND deleted_at IS NULL""",
        (status, lease_seconds, document_id, attempt),
    )
    return cur.rowcount == 1


async def lock_for_finish(conn: Conn, document_id: UUID, attempt: int) -> Row | None:
    cur = await conn.execute(
        f"""SELECT {_FIELDS} FROM documents
            WHERE id = %s AND attempts = %s AND status = 'embedding' AND deleted_at IS NULL
            FOR UPDATE""",
        (document_id, attempt),
    )
    return await cur.fetchone()


async def insert_memories(conn: Conn, *, space_id: UUID, document_id: UUID, user_id: UUID,
                          memories: Sequence[tuple[str, bytes, str]]) -> int:
    """A document's memories, ``(content, content_hash, vector literal)`` in document order, as
    multi-row INSERTs of ``INSERT_BATCH`` rows; returns how many were new.

    One statement per batch instead of one round trip per memory (see bench/document_ingest.py).
    Word-for-word repeats of a live memory are skipped, as a single save would skip them (the
    caller records which facts the document states: ``statements.record``). Ids
    grow in document order (``ordered_ids``), so the document's memories list in its order.
    """
    inserted = 0
    ids = ordered_ids(len(memories))
    for start in range(0, len(memories), INSERT_BATCH):
        batch = memories[start:start + INSERT_BATCH]
        cur = await conn.execute(
            """INSERT INTO memories (id, space_id, content, content_hash, root_id,
                                     source_document_id, created_by, updated_by, embedding)
               SELECT t.id, %(space)s, t.content, t.hash, t.id, %(doc)s, %(user)s, %(user)s,
                      t.vec::halfvec
               FROM unnest(%(ids)s::uuid[], %(contents)s::text[], %(hashes)s::bytea[],
                           %(vecs)s::text[]) WITH ORDINALITY AS t(id, content, hash, vec, n)
               ORDER BY t.n
               ON CONFLICT (space_id, content_hash) WHERE is_latest AND NOT is_forgotten
               DO NOTHING""",
            {"space": space_id, "doc": document_id, "user": user_id,
             "ids": ids[start:start + INSERT_BATCH], "contents": [m[0] for m in batch],
             "hashes": [m[1] for m in batch], "vecs": [m[2] for m in batch]},
        )
        inserted += cur.rowcount
    return inserted


def ordered_ids(n: int) -> list[UUID]:
    """``n`` UUIDv7-style ids that sort (as PostgreSQL compares uuids) in the order given.

    The memories of one commit share ``created_at``, and listings order by it, then id: random
    ids would list a document's memories shuffled. Layout: 48-bit Unix milliseconds, version 7,
    a 24-bit sequence number (12 bits in rand_a, 12 at the top of rand_b), 50 random bits.
    """
    if n > 1 << 24:
        raise ValueError("too many ids for one sequence")
    millis = time.time_ns() // 1_000_000
    return [UUID(int=(millis << 80) | (0x7 << 76) | ((i >> 12) << 64) | (0b10 << 62)
                 | ((i & 0xFFF) << 50) | secrets.randbits(50)) for i in range(n)]


async def finish(
    conn: Conn, document_id: UUID, *, title: str, summary: str, content: str, pages: int | None,
    truncated: bool, coverage: Coverage,
) -> None:
    """``done``, with the text and how much of it the memories cover (``coverage``)."""
    await conn.execute(
        """UPDATE documents SET status = 'done', status_reason = NULL, title = %s, summary = %s,
                  content = %s, pages = %s, truncated = %s, source_chars = %s,
                  extracted_chars = %s, indexed_chars = %s, memories_created = %s,
                  pages_read = %s, cut_by = %s, coverage_note = %s, lease_until = NULL,
                  processed_at = now(), updated_at = now()
           WHERE id = %s""",
        (title, summary, content, pages, truncated, coverage.source_chars,
         coverage.extracted_chars, coverage.indexed_chars, coverage.memories_created,
         coverage.pages_read, coverage.cut_by, coverage.note, document_id),
    )


async def fail(conn: Conn, document_id: UUID, attempt: int, reason: str) -> None:
    await conn.execute(
        """UPDATE documents SET status = 'failed', status_reason = %s, lease_until = NULL,
                  processed_at = now(), updated_at = now()
           WHERE id = %s AND attempts = %s AND status <> 'done'""",
        (reason, document_id, attempt),
    )


async def release(conn: Conn, document_id: UUID, attempt: int, reason: str) -> None:
    """A transient failure: keep the status, expire the lease so a retry may claim it at once."""
    await conn.execute(
        """UPDATE documents SET status_reason = %s, lease_until = now(), updated_at = now()
           WHERE id = %s AND attempts = %s AND status IN ('extracting', 'embedding')""",
        (reason, document_id, attempt),
    )


async def fail_in_progress(conn: Conn, document_id: UUID, reason: str) -> None:
    """The local worker's watchdog: it is the only worker, so no lease token is needed."""
    await conn.execute(
        """UPDATE documents SET status = 'failed', status_reason = %s, lease_until = NULL,
                  processed_at = now(), updated_at = now()
           WHERE id = %s AND status IN ('queued', 'extracting', 'embedding')""",
        (reason, document_id),
    )


async def fail_unarrived(conn: Conn, document_id: UUID, reason: str) -> bool:
    """A queued upload whose file never arrived (its URL expired, storage has no file): failed,
    for good. False if it moved on meanwhile (the file arrived and a worker claimed it)."""
    cur = await conn.execute(
        """UPDATE documents SET status = 'failed', status_reason = %s, processed_at = now(),
                  updated_at = now()
           WHERE id = %s AND status = 'queued' AND uploaded_at IS NULL AND deleted_at IS NULL""",
        (reason, document_id),
    )
    return cur.rowcount == 1


async def soft_delete(conn: Conn, document_id: UUID, user_id: UUID) -> Row | None:
    cur = await conn.execute(
        f"""UPDATE documents SET deleted_at = now(), updated_by = %s, updated_at = now(),
                   lease_until = NULL
            WHERE id = %s AND deleted_at IS NULL RETURNING {_FIELDS}""",
        (user_id, document_id),
    )
    return await cur.fetchone()


async def expire_leases(conn: Conn) -> None:
    """Locally the server is the only worker, so leases held by a previous (dead) process are
    expired at start. A second server on the same database is still safe: the final commit
    re-checks the status under a row lock and memory inserts ignore duplicates."""
    await conn.execute(
        """UPDATE documents SET lease_until = now()
           WHERE deleted_at IS NULL AND status IN ('extracting', 'embedding')
             AND lease_until > now()"""
    )


async def unfinished(conn: Conn, limit: int = 100,
                     after: tuple[datetime, UUID] | None = None) -> list[Row]:
    """Uploaded documents no worker holds: queued, or left mid-way with an expired lease (local
    recovery), oldest first; ``after`` (a row's ``created_at``, ``id``) pages on."""
    cur = await conn.execute(
        """SELECT id, created_at, storage_key FROM documents
           WHERE deleted_at IS NULL AND uploaded_at IS NOT NULL
             AND (status = 'queued'
                  OR (status IN ('extracting', 'embedding') AND lease_until <= now()))
             AND (%(after)s::timestamptz IS NULL
                  OR (created_at, id) > (%(after)s::timestamptz, %(after_id)s::uuid))
           ORDER BY created_at, id LIMIT %(limit)s""",
        {"after": after[0] if after else None, "after_id": after[1] if after else None,
         "limit": limit},
    )
    return await cur.fetchall()
