"""SQL for users, API keys, spaces and grants (the identity and access aggregate)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

from memory_mcp.db.search import SPACE_BUCKETS

Row = dict[str, Any]
Conn = AsyncConnection[Row]


async def insert_user(conn: Conn, email: str, display_name: str, role: str) -> Row:
    cur = await conn.execute(
        """INSERT INTO users (email, display_name, role) VALUES (%s, %s, %s)
           RETURNING id, email, display_name, role, active, created_at, updated_at""",
        (email, display_name, role),
    )
    row = await cur.fetchone()
    assert row is not None
    return row


async def list_users(conn: Conn) -> list[Row]:
    cur = await conn.execute(
        """SELECT u.id, u.email, u.display_name, u.role, u.active, u.created_at, u.updated_at,
                  (SELECT count(*) FROM api_keys k WHERE k.user_id = u.id AND k.revoked_at IS NULL)
                      AS active_keys
           FROM users u ORDER BY u.created_at, u.id"""
    )
    return await cur.fetchall()


async def find_user(conn: Conn, ident: str) -> Row | None:
    """By id (uuid text) or email (case-insensitive)."""
    cur = await conn.execute(
        """SELECT id, email, display_name, role, active, created_at, updated_at FROM users
           WHERE id::text = %s OR lower(email) = lower(%s)""",
        (ident, ident),
    )
    return await cur.fetchone()


async def update_user(conn: Conn, user_id: UUID, **fields: Any) -> Row | None:
    allowed = {"active", "role", "display_name"}
    if not fields or set(fields) - allowed:
        raise ValueError(f"unsupported user fields: {sorted(set(fields) - allowed)}")
    assignments = ", ".join(f"{name} = %({name})s" for name in sorted(fields))
    cur = await conn.execute(
        f"""UPDATE users SET {assignments}, updated_at = now() WHERE id = %(id)s
            RETURNING id, email, display_name, role, active, created_at, updated_at""",
        {**fields, "id": user_id},
    )
    return await cur.fetchone()


#: Random ids drawn for a new space before one falls in the chosen bucket: each does with
#: probability 1/16, so all of them missing it is a chance below 1e-28; the insert then
#: simply takes one more random id.
_ID_DRAWS = 1024


async def insert_space(conn: Conn, key: str, name: str, description: str) -> Row:
    """A new space, its id drawn in the HNSW bucket (migration 0012: ``uuid_hash(id)``
    modulo ``SPACE_BUCKETS``) holding the fewest spaces, then the fewest live memories.

    A space shares its bucket's graph with every other space there, and a search of a large
    space in a graph shared with another large one loses recall (docs/pgvector-halfvec-
    search.md, "A graph per bucket of spaces"). Ids drawn at random put two of the first five
    spaces in one bucket half the time; drawn this way, the first sixteen spaces get a graph
    each, and later ones go where the fewest spaces (and, among those, memories) are. Needs the
    every-space scope to see every space's count (the admin paths run with it); an import
    keeps the id it exported instead (``db/transfer.create_space``). Space creations take
    turns (a transaction-scoped advisory lock), so two at once do not pick the same bucket."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('memory_mcp.new_space', 0))")
    cur = await conn.execute(
        """WITH target AS (
               SELECT b.bucket FROM generate_series(0, %(buckets)s - 1) AS b(bucket)
               LEFT JOIN spaces s ON (uuid_hash(s.id) & (%(buckets)s - 1)) = b.bucket
               LEFT JOIN space_stats st ON st.space_id = s.id
               GROUP BY b.bucket
               ORDER BY count(s.id), coalesce(sum(st.live_memories), 0), random()
               LIMIT 1),
           drawn AS (
               SELECT d.id FROM (SELECT gen_random_uuid() AS id
                                 FROM generate_series(1, %(draws)s)) d, target t
               WHERE (uuid_hash(d.id) & (%(buckets)s - 1)) = t.bucket LIMIT 1)
           INSERT INTO spaces (id, key, name, description)
           VALUES (coalesce((SELECT id FROM drawn), gen_random_uuid()), %(key)s, %(name)s,
                   %(description)s)
           RETURNING id, key, name, description, created_at, last_activity_at""",
        {"buckets": SPACE_BUCKETS, "draws": _ID_DRAWS, "key": key, "name": name,
         "description": description},
    )
    row = await cur.fetchone()
    assert row is not None
    return row


