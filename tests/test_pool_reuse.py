"""The request path's round trips: pooled connections reused without a check only while that
is safe, non-durable commits only where asked for, and a search's statistics in its own
transaction's savepoint (real embedded PostgreSQL)."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from memory_mcp.db import identity
from memory_mcp.db import memories as memories_db
from memory_mcp.db import pool as pool_module
from memory_mcp.db.pool import distrust_idle, open_pool
from memory_mcp.embeddings import Embedder
from memory_mcp.services import memories, recall
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime

from conftest import World, settings_for

pytestmark = pytest.mark.anyio


@pytest.fixture
async def one_connection(database_url: str, embedder: Embedder) -> AsyncIterator[Runtime]:
    """A runtime whose pool holds exactly one connection, so every transaction reuses it."""
    settings = settings_for(database_url, pool_min_size=1, pool_max_size=1)
    pool = await open_pool(settings, database_url)
    try:
        yield Runtime(settings=settings, pool=pool, embedder=embedder)
    finally:
        await pool.close()


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often the pool ran its round-trip check."""
    calls: list[int] = []
    real = AsyncConnectionPool.check_connection

    async def counting(conn: Any) -> None:
        calls.append(1)
        await real(conn)

    monkeypatch.setattr(AsyncConnectionPool, "check_connection", staticmethod(counting))
    return calls


async def _backend_pid(rt: Runtime) -> int:
    async with rt.transaction(system=True) as conn:
        row = await (await conn.execute("SELECT pg_backend_pid() AS pid")).fetchone()
        assert row is not None
        return int(row["pid"])


