"""SQL for per-key rate limits (migrations/0010): one upsert per request and budget."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Row = dict[str, Any]
Conn = AsyncConnection[Row]

#: The tail of an ``INSERT INTO rate_windows AS r (key_id, budget, window_start, used)`` of one
#: use in the current minute: the window's count after it, and the seconds left in the window.
#: The key check counts a request by the same rule inside ``memory_mcp_key_check``
#: (migrations/0014): a change to the rule here needs a new migration that changes it there too
#: (tests/test_limits_audit.py checks both windows start again in a new minute).
COUNT_ONE = """ON CONFLICT (key_id, budget) DO UPDATE
        SET used = CASE WHEN r.window_start = EXCLUDED.window_start THEN r.used + 1 ELSE 1 END,
            window_start = EXCLUDED.window_start
    RETURNING used,
              ceil(extract(epoch FROM window_start + interval '1 minute' - now()))::int
                AS seconds_left"""


async def take(conn: Conn, key_id: UUID, budget: str) -> Row:
    """Count one use in the key's current one-minute window; return ``used`` (after this one)
    and ``seconds_left`` in the window.

    Count in a transaction opened with ``durable=False`` (``Runtime.transaction``): a counter
    is all it writes, losing the last few counts in a crash is harmless, and waiting for the WAL
    flush would otherwise double the cost of every request (``bench/ratelimit_cost.py``).
    """
    cur = await conn.execute(
        f"""INSERT INTO rate_windows AS r (key_id, budget, window_start, used)
            VALUES (%(key)s, %(budget)s, date_trunc('minute', now()), 1) {COUNT_ONE}""",
        {"key": key_id, "budget": budget},
    )
    row = await cur.fetchone()
    assert row is not None
    return row


#: The two per-key budgets ``set_key_limits`` may change.
LIMIT_COLUMNS = ("requests_per_minute", "writes_per_minute")


async def set_key_limits(conn: Conn, key_id: UUID, changes: dict[str, int | None]
                         ) -> Row | None:
    """Set the given budgets (``requests_per_minute`` / ``writes_per_minute``: a number, or
    None for the server's default); the others stay. With none, the key's budgets as they are."""
    keep = {f"keep_{column}": column not in changes for column in LIMIT_COLUMNS}
    cur = await conn.execute(
        """UPDATE api_keys
              SET requests_per_minute = CASE WHEN %(keep_requests_per_minute)s
                                             THEN requests_per_minute
                                             ELSE %(requests_per_minute)s END,
                  writes_per_minute = CASE WHEN %(keep_writes_per_minute)s
                                           THEN writes_per_minute ELSE %(writes_per_minute)s END
            WHERE id = %(key)s
           RETURNING id, label, prefix, requests_per_minute, writes_per_minute""",
        {**keep, **{c: changes.get(c) for c in LIMIT_COLUMNS}, "key": key_id},
    )
    return await cur.fetchone()
