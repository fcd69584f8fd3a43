"""Space isolation at full scale: the machinery of tests/test_isolation_property.py (the model
and checks in tests/isolation_*.py) driven by a seeded random walk instead of hypothesis.

Run: ``.venv/bin/python bench/isolation.py [--calls 10000] [--budget 1800] [--seed 1]
[--steps 300] [--data-dir DIR]``.

1. Starts its own embedded PostgreSQL, migrates a fresh database and serves the real app under
   uvicorn on a loopback port (no rate limits, local uploads with the in-process worker).
2. Scenario after scenario (2-4 new spaces, a seeding Writer, 2-3 users with 1-2 keys each and
   random Read/ReadWrite grants), ``--steps`` weighted random operations: every tool, every
   resource, the ``context`` prompt, ``POST /uploads`` and the local PUT, ungranted-versus-
   nonexistent pairs, grant changes, key revocations, deactivations and role changes. Earlier
   scenarios' spaces stay in the database as foreign content.
3. Every HTTP request is checked: (a) no foreign marker, space key or id in any body; (b) no
   write outside effective ReadWrite (per-space fingerprints through a system transaction);
   (c) ungranted answers byte-identical to nonexistent ones once tags and ids are normalised;
   (d) revoked keys and deactivated users refused with 401 on the very next request.
4. Stops at ``--calls`` requests or after ``--budget`` seconds, whichever comes first, and prints
   the calls per tool, the checks made, the violations (must be 0), model mismatches and the
   time taken. Exit status 1 when any violation or mismatch was found.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the shared machinery lives with the test suite

import _common as common  # noqa: E402
import isolation_server as server  # noqa: E402
import isolation_world as iso  # noqa: E402
from _common import log  # noqa: E402

MAX_SHOWN = 20


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=10_000, help="HTTP requests to make")
    p.add_argument("--budget", type=float, default=1800.0, help="time budget in seconds")
    p.add_argument("--seed", type=int, default=1, help="seed of the random walk")
    p.add_argument("--steps", type=int, default=300, help="operations per scenario")
    p.add_argument("--data-dir", help="where the embedded PostgreSQL lives (default: a temp dir)")
    return p.parse_args(argv)


def report(world: iso.IsolationWorld, seconds: float, stopped_early: bool, seed: int,
           load_start: float) -> int:
    stats = world.stats
    print()
    print(f"Isolation: {stats.total:,} HTTP calls in {seconds:.1f} s "
          f"({stats.total / max(seconds, 1e-9):.1f} calls/s), seed {seed}, "
          f"{world.scenario} scenarios, {len(world.spaces)} spaces")
    print(f"  waiting for HTTP answers {stats.http_seconds:.1f} s, database checks "
          f"{stats.db_seconds:.1f} s, the rest (admin, model, scanning) "
          f"{seconds - stats.http_seconds - stats.db_seconds:.1f} s")
    print("\nCalls by tool / route:")
    width = max((len(op) for op in stats.calls), default=10)
    for op, n in sorted(stats.calls.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {op:<{width}}  {n:>6,}")
    print("\nChecks:")
    for name, n in sorted(stats.checks.items()):
        print(f"  {name:<28}  {n:>6,}")
    print(f"\nViolations found: {len(stats.violations)}")
    for line in stats.violations[:MAX_SHOWN]:
        print(f"  - {line}")
    print(f"Model mismatches: {len(stats.mismatches)}")
    for line in stats.mismatches[:MAX_SHOWN]:
        print(f"  - {line}")
    if stopped_early:
        print(f"\n  * STOPPED EARLY: the time budget ran out after {stats.total:,} calls.")
    common.print_closing_notes(load_start, [], "; the rate above is lower than alone.")
    return 1 if stats.violations or stats.mismatches else 0


def progress(world: iso.IsolationWorld) -> None:
    stats = world.stats
    log(f"scenario {world.scenario + 1}: {stats.total:,} calls so far, "
        f"{len(stats.violations)} violations, {len(stats.mismatches)} mismatches")


async def run(url: str, args: argparse.Namespace) -> None:
    load_start = common.load1()
    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-isolation-bench-"))
    try:
        settings = server.isolation_settings(url, data_dir)
        with server.quiet_logs(), server.serving(settings) as (base, app):
            world = iso.IsolationWorld(base, app, settings, url, strict=False)
            try:
                log(f"server at {base}; walking until {args.calls:,} calls or {args.budget:.0f} s")
                start = time.monotonic()
                stopped = iso.run_random(world, random.Random(args.seed), calls=args.calls,
                                         budget_s=args.budget, steps=args.steps,
                                         progress=progress)
                log("waiting for the upload worker, then auditing every row's authors")
                world.finish()
                seconds = time.monotonic() - start
                args.exit_code = report(world, seconds, stopped, args.seed, load_start)
            finally:
                world.close()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.exit_code = 1
    runner: Any = run
    common.run_on_embedded(args.data_dir, "isolation", runner, args)
    return int(args.exit_code)


if __name__ == "__main__":
    sys.exit(main())
