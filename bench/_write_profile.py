"""Stage timings of ``services.memories.save`` for ``write_throughput.py``.

The save path is split by wrapping, in this process only, the functions ``save`` calls (the
service module looks them up at call time): time in each, summed per save, per phase. "held" is
the time from acquiring the per-space advisory lock to the end of that transaction's commit:
while it runs, every other save of the space waits, so ``1 / held`` bounds a space's saves/s.
"""

from __future__ import annotations

import contextvars
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from memory_mcp.db import identity
from memory_mcp.db import memories as db
from memory_mcp.db import search as search_db
from memory_mcp.services import access, matching
from memory_mcp.services import memories as service
from memory_mcp.services.runtime import Runtime

STAGES = ("begin", "resolve_space", "find_by_hash", "embed", "lock wait", "set ann", "nearest",
          "decide", "supersede", "insert", "get", "touch", "commit read", "commit write")
_LOCKED_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar("locked", default=None)


@dataclass
class Phase:
    """One configuration, accumulated over its rounds (``rates``: saves/s of each round)."""

    name: str
    writers: int
    batching: bool
    stems_cached: bool = False
    latencies: list[float] = field(default_factory=list)
    acks: list[dict[str, Any]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    stages: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    held: list[float] = field(default_factory=list)
    rates: list[float] = field(default_factory=list)
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
            (db, "enable_filtered_ann", self._timed(db.enable_filtered_ann, "set ann")),
            (search_db, "nearest", self._timed(search_db.nearest, "nearest")),
            (db, "supersede", self._timed(db.supersede, "supersede")),
            (db, "insert", self._timed(db.insert, "insert")),
            (db, "get", self._timed(db.get, "get")),
            (identity, "touch_space", self._timed(identity.touch_space, "touch")),
            (db, "lock_space_for_save", self._lock(db.lock_space_for_save)),
            (matching, "choose_version", decide),
            (rt, "embed_one", self._timed(rt.embed_one, "embed")),
            (rt, "transaction", lambda: _Txn(self, begin_txn())),
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

    def _lock(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*a: Any, **k: Any) -> Any:
            with self.stage("lock wait"):
                await fn(*a, **k)
            _LOCKED_AT.set(time.perf_counter())
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
