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


async def read(conn: Conn, *, space_id: UUID | None, user_id: UUID | None,
               since: datetime | None, limit: int) -> list[Row]:
    cur = await conn.execute(
        """SELECT e.id, e.at, e.kind, e.actor_user_id, u.email AS actor_email, e.actor_key_id,
                  e.space_id,
                  coalesce(s.key, (SELECT d.detail->>'space_key' FROM audit_events d
                                   WHERE d.kind = 'space.deleted' AND d.space_id = e.space_id
                                   ORDER BY d.at DESC LIMIT 1)) AS space,
                  e.target_id, e.detail
             FROM audit_events e LEFT JOIN users u ON u.id = e.actor_user_id
                  LEFT JOIN spaces s ON s.id = e.space_id
            WHERE (%(space)s::uuid IS NULL OR e.space_id = %(space)s::uuid)
              AND (%(user)s::uuid IS NULL OR e.actor_user_id = %(user)s::uuid)
              AND (%(since)s::timestamptz IS NULL OR e.at >= %(since)s::timestamptz)
            ORDER BY e.at DESC, e.id DESC LIMIT %(limit)s""",
        {"space": space_id, "user": user_id, "since": since, "limit": limit},
    )
    return await cur.fetchall()


async def deleted_space(conn: Conn, key: str) -> UUID | None:
    """The id a deleted space with this key had (its ``space.deleted`` event), newest first:
    its trail stays readable by key after ``spaces delete``."""
    cur = await conn.execute(
        """SELECT space_id FROM audit_events
           WHERE kind = 'space.deleted' AND detail->>'space_key' = %s
           ORDER BY at DESC LIMIT 1""", (key,))
    row = await cur.fetchone()
    return row["space_id"] if row else None


async def purge(conn: Conn, days: int) -> int:
    cur = await conn.execute("DELETE FROM audit_events WHERE at < now() - make_interval(days => %s)",
                             (days,))
    return cur.rowcount
