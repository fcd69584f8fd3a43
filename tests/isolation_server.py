"""The isolation suite's server side: the real app under uvicorn, its settings, quiet logs, and
an event loop for the async admin service and database inspection."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from isolation_model import (
    ROOT,
    T,
)
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.http.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def isolation_settings(url: str, data_dir: Path) -> Settings:
    """The server's settings: this database, its own data dir (uploads, signing key), and no
    per-key rate limits (the suite makes thousands of calls a minute with a handful of keys)."""
    fields: dict[str, Any] = {"auto_migrate": True, "migrations_dir": ROOT / "migrations",
                              "data_dir": data_dir, "pool_min_size": 1, "pool_max_size": 4}
    for name in ("rate_limit_requests_per_minute", "rate_limit_writes_per_minute"):
        if name in Settings.model_fields:
            fields[name] = 0
    return Settings(database_url=SecretStr(url), **fields)


@contextmanager
def serving(settings: Settings) -> Iterator[tuple[str, Any]]:
    """The real app under uvicorn on a free loopback port: yields (base URL, app)."""
    port = free_port()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True, name="isolation-server")
    thread.start()
    deadline = time.monotonic() + 90
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("isolation server did not start")
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    httpx.get(f"{base}/healthz", timeout=10).raise_for_status()
    try:
        yield base, app
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextmanager
def quiet_logs() -> Iterator[None]:
    """Refusals are the point of this suite and the server logs each one: only errors while
    inside (the previous levels come back afterwards, for the tests that read logs)."""
    loggers = [logging.getLogger(n) for n in ("httpx", "mcp", "memory_mcp", "uvicorn.error")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


class Portal:
    """An event loop on its own thread: the admin service and the database inspection are
    async, the state machine driving them is not."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True,
                                       name="isolation-portal")
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()