async def list_spaces(conn: Conn) -> list[Row]:
    cur = await conn.execute(
        """SELECT s.id, s.key, s.name, s.description, s.created_at, s.last_activity_at,
                  coalesce((SELECT st.live_memories FROM space_stats st
                            WHERE st.space_id = s.id), 0) AS memory_count,
                  (SELECT count(*) FROM documents d WHERE d.space_id = s.id AND d.deleted_at IS NULL)
                      AS document_count
           FROM spaces s ORDER BY s.key"""
    )
    return await cur.fetchall()


async def find_space(conn: Conn, key: str) -> Row | None:
    cur = await conn.execute(
        "SELECT id, key, name, description, created_at, last_activity_at FROM spaces WHERE key = %s",
        (key,),
    )
    return await cur.fetchone()


async def touch_space(conn: Conn, space_id: UUID) -> None:
    """Record write activity; feeds "recently active spaces" in the context prompt."""
    await conn.execute("UPDATE spaces SET last_activity_at = now() WHERE id = %s", (space_id,))


async def insert_key(conn: Conn, user_id: UUID, label: str, prefix: str, key_hash: bytes) -> Row:
    cur = await conn.execute(
        """INSERT INTO api_keys (user_id, label, prefix, key_hash) VALUES (%s, %s, %s, %s)
           RETURNING id, user_id, label, prefix, created_at""",
        (user_id, label, prefix, key_hash),
    )
    row = await cur.fetchone()
    assert row is not None
    return row


async def list_keys(conn: Conn, user_id: UUID | None = None) -> list[Row]:
    cur = await conn.execute(
        """SELECT k.id, k.user_id, u.email, k.label, k.prefix, k.created_at, k.last_used_at,
                  k.revoked_at, k.requests_per_minute, k.writes_per_minute,
                  -- the space a request without containerTag uses (access.default_space): the
                  -- selected one while still granted, else the oldest grant; none for a key
                  -- that cannot make requests (revoked, or its user deactivated)
                  (SELECT s.key FROM grants g JOIN spaces s ON s.id = g.space_id
                   WHERE g.key_id = k.id AND k.revoked_at IS NULL AND u.active
                   ORDER BY g.space_id = k.active_space_id DESC, g.created_at, s.key
                   LIMIT 1) AS active_space,
                  coalesce((SELECT json_agg(json_build_object('space', gs.key, 'access', g.access)
                                            ORDER BY gs.key)
                            FROM grants g JOIN spaces gs ON gs.id = g.space_id
                            WHERE g.key_id = k.id), '[]'::json) AS grants
           FROM api_keys k JOIN users u ON u.id = k.user_id
           WHERE %(user)s::uuid IS NULL OR k.user_id = %(user)s::uuid
           ORDER BY k.created_at, k.id""",
        {"user": user_id},
    )
    return await cur.fetchall()


async def revoke_key(conn: Conn, key_id: UUID) -> Row | None:
    cur = await conn.execute(
        """UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = %s
           RETURNING id, label, prefix, revoked_at""",
        (key_id,),
    )
    return await cur.fetchone()


