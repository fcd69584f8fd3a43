"""SQL for which documents state which facts (``document_statements``, migrations 0018-0019).

A fact is stored once per space however many documents state it, so what a document "has" is
recorded apart from the memory rows: its statements. They decide what deleting a document may
forget (only facts no other live document states, and that no person saved or claimed), what
``getDocument`` lists and ``listDocuments`` counts, and which texts a re-uploaded file must not
bring back over a person's correction or forget. The two writers, a document's final commit and a
document's deletion, are serialised per space by ``lock_space_documents``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple
from uuid import UUID

from psycopg import AsyncConnection

Row = dict[str, Any]
Conn = AsyncConnection[Row]

#: The forget reason of a memory its document's deletion forgot.
DOCUMENT_DELETED = "source document deleted"


async def lock_space_documents(conn: Conn, space_id: UUID) -> None:
    """Serialise, per space, a document's final commit and a document's deletion, for the rest
    of the transaction.

    Without it a deletion could miss a statement another document is committing (and forget a
    fact that document states), or two deletions could each re-attribute a shared fact to the
    other document and both keep it. Taken before any document row is locked, by both."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended('memory_mcp.documents:' || %s::text, 0))",
        (space_id,))


class HeldBack(NamedTuple):
    """A document's text a person has already decided on: ``memory_id`` is the row with that
    text, ``kind`` ``corrected`` (an older version whose fact a person has since corrected) or
    ``forgotten`` (a person forgot it)."""

    memory_id: UUID
    kind: str


async def held_back(conn: Conn, space_id: UUID, hashes: Sequence[bytes]) -> dict[bytes, HeldBack]:
    """Texts of ``hashes`` that are not live in the space but that a person has corrected or
    forgotten (the text's own version, or a later version of its fact): hash -> that row. A
    document that states one (a re-upload of the file it came from, say) must not make it
    current again beside the correction, or bring back what a person removed; it is recorded
    as stating that row, and its coverage counts them."""
    cur = await conn.execute(
        """WITH asked AS (SELECT DISTINCT unnest(%(hashes)s::bytea[]) AS hash),
           candidates AS (
               SELECT m.content_hash, m.id, 'corrected' AS kind, m.created_at AS at, 1 AS rank
               FROM memories m JOIN asked a ON m.content_hash = a.hash
               WHERE m.space_id = %(space)s AND NOT m.is_latest AND NOT m.is_forgotten
                 AND EXISTS (SELECT 1 FROM memories l WHERE l.root_id = m.root_id
                               AND l.is_latest AND NOT l.is_forgotten)
               UNION ALL
               SELECT m.content_hash, m.id, 'forgotten', l.forgotten_at, 2
               FROM memories m JOIN asked a ON m.content_hash = a.hash
               JOIN memories l ON l.root_id = m.root_id AND l.is_latest
               WHERE m.space_id = %(space)s AND l.is_forgotten
                 AND (NOT m.is_latest OR m.is_forgotten)  -- true of every such m (m = l if
                 AND l.forget_reason IS DISTINCT FROM %(deleted)s)  -- latest): for the index
           SELECT DISTINCT ON (c.content_hash) c.content_hash, c.id, c.kind
           FROM candidates c  -- a probe of the live-text key per candidate (a subplan, never
           WHERE (SELECT 1 FROM memories x  -- an anti join over every live memory of the space;
                  WHERE x.space_id = %(space)s AND x.content_hash = c.content_hash
                    AND x.is_latest AND NOT x.is_forgotten) IS NULL  -- no LIMIT: the key is
           -- unique, and with "LIMIT 1" the planner, sure of many rows per text where spaces
           -- share texts, walked the space's live rows until one matched)
           ORDER BY c.content_hash, c.rank, c.at DESC""",
        {"space": space_id, "hashes": list(hashes), "deleted": DOCUMENT_DELETED})
    return {bytes(row["content_hash"]): HeldBack(row["id"], row["kind"])
            for row in await cur.fetchall()}


async def record(conn: Conn, *, document_id: UUID, space_id: UUID, hashes: Sequence[bytes],
                 older: Sequence[UUID] = ()) -> None:
    """The document states the live memory of each of ``hashes`` (new or already there) and
    the ``older`` rows (``held_back``)."""
    await conn.execute(
        """INSERT INTO document_statements (document_id, memory_id, root_id, space_id)
           SELECT %(doc)s, m.id, m.root_id, m.space_id FROM memories m
           WHERE m.space_id = %(space)s
             AND ((m.content_hash = ANY(%(hashes)s::bytea[]) AND m.is_latest
                   AND NOT m.is_forgotten)
                  OR m.id = ANY(%(older)s::uuid[]))
           ON CONFLICT DO NOTHING""",
        {"doc": document_id, "space": space_id, "hashes": list(hashes), "older": list(older)})


class Forgotten(NamedTuple):
    """What deleting a document did to the facts it states: ``forgotten`` current memories,
    and ``kept`` facts still current because another live document states them or a person
    saved, claimed or corrected them."""

    forgotten: int
    kept: int
    kept_by_documents: int  #: of ``kept``: another live document states them (the rest: people)


async def forget_document_memories(conn: Conn, document_id: UUID, user_id: UUID) -> Forgotten:
    """Forget the memories ``document_id`` created, except the chains another live document
    states (re-attributed to the oldest such document instead) and rows a person claimed (call
    after ``soft_delete``, under ``lock_space_documents``). A person's own memory (no source
    document) is never touched."""
    await conn.execute(
        """WITH holder AS (
               SELECT DISTINCT ON (s.root_id) s.root_id, s.document_id
               FROM document_statements s JOIN documents d ON d.id = s.document_id
               WHERE s.root_id IN (SELECT root_id FROM memories
                                   WHERE source_document_id = %(doc)s)
                 AND s.document_id <> %(doc)s AND d.deleted_at IS NULL
               ORDER BY s.root_id, d.created_at, d.id)
           UPDATE memories m SET source_document_id = h.document_id
           FROM holder h
           WHERE m.root_id = h.root_id AND m.source_document_id = %(doc)s""",
        {"doc": document_id},
    )
    cur = await conn.execute(
        """UPDATE memories SET is_forgotten = true, forgotten_at = now(), forgotten_by = %(user)s,
                  forget_reason = %(reason)s, updated_by = %(user)s,
                  updated_at = now()
           WHERE source_document_id = %(doc)s AND NOT is_forgotten AND claimed_at IS NULL
           RETURNING is_latest""",
        {"doc": document_id, "user": user_id, "reason": DOCUMENT_DELETED},
    )
    forgotten = sum(1 for row in await cur.fetchall() if row["is_latest"])
    cur = await conn.execute(
        """SELECT count(DISTINCT s.root_id) AS kept,
                  count(DISTINCT s.root_id) FILTER (WHERE EXISTS (
                      SELECT 1 FROM document_statements o JOIN documents d ON d.id = o.document_id
                      WHERE o.root_id = s.root_id AND o.document_id <> s.document_id
                        AND d.deleted_at IS NULL)) AS by_documents
           FROM document_statements s
           JOIN memories m ON m.root_id = s.root_id AND m.is_latest AND NOT m.is_forgotten
           WHERE s.document_id = %s""", (document_id,))
    row = await cur.fetchone()
    return Forgotten(forgotten, int(row["kept"]) if row else 0,
                     int(row["by_documents"]) if row else 0)
