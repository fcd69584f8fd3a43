"""SQL of a save: the space's save lock, the version candidates, the conditional write and the
post-write check (the protocol is described in ``services.memories.save``).

Kept apart from ``db/memories.py`` because these statements only make sense together: each
one's contract names the others (the write counter read by ``version_candidates`` is what
``finish_save`` compares; ``save_row``'s supersede is conditional on what the candidates saw).
Nearest-neighbour queries run with ``hnsw.iterative_scan = relaxed_order``
(``ann.search_settings``, set in the save's first statement), so a space filter cannot starve
the HNSW index of candidates; ``relaxed_order`` may return neighbours slightly out of order,
so candidates are a MATERIALIZED CTE re-sorted outside by ``distance + 0``: the expression
stops PostgreSQL 17+ from treating the index output as presorted (an incremental sort that
only fixes groups of 32), as pgvector's documentation prescribes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple
from uuid import UUID

from memory_mcp.db import ann
from memory_mcp.db.memories import _COLUMNS, _JOINS, _LIVE, Conn, Row

if TYPE_CHECKING:
    from memory_mcp.db.search import VectorForm


async def lock_exclusively(conn: Conn, space_id: UUID) -> None:
    """The space's save lock, EXCLUSIVE for the rest of the transaction.

    Saves take that lock SHARED, in their transaction's first statement (``Runtime.transaction
    (lock=...)``, ``scope.SAVE_LOCK_SHARED``, with the HNSW settings ``ann.search_settings``):
    they decide their version outside any exclusive section and check that decision after
    their write (``finish_save``), so they run side by side. A save that lost such a check
    retries EXCLUSIVE: it waits until every shared holder has committed, new saves of the
    space queue behind it (PostgreSQL grants in arrival order), and it decides under the
    lock, so it cannot lose again to another save. Its own statement, before the candidates:
    their snapshot must be taken after the wait. Lock order, the same for every writer: this
    lock, then memory rows, then ``space_stats`` (the 0008 triggers), then ``spaces``."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s::text, 0))",
                       (space_id,))


class Seen(NamedTuple):
    """What a save's decision saw: the space's write counter (``space_stats.all_memories``:
    every memory ever inserted there, maintained by the 0008 triggers) and the snapshot
    (``pg_current_snapshot()`` as text) it was read in. ``finish_save`` compares the first
    with the counter after the write and, when it moved by more than the save's own row,
    reads the rows the second did not see."""

    writes: int
    snapshot: str


async def version_candidates(conn: Conn, space_id: UUID, form: VectorForm, vector: str,
                             limit: int) -> tuple[list[Row], Seen]:
    """The closest current memories a save may become the next version of (cosine
    ``similarity``), and what the decision saw (``Seen``), read in the same statement and so
    in the same snapshot.

    Two looks, merged: the bucket's HNSW graph, and, only while the space holds at most
    ``ann.EXACT_SPACE`` current memories (a one-time filter on ``space_stats``: the plan
    skips it for a larger space), every current row of the space by its btree index
    (``distance + 0`` keeps that look off the HNSW index)."""
    columns = f"""m.id, m.content, m.content_hash, m.category, m.version, m.root_id,
                  {form.distance} AS distance"""
    cur = await conn.execute(
        f"""WITH stats AS MATERIALIZED (
                SELECT coalesce(s.all_memories, 0) AS writes, coalesce(s.live_memories, 0) AS live
                FROM (SELECT) one LEFT JOIN space_stats s ON s.space_id = %(space)s),
            graph AS MATERIALIZED (
                SELECT {columns} FROM memories m
                WHERE {_LIVE} AND {form.predicate} ORDER BY {form.distance} LIMIT %(limit)s),
            exact AS MATERIALIZED (
                SELECT {columns} FROM memories m
                WHERE {_LIVE} AND (SELECT live FROM stats) <= %(small)s
                ORDER BY 7 + 0 LIMIT %(limit)s),
            nearest AS MATERIALIZED (
                SELECT DISTINCT ON (u.id) u.* FROM (SELECT * FROM graph UNION ALL
                                                    SELECT * FROM exact) u
                ORDER BY u.id)
            SELECT w.writes, pg_current_snapshot()::text AS snapshot, n.id, n.content,
                   n.content_hash, n.category, n.version, n.root_id, 1 - n.distance AS similarity
            FROM stats w
            LEFT JOIN LATERAL (SELECT * FROM nearest ORDER BY distance + 0, id
                               LIMIT %(limit)s) n ON true
            ORDER BY n.distance + 0, n.id""",
        {"space": space_id, "vec": vector, "limit": limit, "small": ann.EXACT_SPACE},
    )
    rows = await cur.fetchall()
    seen = Seen(int(rows[0]["writes"]), str(rows[0]["snapshot"]))
    return [r for r in rows if r["id"] is not None], seen


