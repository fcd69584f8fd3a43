"""SQL for exporting and importing one space (services/transfer_*.py, docs/export-format.md).

Export reads every row of a space that holds its knowledge: documents (all columns but the
processing lease), memories in every state with their recall statistics, and the users they
name. Import writes batches with ``INSERT ... SELECT FROM jsonb_to_recordset(...) ON CONFLICT
DO NOTHING``: one statement per table and batch, rows keyed by ids the service derives, so a
second run inserts nothing. The 0008 triggers keep ``space_stats`` / ``space_terms`` right for
inserted rows; the vector and full-text indexes follow the rows as for any insert.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

Row = dict[str, Any]
Conn = AsyncConnection[Row]

DOCUMENT_COLUMNS = """id, title, filename, content_type, size_bytes, status, status_reason,
    summary, content, storage_key, pages, truncated, source_chars, extracted_chars,
    indexed_chars, memories_created, pages_read, cut_by, coverage_note, created_by, updated_by,
    created_at, updated_at, uploaded_at, processed_at, deleted_at"""


async def count_all_memories(conn: Conn) -> int:
    """Every memory of every space the transaction may read (re-embedding's progress total)."""
    cur = await conn.execute("SELECT count(*) AS n FROM memories")
    row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def space_counts(conn: Conn, space_id: UUID) -> Row:
    cur = await conn.execute(
        """SELECT (SELECT count(*) FROM memories WHERE space_id = %(s)s) AS memories,
                  (SELECT count(*) FROM documents WHERE space_id = %(s)s) AS documents""",
        {"s": space_id})
    row = await cur.fetchone()
    assert row is not None
    return row


async def documents(conn: Conn, space_id: UUID) -> list[Row]:
    """The space's documents, oldest first (deleted ones too: their memories still name them)."""
    cur = await conn.execute(
        f"""SELECT {DOCUMENT_COLUMNS} FROM documents WHERE space_id = %s
            ORDER BY created_at, id""", (space_id,))
    return await cur.fetchall()


async def document(conn: Conn, space_id: UUID, document_id: UUID) -> Row | None:
    cur = await conn.execute(
        f"SELECT {DOCUMENT_COLUMNS} FROM documents WHERE space_id = %s AND id = %s",
        (space_id, document_id))
    return await cur.fetchone()


async def memories(conn: Conn, space_id: UUID, dimensions: int, batch: int = 500
                   ) -> AsyncIterator[Row]:
    """Every memory of the space, parents before their next versions (version order), with its
    vector cut to the model's native width as halfvec text (a JSON array) and the other
    documents that state it (``stated_in``), streamed through a
    server-side cursor so a large space never sits in memory at once."""
    async with conn.cursor(name="memory_mcp_export") as cur:
        await cur.execute(
            """SELECT m.id, m.root_id, m.parent_id, m.version, m.content, m.category,
                      m.is_latest, m.is_forgotten, m.forgotten_at, m.forgotten_by,
                      m.forget_reason, m.source_document_id, m.created_by, m.updated_by,
                      m.created_at, m.updated_at, r.recall_count, r.last_recalled_at,
                      m.claimed_at,
                      ARRAY(SELECT s.document_id FROM document_statements s
                            WHERE s.memory_id = m.id
                              AND s.document_id IS DISTINCT FROM m.source_document_id
                            ORDER BY s.document_id) AS stated_in,
                      subvector(m.embedding, 1, %(dims)s)::text AS embedding
                 FROM memories m LEFT JOIN memory_recalls r ON r.memory_id = m.id
                WHERE m.space_id = %(space)s
                ORDER BY m.version, m.created_at, m.id""",
            {"space": space_id, "dims": dimensions})
        while rows := await cur.fetchmany(batch):
            for row in rows:
                yield row


async def users(conn: Conn, user_ids: Sequence[UUID]) -> list[Row]:
    cur = await conn.execute(
        "SELECT id, email, display_name FROM users WHERE id = ANY(%s) ORDER BY email",
        (list(user_ids),))
    return await cur.fetchall()


async def users_by_email(conn: Conn, emails: Sequence[str]) -> dict[str, UUID]:
    """lower(email) -> user id, for the given emails that exist here."""
    cur = await conn.execute(
        "SELECT lower(email) AS email, id FROM users WHERE lower(email) = ANY(%s)",
        ([e.lower() for e in emails],))
    return {row["email"]: row["id"] for row in await cur.fetchall()}


async def insert_documents(conn: Conn, space_id: UUID, rows: list[Row]) -> list[UUID]:
    """Insert documents not already present; return the ids actually inserted."""
    if not rows:
        return []
    cur = await conn.execute(
        f"""INSERT INTO documents (space_id, {DOCUMENT_COLUMNS})
            SELECT %(space)s, r.id, r.title, r.filename, r.content_type, r.size_bytes, r.status,
                   r.status_reason, r.summary, r.content, r.storage_key, r.pages, r.truncated,
                   r.source_chars, r.extracted_chars, r.indexed_chars, r.memories_created,
                   r.pages_read, r.cut_by, r.coverage_note, r.created_by, r.updated_by,
                   r.created_at, r.updated_at, r.uploaded_at, r.processed_at, r.deleted_at
              FROM jsonb_to_recordset(%(rows)s) AS r(
                   id uuid, title text, filename text, content_type text, size_bytes bigint,
                   status text, status_reason text, summary text, content text, storage_key text,
                   pages integer, truncated boolean, source_chars bigint, extracted_chars integer,
                   indexed_chars integer, memories_created integer, pages_read integer,
                   cut_by text, coverage_note text, created_by uuid, updated_by uuid,
                   created_at timestamptz, updated_at timestamptz, uploaded_at timestamptz,
                   processed_at timestamptz, deleted_at timestamptz)
            ON CONFLICT DO NOTHING RETURNING id""",
        {"space": space_id, "rows": Jsonb(rows)})
    return [row["id"] for row in await cur.fetchall()]


async def insert_memories(conn: Conn, space_id: UUID, rows: list[Row]) -> list[UUID]:
    """Insert memories not already present (by id, or an identical live memory of the space:
    the live-content unique index); return the ids actually inserted. ``content_hash`` travels
    as hex, ``embedding`` as a storage-width halfvec literal."""
    if not rows:
        return []
    cur = await conn.execute(
        """INSERT INTO memories (id, space_id, content, content_hash, category, version,
                                 parent_id, root_id, is_latest, is_forgotten, forgotten_at,
                                 forgotten_by, forget_reason, source_document_id, claimed_at,
                                 created_by, updated_by, created_at, updated_at, embedding)
           SELECT r.id, %(space)s, r.content, decode(r.content_hash, 'hex'), r.category,
                  r.version, r.parent_id, r.root_id, r.is_latest, r.is_forgotten, r.forgotten_at,
                  r.forgotten_by, r.forget_reason, r.source_document_id, r.claimed_at,
                  r.created_by, r.updated_by, r.created_at, r.updated_at, r.embedding::halfvec
             FROM jsonb_to_recordset(%(rows)s) AS r(
                  id uuid, content text, content_hash text, category text, version integer,
                  parent_id uuid, root_id uuid, is_latest boolean, is_forgotten boolean,
                  forgotten_at timestamptz, forgotten_by uuid, forget_reason text,
                  source_document_id uuid, claimed_at timestamptz, created_by uuid,
                  updated_by uuid,
                  created_at timestamptz, updated_at timestamptz, embedding text)
           ON CONFLICT DO NOTHING RETURNING id""",
        {"space": space_id, "rows": Jsonb(rows)})
    return [row["id"] for row in await cur.fetchall()]


async def insert_statements(conn: Conn, space_id: UUID, rows: list[Row]) -> None:
    """Which documents state which imported memories (``document_id``, ``memory_id``,
    ``content_hash`` hex): the memory itself, or, when the import skipped it because the space
    already had its text live, that live memory (the document states it all the same)."""
    if not rows:
        return
    await conn.execute(
        """INSERT INTO document_statements (document_id, memory_id, root_id, space_id)
           SELECT r.document_id, m.id, m.root_id, m.space_id
             FROM jsonb_to_recordset(%(rows)s)
                  AS r(document_id uuid, memory_id uuid, content_hash text)
             JOIN LATERAL (
                  (SELECT id, root_id, space_id FROM memories
                   WHERE id = r.memory_id AND space_id = %(space)s)
                  UNION ALL
                  (SELECT id, root_id, space_id FROM memories
                   WHERE space_id = %(space)s AND content_hash = decode(r.content_hash, 'hex')
                     AND is_latest AND NOT is_forgotten)
                  LIMIT 1) m ON true
           ON CONFLICT DO NOTHING""",
        {"space": space_id, "rows": Jsonb(rows)})


async def claim_live(conn: Conn, space_id: UUID, hashes: list[bytes]) -> None:
    """A person's memory (or a claimed one) the import skipped because the space already had
    its text live from a document: that memory is now held by a person too (``claimed_at``),
    so deleting its document keeps it, as it kept the person's in the exported space."""
    if not hashes:
        return
    await conn.execute(
        """UPDATE memories SET claimed_at = coalesce(claimed_at, now())
           WHERE space_id = %s AND content_hash = ANY(%s::bytea[]) AND is_latest
             AND NOT is_forgotten AND source_document_id IS NOT NULL AND claimed_at IS NULL""",
        (space_id, hashes))


async def drop_headless(conn: Conn, space_id: UUID, ids: list[UUID]) -> int:
    """Of ``ids`` (the memories of an import's file, as ids here), the older versions whose
    fact has no current version here: its current version was skipped because the space
    already had that text live, as another memory. Kept, they would be history of nothing
    (listed, matched by a forget, never current). Returns how many were removed, with their
    statements."""
    if not ids:
        return 0
    cur = await conn.execute(
        """WITH gone AS (
               DELETE FROM memories m
               WHERE m.space_id = %(space)s AND m.id = ANY(%(ids)s::uuid[]) AND NOT m.is_latest
                 AND NOT EXISTS (SELECT 1 FROM memories l WHERE l.root_id = m.root_id
                                   AND l.is_latest)
               RETURNING m.id),
           stated AS (DELETE FROM document_statements s
                      WHERE s.space_id = %(space)s AND s.memory_id IN (SELECT id FROM gone))
           SELECT count(*) AS n FROM gone""",
        {"space": space_id, "ids": ids})
    row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def fill_categories(conn: Conn, space_id: UUID, rows: list[Row]) -> int:
    """Memories the import skipped because the space already had their text live: where that
    live memory has no category and the imported one had (``content_hash`` hex, ``category``),
    it takes it, as a save of the same text with a category would. A category already set here
    is kept. Returns how many were set."""
    if not rows:
        return 0
    cur = await conn.execute(
        """UPDATE memories m SET category = r.category
             FROM jsonb_to_recordset(%(rows)s) AS r(content_hash text, category text)
            WHERE m.space_id = %(space)s AND m.content_hash = decode(r.content_hash, 'hex')
              AND m.is_latest AND NOT m.is_forgotten AND m.category IS NULL""",
        {"space": space_id, "rows": Jsonb(rows)})
    return cur.rowcount


async def insert_recalls(conn: Conn, space_id: UUID, rows: list[Row]) -> None:
    """Recall statistics of inserted memories (they rank the profile's stable list)."""
    if not rows:
        return
    await conn.execute(
        """INSERT INTO memory_recalls (memory_id, space_id, recall_count, last_recalled_at)
           SELECT r.memory_id, %(space)s, r.recall_count, r.last_recalled_at
             FROM jsonb_to_recordset(%(rows)s)
                  AS r(memory_id uuid, recall_count integer, last_recalled_at timestamptz)
           ON CONFLICT (memory_id) DO NOTHING""",
        {"space": space_id, "rows": Jsonb(rows)})


async def existing_memories(conn: Conn, space_id: UUID, ids: Sequence[UUID]) -> set[UUID]:
    """Which of these memory ids the space already holds (a re-run skips their embedding)."""
    cur = await conn.execute("SELECT id FROM memories WHERE space_id = %s AND id = ANY(%s)",
                             (space_id, list(ids)))
    return {row["id"] for row in await cur.fetchall()}


async def existing_documents(conn: Conn, space_id: UUID, ids: Sequence[UUID]) -> set[UUID]:
    """Which of these document ids the space holds."""
    cur = await conn.execute("SELECT id FROM documents WHERE space_id = %s AND id = ANY(%s)",
                             (space_id, list(ids)))
    return {row["id"] for row in await cur.fetchall()}


async def note_activity(conn: Conn, space_id: UUID, last_activity_at: Any) -> None:
    """Carry the exported space's last activity over, never moving it backwards."""
    await conn.execute(
        """UPDATE spaces SET last_activity_at = greatest(last_activity_at, %s::timestamptz)
           WHERE id = %s""", (last_activity_at, space_id))


async def create_space(conn: Conn, space_id: UUID, key: str, name: str, description: str,
                       created_at: Any) -> UUID | None:
    """A space with the exported id and creation time; None when the id or key is taken."""
    cur = await conn.execute(
        """INSERT INTO spaces (id, key, name, description, created_at)
           VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING id""",
        (space_id, key, name, description, created_at))
    row = await cur.fetchone()
    return row["id"] if row else None
