"""Recall of mid-size spaces that share their bucket's HNSW graph with a much larger space.

A full test run once showed a bucket graph that could not reach a small space's rows at all,
and spaces of at most 500 memories have been read exactly since (``ann.EXACT_SPACE``). A larger
space still depends on the graph alone. Its worst case is a bucket it shares with a space a
hundred times its size *on the same topics*: a filtered graph walk must pass most of the large
space's rows to reach its own, and pgvector's iterative scan stops at ``hnsw.max_scan_tuples``
or when its memory passes ``work_mem * hnsw.scan_mem_multiplier``. Then half of the large
space is deleted (its rows dead in the graph until VACUUM), and the graph is cleaned up:
``--cleanup reindex`` (the default) rebuilds the bucket's graph (``REINDEX INDEX
CONCURRENTLY``) before ``VACUUM``, as pgvector advises for large deletes; ``--cleanup vacuum``
lets VACUUM repair the graph in place (at 100k with half deleted it had not finished after 15
minutes here), ``--cleanup none`` stops before.

Every space goes into one bucket; the mid-size ones draw from the large one's topics. For each
space and phase: recall@10 of the product's vector search (its plan, its ef_search for the
space's size) against an exact scan, the lowest single query's recall, queries answered with
fewer rows than the exact scan, and the search's p50. Prints numbers; asserts nothing.

    .venv/bin/python bench/bucket_skew.py [--big 100000] [--mids 501,1000,3000] [--queries 30]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import _common as common
import anyio
import numpy as np
import psycopg
from _common import log
from _search_data import Dataset, noisy, padded
from _search_seed import make_dataset, seed
from _search_sql import product_search
from psycopg.rows import dict_row
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import memories as db

ROOT = Path(__file__).resolve().parents[1]


async def measure(conn: Any, ds: Dataset, queries: list[list[str]], ef_cap: int
                  ) -> list[tuple[float, float, int, float]]:
    """Per space: mean and lowest recall@10, short answers, p50 ms of the product's search."""
    out = []
    for s, literals in enumerate(queries):
        recalls, short, seconds = [], 0, []
        for lit in literals:
            exact, *_ = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef_cap,
                                             exact=True)
            found, dt, _, _ = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef_cap,
                                                   product_ef=True)
            recalls.append(len(set(found) & set(exact)) / max(1, len(exact)))
            short += len(found) < len(exact)
            seconds.append(dt)
        out.append((float(np.mean(recalls)), min(recalls), short,
                    statistics.median(seconds) * 1000))
    return out


async def run(url: str, args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    mids = [int(x) for x in args.mids.split(",")]
    shape = argparse.Namespace(spaces=1 + len(mids), one_bucket=True, native_dims=384,
                               clusters_per_space=50, n=args.big + sum(mids))
    settings = Settings(database_url=SecretStr(url), data_dir=args.data_dir,
                        migrations_dir=ROOT / "migrations", auto_migrate=True,
                        log_level="WARNING")
    async with common.product_runtime(settings, url) as rt:
        ds = await make_dataset(rt, shape, rng)
    ds.counts[:] = [args.big, *mids]
    for s in range(1, len(ds.space_ids)):  # the large space's topics: the worst case
        ds.space_clusters[s] = ds.space_clusters[0]
    log(f"seeding {shape.n} memories into one bucket")
    t = time.perf_counter()
    seeded = await anyio.to_thread.run_sync(
        lambda: seed(url, ds, shape.n, "rebuild", 500, rng, (0.6, 1.1)))
    log(f"seeded in {time.perf_counter() - t:.0f}s, buckets {seeded['buckets']}")
    queries = [[db.vector_literal(v.tolist()) for v in padded(noisy(
        ds.centroids, rng.choice(ds.space_clusters[s], args.queries), 0.8, rng))]
        for s in range(len(ds.space_ids))]
    phases: list[tuple[str, list[tuple[float, float, int, float]]]] = []
    async with await psycopg.AsyncConnection.connect(url, prepare_threshold=None,
                                                     row_factory=dict_row) as conn:
        phases.append(("fresh", await measure(conn, ds, queries, settings.hnsw_ef_search)))
        print_rows(*phases[-1], mids, args.queries)
        log(f"deleting {args.delete_share:.0%} of the large space's rows")
        t = time.perf_counter()
        async with conn.transaction():
            cur = await conn.execute(
                "DELETE FROM memories WHERE space_id = %s AND random() < %s",
                (ds.space_ids[0], args.delete_share))
            deleted = cur.rowcount
        log(f"deleted {deleted} rows in {time.perf_counter() - t:.1f}s")
        phases.append((f"{deleted} of its rows deleted ({time.perf_counter() - t:.0f} s), "
                       "before VACUUM",
                       await measure(conn, ds, queries, settings.hnsw_ef_search)))
        print_rows(*phases[-1], mids, args.queries)
    if args.cleanup != "none":
        label = await anyio.to_thread.run_sync(lambda: cleanup(url, seeded, args.cleanup))
        async with await psycopg.AsyncConnection.connect(url, prepare_threshold=None,
                                                         row_factory=dict_row) as conn:
            phases.append((label, await measure(conn, ds, queries, settings.hnsw_ef_search)))
    print(f"\nOne bucket: a space of {args.big:,} memories and spaces of {args.mids} on its "
          f"topics; {args.queries} queries a space; recall@10 against an exact scan.\n")
    print("| phase | space | recall@10 | lowest | short answers | p50 |")
    print("|---|---|---|---|---|---|")
    for label, rows in phases:
        print_rows(label, rows, mids, args.queries)


def print_rows(label: str, rows: list[tuple[float, float, int, float]], mids: list[int],
               queries: int) -> None:
    for size, (mean, low, short, p50) in zip(["large", *(f"{m:,}" for m in mids)], rows,
                                             strict=True):
        print(f"| {label} | {size} | {mean:.3f} | {low:.2f} | {short}/{queries} | "
              f"{p50:.1f} ms |", flush=True)


def cleanup(url: str, seeded: dict[str, Any], how: str) -> str:
    """Clean the dead rows out of the bucket's graph; the phase's label, with the time taken."""
    with psycopg.connect(url, autocommit=True) as plain:
        took = []
        if how == "reindex":
            name = str(seeded["indexdef"]).split(" ON ")[0].split()[-1]  # the bucket's graph
            plain.execute("SET maintenance_work_mem = '1GB'")  # as the seed's build had
            t = time.perf_counter()
            plain.execute(f"REINDEX INDEX CONCURRENTLY {name}")
            took.append(f"REINDEX CONCURRENTLY {time.perf_counter() - t:.0f} s")
        t = time.perf_counter()
        plain.execute("VACUUM ANALYZE memories")
        took.append(f"VACUUM {time.perf_counter() - t:.0f} s")
    log(", ".join(took))
    return "after " + ", then ".join(took)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--big", type=int, default=100_000, help="memories of the large space")
    p.add_argument("--mids", default="501,1000,3000", help="sizes of the other spaces")
    p.add_argument("--queries", type=int, default=30, help="queries per space")
    p.add_argument("--delete-share", type=float, default=0.5,
                   help="share of the large space's rows deleted before the last phases")
    p.add_argument("--cleanup", choices=("reindex", "vacuum", "none"), default="reindex",
                   help="how the dead rows leave the graph before the last phase")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--pg-dir", default=None, help="where the embedded PostgreSQL lives")
    common.run_with_data_dir(p.parse_args(argv), "skew", run)


if __name__ == "__main__":
    main()