_RETURNED = """id, space_id, content, category, version, parent_id, root_id, is_latest,
    is_forgotten, forgotten_at, forget_reason, source_document_id, claimed_at, created_by,
    updated_by,
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


async def claim(conn: Conn, space_id: UUID, memory_id: UUID, category: str | None,
                user_id: UUID) -> Row | None:
    """A person's save of a current memory's very text: re-tag it in place when ``category`` is
    given (its text, and so its version, unchanged) and make it the person's own as well
    (``claimed_at``): deleting its source document no longer forgets it, and it still names
    that document; None if it is no longer current."""
    cur = await conn.execute(
        f"""WITH upd AS (
                UPDATE memories SET category = coalesce(%(category)s, category),
                       claimed_at = coalesce(claimed_at, now()), updated_by = %(user)s,
                       updated_at = now()
                WHERE id = %(id)s AND space_id = %(space)s AND is_latest AND NOT is_forgotten
                RETURNING {_RETURNED})
            SELECT {_COLUMNS} FROM upd m {_JOINS}""",
        {"id": memory_id, "space": space_id, "category": category, "user": user_id})
    return await cur.fetchone()


def unseen_rows_sql(form: VectorForm) -> str:
    """The current memories of ``%(space)s`` other than ``%(me)s`` whose writing transaction
    the snapshot ``%(snapshot)s`` did not see, with their cosine ``distance`` to ``%(vec)s``.

    A range on ``memories_space_write_xid_idx`` (migration 0015) from the snapshot's xmin up
    to this statement's own xmax (every row it can see was written below it; a row restored
    from another cluster whose ids ran higher is never taken for a new one), then the
    snapshot's own test for the few transactions in flight when it was taken. The
    distance, in the select list, is computed only for the rows left; ``OFFSET 0`` keeps a
    caller's condition on it from being pushed into the scan's filter."""
    return f"""SELECT m.id, {form.distance} AS distance FROM memories m
               WHERE {_LIVE} AND {form.predicate} AND m.id <> %(me)s
                 AND m.write_xid >= pg_snapshot_xmin(%(snapshot)s::pg_snapshot)
                 AND m.write_xid < pg_snapshot_xmax(pg_current_snapshot())
                 AND NOT pg_visible_in_snapshot(m.write_xid, %(snapshot)s::pg_snapshot)
               OFFSET 0"""


async def finish_save(conn: Conn, space_id: UUID, memory_id: UUID, *, form: VectorForm,
                      vector: str, seen: Seen, threshold: float) -> list[UUID] | None:
    """After a save's row is written (its statement holds the space's ``space_stats`` row
    until commit, so nothing else can arrive in the space now): record the space's activity
    and return the current memories at least ``threshold`` close to ``vector`` that the
    save's decision did not see, closest first, so it must be decided again; [] or None: the
    decision stands.

    The check runs only when the write counter moved by more than this save's own row since
    the decision (``seen``) or cannot be read. It reads just the rows whose
    writing transaction the decision's snapshot did not see (``unseen_rows_sql``), a handful
    under concurrent saves, and compares each one exactly: no second walk of the HNSW graph
    (which, under concurrent saves, every save used to pay). Rows written before migration
    0015 carry no transaction id; they are older than any decision being checked."""
    cur = await conn.execute(
        f"""WITH touch AS (UPDATE spaces SET last_activity_at = now() WHERE id = %(space)s)
            SELECT CASE WHEN coalesce(s.writes, -1) <> %(seen)s::bigint + 1
                THEN (SELECT coalesce(array_agg(u.id ORDER BY u.distance, u.id), '{{}}')
                      FROM ({unseen_rows_sql(form)}) u
                      WHERE 1 - u.distance >= %(threshold)s)
                END AS unseen
            FROM (SELECT (SELECT all_memories FROM space_stats
                          WHERE space_id = %(space)s) AS writes) s""",
        {"space": space_id, "seen": seen.writes, "snapshot": seen.snapshot, "me": memory_id,
         "vec": vector, "threshold": threshold},
    )
    row = await cur.fetchone()
    return None if row is None or row["unseen"] is None else list(row["unseen"])
