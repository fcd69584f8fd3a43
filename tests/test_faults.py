"""Faults: the database stopped under a running server, and an exhausted pool.

Requests during an outage get a clean, retryable answer within a bound (HTTP 503 with
``Retry-After``), never a hang or a 500, and the server recovers on its own once the database is
back. Runs on its own embedded PostgreSQL cluster, since it stops it.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn

from memory_mcp.config import Settings
from memory_mcp.db.embedded import embedded_database_url, stop_embedded
from memory_mcp.db.pool import open_pool
from memory_mcp.errors import StoreUnavailableError
from memory_mcp.http.app import create_app
from memory_mcp.services import admin
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import create_runtime

from conftest import ROOT, free_port, settings_for

BOUND_S = 8.0  # nothing may take longer than this during the outage


def _rpc(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": args}}


HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
           "MCP-Protocol-Version": "2025-11-25"}


@pytest.fixture(scope="module")
def stoppable() -> Iterator[tuple[str, str, Path]]:
    """A server on its own embedded cluster; yields (base URL, a writer's key, data dir)."""
    data = Path(tempfile.mkdtemp(prefix="memory-mcp-faults-"))  # reachable by the pgserver user
    data.chmod(0o755)
    port = free_port()
    settings = Settings(data_dir=data, port=port, pool_wait_seconds=2, pool_max_size=3,
                        migrations_dir=ROOT / "migrations")

    async def seed() -> str:
        rt = await create_runtime(settings)
        try:
            user = await admin.create_user(rt, "f@example.test", "Fault", "writer")
            await admin.create_space(rt, "faults", "Faults", "")
            key = await admin.create_key(rt, user["id"], "faults")
            await admin.set_grant(rt, key["id"], "faults", "readwrite")
            return str(key["key"])
        finally:
            await rt.pool.close()

    key = anyio.run(seed)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", key, data
    server.should_exit = True
    thread.join(timeout=10)
    stop_embedded(data)
    shutil.rmtree(data, ignore_errors=True)


def _timed(method: str, url: str, **kw: Any) -> tuple[httpx.Response, float]:
    t0 = time.monotonic()
    response = httpx.request(method, url, timeout=30, **kw)
    return response, time.monotonic() - t0


def test_database_outage_gives_bounded_retryable_errors_then_recovers(
    stoppable: tuple[str, str, Path]
) -> None:
    base, key, data = stoppable
    auth = {**HEADERS, "Authorization": f"Bearer {key}"}
    saved, _ = _timed("POST", f"{base}/mcp", headers=auth,
                      json=_rpc("add_memory", {"content": "Before the outage"}))
    assert saved.status_code == 200 and saved.json()["result"]["isError"] is False, saved.text

    stop_embedded(data)
    try:
        for method, path, kw in (
            ("GET", "/healthz", {}),
            ("POST", "/mcp", {"headers": auth, "json": _rpc("search_memory", {"query": "x"})}),
            ("POST", "/mcp", {"headers": auth, "json": _rpc("add_memory", {"content": "During"})}),
            ("POST", "/uploads", {"headers": {"Authorization": f"Bearer {key}"},
                                  "json": {"filename": "a.md", "contentType": "text/markdown",
                                           "size": 5}}),
        ):
            response, took = _timed(method, base + path, **kw)
            assert response.status_code == 503, (path, response.status_code, response.text)
            assert response.headers["retry-after"] == str(StoreUnavailableError.retry_after_seconds)
            assert took < BOUND_S, (path, took)
            assert "Traceback" not in response.text and "psycopg" not in response.text
    finally:
        embedded_database_url(data)  # start it again: same data dir, same socket

    deadline = time.monotonic() + 30
    while _timed("GET", f"{base}/healthz")[0].status_code != 200:
        assert time.monotonic() < deadline, "the server did not recover"
        time.sleep(0.5)
    found, _ = _timed("POST", f"{base}/mcp", headers=auth,
                      json=_rpc("search_memory", {"keyword": "outage"}))
    assert found.status_code == 200 and "Before the outage" in found.text
    during = _timed("POST", f"{base}/mcp", headers=auth,
                    json=_rpc("search_memory", {"keyword": "During"}))[0]
    assert during.json()["result"]["structuredContent"]["count"] == 0  # refused, not half-done


@pytest.mark.anyio
async def test_an_exhausted_pool_gives_a_retryable_error_within_the_wait_bound(
    database_url: str, embedder: Any
) -> None:
    settings = settings_for(database_url, pool_wait_seconds=0.5).model_copy(
        update={"pool_min_size": 1, "pool_max_size": 1})
    pool = await open_pool(settings, database_url)
    rt = Runtime(settings=settings, pool=pool, embedder=embedder)
    try:
        async with rt.transaction() as held:  # the only connection, busy
            await held.execute("SELECT 1")
            t0 = time.monotonic()
            with pytest.raises(StoreUnavailableError, match="retry"):
                async with rt.transaction():
                    pass
            assert 0.4 < time.monotonic() - t0 < 3
        async with rt.transaction() as conn:  # released: served again
            await conn.execute("SELECT 1")
    finally:
        await pool.close()
