"""SQL for the audit trail (migrations/0010): append as the application, read as the owner."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

Row = dict[str, Any]
Conn = AsyncConnection[Row]


async def append(conn: Conn, kind: str, *, actor_user_id: UUID | None = None,
                 actor_key_id: UUID | None = None, space_id: UUID | None = None,
                 target_id: UUID | None = None, detail: dict[str, Any] | None = None) -> None:
    await conn.execute(
        """INSERT INTO audit_events (kind, actor_user_id, actor_key_id, space_id, target_id,
                                     detail) VALUES (%s, %s, %s, %s, %s, %s)""",
        (kind, actor_user_id, actor_key_id, space_id, target_id, Jsonb(detail or {})),
    )


async def read(conn: Conn, *, space_ids: list[UUID] | None, user_id: UUID | None,
               since: datetime | None, limit: int) -> list[Row]:
    """Newest first. ``user_id`` matches what the user did and what was done to the user or to
    one of the user's keys (a role change, a revoked key): the two halves of "what happened to
    this person's access"."""
    cur = await conn.execute(
        """SELECT e.id, e.at, e.kind, e.actor_user_id, u.email AS actor_email, e.actor_key_id,
                  e.space_id,
                  coalesce(s.key, (SELECT d.detail->>'space_key' FROM audit_events d
                                   WHERE d.kind = 'space.deleted' AND d.space_id = e.space_id
                                   ORDER BY d.at DESC LIMIT 1)) AS space,
                  e.target_id, e.detail
             FROM audit_events e LEFT JOIN users u ON u.id = e.actor_user_id
                  LEFT JOIN spaces s ON s.id = e.space_id
            WHERE (%(spaces)s::uuid[] IS NULL OR e.space_id = ANY(%(spaces)s::uuid[]))
              AND (%(user)s::uuid IS NULL OR e.actor_user_id = %(user)s::uuid
                   OR e.target_id = %(user)s::uuid
                   OR e.target_id IN (SELECT k.id FROM api_keys k
                                      WHERE k.user_id = %(user)s::uuid))
              AND (%(since)s::timestamptz IS NULL OR e.at >= %(since)s::timestamptz)
            ORDER BY e.at DESC, e.id DESC LIMIT %(limit)s""",
        {"spaces": space_ids, "user": user_id, "since": since, "limit": limit},
    )
    return await cur.fetchall()


async def deleted_spaces(conn: Conn, key: str) -> list[UUID]:
    """The ids deleted spaces with this key had (their ``space.deleted`` events): their trails
    stay readable by key after ``spaces delete``, also once a new space takes the key."""
    cur = await conn.execute(
        """SELECT DISTINCT space_id FROM audit_events
           WHERE kind = 'space.deleted' AND detail->>'space_key' = %s""", (key,))
    return [row["space_id"] for row in await cur.fetchall()]


async def purge(conn: Conn, days: int) -> int:
    cur = await conn.execute("DELETE FROM audit_events WHERE at < now() - make_interval(days => %s)",
                             (days,))
    return cur.rowcount
