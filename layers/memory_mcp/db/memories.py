"""SQL for memories: save, version, forget, search, list and the profile views.

Every query takes the space id as its first filter. Vectors travel as halfvec text literals.
Nearest-neighbour queries run in a transaction with ``hnsw.iterative_scan = relaxed_order`` so a
space filter cannot starve the HNSW index of candidates. ``relaxed_order`` may return neighbours
slightly out of order, so the candidates are a MATERIALIZED CTE re-sorted outside by
``distance + 0``: the expression stops PostgreSQL 17+ from treating the index output as presorted
(an incremental sort that only fixes groups of 32), as pgvector's documentation prescribes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

from psycopg import AsyncConnection

# The per-transaction HNSW settings live in db/ann.py; re-exported here, where callers look.
from memory_mcp.db.ann import _ANN, _ef
from memory_mcp.db.ann import EF_PER_MEMORIES as EF_PER_MEMORIES
from memory_mcp.db.ann import enable_filtered_ann as enable_filtered_ann
from memory_mcp.db.ann import enable_search_ann as enable_search_ann

if TYPE_CHECKING:
    from memory_mcp.db.search import VectorForm

Row = dict[str, Any]
Conn = AsyncConnection[Row]

_COLUMNS = """m.id, m.space_id, m.content, m.category, m.version, m.parent_id, m.root_id,
    m.is_latest, m.is_forgotten, m.forgotten_at, m.forget_reason, m.source_document_id,
    m.created_by AS created_by_user_id, cu.display_name AS created_by,
    m.updated_by AS updated_by_user_id, uu.display_name AS updated_by,
    m.forgotten_by AS forgotten_by_user_id, fu.display_name AS forgotten_by,
    m.created_at, m.updated_at"""

_JOINS = """JOIN users cu ON cu.id = m.created_by
    JOIN users uu ON uu.id = m.updated_by
    LEFT JOIN users fu ON fu.id = m.forgotten_by"""

_LIVE = "m.space_id = %(space)s AND m.is_latest AND NOT m.is_forgotten"


def vector_literal(vector: Sequence[float], width: int | None = None) -> str:
    """halfvec text form, e.g. ``[0.1,0.2]``, zero-padded to ``width``.

    Padding is appended as text, so a 384-dim model formats 384 numbers, not 3072.
    """
    body = ",".join(map(str, vector))
    missing = 0 if width is None else width - len(vector)
    if missing < 0:
        raise ValueError(f"vector of {len(vector)} dims exceeds width {width}")
    return "[" + body + ",0" * missing + "]"


async def get(conn: Conn, space_id: UUID, memory_id: UUID) -> Row | None:
    cur = await conn.execute(
        f"SELECT {_COLUMNS} FROM memories m {_JOINS} WHERE m.space_id = %s AND m.id = %s",
        (space_id, memory_id),
    )
    return await cur.fetchone()


async def latest_of_chain(conn: Conn, space_id: UUID, root_id: UUID) -> Row | None:
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS}
            WHERE m.space_id = %s AND m.root_id = %s AND m.is_latest""",
        (space_id, root_id),
    )
    return await cur.fetchone()


async def begin_save(conn: Conn, space_id: UUID, ef_search: int, *, exclusive: bool) -> None:
    """A save's HNSW settings, and the space's save lock for the rest of the transaction.

    Saves take it SHARED: they decide their version outside any exclusive section and check
    that decision after their write (``finish_save``), so they run side by side. A save that
    lost such a check retries EXCLUSIVE: it waits until every shared holder has committed,
    new saves of the space queue behind it (PostgreSQL grants in arrival order), and it
    decides under the lock, so it cannot lose again to another save. Lock order, the same for
    every writer: this lock, then memory rows, then ``space_stats`` (the 0008 triggers), then
    ``spaces``."""
    take = "pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared"
    await conn.execute(f"SELECT {_ANN}, {take}(hashtextextended(%(space)s::text, 0))",
                       {"ef": _ef(ef_search), "space": space_id})


