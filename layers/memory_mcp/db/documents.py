"""SQL for source documents (rows are created by the upload flow).

A document's memories are the memories it states that are still current (``document_statements``,
migration 0018), whichever document first created them: a fact two files share counts for both.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Row = dict[str, Any]
Conn = AsyncConnection[Row]

_COLUMNS = """d.id, d.space_id, d.title, d.filename, d.content_type, d.size_bytes, d.status,
    d.status_reason, d.summary, d.created_at, d.updated_at, d.uploaded_at, d.processed_at,
    d.pages, d.truncated, d.attempts, d.source_chars, d.extracted_chars, d.indexed_chars,
    d.memories_created, d.pages_read, d.cut_by, d.coverage_note, d.upload_expires_at,
    d.storage_key,
    d.created_by AS created_by_user_id, cu.display_name AS created_by,
    d.updated_by AS updated_by_user_id, uu.display_name AS updated_by,
    (SELECT count(*) FROM document_statements s
       JOIN memories m ON m.id = s.memory_id AND m.is_latest AND NOT m.is_forgotten
     WHERE s.document_id = d.id) AS memory_count"""

_JOINS = "JOIN users cu ON cu.id = d.created_by JOIN users uu ON uu.id = d.updated_by"


_LIVE_COUNT = "SELECT count(*) FROM documents WHERE space_id = %(space)s AND deleted_at IS NULL"


async def page(conn: Conn, space_id: UUID, limit: int, offset: int) -> tuple[list[Row], int]:
    """A page and the total, read by one statement (one snapshot): as two, a document deleted
    between them made a page of 7 "of 6"."""
    cur = await conn.execute(
        f"""SELECT {_COLUMNS}, ({_LIVE_COUNT}) AS total_live FROM documents d {_JOINS}
            WHERE d.space_id = %(space)s AND d.deleted_at IS NULL
            ORDER BY d.created_at DESC, d.id DESC LIMIT %(limit)s OFFSET %(offset)s""",
        {"space": space_id, "limit": limit, "offset": offset},
    )
    rows = await cur.fetchall()
    if rows:
        return rows, int(rows[0]["total_live"])
    total = await conn.execute(f"SELECT ({_LIVE_COUNT}) AS n", {"space": space_id})
    row = await total.fetchone()
    return rows, int(row["n"]) if row else 0


async def get(conn: Conn, document_id: UUID, space_ids: list[UUID]) -> Row | None:
    """The document with its content, if it lives in one of the given (readable) spaces."""
    cur = await conn.execute(
        f"""SELECT {_COLUMNS}, d.content FROM documents d {_JOINS}
            WHERE d.id = %s AND d.space_id = ANY(%s) AND d.deleted_at IS NULL""",
        (document_id, space_ids),
    )
    return await cur.fetchone()


async def get_page(conn: Conn, document_id: UUID, space_ids: list[UUID], offset: int,
                   length: int) -> Row | None:
    """The document with ``length`` characters of its content from ``offset`` (0-based) and the
    content's total length (``content_chars``), if it lives in one of the given spaces.

    The slice is cut in SQL so a 500,000-character document is not shipped whole to read one
    page; ``substr`` and ``length`` count characters, as Python does, so offsets agree.
    """
    cur = await conn.execute(
        f"""SELECT {_COLUMNS}, length(d.content) AS content_chars,
                   substr(d.content, %s::int + 1, %s::int) AS content
            FROM documents d {_JOINS}
            WHERE d.id = %s AND d.space_id = ANY(%s) AND d.deleted_at IS NULL""",
        (offset, length, document_id, space_ids),
    )
    return await cur.fetchone()


async def status(conn: Conn, document_id: UUID, space_ids: list[UUID]) -> Row | None:
    """The document without its content (cheap enough to poll), if in a readable space."""
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM documents d {_JOINS}
            WHERE d.id = %s AND d.space_id = ANY(%s) AND d.deleted_at IS NULL""",
        (document_id, space_ids),
    )
    return await cur.fetchone()


async def insert(
    conn: Conn,
    *,
    space_id: UUID,
    document_id: UUID | None = None,
    storage_key: str | None = None,
    user_id: UUID,
    title: str,
    filename: str | None = None,
    content_type: str | None = None,
    size_bytes: int | None = None,
    status: str = "queued",
    summary: str | None = None,
    content: str | None = None,
    upload_expires_at: int | None = None,
    key_id: UUID | None = None,
) -> Row:
    """A document row; ``upload_expires_at`` (Unix seconds): when its upload URL expires;
    ``key_id``: the key that uploaded it, whose access its extraction job checks again."""
    cur = await conn.execute(
        """INSERT INTO documents (id, space_id, title, filename, content_type, size_bytes, status,
                                  summary, content, storage_key, created_by, updated_by,
                                  upload_expires_at, created_by_key)
           VALUES (coalesce(%s, gen_random_uuid()), %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,
                   to_timestamp(%s::bigint), %s)
           RETURNING id""",
        (document_id, space_id, title, filename, content_type, size_bytes, status, summary,
         content, storage_key, user_id, user_id, upload_expires_at, key_id),
    )
    row = await cur.fetchone()
    assert row is not None
    return row
