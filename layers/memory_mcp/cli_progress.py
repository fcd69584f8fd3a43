"""Progress of long commands (``reembed``, ``import``, ``export``) on stderr.

Drawn only when stderr is a terminal and ``--json`` is off: scripts, pipes, CI logs and the admin
Lambda get their output without carriage-return noise, and stdout stays the data (an export to
stdout is the file itself). A plain one-line bar redrawn in place; no dependency for it.
"""

from __future__ import annotations

import sys
from typing import TextIO

WIDTH = 30


class StderrProgress:
    """``progress(phase, done, total)`` callable for the services; ``close()`` ends the line."""

    def __init__(self, stream: TextIO | None = None, *, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._last: tuple[str, int] | None = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        total = max(total, done, 1)
        percent = done * 100 // total
        if self._last == (phase, percent) and done != total:
            return  # redraw only when the shown number changes
        self._last = (phase, percent)
        filled = WIDTH * done // total
        bar = "#" * filled + "." * (WIDTH - filled)
        self.stream.write(f"\r{phase:<8} [{bar}] {percent:3d}%  {done:,}/{total:,}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._last is not None:
            self.stream.write("\n")
            self.stream.flush()
        self._last = None


def for_args(as_json: bool) -> StderrProgress:
    return StderrProgress(enabled=False if as_json else None)