async def version_candidates(conn: Conn, space_id: UUID, form: VectorForm, vector: str,
                             limit: int) -> tuple[list[Row], int]:
    """The closest current memories a save may become the next version of (cosine
    ``similarity``), and the space's write counter (``space_stats.all_memories``: every memory
    ever inserted there, maintained by the 0008 triggers) read in the same snapshot: if it
    moved by more than the save's own row when the save has written, something arrived that
    this decision did not see (``finish_save``)."""
    cur = await conn.execute(
        f"""WITH nearest AS MATERIALIZED (
                SELECT m.id, {form.distance} AS distance FROM memories m
                WHERE {_LIVE} AND {form.predicate} ORDER BY {form.distance} LIMIT %(limit)s)
            SELECT w.writes, c.id, c.content, c.content_hash, c.category, c.version, c.root_id,
                   c.similarity
            FROM (SELECT coalesce((SELECT s.all_memories FROM space_stats s
                                   WHERE s.space_id = %(space)s), 0) AS writes) w
            LEFT JOIN LATERAL (
                SELECT m.id, m.content, m.content_hash, m.category, m.version, m.root_id,
                       1 - n.distance AS similarity, n.distance
                FROM nearest n JOIN memories m ON m.id = n.id
                WHERE m.is_latest AND NOT m.is_forgotten) c ON true
            ORDER BY c.distance + 0, c.id""",
        {"space": space_id, "vec": vector, "limit": limit},
    )
    rows = await cur.fetchall()
    return [r for r in rows if r["id"] is not None], int(rows[0]["writes"])


_RETURNED = """id, space_id, content, category, version, parent_id, root_id, is_latest,
    is_forgotten, forgotten_at, forget_reason, source_document_id, created_by, updated_by,
    forgotten_by, created_at, updated_at"""


async def save_row(
    conn: Conn, *, memory_id: UUID, space_id: UUID, content: str, content_hash: bytes,
    category: str | None, vector: str, user_id: UUID, supersedes: Row | None = None,
) -> Row | None:
    """Insert a save's row in one statement and return it as ``get`` would; with
    ``supersedes`` (a ``version_candidates`` row) as that memory's next version, superseding it
    in the same statement. None, with nothing changed once the transaction rolls back: the
    predecessor is no longer current (a concurrent save or forget got there first), or an
    identical live memory won a concurrent race (the unique index; a supersede already made in
    this statement must then be rolled back, so the caller must raise)."""
    params = {"id": memory_id, "space": space_id, "content": content, "hash": content_hash,
              "category": category, "user": user_id, "vec": vector}
    values = """%(id)s, %(space)s, %(content)s, %(hash)s, %(category)s, %(version)s,
                %(parent)s, %(root)s, %(user)s, %(user)s, %(vec)s::halfvec"""
    insert = """INSERT INTO memories (id, space_id, content, content_hash, category, version,
                                      parent_id, root_id, created_by, updated_by, embedding)"""
    conflict = "ON CONFLICT (space_id, content_hash) WHERE is_latest AND NOT is_forgotten DO NOTHING"
    if supersedes is None:
        params |= {"version": 1, "parent": None, "root": memory_id}
        query = f"""WITH ins AS ({insert} VALUES ({values}) {conflict} RETURNING {_RETURNED})
                    SELECT {_COLUMNS} FROM ins m {_JOINS}"""
    else:
        params |= {"version": int(supersedes["version"]) + 1, "parent": supersedes["id"],
                   "root": supersedes["root_id"]}
        query = f"""WITH sup AS (
                        UPDATE memories SET is_latest = false, updated_by = %(user)s,
                               updated_at = now()
                        WHERE id = %(parent)s AND space_id = %(space)s AND is_latest
                          AND NOT is_forgotten
                        RETURNING id),
                    ins AS ({insert} SELECT {values} WHERE EXISTS (SELECT FROM sup)
                            {conflict} RETURNING {_RETURNED})
                    SELECT {_COLUMNS} FROM ins m {_JOINS}"""
    cur = await conn.execute(query, params)
    return await cur.fetchone()


