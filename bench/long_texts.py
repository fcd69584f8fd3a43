"""Long texts under concurrency: what parallel 100,000-character forgets and saves cost the
requests beside them.

A security probe sent six parallel forgets of 100,000 characters and saw every other request of
the server wait for seconds: the agreement rules are pure Python and ran in the event loop. This
bench measures that over real HTTP, against the app in its own process (the product's
``create_app`` under uvicorn, the official MCP client), on the embedded PostgreSQL:

1. one space with a few short facts and a few long runbooks (8,000 characters each);
2. a *neighbour*: one client searching a short question in a loop, alone (the baseline,
   measured in the same run) and then while
3. six clients each forget a 100,000-character text of another shape (prose, digits, numbers,
   capitalised names, one repeated letter, dates), all at once; then six save one.

Prints each long request's time and outcome, and the neighbour's p50 / max alone and during
each phase, with their ratios. Asserts nothing.

    .venv/bin/python bench/long_texts.py [--chars 100000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import _common as common
import anyio
from _common import log
from _search_server import mcp_client, running_server
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.services import admin, memories

FACTS = ["The VPN certificate expires after a year.", "Kafka retention is 7 days in prod.",
         "Alice prefers dark mode.", "Deploys happen on Tuesday at noon."]
QUESTION = "When does the VPN certificate expire?"
_VOCAB = ["deploy", "cache", "Alice", "Bob", "staging", "prod", "certificate", "the", "is",
          "expires", "after", "year", "VPN", "Kafka", "retention", "days", "not", "never",
          "Tuesday", "noon"]


def shapes(chars: int, rng: random.Random) -> dict[str, Callable[[], str]]:
    """Six kinds of long text, each exactly ``chars`` long."""
    def prose() -> str:
        words = [rng.choice(_VOCAB) if rng.random() < 0.8 else str(rng.randint(1, 10**6))
                 for _ in range(chars // 4)]
        return " ".join(words)[:chars]

    return {
        "prose": prose,
        "digits": lambda: "".join(rng.choice(string.digits) for _ in range(chars)),
        "numbers": lambda: " ".join(str(rng.randint(0, 99999)) for _ in range(chars // 5))[:chars],
        "names": lambda: " ".join(f"{rng.choice(['Alice', 'Bob', 'Carol', 'Dave'])}{i}"
                                  for i in range(chars // 6))[:chars],
        "one letter": lambda: "a" * chars,
        "dates": lambda: " ".join(f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                                  for _ in range(chars // 10))[:chars],
    }


def runbook(i: int) -> str:
    return f"Runbook {i}: " + " ".join(f"step {s} checks service{s} of team {i} before rollout."
                                       for s in range(160))


async def neighbour(url: str, key: str, stop: anyio.Event, seconds: list[float]) -> None:
    async with mcp_client(url, key) as client:
        while not stop.is_set():
            t = time.perf_counter()
            await client.call_tool("search_memory", {"query": QUESTION})
            seconds.append(time.perf_counter() - t)


async def long_request(url: str, key: str, name: str, args: dict[str, Any],
                       out: list[tuple[str, float, str]]) -> None:
    async with mcp_client(url, key) as client:
        t = time.perf_counter()
        r = await client.call_tool("add_memory", args)
        outcome = "error" if r.is_error else str((r.structured_content or {}).get("action"))
        out.append((name, time.perf_counter() - t, outcome))


async def phase(url: str, key: str, texts: dict[str, str], forget: bool
                ) -> tuple[list[float], list[tuple[str, float, str]], float]:
    """The neighbour's latencies while the long requests run, the requests, the wall time."""
    seconds: list[float] = []
    done: list[tuple[str, float, str]] = []
    stop = anyio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(neighbour, url, key, stop, seconds)
        await anyio.sleep(0.5)
        t = time.perf_counter()
        async with anyio.create_task_group() as burst:
            for name, text in texts.items():
                args = {"content": text, **({"action": "forget"} if forget else {})}
                burst.start_soon(long_request, url, key, name, args, done)
        wall = time.perf_counter() - t
        stop.set()
    return seconds, done, wall


def summary(seconds: Sequence[float]) -> tuple[float, float]:
    return statistics.median(seconds) * 1000, max(seconds) * 1000


async def run(url: str, args: argparse.Namespace) -> None:
    settings = Settings(database_url=SecretStr(url), data_dir=args.data_dir,
                        migrations_dir=Path(__file__).resolve().parents[1] / "migrations",
                        auto_migrate=True,
                        log_level="WARNING", rate_limit_requests_per_minute=1_000_000,
                        max_content_chars=max(100_000, args.chars))
    async with common.product_runtime(settings, url) as rt:
        user = await admin.create_user(rt, "bench-long@example.test", "Bench", "writer")
        made = await admin.create_key(rt, user["id"], "bench")
        key = made["key"]
        space = await admin.create_space(rt, "long", "Long texts", "benchmark")
        await admin.set_grant(rt, made["id"], space["key"], "readwrite")
        principal = await common.request_principal(rt, key)
        for text in [*FACTS, *(runbook(i) for i in range(4))]:
            await memories.save(rt, principal, text, None, space["key"])
    rng = random.Random(args.seed)
    with running_server(settings) as server:
        alone: list[float] = []
        rows: list[tuple[str, list[float], list[tuple[str, float, str]], float]] = []
        for r in range(args.rounds):
            stop = anyio.Event()
            async with anyio.create_task_group() as tg:
                tg.start_soon(neighbour, server.url, key, stop, alone)
                await anyio.sleep(3)
                stop.set()
            for forget in (True, False):
                texts = {name: make() for name, make in shapes(args.chars, rng).items()}
                label = f"round {r + 1}: 6 parallel {'forgets' if forget else 'saves'}"
                log(label)
                rows.append((label, *await phase(server.url, key, texts, forget)))
    base_p50, base_max = summary(alone)
    print(f"\nneighbour alone (search_memory, short question): p50 {base_p50:.0f} ms, "
          f"max {base_max:.0f} ms, n={len(alone)}")
    print(f"\n| phase ({args.chars:,} characters each) | wall | long requests (s) | outcomes | "
          "neighbour p50 / max | ratio to alone p50 / max |")
    print("|---|---|---|---|---|---|")
    for label, seconds, done, wall in rows:
        p50, most = summary(seconds) if seconds else (float("nan"), float("nan"))
        times = " ".join(f"{s:.1f}" for _, s, _ in sorted(done))
        outcomes = ", ".join(sorted({o for _, _, o in done}))
        print(f"| {label} | {wall:.1f} s | {times} | {outcomes} | {p50:.0f} / {most:.0f} ms "
              f"(n={len(seconds)}) | {p50 / base_p50:.1f}x / {most / base_max:.1f}x |")


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--chars", type=int, default=100_000, help="length of each long text")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--pg-dir", default=None, help="where the embedded PostgreSQL lives")
    common.run_with_data_dir(p.parse_args(argv), "long", run)


if __name__ == "__main__":
    main()
