"""Where a search's time goes when nothing runs in parallel: CPU seconds per call, per process.

``bench/search_latency.py`` calls ``search_memory`` one at a time, so the client, the server and
PostgreSQL take turns and the wall time of a call is about the sum of the CPU each of them
spends on it. Reading that CPU from ``/proc`` (Linux) before and after the timed HTTP passes
shows which of the three a ratio such as end-to-end / SQL is really measuring. Where ``/proc``
is missing the meter reads nothing and the report says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import _common as common

PARTS = ("client", "server", "postgres")


@dataclass
class CpuMeter:
    """CPU seconds spent over the measured passes by this process (the client), the server
    process and PostgreSQL (the postmaster with its reaped children, plus its live children:
    backends, autovacuum, the checkpointer; so PostgreSQL's background work counts too), and
    the calls and wall time those passes took."""

    server_pid: int
    postgres_pid: int | None
    spent: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    calls: int = 0
    wall_s: float = 0.0

    @property
    def available(self) -> bool:
        """Whether there is anything to read (Linux, and the PostgreSQL pid known)."""
        return Path("/proc/self/stat").exists() and self.postgres_pid is not None

    def snapshot(self) -> dict[str, float]:
        """Cumulative CPU seconds of each part now."""
        me = os.times()
        return {"client": me.user + me.system,
                "server": common.process_cpu_s(self.server_pid, children=True),
                "postgres": common.postgres_cpu_s(self.postgres_pid)}

    def add(self, before: dict[str, float], after: dict[str, float], calls: int,
            wall_s: float) -> None:
        """Count one measured pass: the snapshots around it, its calls and their wall time."""
        for name in PARTS:
            self.spent[name] += after[name] - before[name]
        self.calls += calls
        self.wall_s += wall_s

    def per_call_ms(self) -> dict[str, float]:
        """Milliseconds of CPU per call for each part, and the mean wall time per call."""
        n = max(self.calls, 1)
        out = {name: 1000.0 * self.spent[name] / n for name in PARTS}
        out["wall"] = 1000.0 * self.wall_s / n
        return out
