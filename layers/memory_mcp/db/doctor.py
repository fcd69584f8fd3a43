"""Read-only SQL for ``memory-mcp doctor`` (services/doctor.py), on a plain sync connection.

Doctor must work on a database the application cannot use yet (no schema, an old pgvector), so
every query here tolerates missing tables and changes nothing.
"""

from __future__ import annotations

from typing import Any

import psycopg

Conn = psycopg.Connection[Any]


def _scalar(conn: Conn, sql: str) -> Any:
    row = conn.execute(sql).fetchone()
    return row[0] if row else None


def server_version(conn: Conn) -> str:
    return str(_scalar(conn, "SHOW server_version"))


def pgvector(conn: Conn) -> tuple[str | None, str | None]:
    """(installed version, version the server could install), either None when absent."""
    installed = _scalar(conn, "SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    available = _scalar(conn, "SELECT default_version FROM pg_available_extensions "
                              "WHERE name = 'vector'")
    return installed, available


def applied_migrations(conn: Conn) -> dict[int, str]:
    """version -> checksum; empty before the first migration."""
    if not _scalar(conn, "SELECT to_regclass('schema_migrations') IS NOT NULL"):
        return {}
    rows = conn.execute("SELECT version, checksum FROM schema_migrations").fetchall()
    return {int(r[0]): str(r[1]) for r in rows}


def pinned_model(conn: Conn) -> tuple[str, int] | None:
    if not _scalar(conn, "SELECT to_regclass('embedding_model') IS NOT NULL"):
        return None
    row = conn.execute("SELECT model_id, dimensions FROM embedding_model").fetchone()
    return (str(row[0]), int(row[1])) if row else None


def large_spaces(conn: Conn, at_least: int, buckets: int) -> list[tuple[int, str, int]] | None:
    """(HNSW bucket, space key, live memories) of every space with at least ``at_least`` live
    memories, by bucket; None before the schema exists. Read in the every-space scope
    (``space_stats`` is under row-level security for the application login), in a transaction
    of its own so the setting ends with it."""
    if not _scalar(conn, "SELECT to_regclass('space_stats') IS NOT NULL"):
        return None
    with conn.transaction():
        conn.execute("SELECT set_config('memory_mcp.read_spaces', '*', true)")
        rows = conn.execute(
            """SELECT uuid_hash(s.id) & %s, s.key, st.live_memories
               FROM spaces s JOIN space_stats st ON st.space_id = s.id
               WHERE st.live_memories >= %s ORDER BY 1, 3 DESC, 2""",
            (buckets - 1, at_least)).fetchall()
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]
