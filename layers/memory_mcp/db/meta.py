"""SQL for the pinned embedding model (one row)."""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

Row = dict[str, Any]
Conn = AsyncConnection[Row]


async def pin_model(conn: Conn, model_id: str, dimensions: int) -> Row:
    """Pin the model on first start; return whatever is pinned (possibly another model)."""
    await conn.execute(
        """INSERT INTO embedding_model (model_id, dimensions) VALUES (%s, %s)
           ON CONFLICT (singleton) DO NOTHING""",
        (model_id, dimensions),
    )
    cur = await conn.execute("SELECT model_id, dimensions, pinned_at FROM embedding_model")
    row = await cur.fetchone()
    assert row is not None
    return row


async def repin_model(conn: Conn, model_id: str, dimensions: int) -> None:
    await conn.execute(
        """INSERT INTO embedding_model (model_id, dimensions) VALUES (%s, %s)
           ON CONFLICT (singleton) DO UPDATE
           SET model_id = EXCLUDED.model_id, dimensions = EXCLUDED.dimensions, pinned_at = now()""",
        (model_id, dimensions),
    )


async def memory_batch(conn: Conn, after: Any, limit: int) -> list[Row]:
    """Memories in id order, for re-embedding in batches."""
    cur = await conn.execute(
        """SELECT id, content FROM memories WHERE %(after)s::uuid IS NULL OR id > %(after)s::uuid
           ORDER BY id LIMIT %(limit)s""",
        {"after": after, "limit": limit},
    )
    return await cur.fetchall()


async def set_embedding(conn: Conn, memory_id: Any, vector: str) -> None:
    await conn.execute(
        "UPDATE memories SET embedding = %s::halfvec WHERE id = %s", (vector, memory_id)
    )


async def ping(conn: Conn) -> bool:
    cur = await conn.execute("SELECT 1 AS ok")
    row = await cur.fetchone()
    return row is not None and row["ok"] == 1
