"""The search SQL of ``bench/search_latency.py`` under chosen planner settings, and its plans.

Recall and the EXPLAIN section both need the vector part of ``search_memory`` run exactly as
the service runs it but with one knob turned (exact scan, HNSW forced, iterative scan off) and
the very SQL the product sends captured, not re-typed; that one function and the plan filtering
live here so both sections use the same code.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Sequence
from typing import Any

from _search_data import LIMIT, Dataset, Pair, vector_index

from memory_mcp.db import memories as db
from memory_mcp.db import scope
from memory_mcp.db import search as search_db
from memory_mcp.services import recall


class _Capture:
    """Wraps a connection so the exact SQL ``db.memories.search`` sends can be EXPLAINed."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.calls: list[tuple[Any, Any]] = []

    async def execute(self, query: Any, params: Any = None) -> Any:
        self.calls.append((query, params))
        return await self.conn.execute(query, params)


_PLAN_NOISE = ("Cache Mode:", "Hits:", "Index Searches:")
_FORCE_HNSW = ("enable_seqscan", "enable_bitmapscan", "enable_sort")
_PLAN_KEEP = ("Incremental Sort", "Order By:", "Filter:", "Rows Removed", "Sort Method:",
              "Execution Time:")
_PLAN_NODES = ("Limit", "->  Sort", "m_1", "memories_space", "memories_embedding",
               "memories_live")


def inner_plan(plan: str) -> list[str]:
    """The vector part of a plan: the CTE's scan, sort and limit (not the joins to users)."""
    keep = []
    for line in plan.splitlines():
        text = line.strip()
        if text.startswith("->"):
            if any(k in text for k in _PLAN_NODES):
                keep.append(line)
        elif text.startswith(_PLAN_KEEP):
            keep.append(line)
    return keep


async def explain_fused(conn: Any, rt: Any, ds: Dataset, p: Pair) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of the whole fused query search_memory sends."""
    async with conn.transaction():
        await scope.limit(conn, [ds.space_ids[p.space]], [])
        target = _Capture(conn)
        await recall.ranked(rt, target,  # type: ignore[arg-type]  # _Capture: duck-typed
                            ds.space_ids[p.space], query=p.text,
                            vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                            limit=LIMIT)
        query, params = target.calls[-1]
        cur = await conn.execute(b"EXPLAIN (ANALYZE, BUFFERS) " + query, params)
        lines = [r["QUERY PLAN"] for r in await cur.fetchall()]
    plan = "\n".join(x for x in lines if not x.strip().startswith(_PLAN_NOISE))
    return re.sub(r"'\[[^\]]*\]'::halfvec(\(\d+\))?", "'<query vector>'::halfvec", plan)


async def product_search(conn: Any, ds: Dataset, space_id: uuid.UUID, literal: str, *, ef: int,
                         iterative: str | None = None, exact: bool = False,
                         force_hnsw: bool = False, limit: int = LIMIT,
                         explain: str | None = None, product_ef: bool = False
                         ) -> tuple[list[Any], float, str, list[float]]:
    """The vector part of search_memory (``db.search.semantic`` at the model's width) as the
    service runs it (own transaction, then ``enable_filtered_ann``), optionally with iterative
    scan off, index scans off (exact), the planner pushed onto the HNSW index (seq/bitmap
    scans and sorts off; a diagnostic) or EXPLAINed. Returns (ids, seconds for the search call,
    plan text, scores)."""
    async with conn.transaction():
        await scope.limit(conn, [space_id], [])  # the request's space (memories_in_scope)
        if product_ef:  # the product's depth: scaled to the space's size (enable_search_ann)
            await db.enable_search_ann(conn, space_id, floor=recall.EF_FLOOR, cap=ef)
        else:
            await db.enable_filtered_ann(conn, ef)
        if iterative == "off":
            await conn.execute("SET LOCAL hnsw.iterative_scan = off")
        if exact:
            await conn.execute("SET LOCAL enable_indexscan = off")
        if force_hnsw:
            for name in _FORCE_HNSW:
                await conn.execute(f"SET LOCAL {name} = off")
        target = conn if explain is None else _Capture(conn)
        t = time.perf_counter()
        rows = await search_db.semantic(target, space_id, ds.form,  # type: ignore[arg-type]
                                        vector=ds.form.query_literal(literal), pattern=None,
                                        category=None, limit=limit)
        dt = time.perf_counter() - t
        plan = ""
        if isinstance(target, _Capture):
            assert explain is not None  # target is a _Capture only when explain is given
            query, params = target.calls[-1]
            cur = await conn.execute(explain.encode() + b" " + query, params)
            lines = [r["QUERY PLAN"] for r in await cur.fetchall()]
            plan = "\n".join(x for x in lines if not x.strip().startswith(_PLAN_NOISE))
            plan = re.sub(r"'\[[^\]]*\]'::halfvec(\(\d+\))?", "'<query vector>'::halfvec", plan)
        return [r["id"] for r in rows], dt, plan, [float(r["score"]) for r in rows]


async def explain_plans(conn: Any, rt: Any, ds: Dataset, pairs: Sequence[Pair], ef_product: int
                        ) -> tuple[dict[str, str], int]:
    """EXPLAIN of the product query and of the exact variant (first pair), and in how many
    spaces the product plan uses the HNSW index. Returns (plans by name, spaces using it)."""
    p0 = pairs[0]
    plans: dict[str, str] = {}
    for name, exact, force in (
            ("product settings (full plan)", False, False),
            ("exact: + SET LOCAL enable_indexscan = off (inner part)", True, False),
            ("HNSW forced: + enable_seqscan/bitmapscan/sort = off (inner part)", False,
             True)):
        _, _, plans[name], _ = await product_search(
            conn, ds, ds.space_ids[p0.space], p0.vector, ef=ef_product, exact=exact,
            force_hnsw=force, explain="EXPLAIN (ANALYZE, BUFFERS)", product_ef=True)
    plans["search_memory's full query (fused), product settings"] = await explain_fused(
        conn, rt, ds, p0)
    used = 0
    for s in range(len(ds.space_ids)):
        p = next(p for p in pairs if p.space == s)
        _, _, plan, _ = await product_search(conn, ds, ds.space_ids[s], p.vector,
                                             ef=ef_product, explain="EXPLAIN",
                                             product_ef=True)
        used += vector_index(ds.form) in plan
    return plans, used
