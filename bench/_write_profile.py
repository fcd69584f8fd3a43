"""Stage timings of ``services.memories.save`` for ``write_throughput.py``.

The save path is split by wrapping, in this process only, the functions ``save`` calls (the
service module looks them up at call time): time in each, summed per save, per phase.

"held" is the part of a save that other saves of the space wait for: from the end of its write
statement (``saves.save_row``; its 0008 trigger took the space's ``space_stats`` row, which every
memory write of the space needs, and keeps it until commit) to the end of the commit. It does
not include the trigger itself, which runs at the end of the write statement (about 1 ms: the
INSERT-cost table, "without the stats triggers"). ``1 / held`` bounds a space's saves/s.
An exclusive retry (``saves.lock_exclusively``) holds the space from its lock on: such attempts
are counted ("excl") and their lock-to-commit time is added to "held". A shared attempt takes
its lock in its transaction's first statement, so waiting for it is part of "begin"; "lock
wait" is the exclusive attempts' wait.
"""

from __future__ import annotations

import contextvars
import os
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common as common

from memory_mcp.db import memories as db
from memory_mcp.db import saves
from memory_mcp.services import access, matching
from memory_mcp.services import memories as service
from memory_mcp.services.runtime import Runtime

STAGES = ("begin", "resolve_space", "find_by_hash", "embed", "lock wait", "candidates", "decide",
          "write", "finish", "commit read", "commit write")
_LOCKED_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar("locked", default=None)


@dataclass
class Phase:
    """One configuration, accumulated over its rounds (``rates``: saves/s of each round)."""

    name: str
    writers: int
    batching: bool
    latencies: list[float] = field(default_factory=list)
    acks: list[dict[str, Any]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    stages: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    held: list[float] = field(default_factory=list)
    #: attempts that lost a race (predecessor or identical text taken: "lost"; a close memory
    #: arrived after the decision: "unseen"), exclusive retries, and how many post-write
    #: checks had to read the rows written since the decision ("checked") or not ("skipped")
    events: Counter[str] = field(default_factory=Counter)
    rates: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)  # 1-minute load average after each round
    #: CPU seconds spent during this phase's rounds (``CpuMeter``), summed over the rounds
    cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    provider_calls: int = 0
    texts_embedded: int = 0


class Profiler:
    """Adds stage timings of the running phase by wrapping what ``service.save`` calls."""

    def __init__(self, rt: Runtime) -> None:
        self.phase: Phase | None = None
        choose, begin_txn = matching.choose_version, rt.transaction

        def decide(*a: Any, **k: Any) -> Any:
            with self.stage("decide"):
                return choose(*a, **k)

        patches: list[tuple[object, str, Any]] = [
            (service, "resolve_space", self._timed(access.resolve_space, "resolve_space")),
            (db, "find_live_by_hash", self._timed(db.find_live_by_hash, "find_by_hash")),
            (saves, "lock_exclusively", self._exclusive(saves.lock_exclusively)),
            (saves, "version_candidates", self._timed(saves.version_candidates, "candidates")),
            (saves, "save_row", self._write(saves.save_row)),
            (saves, "finish_save", self._finish(saves.finish_save)),
            (matching, "choose_version", decide),
            (rt, "embed_one", self._timed(rt.embed_one, "embed")),
            (rt, "transaction", lambda **k: _Txn(self, begin_txn(**k))),
        ]
        for target, name, wrapped in patches:
            setattr(target, name, wrapped)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        t = time.perf_counter()
        try:
            yield
        finally:
            if self.phase is not None:
                self.phase.stages[name] += time.perf_counter() - t

    def _timed(self, fn: Callable[..., Awaitable[Any]], name: str) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*a: Any, **k: Any) -> Any:
            with self.stage(name):
                return await fn(*a, **k)
        return wrapper

    def count(self, event: str) -> None:
        if self.phase is not None:
            self.phase.events[event] += 1

    def _exclusive(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*a: Any, **k: Any) -> Any:
            with self.stage("lock wait"):
                await fn(*a, **k)
            self.count("excl")
            _LOCKED_AT.set(time.perf_counter())
        return wrapper

    def _write(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*a: Any, **k: Any) -> Any:
            with self.stage("write"):
                row = await fn(*a, **k)
            if row is None:
                self.count("lost")
            if _LOCKED_AT.get() is None:
                _LOCKED_AT.set(time.perf_counter())
            return row
        return wrapper

    def _finish(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*a: Any, **k: Any) -> Any:
            with self.stage("finish"):
                unseen = await fn(*a, **k)
            self.count("skipped" if unseen is None else "checked")
            if unseen:
                self.count("unseen")
            return unseen
        return wrapper


class _Txn:
    """``rt.transaction()`` with its entry (pool + BEGIN) and exit (COMMIT + release) timed."""

    def __init__(self, prof: Profiler, inner: Any) -> None:
        self.prof, self.inner = prof, inner

    async def __aenter__(self) -> Any:
        _LOCKED_AT.set(None)
        with self.prof.stage("begin"):
            return await self.inner.__aenter__()

    async def __aexit__(self, *exc: Any) -> Any:
        locked = _LOCKED_AT.get()
        with self.prof.stage("commit write" if locked is not None else "commit read"):
            out = await self.inner.__aexit__(*exc)
        if locked is not None and self.prof.phase is not None:
            self.prof.phase.held.append(time.perf_counter() - locked)
        return out


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_times(path: Path, children: bool = False) -> float:
    """utime + stime (and the reaped children's, with ``children``) of /proc/<pid>/stat."""
    try:
        fields = path.read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / _TICK


class CpuMeter:
    """Where the machine's CPU goes, from /proc (Linux; zeros elsewhere): this process's
    event-loop thread (the service code, psycopg, asyncio: "python"), its other threads (the
    model's tokenizer and ONNX runtime, in anyio's worker threads and ONNX's own pool:
    "model"), and the PostgreSQL server (the postmaster of ``pgdata`` with its reaped children,
    plus its live children: "postgres"). ``read()`` gives cumulative CPU seconds by part."""

    def __init__(self, pgdata: Path | None) -> None:
        self.main_tid = threading.get_native_id()
        self.postmaster: int | None = None
        pid_file = pgdata / "postmaster.pid" if pgdata is not None else None
        if pid_file is not None and pid_file.exists():
            self.postmaster = int(pid_file.read_text().split()[0])

    def _postgres(self) -> float:
        return common.postgres_cpu_s(self.postmaster)

    def read(self) -> dict[str, float]:
        process = time.process_time()
        loop = _stat_times(Path(f"/proc/self/task/{self.main_tid}/stat"))
        return {"python": loop, "model": max(0.0, process - loop), "postgres": self._postgres()}