async def test_a_connection_used_moments_ago_is_reused_without_a_check(
        one_connection: Runtime, checks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    first = await _backend_pid(one_connection)
    before = len(checks)
    assert await _backend_pid(one_connection) == first
    assert len(checks) == before, "a connection back for moments is not checked again"
    distrust_idle()  # what a failed transaction does
    await _backend_pid(one_connection)
    assert len(checks) == before + 1
    monkeypatch.setattr(pool_module, "RECENT_SECONDS", 0.0)  # idle "a while"
    await _backend_pid(one_connection)
    assert len(checks) == before + 2


async def test_a_connection_the_server_ended_is_checked_and_replaced(
        one_connection: Runtime, checks: list[int], database_url: str) -> None:
    pid = await _backend_pid(one_connection)
    with psycopg.connect(database_url, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (pid,))
    deadline = time.monotonic() + 5  # the termination notice reaches the idle socket
    while time.monotonic() < deadline:
        idle = list(pool_module._returned)
        if idle and pool_module._has_input(idle[0]):
            break
        time.sleep(0.02)
    before = len(checks)
    assert await _backend_pid(one_connection) != pid, "no request sees the ended connection"
    assert len(checks) >= before + 1


async def test_only_a_non_durable_transaction_skips_the_wal_flush(runtime: Runtime) -> None:
    async def setting(**kw: Any) -> str:
        async with runtime.transaction(system=True, **kw) as conn:
            row = await (await conn.execute("SHOW synchronous_commit")).fetchone()
            assert row is not None
            return str(row["synchronous_commit"])

    assert await setting() == "on"  # the server's own setting
    assert await setting(durable=False) == "off"
    assert await setting() == "on", "the setting ends with its transaction"


async def test_the_key_check_is_one_statement_and_hands_the_connection_back_as_it_was(
        database_url: str, embedder: Embedder, world: World,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request's key check is a single autocommit statement (no BEGIN, scope or COMMIT
    around it) that skips the WAL flush and still writes the key's last use and the request
    count; the pooled connection is transactional again after, and the setting is gone."""
    settings = settings_for(database_url, pool_min_size=1, pool_max_size=1,
                            rate_limit_requests_per_minute=100)
    pool = await open_pool(settings, database_url)
    rt = Runtime(settings=settings, pool=pool, embedder=embedder)
    try:
        member = await world.member(grants={await world.space("keycheck"): "readwrite"})
        async with rt.transaction(system=True) as conn:
            await conn.execute("UPDATE api_keys SET last_used_at = NULL WHERE id = %s",
                               (member.key_id,))
        seen: list[tuple[bool, Any]] = []
        real = identity.principal_by_key

        async def observed(conn: Any, *args: Any, **kwargs: Any) -> Any:
            seen.append((conn.autocommit, conn.info.transaction_status))
            return await real(conn, *args, **kwargs)

        monkeypatch.setattr(identity, "principal_by_key", observed)
        principal = await authenticate_header(rt, f"Bearer {member.key}")
        assert str(principal.key_id) == str(member.key_id)
        # in autocommit, outside any transaction block: the statement is its own transaction
        assert seen == [(True, psycopg.pq.TransactionStatus.IDLE)]
        async with pool.connection() as pooled:
            assert pooled.autocommit is False
        # the same (only) connection still rolls a failed transaction back
        with pytest.raises(RuntimeError):
            async with rt.transaction(system=True) as conn:
                await conn.execute("UPDATE api_keys SET label = 'changed' WHERE id = %s",
                                   (member.key_id,))
                raise RuntimeError("fail after the write")
        async with rt.transaction(system=True) as conn:
            key = await (await conn.execute(
                "SELECT label, last_used_at FROM api_keys WHERE id = %s",
                (member.key_id,))).fetchone()
            window = await (await conn.execute(
                "SELECT used FROM rate_windows WHERE key_id = %s", (member.key_id,))).fetchone()
            setting = await (await conn.execute("SHOW synchronous_commit")).fetchone()
        assert key is not None and key["label"] != "changed"
        assert key["last_used_at"] is not None, "the statement's writes were committed"
        assert window is not None and window["used"] == 1
        assert setting is not None and setting["synchronous_commit"] == "on"
    finally:
        await pool.close()


async def test_a_search_counts_its_hits_and_survives_failing_statistics(
        runtime: Runtime, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    space = await world.space("recalls")
    m = await world.member(grants={space: "readwrite"})
    saved = await memories.save(runtime, m.principal, "The release train leaves every Tuesday.",
                                None, space)
    memory_id = uuid.UUID(saved["memory"]["id"])

    async def count() -> int:
        async with runtime.transaction(system=True) as conn:
            row = await (await conn.execute(
                "SELECT coalesce(max(recall_count), 0) AS n FROM memory_recalls"
                " WHERE memory_id = %s", (memory_id,))).fetchone()
            assert row is not None
            return int(row["n"])

    async def search() -> dict[str, Any]:
        return await recall.search(runtime, m.principal, query="When does the release train go?",
                                   keyword=None, category=None, include_profile=False,
                                   container_tag=space, limit=5)

    first = await search()
    assert first["results"][0]["id"] == str(memory_id) and await count() == 1
    await search()  # the query's vector is cached and the space's size remembered now
    assert await count() == 2

    async def failing(conn: Any, space_id: Any, ids: Any) -> None:
        await conn.execute("SELECT 1/0")  # any statement error inside the statistics

    monkeypatch.setattr(memories_db, "record_recalls", failing)
    again = await search()
    assert again["results"][0]["id"] == str(memory_id), "the search still answers"
    assert await count() == 2


async def test_a_deadlock_is_a_retryable_conflict_not_an_outage(runtime: Runtime,
                                                                  world: World) -> None:
    """Two transactions lock two rows in opposite orders: PostgreSQL aborts one (40P01). That
    one is told its change collided and may be retried (ConflictError), not that the store is
    unavailable; the other commits."""
    import anyio

    from memory_mcp.errors import ConflictError

    keys = [await world.space(), await world.space()]
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT id FROM spaces WHERE key = ANY(%s) ORDER BY key", (keys,))
        first, second = [row["id"] for row in await cur.fetchall()]
    outcomes: list[str] = []
    both_locked = anyio.Event()
    locked = 0

    async def one(a: uuid.UUID, b: uuid.UUID) -> None:
        nonlocal locked
        try:
            async with runtime.transaction(system=True) as conn:
                await conn.execute("UPDATE spaces SET last_activity_at = now() WHERE id = %s",
                                   (a,))
                locked += 1
                if locked == 2:
                    both_locked.set()
                await both_locked.wait()
                await conn.execute("UPDATE spaces SET last_activity_at = now() WHERE id = %s",
                                   (b,))
            outcomes.append("committed")
        except ConflictError as exc:
            assert "collided with another one" in str(exc)
            outcomes.append("conflict")

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(one, first, second)
        tasks.start_soon(one, second, first)
    assert sorted(outcomes) == ["committed", "conflict"]
