"""SQL for deleting a space (``memory-mcp spaces delete``): what it holds, its stored files,
and the delete itself. Apart from ``identity`` because it reads documents and statistics, and
runs only from the admin path."""

from __future__ import annotations

from uuid import UUID

from memory_mcp.db.identity import Conn, Row


async def space_contents(conn: Conn, space_id: UUID) -> Row:
    """What deleting the space would remove: memory rows (``memories``: with their history;
    ``live_memories``: current), documents (not deleted ones), their stored files (uploads
    that arrived) and key grants."""
    cur = await conn.execute(
        """SELECT coalesce(st.all_memories, 0) AS memories,
                  coalesce(st.live_memories, 0) AS live_memories,
                  (SELECT count(*) FROM documents d WHERE d.space_id = s.id
                     AND d.deleted_at IS NULL) AS documents,
                  (SELECT count(*) FROM documents d WHERE d.space_id = s.id
                     AND d.storage_key IS NOT NULL AND d.deleted_at IS NULL
                     AND d.uploaded_at IS NOT NULL) AS files,
                  (SELECT count(*) FROM grants g WHERE g.space_id = s.id) AS grants
           FROM spaces s LEFT JOIN space_stats st ON st.space_id = s.id WHERE s.id = %s""",
        (space_id,))
    row = await cur.fetchone()
    assert row is not None
    return row


async def space_storage_keys(conn: Conn, space_id: UUID) -> list[tuple[str, bool]]:
    """The stored originals of the space's documents that are not deleted yet (a deleted
    document's file was removed with it), and of uploads still pending (a file may have
    arrived on S3 that no worker has claimed yet): ``(key, arrived)``, arrived when recorded."""
    cur = await conn.execute(
        """SELECT storage_key, uploaded_at IS NOT NULL AS arrived FROM documents
           WHERE space_id = %s AND storage_key IS NOT NULL AND deleted_at IS NULL
           ORDER BY created_at, id""", (space_id,))
    return [(row["storage_key"], bool(row["arrived"])) for row in await cur.fetchall()]


async def delete_space(conn: Conn, space_id: UUID) -> bool:
    """Delete the space row; its memories, documents, statistics and grants go with it (their
    tables reference spaces ON DELETE CASCADE), users' active space is cleared; its document
    statements (no foreign keys, migration 0018) are deleted after it: with the space row gone,
    no extraction job can commit a memory (and so a statement) there any more. The audit trail
    keeps its events (``audit_events.space_id`` has no foreign key)."""
    cur = await conn.execute("DELETE FROM spaces WHERE id = %s", (space_id,))
    await conn.execute("DELETE FROM document_statements WHERE space_id = %s", (space_id,))
    return cur.rowcount == 1
