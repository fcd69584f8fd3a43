"""``memory-mcp serve`` on the embedded default (``make run``): a request leaves no SDK log line
behind, and SIGTERM (``kill``, an IDE's stop button, a service manager) stops the embedded
PostgreSQL with the server, as Ctrl-C does."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from conftest import ROOT, free_port

EXECUTABLE = ROOT / ".venv" / "bin" / "memory-mcp"
KEY_LINE = re.compile(r"^\s*key\s+:\s+(mm_[0-9a-f]{10}_\S+)\s*$")
pytestmark = pytest.mark.timeout(180)


def _postmaster_running(pgdata: Path) -> bool:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    try:
        os.kill(int(pid_file.read_text().split()[0]), 0)
    except (ProcessLookupError, ValueError, IndexError):
        return False
    return True


def _stop_postmaster(pgdata: Path) -> None:
    """Stop a cluster left running (SIGINT: PostgreSQL's fast shutdown) and wait for it."""
    if _postmaster_running(pgdata):
        os.kill(int((pgdata / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
        deadline = time.monotonic() + 30
        while _postmaster_running(pgdata) and time.monotonic() < deadline:
            time.sleep(0.2)


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], out: Path, deadline: float) -> None:
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, out.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def test_sigterm_stops_the_embedded_postgres_and_requests_log_no_sdk_lines() -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-serve-"))
    data_dir.chmod(0o755)  # as root, the embedded server runs as another user
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MEMORY_MCP_") and k != "DATABASE_URL"}
    env.update(MEMORY_MCP_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    out = data_dir / "serve.log"
    try:
        with out.open("w") as sink:
            proc = subprocess.Popen(  # noqa: S603 - fixed argv, our own console script
                [str(EXECUTABLE), "serve", "--host", "127.0.0.1", "--port", str(port)],
                env=env, cwd=data_dir, stdin=subprocess.DEVNULL, stdout=sink,
                stderr=subprocess.STDOUT)
            try:
                deadline = time.monotonic() + 90
                while "listening" not in out.read_text():
                    assert proc.poll() is None and time.monotonic() < deadline, out.read_text()
                    time.sleep(0.2)
                key = next(m.group(1) for line in out.read_text().splitlines()
                           if (m := KEY_LINE.match(line)))
                _wait_healthy(port, proc, out, deadline)  # "listening" comes before the bind
                for _ in range(3):
                    reply = httpx.post(
                        f"http://127.0.0.1:{port}/mcp", timeout=30,
                        headers={"Authorization": f"Bearer {key}",
                                 "Content-Type": "application/json",
                                 "Accept": "application/json, text/event-stream",
                                 "MCP-Protocol-Version": "2025-11-25"},
                        content=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                            "params": {"name": "whoAmI", "arguments": {}}}))
                    assert reply.status_code == 200 and "result" in reply.json()
                # the upload view may PUT to this server: its CSP names the port it serves on
                view = httpx.post(
                    f"http://127.0.0.1:{port}/mcp", timeout=30,
                    headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json",
                             "Accept": "application/json, text/event-stream",
                             "MCP-Protocol-Version": "2025-11-25"},
                    content=json.dumps({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
                                        "params": {"uri": "ui://memory-mcp/upload-file.html"}}))
                (content,) = view.json()["result"]["contents"]
                assert f"http://127.0.0.1:{port}" in content["_meta"]["ui"]["csp"][
                    "connectDomains"], content["_meta"]
                pgdata = data_dir / "pgdata"
                assert _postmaster_running(pgdata)
                proc.send_signal(signal.SIGTERM)
                assert proc.wait(timeout=30) == 0, out.read_text()
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(timeout=10)
        log = out.read_text()
        assert " mcp.server" not in log, log  # "Terminating session: None" after each request
        assert log.count('"POST /mcp HTTP/1.1" 200') == 4  # the access log stays
        deadline = time.monotonic() + 20
        while _postmaster_running(pgdata):
            assert time.monotonic() < deadline, "the embedded PostgreSQL outlived the server"
            time.sleep(0.2)
        assert json.loads((pgdata / ".handle_pids.json").read_text()) == []
    finally:
        _stop_postmaster(data_dir / "pgdata")  # never leave a server behind, even when failing
        shutil.rmtree(data_dir, ignore_errors=True)


def test_a_user_that_died_without_its_exit_handler_does_not_keep_the_server_running() -> None:
    """A process killed before its exit handler ran stays in the package's list of users; the
    next user's exit must still stop the server."""
    from memory_mcp.db.embedded import embedded_database_url, stop_embedded

    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-stale-"))
    data_dir.chmod(0o755)
    pgdata = data_dir / "pgdata"
    try:
        embedded_database_url(data_dir)
        stop_embedded(data_dir)
        assert not _postmaster_running(pgdata)
        # pid_max is at most 2**22: this process cannot exist
        (pgdata / ".handle_pids.json").write_text(json.dumps([2**22 + 12345]))
        embedded_database_url(data_dir)
        assert _postmaster_running(pgdata)
        stop_embedded(data_dir)
        assert not _postmaster_running(pgdata)
        assert json.loads((pgdata / ".handle_pids.json").read_text()) == []
    finally:
        _stop_postmaster(pgdata)
        shutil.rmtree(data_dir, ignore_errors=True)
