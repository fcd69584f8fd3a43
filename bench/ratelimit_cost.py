"""What the per-key rate limit costs on the hot path: authentication with and without it.

Run: ``.venv/bin/python bench/ratelimit_cost.py [--calls 2000] [--concurrency 1,8]``. Prints
numbers and asserts nothing.

Every request authenticates (``services.keys.authenticate_header``: one transaction that loads
the principal and, when the key has a request budget, upserts its ``rate_windows`` row). This
times that call as the server makes it, in the same run, for three kinds of key:

- ``unlimited``: the key's own limit is 0, so no counting happens — the baseline;
- ``limited``: a budget far above what the run uses, so every call counts and none is refused;
- ``limited, shared key``: the same, with all concurrent callers on ONE key, so their upserts
  queue on one row (the worst case: an agent fleet sharing a key).

Calls alternate between the kinds in small rounds so machine noise lands on all of them alike.
Medians and p95 in milliseconds, and the ratio to the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import _common as common  # bench/ is on sys.path when this file runs as a script
import anyio
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.services import admin
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
HIGH = 1_000_000_000  # a budget the run never reaches: every call counts, none is refused
ROUND = 20


async def _time_calls(rt: Runtime, headers: Sequence[str], calls: int) -> list[float]:
    """``calls`` authentications spread over ``len(headers)`` concurrent callers."""
    samples: list[float] = []

    async def caller(header: str, count: int) -> None:
        for _ in range(count):
            t = time.perf_counter()
            await authenticate_header(rt, header)
            samples.append(time.perf_counter() - t)

    per = max(1, calls // len(headers))
    async with anyio.create_task_group() as tg:
        for header in headers:
            tg.start_soon(caller, header, per)
    return samples


def _row(name: str, samples: Sequence[float], base: Sequence[float]) -> str:
    def p(xs: Sequence[float], q: float) -> float:
        return 1000 * sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]

    p50, p95 = statistics.median(samples) * 1000, p(samples, 0.95)
    b50, b95 = statistics.median(base) * 1000, p(base, 0.95)
    return (f"{name:<28} {len(samples):>6} {p50:>8.2f} {p95:>8.2f}   "
            f"{p50 / b50:>5.2f}x {p95 / b95:>5.2f}x")


async def run(url: str, args: argparse.Namespace) -> None:
    settings = Settings(database_url=SecretStr(url), data_dir=Path(args.work),
                        migrations_dir=ROOT / "migrations", pool_min_size=2,
                        pool_max_size=max(4, max(args.concurrency) + 2), log_level="WARNING")
    async with common.product_runtime(settings, url) as rt:
        user = await admin.create_user(rt, "bench-limits@example.test", "Bench", "writer")
        width = max(args.concurrency)
        keys: dict[str, list[str]] = {"unlimited": [], "limited": []}
        for kind, limit in (("unlimited", "0"), ("limited", str(HIGH))):
            for i in range(width):
                key = await admin.create_key(rt, user["id"], f"{kind}-{i}")
                await admin.set_key_limits(rt, key["id"], limit, limit)
                keys[kind].append(f"Bearer {key['key']}")
        for header in keys["unlimited"] + keys["limited"]:  # warm the pool and the caches
            await authenticate_header(rt, header)

        print(f"\nauthenticate_header: {args.calls} calls per kind and concurrency, "
              f"rounds of {ROUND}; load {common.loadavg()}")
        print(f"{'kind':<28} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8}   vs unlimited p50/p95")
        for conc in args.concurrency:
            got: dict[str, list[float]] = {"unlimited": [], "limited": [], "shared": []}
            plan = {"unlimited": keys["unlimited"][:conc], "limited": keys["limited"][:conc],
                    "shared": [keys["limited"][0]] * conc}
            while len(got["unlimited"]) < args.calls:
                for kind, headers in plan.items():
                    got[kind] += await _time_calls(rt, headers, ROUND * conc)
            print(f"-- {conc} concurrent caller(s)")
            print(_row("unlimited (baseline)", got["unlimited"], got["unlimited"]))
            print(_row("limited, own key each", got["limited"], got["unlimited"]))
            print(_row("limited, one shared key", got["shared"], got["unlimited"]))
        print(f"\nload average at the end: {common.loadavg()}")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--calls", type=int, default=2000, help="calls per kind and concurrency")
    p.add_argument("--concurrency", default="1,8",
                   help="comma-separated numbers of concurrent callers (default 1,8)")
    p.add_argument("--data-dir", default=None, help="where the embedded PostgreSQL lives")
    args = p.parse_args(argv)
    args.concurrency = [max(1, int(x)) for x in args.concurrency.split(",")]
    logging.basicConfig(level=logging.WARNING)
    with common.work_dir(args.data_dir, "memory-mcp-ratelimit-") as work:
        args.work = str(work)
        common.run_on_embedded(work / "pg", "ratelimit", run, args)


if __name__ == "__main__":
    main()
