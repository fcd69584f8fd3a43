"""The timed loops of ``bench/search_latency.py``: the same pairs end to end, in-process, as SQL.

Every layer (HTTP/MCP, the service function, the bare SQL, the SQL under row-level security,
the vector-only floor) is timed over the same (query, space) pairs so the ratios in the report
compare like with like. The layers take turns: each round times every layer once over all the
pairs, and the statistics pool the rounds. Timed one after another, the first layer would also
carry whatever the machine did at the time (right after seeding: autovacuum and the checkpointer
writing the new rows; on a shared machine: a neighbour's burst), and a ratio between two layers
would measure that instead of the layers.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import _common as common
import numpy as np
from _common import Deadline, log
from _search_cpu import CpuMeter
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

Call = Callable[[Pair], Awaitable[Any]]


def stats(samples: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean/min in milliseconds (samples are seconds)."""
    if not samples:
        return {"n": 0, "p50": float("nan"), "p95": float("nan"), "mean": float("nan"),
                "min": float("nan")}
    a = np.asarray(samples) * 1000.0
    return {"n": len(a), "p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "mean": float(a.mean()), "min": float(a.min())}


async def timed_loop(pairs: Sequence[Pair], call: Call, deadline: Deadline,
                     what: str) -> tuple[list[float], list[Any]]:
    return await common.timed_loop(
        pairs, call, deadline, lambda i, n: f"{what}: time budget spent after {i}/{n} calls",
        timeout_s=CALL_TIMEOUT_S)


@dataclass
class Layer:
    """One timed layer: its call, and its samples pooled over the rounds (``parts``: samples a
    call records for a part of itself, e.g. the query inside its transaction)."""

    name: str
    call: Call
    samples: list[float] = field(default_factory=list)
    parts: dict[str, list[float]] = field(default_factory=dict)
    last: list[Any] = field(default_factory=list)


def sql_layers(conn: Any, rt: Runtime, ds: Dataset, ef_product: int) -> list[Layer]:
    """Bare SQL: exactly what search_memory runs (its transaction's statements, without the
    policies), the vector-only floor, and the same query under row-level security."""
    query: list[float] = []
    recalls: list[float] = []
    query_rls: list[float] = []

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
            query.append(time.perf_counter() - t0)
            ids = [r["id"] for r in rows]
            t0 = time.perf_counter()
            # the recall statistics: the transaction's last statement (no savepoint: a failure
            # rolls the statistics-only transaction back, services/recall.py)
            await db.record_recalls(conn, ds.space_ids[p.space], ids)
            recalls.append(time.perf_counter() - t0)
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

    # The same query under row-level security (migrations/0009): the transaction runs as
    # memory_mcp_app with the space named in memory_mcp.read_spaces, as the server does;
    # the two statements that set that up are timed too (they are part of the cost).
    async def sql_rls(p: Pair) -> Any:
        async with conn.transaction():
            t0 = time.perf_counter()
            await scope.enter(conn, system=False)
            await scope.limit(conn, [ds.space_ids[p.space]], [])
            rows, _ = await recall.ranked(
                rt, conn, ds.space_ids[p.space], query=p.text,
                vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                limit=LIMIT)
            query_rls.append(time.perf_counter() - t0)
        return [r["id"] for r in rows]

    return [Layer("sql_vector", vector_only),
            Layer("sql_txn", sql_txn, parts={"sql_query": query, "sql_recalls": recalls}),
            Layer("sql_rls", sql_rls, parts={"sql_query_rls": query_rls})]


async def time_layers(mcp_url: str, rt: Runtime, principal: Principal, conn: Any, ds: Dataset,
                      pairs: Sequence[Pair], ef_product: int, rounds: int, time_budget: float,
                      deadline: Deadline, results: dict[str, Any],
                      meter: CpuMeter) -> tuple[list[Any], list[Any]]:
    """Warm every layer up, then time them in turns, ``rounds`` times over all the pairs
    (``meter`` reads the CPU each process spends during the HTTP passes without the profile).
    Returns the last round's structured results over HTTP (includeProfile=false) and its SQL ids.
    """
    async with mcp_client(mcp_url, ds.key) as client:

        def e2e(profile: bool) -> Call:
            async def call(p: Pair) -> Any:
                res = await client.call_tool("search_memory", {
                    "query": p.text, "containerTag": ds.space_keys[p.space],
                    "limit": LIMIT, "includeProfile": profile})
                if res.is_error:
                    raise RuntimeError(f"search_memory failed: {res.content}")
                return res.structured_content
            return call

        async def service(p: Pair) -> Any:
            """The service function in-process (no HTTP, no MCP, no auth)."""
            return await memory_service.search(
                rt, principal, query=p.text, keyword=None, category=None, include_profile=False,
                container_tag=ds.space_keys[p.space], limit=LIMIT)

        async def embed_hit(p: Pair) -> Any:  # the service's cache entry (space and caller)
            return await rt.embed_one(p.text, (ds.space_ids[p.space], principal.user_id))

        layers = [Layer("e2e", e2e(False)), Layer("e2e_profile", e2e(True)),
                  Layer("service", service), Layer("embed_hit", embed_hit),
                  *sql_layers(conn, rt, ds, ef_product)]

        log(f"warming up: {len(pairs)} queries once each over HTTP (fills the query-embedding "
            "cache), then 10 calls of every other layer")
        t = time.perf_counter()
        warm, _ = await timed_loop(pairs, layers[0].call, Deadline(time_budget), "warm-up")
        results["warmup"] = stats(warm)
        log(f"warm-up took {time.perf_counter() - t:.1f}s")
        for layer in layers[1:]:
            await timed_loop(pairs[:10], layer.call, Deadline(60), f"{layer.name} warm-up")
            for warm_part in layer.parts.values():
                warm_part.clear()

        for r in range(rounds):
            if deadline.expired():
                deadline.notes.append(f"time budget spent after {r}/{rounds} rounds")
                break
            log(f"round {r + 1}/{rounds}: " + ", ".join(layer.name for layer in layers))
            complete = True
            for layer in layers:
                before = meter.snapshot() if layer.name == "e2e" else None
                samples, last = await timed_loop(pairs, layer.call, deadline, layer.name)
                if before is not None:
                    meter.add(before, meter.snapshot(), len(samples), sum(samples))
                layer.samples.extend(samples)
                if len(last) == len(pairs):  # the comparisons use one complete round
                    layer.last = last
                complete = complete and len(samples) == len(pairs)
            if not complete:  # the budget ran out within the round: no layer gets another
                break

    results["cpu"] = meter.per_call_ms() if meter.available else None
    for layer in layers:
        results[layer.name] = stats(layer.samples)
        for part, part_samples in layer.parts.items():
            results[part] = stats(part_samples)
    by_name = {layer.name: layer for layer in layers}
    rls_ids, sql_ids = by_name["sql_rls"].last, by_name["sql_txn"].last
    results["rls_identical"] = (sum(1 for a, b in zip(rls_ids, sql_ids, strict=False) if a == b),
                                min(len(rls_ids), len(sql_ids)))
    return by_name["e2e"].last, sql_ids
