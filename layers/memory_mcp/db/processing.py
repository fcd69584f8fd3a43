"""SQL for the extraction pipeline: the processing lease, status changes and the final commit.

A job *claims* a document by taking a time-limited lease in one UPDATE; only the holder of a live
lease advances it. The claim's ``attempts`` value is the lease token: every later write checks it,
so a worker whose lease expired (and was taken over) cannot change the new holder's document.
Memories and the ``done`` status are written in one transaction at the end, so
a crash at any point leaves either nothing or everything, and a retry starts cleanly.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Row = dict[str, Any]
Conn = AsyncConnection[Row]

_FIELDS = """id, space_id, title, filename, content_type, size_bytes, status, status_reason,
    storage_key, created_by, attempts, lease_until, deleted_at, uploaded_at"""


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


async def finish(
    conn: Conn, document_id: UUID, *, title: str, summary: str, content: str, pages: int | None,
    truncated: bool,
) -> None:
    await conn.execute(
        """UPDATE documents SET status = 'done', status_reason = NULL, title = %s, summary = %s,
                  content = %s, pages = %s, truncated = %s, lease_until = NULL,
                  processed_at = now(), updated_at = now()
           WHERE id = %s""",
        (title, summary, content, pages, truncated, document_id),
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


async def soft_delete(conn: Conn, document_id: UUID, user_id: UUID) -> Row | None:
    cur = await conn.execute(
        f"""UPDATE documents SET deleted_at = now(), updated_by = %s, updated_at = now(),
                   lease_until = NULL
            WHERE id = %s AND deleted_at IS NULL RETURNING {_FIELDS}""",
        (user_id, document_id),
    )
    return await cur.fetchone()


async def forget_document_memories(conn: Conn, document_id: UUID, user_id: UUID) -> int:
    cur = await conn.execute(
        """UPDATE memories SET is_forgotten = true, forgotten_at = now(), forgotten_by = %(user)s,
                  forget_reason = 'source document deleted', updated_by = %(user)s,
                  updated_at = now()
           WHERE source_document_id = %(doc)s AND NOT is_forgotten""",
        {"doc": document_id, "user": user_id},
    )
    return cur.rowcount


async def unfinished(conn: Conn, limit: int = 100, expire_leases: bool = False) -> list[UUID]:
    """Uploaded documents a previous process left queued or mid-way (local recovery at start).

    Locally the server is the only worker, so leases held by a previous (dead) process are
    expired at start. A second server on the same database is still safe: the final commit
    re-checks the status under a row lock and memory inserts ignore duplicates.
    """
    if expire_leases:
        await conn.execute(
            """UPDATE documents SET lease_until = now()
               WHERE deleted_at IS NULL AND status IN ('extracting', 'embedding')
                 AND lease_until > now()"""
        )
    cur = await conn.execute(
        """SELECT id FROM documents
           WHERE deleted_at IS NULL AND uploaded_at IS NOT NULL
             AND status IN ('queued', 'extracting', 'embedding')
           ORDER BY created_at LIMIT %s""",
        (limit,),
    )
    return [row["id"] for row in await cur.fetchall()]