async def finish_save(conn: Conn, space_id: UUID, memory_id: UUID, *, form: VectorForm,
                      vector: str, writes_seen: int | None, known: list[UUID], threshold: float,
                      limit: int) -> list[UUID] | None:
    """After a save's row is written (its statement holds the space's ``space_stats`` row
    until commit, so nothing else can arrive in the space now): record the space's activity
    and return the current memories at least ``threshold`` close to ``vector`` that the
    save's decision did not see (not in ``known``), so it must be decided again; [] or None:
    the decision stands.

    The check is a nearest-neighbour query, run only when the write counter moved by more than
    this save's own row since the decision (``writes_seen``; None: never check) or cannot be
    read. Otherwise nothing was inserted meanwhile, no check is made, and None is returned."""
    cur = await conn.execute(
        f"""WITH touch AS (UPDATE spaces SET last_activity_at = now() WHERE id = %(space)s)
            SELECT CASE WHEN %(seen)s::bigint IS NOT NULL
                         AND coalesce(s.writes, -1) <> %(seen)s::bigint + 1
                THEN (SELECT coalesce(array_agg(r.id), '{{}}') FROM (
                          SELECT m.id, {form.distance} AS distance FROM memories m
                          WHERE {_LIVE} AND {form.predicate} AND m.id <> %(me)s
                          ORDER BY {form.distance} LIMIT %(limit)s) r
                      WHERE 1 - r.distance >= %(threshold)s
                        AND NOT (r.id = ANY(%(known)s::uuid[])))
                END AS unseen
            FROM (SELECT (SELECT all_memories FROM space_stats
                          WHERE space_id = %(space)s) AS writes) s""",
        {"space": space_id, "seen": writes_seen, "me": memory_id, "vec": vector,
         "threshold": threshold, "known": known, "limit": limit},
    )
    row = await cur.fetchone()
    return None if row is None or row["unseen"] is None else list(row["unseen"])


async def find_live_by_hash(conn: Conn, space_id: UUID, content_hash: bytes) -> Row | None:
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS}
            WHERE {_LIVE} AND m.content_hash = %(hash)s""",
        {"space": space_id, "hash": content_hash},
    )
    return await cur.fetchone()


async def insert(
    conn: Conn,
    *,
    memory_id: UUID,
    space_id: UUID,
    content: str,
    content_hash: bytes,
    category: str | None,
    vector: str,
    user_id: UUID,
    root_id: UUID,
    parent_id: UUID | None = None,
    version: int = 1,
    source_document_id: UUID | None = None,
) -> bool:
    """Insert one memory; False when an identical live memory won a concurrent race."""
    cur = await conn.execute(
        """INSERT INTO memories (id, space_id, content, content_hash, category, version, parent_id,
                                 root_id, source_document_id, created_by, updated_by, embedding)
           VALUES (%(id)s, %(space)s, %(content)s, %(hash)s, %(category)s, %(version)s, %(parent)s,
                   %(root)s, %(doc)s, %(user)s, %(user)s, %(vec)s::halfvec)
           ON CONFLICT (space_id, content_hash) WHERE is_latest AND NOT is_forgotten DO NOTHING""",
        {
            "id": memory_id,
            "space": space_id,
            "content": content,
            "hash": content_hash,
            "category": category,
            "version": version,
            "parent": parent_id,
            "root": root_id,
            "doc": source_document_id,
            "user": user_id,
            "vec": vector,
        },
    )
    return cur.rowcount == 1


async def forget(conn: Conn, space_id: UUID, memory_id: UUID, user_id: UUID, reason: str) -> bool:
    """Forget the current version of a memory in this space; False if it changed meanwhile."""
    cur = await conn.execute(
        """UPDATE memories SET is_forgotten = true, forgotten_at = now(), forgotten_by = %(user)s,
                  forget_reason = %(reason)s, updated_by = %(user)s, updated_at = now()
           WHERE id = %(id)s AND space_id = %(space)s AND is_latest AND NOT is_forgotten""",
        {"id": memory_id, "space": space_id, "user": user_id, "reason": reason},
    )
    return cur.rowcount == 1


async def record_recalls(conn: Conn, space_id: UUID, memory_ids: list[UUID]) -> None:
    """Count search hits; the most-recalled memories feed the stable profile.

    Rows are upserted in id order, so concurrent searches lock them in the same order (in result
    order, two searches could deadlock). Statistics: count them in a transaction opened with
    ``durable=False`` (losing the last few on a crash is fine, waiting for the WAL flush is not).
    """
    if not memory_ids:
        return
    await conn.execute(
        """INSERT INTO memory_recalls (memory_id, space_id, recall_count)
           SELECT id, %s, 1 FROM unnest(%s::uuid[]) AS id ORDER BY id
           ON CONFLICT (memory_id) DO UPDATE
           SET recall_count = memory_recalls.recall_count + 1, last_recalled_at = now()""",
        (space_id, memory_ids),
    )


async def page(conn: Conn, space_id: UUID, limit: int, offset: int) -> tuple[list[Row], int]:
    """All memories of a space (any status), newest first, and the total."""
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS} WHERE m.space_id = %s
            ORDER BY m.created_at DESC, m.id DESC LIMIT %s OFFSET %s""",
        (space_id, limit, offset),
    )
    rows = await cur.fetchall()
    total = await conn.execute(  # maintained by triggers (migration 0008), not counted
        "SELECT coalesce((SELECT all_memories FROM space_stats WHERE space_id = %s), 0) AS n",
        (space_id,))
    row = await total.fetchone()
    return rows, int(row["n"]) if row else 0


