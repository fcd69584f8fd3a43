"""A save's post-write check (``db.saves.finish_save``, migration 0015): it reports exactly the
close current memories whose writing transaction the decision's snapshot did not see, and reads
them through the write-transaction index, not the HNSW graph."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any, cast
from uuid import UUID

import psycopg
import pytest

from memory_mcp.db import saves, scope
from memory_mcp.db.identity import find_space
from memory_mcp.services.runtime import Conn, Runtime

pytestmark = pytest.mark.anyio

CLOSE = "The team deploys to production every Friday afternoon"
FAR = "Lunch is served at noon in the canteen on the third floor"
THRESHOLD = 0.9


class _Space:
    """One space, rows written into it with a chosen vector, and the save's SQL run on it."""

    def __init__(self, rt: Runtime, space_id: UUID, user_id: UUID) -> None:
        self.rt, self.space_id, self.user_id = rt, space_id, user_id

    async def write(self, content: str, vector: str) -> UUID:
        """A committed row (its own transaction), as a concurrent save would leave it."""
        async with self.rt.transaction(write=[self.space_id]) as conn:
            return await self._row(conn, content, vector)

    async def _row(self, conn: Conn, content: str, vector: str) -> UUID:
        row = await saves.save_row(
            conn, memory_id=uuid.uuid4(), space_id=self.space_id, content=content,
            content_hash=hashlib.sha256(content.encode()).digest(), category=None,
            vector=vector, user_id=self.user_id)
        assert row is not None
        return UUID(str(row["id"]))

    async def decide(self, vector: str) -> saves.Seen:
        async with self.rt.transaction(write=[self.space_id]) as conn:
            form = self.rt.vector_form
            _, seen = await saves.version_candidates(conn, self.space_id, form,
                                                     form.query_literal(vector), 5)
            return seen

    async def finish(self, content: str, vector: str, seen: saves.Seen
                     ) -> tuple[UUID, list[UUID] | None]:
        """Write this save's own row and run the check, then roll both back."""
        form = self.rt.vector_form
        async with self.rt.pool.connection() as pooled, pooled.transaction(force_rollback=True):
            conn = cast(Conn, pooled)  # the pool's rows are dicts (db/pool.py)
            await scope.enter(conn, system=False, read=[self.space_id], write=[self.space_id])
            me = await self._row(conn, content, vector)
            return me, await saves.finish_save(
                conn, self.space_id, me, form=form, vector=form.query_literal(vector),
                seen=seen, threshold=THRESHOLD)


async def _space(rt: Runtime, world: Any) -> _Space:
    key = await world.space("chk")
    member = await world.member(grants={key: "readwrite"})
    async with rt.transaction(system=True) as conn:
        row = await find_space(conn, key)
    assert row is not None
    return _Space(rt, row["id"], member.principal.user_id)


async def test_the_check_reports_only_close_rows_the_decision_did_not_see(
        runtime: Runtime, world: Any, database_url: str) -> None:
    space = await _space(runtime, world)
    close, far = await runtime.embed_one(CLOSE), await runtime.embed_one(FAR)
    before = await space.write(CLOSE + ".", close)  # long before: seen, and below xmin
    with psycopg.connect(database_url) as lingering:
        # A transaction with an id, left open: it holds the next snapshot's xmin below the row
        # written next, so only the snapshot's own visibility test can tell that row was seen.
        lingering.execute("SELECT pg_current_xact_id()")
        seen_but_recent = await space.write(CLOSE + "!", close)
        # A row restored from a cluster whose transaction ids ran higher: seen, whatever its id.
        restored = await space.write(CLOSE + " (restored)", close)
        with psycopg.connect(database_url, autocommit=True) as owner:
            owner.execute("UPDATE memories SET write_xid = '999999999999'::xid8 WHERE id = %s",
                          (restored,))
        seen = await space.decide(close)
        unseen_close = await space.write(CLOSE + "?", close)
        unseen_far = await space.write(FAR, far)
        me, unseen = await space.finish(CLOSE + " (mine)", close, seen)
    assert unseen == [unseen_close]
    assert not {before, seen_but_recent, restored, unseen_far, me} & set(unseen)
    # A save that nothing overtook makes no check at all.
    assert (await space.finish(CLOSE + " (alone)", close, await space.decide(close)))[1] is None


async def test_the_check_reads_the_write_transaction_index_not_the_graph(
        runtime: Runtime, world: Any, database_url: str) -> None:
    space = await _space(runtime, world)
    # A space with history: rows written by an earlier transaction, statistics gathered, as a
    # space in use has them (on an empty table any index looks as cheap as any other).
    async with runtime.transaction(system=True) as conn:
        await conn.execute(
            """INSERT INTO memories (space_id, content, content_hash, root_id, created_by,
                                     updated_by, embedding)
               SELECT %(space)s, 'fact ' || i, sha256(('fact ' || i)::bytea), gen_random_uuid(),
                      %(user)s, %(user)s,
                      (SELECT array_agg(CASE WHEN d <= 384 THEN random() - 0.5 + i * 0 ELSE 0
                                        END ORDER BY d)
                       FROM generate_series(1, 3072) d)::real[]::halfvec
               FROM generate_series(1, %(n)s) i""",
            {"space": space.space_id, "user": space.user_id, "n": 1000})
    with psycopg.connect(database_url, autocommit=True) as owner:
        owner.execute("ANALYZE memories")
    vector = runtime.vector_form.query_literal(await runtime.embed_one(CLOSE))
    seen = await space.decide(await runtime.embed_one(CLOSE))
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute(
            f"EXPLAIN {saves.unseen_rows_sql(runtime.vector_form)}",
            {"space": space.space_id, "me": uuid.uuid4(), "vec": vector,
             "snapshot": seen.snapshot})
        plan = " ".join(r["QUERY PLAN"] for r in await cur.fetchall())
    assert "memories_space_write_xid_idx" in plan and "hnsw" not in plan, plan
