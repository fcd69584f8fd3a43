"""SQL for the memory graph: one space's newest documents and memories, bounded, plus totals.

Both lists are capped (the caller passes the bounds) and ordered newest first, so a space of
100k memories costs one index range scan per list, not a read of the space. Memory text is cut
to ``text_chars`` in SQL so a bounded graph is also bounded in bytes.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Row = dict[str, Any]
Conn = AsyncConnection[Row]


async def documents(conn: Conn, space_id: UUID, limit: int) -> list[Row]:
    cur = await conn.execute(
        """SELECT d.id, d.title, d.filename, d.content_type, d.status, d.status_reason,
                  d.created_at, d.updated_at, u.display_name AS created_by
             FROM documents d JOIN users u ON u.id = d.created_by
            WHERE d.space_id = %s AND d.deleted_at IS NULL
            ORDER BY d.created_at DESC, d.id LIMIT %s""",
        (space_id, limit),
    )
    return await cur.fetchall()


async def memories(conn: Conn, space_id: UUID, limit: int, text_chars: int,
                   include_inactive: bool) -> list[Row]:
    cur = await conn.execute(
        """SELECT m.id, left(m.content, %s) AS text, length(m.content) AS text_length,
                  m.category, m.version, m.parent_id, m.is_latest, m.is_forgotten,
                  m.source_document_id, m.created_at, m.updated_at,
                  u.display_name AS created_by
             FROM memories m JOIN users u ON u.id = m.created_by
            WHERE m.space_id = %s AND (%s OR (m.is_latest AND NOT m.is_forgotten))
            ORDER BY m.created_at DESC, m.id LIMIT %s""",
        (text_chars, space_id, include_inactive, limit),
    )
    return await cur.fetchall()


async def totals(conn: Conn, space_id: UUID) -> Row:
    """Counts for the whole space (not only what the bounded lists show)."""
    cur = await conn.execute(
        """SELECT (SELECT count(*) FROM documents
                    WHERE space_id = %(s)s AND deleted_at IS NULL) AS documents,
                  count(*) AS memories,
                  count(*) FILTER (WHERE is_latest AND NOT is_forgotten) AS current,
                  count(*) FILTER (WHERE NOT is_latest AND NOT is_forgotten) AS superseded,
                  count(*) FILTER (WHERE is_forgotten) AS forgotten
             FROM memories WHERE space_id = %(s)s""",
        {"s": space_id},
    )
    row = await cur.fetchone()
    assert row is not None
    return row
