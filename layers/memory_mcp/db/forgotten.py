"""SQL for finding what was already forgotten or replaced, so a repeated forget (or one naming
an older wording) says so instead of acting on another memory.

Agents retry: a forget whose answer was lost, or one sent again in other words, must not go
looking for the next-closest live memory and remove that one too. These reads run on a
forget's slower paths (no live memory has the text), never on a save or a search, each through
a small partial index of rows no longer live (migration 0022), so they read what they find,
not the space.
"""

from __future__ import annotations

from uuid import UUID

from memory_mcp.db.memories import _COLUMNS, _FIELDS, _JOINS, Conn, Row
from memory_mcp.db.search import VectorForm, cosine
from memory_mcp.db.statements import DOCUMENT_DELETED

#: How many of the space's most recently forgotten memories a reworded repeat is compared with.
RECENT = 200


async def by_hash(conn: Conn, space_id: UUID, content_hash: bytes) -> Row | None:
    """The most recently forgotten memory of the space with exactly this text that nothing has
    replaced (its chain's current version)."""
    cur = await conn.execute(
        f"""WITH hit AS MATERIALIZED (  -- the text's rows first (an index), then the order
                SELECT * FROM memories
                WHERE space_id = %s AND content_hash = %s AND is_latest AND is_forgotten)
            SELECT {_COLUMNS} FROM hit m {_JOINS}
            ORDER BY m.forgotten_at DESC, m.id LIMIT 1""",
        (space_id, content_hash),
    )
    return await cur.fetchone()


async def superseded_by_hash(conn: Conn, space_id: UUID, content_hash: bytes) -> Row | None:
    """The most recent older version (superseded, not forgotten) with exactly this text."""
    cur = await conn.execute(
        f"""WITH hit AS MATERIALIZED (  -- as by_hash: never an ordered walk of the space
                SELECT * FROM memories
                WHERE space_id = %s AND content_hash = %s AND NOT is_latest AND NOT is_forgotten)
            SELECT {_COLUMNS} FROM hit m {_JOINS}
            ORDER BY m.created_at DESC, m.id LIMIT 1""",
        (space_id, content_hash),
    )
    return await cur.fetchone()


async def closest_recent(conn: Conn, space_id: UUID, form: VectorForm, vector: str,
                         limit: int) -> list[Row]:
    """The ``limit`` closest (cosine, ``semantic``) of the space's ``RECENT`` most recently
    forgotten current memories to ``vector`` (a query literal of ``form``'s width): those a
    person forgot (not the ones a document's deletion took, which a re-upload brings back and
    which would fill the window)."""
    cur = await conn.execute(
        f"""WITH recent AS MATERIALIZED (
                SELECT {_FIELDS}, m.embedding FROM memories m
                WHERE m.space_id = %(space)s AND m.is_latest AND m.is_forgotten
                  AND m.forget_reason IS DISTINCT FROM %(deleted)s
                ORDER BY m.forgotten_at DESC, m.id LIMIT %(recent)s)
            SELECT {_COLUMNS}, {cosine(form.distance)} AS semantic
            FROM recent m {_JOINS}
            ORDER BY semantic DESC, m.id LIMIT %(limit)s""",
        {"space": space_id, "vec": vector, "recent": RECENT, "limit": limit,
         "deleted": DOCUMENT_DELETED},
    )
    return await cur.fetchall()
