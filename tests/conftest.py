"""Shared fixtures: a real embedded PostgreSQL + pgvector, the real local model, a live server.

One PostgreSQL server runs per test session. Tests isolate themselves by creating their own
users, spaces and keys (unique names), so they never depend on global counts; tests that need an
empty database get a fresh one from ``fresh_database_url``.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db.embedded import embedded_database_url, stop_embedded
from memory_mcp.db.migrator import migrate
from memory_mcp.db.pool import open_pool
from memory_mcp.documents.llm import OfflineExtractor
from memory_mcp.documents.pipeline import Extractors
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.embeddings import Embedder, build_embedder
from memory_mcp.http.app import create_app
from memory_mcp.models import Principal
from memory_mcp.services import admin
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import check_model

ROOT = Path(__file__).resolve().parents[1]

# Tests never write into the working tree: the default data dir (uploads, signing key) is a temp dir.
os.environ.setdefault("MEMORY_MCP_DATA_DIR", tempfile.mkdtemp(prefix="memory-mcp-tests-"))


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def pg_root_url() -> Iterator[str]:
    """The embedded server, started once per session in a temporary data dir.

    Not under pytest's tmp dir: that one is private to root, and as root the embedded server
    runs as a separate ``pgserver`` user that must be able to reach its data directory.
    """
    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-pg-"))
    data_dir.chmod(0o755)
    yield embedded_database_url(data_dir)
    stop_embedded(data_dir)
    shutil.rmtree(data_dir, ignore_errors=True)


def _with_database(url: str, name: str) -> str:
    base, _, query = url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


def empty_database(pg_root_url: str) -> str:
    """A new database without any schema on the session server (what a first deploy meets)."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_root_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return _with_database(pg_root_url, name)


@pytest.fixture(scope="session")
def make_database(pg_root_url: str) -> Any:
    """Factory: a new, migrated database on the session server."""

    def make() -> str:
        url = empty_database(pg_root_url)
        migrate(url, ROOT / "migrations")
        return url

    return make


@pytest.fixture(scope="session")
def database_url(make_database: Any) -> str:
    return str(make_database())


@pytest.fixture
def fresh_database_url(make_database: Any) -> str:
    return str(make_database())


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return build_embedder(Settings())


def settings_for(url: str, **overrides: Any) -> Settings:
    """Test settings on ``url``. Rate limits are off unless a test sets them: suites that make
    hundreds of calls a minute with one key test other things (tests/test_limits_audit.py
    tests the limits)."""
    fields: dict[str, Any] = {"auto_migrate": True, "migrations_dir": ROOT / "migrations",
                              "pool_min_size": 1, "pool_max_size": 4,
                              "rate_limit_requests_per_minute": 0,
                              "rate_limit_writes_per_minute": 0, **overrides}
    return Settings(database_url=SecretStr(url), **fields)


@pytest.fixture
async def runtime(database_url: str, embedder: Embedder) -> AsyncIterator[Runtime]:
    settings = settings_for(database_url)
    pool = await open_pool(settings, database_url)
    rt = Runtime(settings=settings, pool=pool, embedder=embedder)
    async with rt.transaction(system=True) as conn:
        await check_model(conn, embedder)
    try:
        yield rt
    finally:
        await pool.close()


@dataclass
class Member:
    """A user with one key, as tests use them."""

    user: dict[str, Any]
    key: str
    key_id: str
    principal: Principal


