"""The profile's stable list reads a bounded number of rows however large the space is
(migration 0013, ``db.memories.profile``), and keeps its order: the newest memories of the
profile categories first, then the most recalled; the recent list, in the same statement,
leaves out what the stable list shows (real PostgreSQL)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from memory_mcp.db import memories as db
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio

CATEGORIES = ["preference", "convention", "decision"]


class _Capture:
    """Stands in for a connection: records the one statement ``profile`` sends."""

    def __init__(self) -> None:
        self.query: str = ""
        self.params: dict[str, Any] = {}

    async def execute(self, query: str, params: dict[str, Any]) -> Any:
        self.query, self.params = query, params

        class _Cursor:
            async def fetchall(self) -> list[Any]:
                return []

        return _Cursor()


async def _seed(rt: Runtime, world: Any) -> tuple[uuid.UUID, list[str]]:
    """A space of 90 memories: 20 in each profile category and 30 in none, with distinct
    ``updated_at``, the profile categories' newest interleaved across categories. Ids rise
    with ``i`` while creation times are shuffled, so an order by id is never the order by
    creation (random ids were, one run in 24, for the four rows the test compares)."""
    key = await world.space("profile-scale")
    member = await world.member(grants={key: "readwrite"})
    async with rt.transaction(system=True) as conn:
        row = await (await conn.execute("SELECT id FROM spaces WHERE key = %s", (key,))).fetchone()
        assert row is not None
        space = row["id"]
        texts = []
        base = uuid.uuid4().int & ~0xFFFF  # unique to this run; the low bits carry i
        for i in range(90):
            category = CATEGORIES[i % 3] if i < 60 else None
            text = f"Profile scale fact {i} ({category})"
            texts.append(text)
            await conn.execute(
                "INSERT INTO memories (id, space_id, content, content_hash, category, root_id, "
                "created_by, updated_by, embedding, updated_at, created_at) VALUES (%s, %s, %s, "
                "sha256(convert_to(%s, 'UTF8')), %s, gen_random_uuid(), %s, %s, "
                "('[' || array_to_string(array_fill(0.05::float4, ARRAY[384]), ',') || "
                "repeat(',0', 2688) || ']')::halfvec, now() - make_interval(mins => %s), "
                "now() - make_interval(secs => %s))",
                (uuid.UUID(int=base + i), space, text, text, category, member.principal.user_id,
                 member.principal.user_id, 90 - i, (i * 37) % 90))  # creation order shuffled
    return space, texts


async def test_the_stable_list_is_the_newest_of_every_profile_category(
        runtime: Runtime, world: Any) -> None:
    space, texts = await _seed(runtime, world)
    async with runtime.transaction(read=[space]) as conn:
        # a category named twice must not list its memories twice
        rows, recent = await db.profile(conn, space, [*CATEGORIES, "preference", "policy"], 5,
                                        7, 4)
        every = await (await conn.execute(
            "SELECT id FROM memories WHERE space_id = %s ORDER BY created_at DESC, id",
            (space,))).fetchall()
    newest = [texts[i] for i in range(59, 54, -1)]  # 59, 58, ... across the three categories
    assert [r["content"] for r in rows] == newest
    shown = {r["id"] for r in rows}
    expected = [r["id"] for r in every if r["id"] not in shown][:4]  # newest created first
    assert [r["id"] for r in recent] == expected
    assert expected != sorted(expected), "created_at, not the id, must decide the order"


async def test_the_stable_list_reads_a_few_rows_per_category_not_the_space(
        runtime: Runtime, world: Any) -> None:
    """With sequential and bitmap scans and avoidable sorts ruled out (a plan that reads a whole
    category must sort it; on a small test table the planner may not mind, on a large space it
    must), each category's candidates come from the ordered index, at most ``limit`` rows each:
    20 category memories of the space are not all read."""
    space, _ = await _seed(runtime, world)
    capture = _Capture()
    await db.profile(capture, space, CATEGORIES, 4, 7, 5)  # type: ignore[arg-type]
    async with runtime.transaction(read=[space]) as conn:
        for name in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            await conn.execute(f"SET LOCAL {name} = off")
        cur = await conn.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + capture.query,
                                 capture.params)
        row = await cur.fetchone()
        assert row is not None
    plan = row["QUERY PLAN"]
    plan = json.loads(plan) if isinstance(plan, str) else plan

    def nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
        return [node, *(n for child in node.get("Plans", []) for n in nodes(child))]

    scans = [n for n in nodes(plan[0]["Plan"])  # the category candidates, not the recalled
             if n.get("Relation Name") == "memories"  # ones (which only filter on category)
             and "category =" in n.get("Index Cond", "")]
    assert scans, plan
    for scan in scans:
        assert scan["Index Name"] == "memories_space_category_updated_idx", scan
        assert scan["Actual Rows"] <= 4, scan  # per category, not the 20 it holds
