"""The printed report of ``bench/search_latency.py``.

The report's layout is what people compare between runs (and quote in docs/), so it is kept in
one place, apart from the code that measures; it only formats the ``facts`` and ``results``
dicts the entry script collected.
"""

from __future__ import annotations

import argparse
from typing import Any

import _common as common
from _search_data import LIMIT, TOPICS
from _search_sql import inner_plan

from memory_mcp.config import STORAGE_DIMENSIONS
from memory_mcp.db import memories as db
from memory_mcp.db.search import SPACE_BUCKETS
from memory_mcp.services import recall


def fmt_row(name: str, s: dict[str, float], extra: str = "") -> str:
    return (f"  {name:<52} {s['n']:>5}  {s['p50']:>8.2f}  {s['p95']:>8.2f}  {s['mean']:>8.2f}"
            f"  {s['min']:>8.2f}  {extra}")


def report(args: argparse.Namespace, facts: dict[str, Any], r: dict[str, Any], ef: int) -> None:
    sd = facts["seeding"]
    print()
    print("=" * 100)
    print("Memory-MCP search latency benchmark")
    print("=" * 100)
    print("Machine / setup")
    facts["loadavg"] = f"{facts['loadavg']} before setup, {common.loadavg()} at the end (1/5/15 min)"
    for k in ("cpu", "cores", "ram", "loadavg", "python", "postgres", "pgvector", "pg_settings"):
        print(f"  {k:<14} {facts.get(k)}")
    print(f"  {'N':<14} {args.n} memories over {args.spaces} spaces "
          f"({sd['live']} live; ~2% forgotten, ~3% superseded), "
          f"{args.clusters_per_space}/{len(TOPICS)} clusters per space, "
          f"native dims {args.native_dims} zero-padded to {STORAGE_DIMENSIONS} (halfvec)")
    print(f"  {'sizes':<14} heap+toast {sd['heap_toast']}, HNSW index {sd['hnsw_size']}")
    print(f"  {'index':<14} {sd['indexdef']}")
    graphs, spaces = len(set(sd["buckets"])), len(sd["buckets"])
    layout = ("each space alone in its graph" if graphs == spaces
              else f"{spaces} spaces in {graphs} graph(s)")
    print(f"  {'graphs':<14} one HNSW graph per bucket of spaces ({SPACE_BUCKETS} buckets, "
          f"migration 0012); the spaces' buckets: {sd['buckets']} ({layout})")
    print()
    print("Seeding (binary COPY of precomputed vectors)")
    if sd["mode"] == "rebuild":
        print(f"  bulk COPY without the HNSW index: {sd['copy_bulk_rows']} rows in "
              f"{sd['copy_bulk_s']:.1f}s")
        print(f"  CREATE INDEX (hnsw, maintenance_work_mem=1GB, "
              f"max_parallel_maintenance_workers={sd['build_workers']}): {sd['index_build_s']:.1f}s")
    rows_idx = sd.get("copy_with_index_rows", 0)
    if rows_idx:
        per = sd["copy_with_index_s"] / rows_idx
        print(f"  COPY into the existing HNSW index: {rows_idx} rows in {sd['copy_with_index_s']:.1f}s"
              f" = {per * 1000:.1f} ms/row (so all {args.n} rows that way: ~{per * args.n:.0f}s)")
    print(f"  VACUUM ANALYZE {sd['vacuum_analyze_s']:.1f}s; CHECKPOINT {sd['checkpoint_s']:.1f}s; "
          f"seeding total {sd['total_s']:.1f}s")
    print()
    print("EXPLAIN (ANALYZE, BUFFERS) of the SQL db.memories.search sends (first query pair; the "
          "vector literal is elided)")
    for name, plan in r["plans"].items():
        print(f"  -- {name}")
        lines = plan.splitlines()
        if "inner part" in name:
            lines = inner_plan(plan)
        for line in lines:
            print(f"     {line}")
    print()
    print(f"Latency, ms (limit={LIMIT}, {args.queries} (query, space) pairs over {args.spaces} spaces, "
          f"{args.rounds} rounds; query embedding CACHED, i.e. excluded)")
    print(f"  {'':<52} {'n':>5}  {'p50':>8}  {'p95':>8}  {'mean':>8}  {'min':>8}")
    print(fmt_row("warm-up e2e (first call: embeds the query)", r["warmup"]))
    print(fmt_row("search_memory over HTTP/MCP, includeProfile=false", r["e2e"]))
    print(fmt_row("search_memory over HTTP/MCP, includeProfile=true", r["e2e_profile"]))
    print(fmt_row("service memories.search in-process (no HTTP)", r["service"]))
    print(fmt_row("  of which rt.embed_one on a cache hit", r["embed_hit"]))
    print(fmt_row("SQL txn: 2x SET, search, recall statistics, COMMIT", r["sql_txn"]))
    print(fmt_row("  of which the recall statistics (upsert)", r["sql_recalls"]))
    print(fmt_row("SQL query alone (recall.ranked: what search_memory runs)", r["sql_query"]))
    print(fmt_row("baseline: bare vector-only HNSW query, same settings", r["sql_vector"]))
    print(fmt_row("SQL query under row-level security (+ SET ROLE, scope)", r["sql_query_rls"]))
    e2e, sq, vo = r["e2e"], r["sql_query"], r["sql_vector"]
    rls, (rls_same, rls_n) = r["sql_query_rls"], r["rls_identical"]
    print(f"  ratio with / without row-level security: p50 {rls['p50'] / sq['p50']:.2f}x, "
          f"p95 {rls['p95'] / sq['p95']:.2f}x; identical results {rls_same}/{rls_n}")
    print(f"  ratio search_memory SQL / vector-only floor: p50 {sq['p50'] / vo['p50']:.2f}x, "
          f"p95 {sq['p95'] / vo['p95']:.2f}x   (target <= 2x)")
    print(f"  ratio end-to-end / SQL query: p50 {e2e['p50'] / sq['p50']:.2f}x, "
          f"p95 {e2e['p95'] / sq['p95']:.2f}x (target <= 1.5x);  end-to-end / SQL txns: "
          f"p50 {e2e['p50'] / r['sql_txn']['p50']:.2f}x")
    cpu = r.get("cpu")
    if cpu is None:
        print("  CPU per HTTP call: not measured (needs Linux /proc and the PostgreSQL pid)")
    else:
        spent = cpu["client"] + cpu["server"] + cpu["postgres"]
        print(f"  CPU per HTTP call (includeProfile=false; calls are sequential, so the three take "
              f"turns): client {cpu['client']:.2f} ms, server {cpu['server']:.2f} ms, PostgreSQL "
              f"{cpu['postgres']:.2f} ms; together {spent:.2f} of {cpu['wall']:.2f} ms wall (mean)")
    same, total = r["identical"]
    print(f"  identical top-{LIMIT} ids, HTTP vs SQL: {same}/{total} pairs; the product plan uses the "
          f"HNSW index in {r['hnsw_spaces']}/{args.spaces} spaces (EXPLAIN per space)")
    print()
    rc = r["recall"]
    kinds = rc["kinds"]
    print(f"Recall@{LIMIT} vs exact search (exact = same SQL with enable_indexscan=off), per space")
    print("  queries: " + ", ".join(f"{rc['n'][k]} {k}" for k in kinds)
          + " (on/off-topic: synthetic vectors near a cluster the space holds / does not hold)")
    head = "".join(f"{k:>13}" for k in kinds)
    print(f"  {'setting':<50}{head}  {'min':>5}  {'d-gap%':>6}  {'p50 ms':>7}  {'p95 ms':>7}"
          f"  {'HNSW plan':>9}")
    ex = rc["exact"]
    print(f"  {'exact (scan + sort)':<50}{'1.000':>13}{'1.000':>13}{'1.000':>13}  {'':>5}  "
          f"{0.0:>6.2f}  {ex['p50']:>7.2f}  {ex['p95']:>7.2f}  {'no':>9}")
    for row in rc["rows"]:
        rec = "".join(f"{row['recall'][k]:>13.3f}" for k in kinds)
        mn = min((v for v in row["min_recall"].values() if v == v), default=float("nan"))
        short = sum(row["short"].values())
        note = f"  ({short} queries returned < {LIMIT} rows)" if short else ""
        print(f"  {row['name']:<50}{rec}  {mn:>5.2f}  {row['gap']:>6.2f}  {row['latency']['p50']:>7.2f}  "
              f"{row['latency']['p95']:>7.2f}  {row['hnsw_spaces']:>9}{note}")
    print(f"  product setting: hnsw.iterative_scan=relaxed_order, hnsw.ef_search = the space's "
          f"live memories / {db.EF_PER_MEMORIES}, between {recall.EF_FLOOR} and {ef} "
          "(= max(hnsw_ef_search, 2*limit)).")
    print("  * HNSW forced = the same plus SET LOCAL enable_seqscan/enable_bitmapscan/enable_sort = off "
          "(diagnostic: what the index gives when the planner uses it).")
    print("  min = worst single query; d-gap% = how much larger the mean cosine distance of the "
          "returned top-10 is than the exact top-10's (0 = as close; over the first k when fewer came back).")
    print("  'HNSW plan' = spaces whose plan uses the HNSW index (EXPLAIN); latency = the search "
          "statement alone.")
    lim = rc["order_limit"]
    print(f"  result order at limit={lim} (search_memory's maximum): " + "; ".join(
        f"{label}: {bad}/{n} result lists NOT in descending score order"
        for label, (bad, n) in rc["order"].items()))
    print()
    print("Notes")
    print(f"  * The server runs in its own process; calls are sequential; the layers take turns "
          f"({args.rounds} rounds, each timing every layer over all the pairs).")
    print("  * search_memory resolves the space, searches and records its recall statistics "
          "(memory_recalls upsert, its last statement; a failure rolls it back) in one transaction "
          "that commits "
          "without waiting for the WAL flush when the query's vector is cached (the 'SQL txn' "
          "row times that shape).")
    print("  * Warm caches: the data fits in RAM; shared_buffers is the embedded server's default.")
    common.print_closing_notes(facts.get("load_start", 0.0), facts.get("deadline_notes", []),
                               ", so latencies are noisy; compare runs with care.")
    print("=" * 100)
