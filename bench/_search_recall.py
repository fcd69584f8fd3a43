"""Recall@10 of ``bench/search_latency.py``: the product's HNSW search against exact search.

Recall is the number the latency numbers are only worth something next to: a faster plan that
misses neighbours is no win. It has its own query mix (synthetic on/off-topic vectors plus the
text queries), its own settings sweep and the result-order check, so it is its own module.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from _common import Deadline
from _search_data import TOPICS, Dataset, Pair, noisy, padded, vector_index
from _search_sql import product_search
from _search_timing import stats

from memory_mcp.db import memories as db
from memory_mcp.services import recall


def mean_distance(scores: Sequence[float]) -> float:
    """Mean cosine distance of a result list (score = 1 - distance)."""
    return float(np.mean([1.0 - x for x in scores])) if scores else float("nan")


def recall_at(found: list[Any], exact: list[Any]) -> float:
    if not exact:
        return 1.0
    return len(set(found) & set(exact)) / len(exact)


async def measure_recall(conn: Any, ds: Dataset, pairs: Sequence[Pair], args: argparse.Namespace,
                         rng: np.random.Generator, ef_product: int, deadline: Deadline
                         ) -> dict[str, Any]:
    """recall@10 and latency per setting, on-topic/off-topic synthetic and text queries."""
    queries: list[tuple[str, int, str]] = []  # (kind, space, literal)
    n_topics = len(TOPICS)
    for s in range(len(ds.space_ids)):
        on = ds.space_clusters[s]
        off = np.setdiff1d(np.arange(n_topics), on)
        half = args.recall_queries // 2
        picks = [("on-topic", int(c)) for c in rng.choice(on, half)]
        if len(off):
            picks += [("off-topic", int(c)) for c in rng.choice(off, args.recall_queries - half)]
        vecs = padded(noisy(ds.centroids, np.array([c for _, c in picks]), 0.8, rng))
        queries += [(kind, s, db.vector_literal(v.tolist())) for (kind, _), v in zip(picks, vecs,
                                                                                      strict=True)]
    queries += [("text query", p.space, p.vector) for p in pairs[: args.recall_queries * 2]]

    rows: list[tuple[str, int, str, bool]] = [
        (f"product: planner's choice, ef_search<={ef_product} by size", ef_product,
         "relaxed_order", False)]
    rows += [(f"HNSW forced*, ef_search={ef}", ef, "relaxed_order", True)
             for ef in sorted({40, 200, 400, ef_product})]
    rows.append((f"HNSW forced*, ef_search={ef_product}, iterative_scan=off", ef_product, "off",
                 True))

    exact_ids: list[list[Any]] = []
    exact_t: list[float] = []
    exact_dist: list[list[float]] = []
    for i, (_, s, lit) in enumerate(queries):
        if deadline.expired():
            deadline.notes.append(f"recall: time budget spent after {i}/{len(queries)} exact queries")
            break
        ids, dt, _, scores = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef_product,
                                                  exact=True)
        exact_ids.append(ids)
        exact_t.append(dt)
        exact_dist.append(scores)
    queries = queries[: len(exact_ids)]
    kinds = ["on-topic", "off-topic", "text query"]
    out: dict[str, Any] = {"exact": stats(exact_t), "rows": [], "kinds": kinds,
                           "n": {k: sum(1 for q in queries if q[0] == k) for k in kinds}}
    first_of_space = {q[1]: q for q in reversed(queries)}
    for name, ef, iterative, force in rows:
        used = 0
        for s, (_, _, lit) in first_of_space.items():
            _, _, plan, _ = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef,
                                                 iterative=iterative, force_hnsw=force,
                                                 explain="EXPLAIN", product_ef=not force)
            used += vector_index(ds.form) in plan
        rec: dict[str, list[float]] = {k: [] for k in kinds}
        short: dict[str, int] = {k: 0 for k in kinds}
        lat: list[float] = []
        gaps: list[float] = []
        for (kind, s, lit), ex, ex_d in zip(queries, exact_ids, exact_dist, strict=True):
            ids, dt, _, scores = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef,
                                                      iterative=iterative, force_hnsw=force,
                                                      product_ef=not force)
            lat.append(dt)
            k = min(len(scores), len(ex_d))  # short lists are counted separately
            if k and mean_distance(ex_d[:k]) > 0:
                gaps.append(mean_distance(scores[:k]) / mean_distance(ex_d[:k]) - 1.0)
            rec[kind].append(recall_at(ids, ex))
            short[kind] += len(ids) < len(ex)
        out["rows"].append({
            "name": name, "latency": stats(lat),
            "recall": {k: float(np.mean(v)) if v else float("nan") for k, v in rec.items()},
            "min_recall": {k: float(np.min(v)) if v else float("nan") for k, v in rec.items()},
            "short": short, "hnsw_spaces": f"{used}/{len(first_of_space)}",
            "gap": 100.0 * float(np.mean(gaps)) if gaps else float("nan"),
        })

    # Result order: search_memory promises results by descending score. Checked at the largest
    # allowed limit, with the planner's own plan and with the HNSW plan.
    big = recall.MAX_SEARCH_LIMIT
    ef_big = max(ef_product, 2 * big)
    order: dict[str, tuple[int, int]] = {}
    for label, force in (("planner's choice", False), ("HNSW forced*", True)):
        bad = 0
        for _, s, lit in queries:
            _, _, _, scores = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef_big,
                                                   force_hnsw=force, limit=big)
            bad += any(a < b for a, b in itertools.pairwise(scores))
        order[label] = (bad, len(queries))
    out["order"] = order
    out["order_limit"] = big
    return out