class World:
    """Creates uniquely named users, spaces, keys and grants through the admin service."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    async def space(self, prefix: str = "s") -> str:
        key = f"{prefix}-{uuid.uuid4().hex[:10]}"
        await admin.create_space(self.rt, key, f"Space {key}", "test space")
        return key

    async def member(self, role: str = "writer", grants: dict[str, str] | None = None,
                     name: str | None = None) -> Member:
        tag = uuid.uuid4().hex[:8]
        user = await admin.create_user(self.rt, f"{tag}@example.test", name or f"User {tag}", role)
        created = await admin.create_key(self.rt, user["id"], "test")
        for space, access in (grants or {}).items():
            await admin.set_grant(self.rt, created["id"], space, access)
        return Member(user, created["key"], created["id"], await self.principal(created["key"]))

    async def principal(self, key: str) -> Principal:
        async with self.rt.transaction(system=True) as conn:
            return await authenticate(conn, key)


@pytest.fixture
def world(runtime: Runtime) -> World:
    return World(runtime)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The session's live server thread once started, and what ended it early (if anything).
_LIVE: dict[str, Any] = {}


@pytest.fixture(autouse=True)
def _live_server_stays_up(request: pytest.FixtureRequest) -> Iterator[None]:
    """The live server shares this process, so a test that patches something global (say
    ``asyncio.sleep``) can kill its thread; the socket stays open and every later request
    would only time out. Fail the test that killed it, by name, and every later user of the
    server at once, with the thread's error, instead of after a 30 s timeout each."""
    thread = _LIVE.get("thread")
    if thread is not None and not thread.is_alive() and "live_server" in request.fixturenames:
        pytest.fail(f"the live server's thread died earlier ({_LIVE.get('error')!r}, in "
                    f"{_LIVE.get('killed_by', 'an unknown test')})")
    was_up = thread is not None and thread.is_alive()
    yield
    if was_up and thread is not None and not thread.is_alive() and "killed_by" not in _LIVE:
        _LIVE["killed_by"] = request.node.nodeid
        pytest.fail(f"this test stopped the live server's thread: {_LIVE.get('error')!r}")


@pytest.fixture(scope="session")
def live_server(database_url: str) -> Iterator[str]:
    """The real app under uvicorn on a free loopback port; yields the ``/mcp`` URL."""
    port = free_port()
    app = create_app(settings_for(database_url))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))

    def serve() -> None:
        try:
            server.run()
        except BaseException as exc:
            _LIVE["error"] = exc
            raise

    thread = threading.Thread(target=serve, daemon=True)
    _LIVE.clear()
    _LIVE["thread"] = thread
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("live server did not start")
        time.sleep(0.05)
    httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).raise_for_status()
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(timeout=10)


# --- the document pipeline's tests: local object storage, a runtime using it, offline extractors


@pytest.fixture
def storage(tmp_path: Path) -> LocalStorage:
    return LocalStorage(tmp_path / "objects", b"test-secret")


@pytest.fixture
def rt(runtime: Runtime, storage: LocalStorage) -> Runtime:
    runtime.storage = storage
    return runtime


@pytest.fixture
def tools(storage: LocalStorage) -> Extractors:
    return Extractors(storage=storage, facts=OfflineExtractor())


PACKAGE_LOGGERS = ["memory_mcp", "mcp", "mangum", "psycopg", "httpx", "uvicorn", "fastapi"]


@contextmanager
def package_logging_restored() -> Iterator[None]:
    """The Lambda handlers route package loggers through Powertools; give the other tests
    theirs back afterwards (propagation to the root logger is what pytest's caplog relies on)."""
    saved = {n: (logging.getLogger(n).handlers[:], logging.getLogger(n).propagate,
                 logging.getLogger(n).level) for n in PACKAGE_LOGGERS}
    try:
        yield
    finally:
        for name, (handlers, propagate, level) in saved.items():
            logger = logging.getLogger(name)
            logger.handlers, logger.propagate = handlers, propagate
            logger.setLevel(level)


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The text of every statement the code under test sends, in order."""
    seen: list[str] = []
    real = psycopg.AsyncConnection.execute

    async def recording(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        text = query.decode() if isinstance(query, bytes) else str(query)
        seen.append(" ".join(text.split()))
        return await real(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", recording)
    yield seen


@contextmanager
def counting_embeds(runtime: Runtime) -> Iterator[list[str]]:
    """The texts ``runtime`` embeds (``embed_one`` counted, then restored)."""
    texts: list[str] = []
    real = runtime.embed_one

    async def counting(text: str, scope: Hashable = None) -> str:
        texts.append(text)
        return await real(text, scope)

    runtime.embed_one = counting  # type: ignore[method-assign]
    try:
        yield texts
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]


@pytest.fixture
def embedded(runtime: Runtime) -> Iterator[list[str]]:
    """The texts the code under test embeds."""
    with counting_embeds(runtime) as texts:
        yield texts