async def principal_by_key(conn: Conn, prefix: str, key_hash: bytes, *,
                           request_limit: int | None = None, lazy_commit: bool = False
                           ) -> Row | None:
    """The live key with this public prefix and hash, and its active user; None otherwise.

    Marks the key used in the same statement, at most once a minute per key, so authentication
    stays read-mostly and costs one round trip. With ``request_limit`` (the server's default
    requests per minute; a key's own limit overrides it) the same statement also counts this
    request in the key's rate window when the limit in force is not 0 (unlimited), and returns
    the window's ``used`` and ``seconds_left`` (both NULL when nothing was counted): the
    request check then costs no statement of its own.

    The key's grants come back with it (``grant_*``: parallel arrays, oldest grant first: the
    first is the key's default space), so resolving a request's space costs no statement of its
    own: the request's transaction can open on that one space from its first statement.

    ``lazy_commit``: the statement also sets ``synchronous_commit = off`` for its own
    transaction, so an autocommit key check (``Runtime.statement``) does not wait for the WAL
    flush of what it writes (a last-use time and a counter; tables without row-level security,
    which is why it needs no scope). Never inside a transaction that writes anything else."""
    lazy = ", set_config('synchronous_commit', 'off', true) AS lazy_commit" if lazy_commit else ""
    # The statement lives in migrations/0014 as a PL/pgSQL function: its plan is made once per
    # connection instead of on every request (planning cost as much as running it).
    cur = await conn.execute(
        f"SELECT k.*{lazy} FROM memory_mcp_key_check(%(prefix)s, %(hash)s, %(limit)s) k",
        {"prefix": prefix, "hash": key_hash, "limit": request_limit},
    )
    return await cur.fetchone()


async def set_active_space(conn: Conn, key_id: UUID, space_id: UUID) -> None:
    await conn.execute("UPDATE api_keys SET active_space_id = %s WHERE id = %s", (space_id, key_id))


async def upsert_grant(conn: Conn, key_id: UUID, space_id: UUID, access: str) -> Row:
    cur = await conn.execute(
        """INSERT INTO grants (key_id, space_id, access) VALUES (%s, %s, %s)
           ON CONFLICT (key_id, space_id) DO UPDATE SET access = EXCLUDED.access
           RETURNING key_id, space_id, access, created_at""",
        (key_id, space_id, access),
    )
    row = await cur.fetchone()
    assert row is not None
    return row


async def delete_grant(conn: Conn, key_id: UUID, space_id: UUID) -> bool:
    cur = await conn.execute(
        "DELETE FROM grants WHERE key_id = %s AND space_id = %s", (key_id, space_id)
    )
    return cur.rowcount > 0


async def grants_for_key(conn: Conn, key_id: UUID) -> list[Row]:
    """Granted spaces, oldest grant first (the first one is the key's default space), with the
    user's role as it is now. Read again after the request's key check, so a key revoked or a
    user deactivated since then has none, and a role changed since then counts."""
    cur = await conn.execute(
        """SELECT s.id AS space_id, s.key, s.name, s.description, g.access, g.created_at, u.role
           FROM grants g JOIN spaces s ON s.id = g.space_id
             JOIN api_keys a ON a.id = g.key_id JOIN users u ON u.id = a.user_id
           WHERE g.key_id = %s AND a.revoked_at IS NULL AND u.active
           ORDER BY g.created_at, s.key""",
        (key_id,),
    )
    return await cur.fetchall()


async def space_stats(conn: Conn, space_ids: list[UUID]) -> list[Row]:
    cur = await conn.execute(
        """SELECT s.id AS space_id, s.last_activity_at,
                  coalesce((SELECT st.live_memories FROM space_stats st
                            WHERE st.space_id = s.id), 0) AS memory_count,
                  (SELECT count(*) FROM documents d WHERE d.space_id = s.id AND d.deleted_at IS NULL)
                      AS document_count
           FROM spaces s WHERE s.id = ANY(%s)""",
        (space_ids,),
    )
    return await cur.fetchall()


async def count_users(conn: Conn) -> int:
    cur = await conn.execute("SELECT count(*) AS n FROM users")
    row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def find_key(conn: Conn, key_id: UUID) -> Row | None:
    cur = await conn.execute(
        "SELECT id, user_id, label, prefix, revoked_at FROM api_keys WHERE id = %s", (key_id,)
    )
    return await cur.fetchone()