async def for_document(conn: Conn, space_id: UUID, document_id: UUID, limit: int) -> list[Row]:
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS}
            WHERE m.space_id = %s AND m.source_document_id = %s
            ORDER BY m.created_at, m.id LIMIT %s""",
        (space_id, document_id, limit),
    )
    return await cur.fetchall()


async def profile_stable(
    conn: Conn, space_id: UUID, categories: list[str], limit: int
) -> list[Row]:
    """Durable facts: profile-like categories first, then the most-recalled memories.

    Two bounded, index-backed candidate lists (the live (space, category) index and the recall
    ranking index) instead of one scan over every memory of the space.
    """
    cur = await conn.execute(
        f"""WITH candidates AS (
                (SELECT m.id, 0 AS tier FROM memories m
                 WHERE {_LIVE} AND m.category = ANY(%(cats)s)
                 ORDER BY m.updated_at DESC, m.id LIMIT %(limit)s)
                UNION ALL
                (SELECT r.memory_id, 1 FROM memory_recalls r JOIN memories m ON m.id = r.memory_id
                 WHERE r.space_id = %(space)s AND {_LIVE}
                   AND NOT (coalesce(m.category, '') = ANY(%(cats)s))
                 ORDER BY r.recall_count DESC, r.last_recalled_at DESC LIMIT %(limit)s))
            SELECT {_COLUMNS}, coalesce(r.recall_count, 0) AS recall_count
            FROM candidates c JOIN memories m ON m.id = c.id {_JOINS}
            LEFT JOIN memory_recalls r ON r.memory_id = m.id
            ORDER BY c.tier, coalesce(r.recall_count, 0) DESC, m.updated_at DESC, m.id
            LIMIT %(limit)s""",
        {"space": space_id, "cats": categories, "limit": limit},
    )
    return await cur.fetchall()


async def profile_recent(
    conn: Conn, space_id: UUID, days: int, exclude: list[UUID], limit: int
) -> list[Row]:
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS}
            WHERE {_LIVE} AND m.created_at >= now() - make_interval(days => %(days)s)
              AND NOT (m.id = ANY(%(exclude)s))
            ORDER BY m.created_at DESC, m.id LIMIT %(limit)s""",
        {"space": space_id, "days": days, "exclude": exclude, "limit": limit},
    )
    return await cur.fetchall()
