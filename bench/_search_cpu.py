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

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of one process (0.0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime (after pid, comm)


def children(ppid: int) -> list[int]:
    """The processes whose parent is ``ppid`` (PostgreSQL's backends and workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == ppid:
                    out.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return out


def postmaster_pid(data_directory: str) -> int | None:
    """The PostgreSQL server's process id, from its ``postmaster.pid`` (None if unreadable)."""
    try:
        return int((Path(data_directory) / "postmaster.pid").read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return None


@dataclass
class CpuMeter:
    """CPU seconds spent by this process (the client), the server process and PostgreSQL (the
    postmaster and its children) over the measured passes, and the calls they served."""

    server_pid: int
    postgres_pid: int | None
    spent: dict[str, float] = field(default_factory=lambda: dict.fromkeys(
        ("client", "server", "postgres"), 0.0))
    calls: int = 0
    wall_s: float = 0.0

    @property
    def available(self) -> bool:
        return Path("/proc/self/stat").exists() and self.postgres_pid is not None

    def snapshot(self) -> dict[str, float]:
        me = os.times()
        pg = 0.0
        if self.postgres_pid is not None:
            pg = sum(process_cpu_s(p) for p in [self.postgres_pid, *children(self.postgres_pid)])
        return {"client": me.user + me.system, "server": process_cpu_s(self.server_pid),
                "postgres": pg}

    def add(self, before: dict[str, float], after: dict[str, float], calls: int,
            wall_s: float) -> None:
        for name in self.spent:
            self.spent[name] += after[name] - before[name]
        self.calls += calls
        self.wall_s += wall_s

    def per_call_ms(self) -> dict[str, float]:
        """Milliseconds of CPU per call for each process, and the mean wall time per call."""
        n = max(self.calls, 1)
        out = {name: 1000.0 * s / n for name, s in self.spent.items()}
        out["wall"] = 1000.0 * self.wall_s / n
        return out
