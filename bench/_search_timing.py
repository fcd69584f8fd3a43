"""The timed loops of ``bench/search_latency.py``: the same pairs end to end, in-process, as SQL.

Every layer (HTTP/MCP, the service function, the bare SQL, the SQL under row-level security,
the vector-only floor) is timed over the same (query, space) pairs so the ratios in the report
compare like with like; each loop is one function here and fills its rows of ``results``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import _common as common
import numpy as np
from _common import Deadline, log
from _search_data import LIMIT, Dataset, Pair
from _search_server import mcp_client

from memory_mcp.db import memories as db
from memory_mcp.db import scope
from memory_mcp.db import search as search_db
from memory_mcp.models import Principal
from memory_mcp.services import memories as memory_service
from memory_mcp.services import recall
from memory_mcp.services.runtime import Runtime

CALL_TIMEOUT_S = 120


def stats(samples: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean/min in milliseconds (samples are seconds)."""
    if not samples:
        return {"n": 0, "p50": float("nan"), "p95": float("nan"), "mean": float("nan"),
                "min": float("nan")}
    a = np.asarray(samples) * 1000.0
    return {"n": len(a), "p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "mean": float(a.mean()), "min": float(a.min())}


async def timed_loop(pairs: Sequence[Pair], call: Callable[[Pair], Awaitable[Any]],
                     deadline: Deadline, what: str) -> tuple[list[float], list[Any]]:
    return await common.timed_loop(
        pairs, call, deadline, lambda i, n: f"{what}: time budget spent after {i}/{n} calls",
        timeout_s=CALL_TIMEOUT_S)


async def time_e2e(mcp_url: str, ds: Dataset, pairs: Sequence[Pair], time_budget: float,
                   deadline: Deadline, results: dict[str, Any]) -> list[Any]:
    """search_memory over HTTP/MCP (warm-up, then without and with the profile); returns the
    structured results of the timed includeProfile=false pass."""
    async with mcp_client(mcp_url, ds.key) as client:

        def e2e(profile: bool) -> Callable[[Pair], Awaitable[Any]]:
            async def call(p: Pair) -> Any:
                res = await client.call_tool("search_memory", {
                    "query": p.text, "containerTag": ds.space_keys[p.space],
                    "limit": LIMIT, "includeProfile": profile})
                if res.is_error:
                    raise RuntimeError(f"search_memory failed: {res.content}")
                return res.structured_content
            return call

        log(f"warming up: {len(pairs)} queries once each (fills the query-embedding cache)")
        t = time.perf_counter()
        warm, _ = await timed_loop(pairs, e2e(False), Deadline(time_budget), "warm-up")
        results["warmup"] = stats(warm)
        log(f"warm-up took {time.perf_counter() - t:.1f}s")
        log("timing search_memory end to end (includeProfile=false)")
        samples, e2e_out = await timed_loop(pairs, e2e(False), deadline, "e2e")
        results["e2e"] = stats(samples)
        log("timing search_memory end to end (includeProfile=true)")
        samples, _ = await timed_loop(pairs, e2e(True), deadline, "e2e+profile")
        results["e2e_profile"] = stats(samples)
    return e2e_out


async def time_service(rt: Runtime, principal: Principal, ds: Dataset, pairs: Sequence[Pair],
                       deadline: Deadline, results: dict[str, Any]) -> None:
    """The service function in-process (no HTTP, no MCP, no auth), and a query-embedding
    cache hit on its own."""
    async def service(p: Pair) -> Any:
        return await memory_service.search(
            rt, principal, query=p.text, keyword=None, category=None, include_profile=False,
            container_tag=ds.space_keys[p.space], limit=LIMIT)

    await timed_loop(pairs[:10], service, Deadline(60), "service warm-up")
    samples, _ = await timed_loop(pairs, service, deadline, "service")
    results["service"] = stats(samples)

    async def embed_hit(p: Pair) -> Any:
        return await rt.embed_one(p.text)

    samples, _ = await timed_loop(pairs, embed_hit, deadline, "embed cache hit")
    results["embed_hit"] = stats(samples)


async def time_sql(conn: Any, rt: Runtime, ds: Dataset, pairs: Sequence[Pair], ef_product: int,
                   deadline: Deadline, results: dict[str, Any]) -> list[list[Any]]:
    """Bare SQL: exactly db.memories.search after enable_filtered_ann, then the recall
    statistics in their own transaction, as services.memories.search runs them; the
    vector-only floor; the same query under row-level security. Returns the SQL's ids."""
    q_samples: list[float] = []
    r_samples: list[float] = []
    sql_ids: list[list[Any]] = []

    async def sql_txn(p: Pair) -> Any:
        async with conn.transaction():  # the search's one transaction
            # not durable (it writes only statistics); the request's space, as
            # access.narrow names it (the search reads through memories_in_scope); no
            # SET ROLE: the policies do not apply here
            await conn.execute("SELECT set_config('synchronous_commit', 'off', true)")
            await scope.limit(conn, [ds.space_ids[p.space]], [])
            t0 = time.perf_counter()
            rows, _ = await recall.ranked(  # exactly what search_memory runs
                rt, conn, ds.space_ids[p.space], query=p.text,
                vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                limit=LIMIT)
            q_samples.append(time.perf_counter() - t0)
            ids = [r["id"] for r in rows]
            t0 = time.perf_counter()
            # the recall statistics: the transaction's last statement (no savepoint: a failure
            # rolls the statistics-only transaction back, services/recall.py)
            await db.record_recalls(conn, ds.space_ids[p.space], ids)
            r_samples.append(time.perf_counter() - t0)
        return ids

    async def vector_only(p: Pair) -> Any:
        """The floor: the bare vector-only query at the same HNSW settings."""
        async with conn.transaction():
            await scope.limit(conn, [ds.space_ids[p.space]], [])
            await db.enable_search_ann(conn, ds.space_ids[p.space],
                                       floor=recall.EF_FLOOR, cap=ef_product)
            return await search_db.semantic(
                conn, ds.space_ids[p.space], ds.form,
                vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                limit=LIMIT)

    await timed_loop(pairs[:10], vector_only, Deadline(60), "vector-only warm-up")
    samples, _ = await timed_loop(pairs, vector_only, deadline, "vector-only")
    results["sql_vector"] = stats(samples)

    await timed_loop(pairs[:10], sql_txn, Deadline(60), "sql warm-up")
    q_samples.clear()
    r_samples.clear()
    samples, sql_ids = await timed_loop(pairs, sql_txn, deadline, "sql")
    results["sql_query"] = stats(q_samples)
    results["sql_recalls"] = stats(r_samples)
    results["sql_txn"] = stats(samples)

    # The same query under row-level security (migrations/0009): the transaction runs as
    # memory_mcp_app with the space named in memory_mcp.read_spaces, as the server does;
    # the two statements that set that up are timed too (they are part of the cost).
    rls_q: list[float] = []

    async def sql_rls(p: Pair) -> Any:
        async with conn.transaction():
            t0 = time.perf_counter()
            await scope.enter(conn, system=False)
            await scope.limit(conn, [ds.space_ids[p.space]], [])
            rows, _ = await recall.ranked(
                rt, conn, ds.space_ids[p.space], query=p.text,
                vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                limit=LIMIT)
            rls_q.append(time.perf_counter() - t0)
        return [r["id"] for r in rows]

    await timed_loop(pairs[:10], sql_rls, Deadline(60), "sql+rls warm-up")
    rls_q.clear()
    _, rls_ids = await timed_loop(pairs, sql_rls, deadline, "sql+rls")
    results["sql_query_rls"] = stats(rls_q)
    results["rls_identical"] = (sum(1 for a, b in zip(rls_ids, sql_ids, strict=False)
                                    if a == b), min(len(rls_ids), len(sql_ids)))
    return sql_ids
