"""SQL for finding what was already forgotten or replaced, so a repeated forget (or one naming
an older wording) says so instead of acting on another memory.

Agents retry: a forget whose answer was lost, or one sent again in other words, must not go
looking for the next-closest live memory and remove that one too. Both reads run only on a
forget's slow paths (no live memory has the text, or none clearly matched), never on a save or
a search; they filter the space's rows without an index of their own (one would cost every
write and a table rewrite to build, for a rare path).
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
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS}
            WHERE m.space_id = %s AND m.content_hash = %s AND m.is_latest AND m.is_forgotten
            ORDER BY m.forgotten_at DESC, m.id LIMIT 1""",
        (space_id, content_hash),
    )
    return await cur.fetchone()


async def superseded_by_hash(conn: Conn, space_id: UUID, content_hash: bytes) -> Row | None:
    """The most recent older version (superseded, not forgotten) with exactly this text."""
    cur = await conn.execute(
        f"""SELECT {_COLUMNS} FROM memories m {_JOINS}
            WHERE m.space_id = %s AND m.content_hash = %s AND NOT m.is_latest
              AND NOT m.is_forgotten
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
