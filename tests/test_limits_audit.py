"""Per-key rate limits (shared through the database) and the audit trail."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn

from memory_mcp import cli
from memory_mcp.db.pool import open_pool
from memory_mcp.errors import InvalidInputError, RateLimitedError
from memory_mcp.http.app import create_app
from memory_mcp.services import admin, audit, memories, ratelimit
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime

from conftest import free_port, settings_for

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
           "MCP-Protocol-Version": "2025-11-25"}


def _rpc(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": args}}


@pytest.fixture
async def limited(database_url: str, embedder: Any) -> Any:
    """A runtime with small budgets: 5 requests and 2 writes a minute per key."""
    settings = settings_for(database_url, rate_limit_requests_per_minute=5,
                            rate_limit_writes_per_minute=2)
    pool = await open_pool(settings, database_url)
    try:
        yield Runtime(settings=settings, pool=pool, embedder=embedder)
    finally:
        await pool.close()


@pytest.mark.anyio
async def test_request_budget_per_key_with_override(limited: Runtime, world: Any) -> None:
    m = await world.member(grants={await world.space(): "readwrite"})
    other = await world.member(grants={await world.space(): "readwrite"})
    header = f"Bearer {m.key}"
    for _ in range(5):
        await authenticate_header(limited, header)
    with pytest.raises(RateLimitedError, match="more than 5 requests") as refused:
        await authenticate_header(limited, header)
    assert 1 <= refused.value.retry_after_seconds <= 60
    await authenticate_header(limited, f"Bearer {other.key}")  # budgets are per key
    await admin.set_key_limits(limited, m.key_id, "0", None)  # this key: unlimited
    for _ in range(10):
        await authenticate_header(limited, header)
    await admin.set_key_limits(limited, m.key_id, "default", None)
    with pytest.raises(RateLimitedError):
        await authenticate_header(limited, header)


@pytest.mark.anyio
async def test_a_limit_not_given_stays_as_it_is(runtime: Runtime, world: Any) -> None:
    """``keys limits KEY --requests N`` changes the requests budget only; with no option it
    shows both and changes nothing; a number past the column's range is refused readably."""
    m = await world.member(grants={await world.space(): "readwrite"})
    await admin.set_key_limits(runtime, m.key_id, None, "0")
    shown = await admin.set_key_limits(runtime, m.key_id, "1000", None)
    assert (shown["requests_per_minute"], shown["writes_per_minute"]) == (1000, 0)
    shown = await admin.set_key_limits(runtime, m.key_id, None, None)
    assert (shown["requests_per_minute"], shown["writes_per_minute"]) == (1000, 0)
    shown = await admin.set_key_limits(runtime, m.key_id, None, "default")
    assert shown["requests_per_minute"] == 1000
    assert str(shown["writes_per_minute"]).startswith("default (")
    with pytest.raises(InvalidInputError, match="from 0 \\(unlimited\\) to 1,000,000"):
        await admin.set_key_limits(runtime, m.key_id, "99999999999", None)


@pytest.mark.anyio
async def test_a_keys_own_limit_applies_when_the_default_is_unlimited(
        database_url: str, embedder: Any, world: Any) -> None:
    """The key lookup counts the request in its own statement: only where a limit is in force
    (the key's own, else the server's), and an unlimited key leaves no count behind."""
    settings = settings_for(database_url, rate_limit_requests_per_minute=0)
    pool = await open_pool(settings, database_url)
    try:
        rt = Runtime(settings=settings, pool=pool, embedder=embedder)
        capped = await world.member(grants={await world.space(): "readwrite"})
        free = await world.member(grants={await world.space(): "readwrite"})
        await admin.set_key_limits(rt, capped.key_id, "3", None)
        for _ in range(3):
            await authenticate_header(rt, f"Bearer {capped.key}")
        with pytest.raises(RateLimitedError, match="more than 3 requests"):
            await authenticate_header(rt, f"Bearer {capped.key}")
        for _ in range(5):
            await authenticate_header(rt, f"Bearer {free.key}")
        async with rt.transaction(system=True) as conn:
            rows = await (await conn.execute(
                "SELECT key_id, used FROM rate_windows WHERE key_id = ANY(%s)",
                ([capped.key_id, free.key_id],))).fetchall()
        # the refused fourth request counts too (a budget of attempts); the free key left none
        assert {(str(r["key_id"]), r["used"]) for r in rows} == {(str(capped.key_id), 4)}
    finally:
        await pool.close()


@pytest.mark.anyio
async def test_write_budget_is_separate_and_lower(limited: Runtime, world: Any) -> None:
    m = await world.member(grants={await world.space(): "readwrite"})
    await ratelimit.take_write(limited, m.principal)
    await ratelimit.take_write(limited, m.principal)
    with pytest.raises(RateLimitedError, match="more than 2 writes"):
        await ratelimit.take_write(limited, m.principal)
    await authenticate_header(limited, f"Bearer {m.key}")  # reads still go through


@pytest.mark.anyio
async def test_both_budgets_start_again_in_a_new_minute(limited: Runtime, world: Any) -> None:
    """The request window (counted inside the key check's function, migrations/0014) and the
    write window (db/limits.py) follow the same rule: within the calendar minute the count grows,
    in a later minute it starts again at 1."""
    m = await world.member(grants={await world.space(): "readwrite"})
    for _ in range(5):
        await authenticate_header(limited, f"Bearer {m.key}")
    await ratelimit.take_write(limited, m.principal)
    await ratelimit.take_write(limited, m.principal)
    with pytest.raises(RateLimitedError):
        await authenticate_header(limited, f"Bearer {m.key}")
    with pytest.raises(RateLimitedError):
        await ratelimit.take_write(limited, m.principal)
    async with limited.transaction(system=True) as conn:  # as if the minute had passed
        await conn.execute("UPDATE rate_windows SET window_start = window_start"
                           " - interval '1 minute' WHERE key_id = %s", (m.key_id,))
    await authenticate_header(limited, f"Bearer {m.key}")
    await ratelimit.take_write(limited, m.principal)
    async with limited.transaction(system=True) as conn:
        rows = await (await conn.execute(
            "SELECT budget, used, window_start = date_trunc('minute', now()) AS current"
            " FROM rate_windows WHERE key_id = %s ORDER BY budget", (m.key_id,))).fetchall()
    assert [(r["budget"], r["used"], r["current"]) for r in rows] == [
        ("requests", 1, True), ("writes", 1, True)]


@pytest.fixture(scope="module")
def limited_server(database_url: str) -> Iterator[str]:
    port = free_port()
    settings = settings_for(database_url, rate_limit_requests_per_minute=4,
                            rate_limit_writes_per_minute=1)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.anyio
async def test_over_http_429_with_retry_after_and_a_tool_error_for_writes(
    limited_server: str, world: Any
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    auth = {**HEADERS, "Authorization": f"Bearer {m.key}"}
    async with httpx.AsyncClient(base_url=limited_server) as http:
        first = await http.post("/mcp", headers=auth,
                                json=_rpc("add_memory", {"content": "One write allowed"}))
        assert first.json()["result"]["isError"] is False
        second = await http.post("/mcp", headers=auth,
                                 json=_rpc("add_memory", {"content": "A second write"}))
        result = second.json()["result"]
        assert second.status_code == 200 and result["isError"] is True
        assert "more than 1 writes" in result["content"][0]["text"]
        third = await http.post("/uploads", headers={"Authorization": f"Bearer {m.key}"},
                                json={"filename": "a.md", "contentType": "text/markdown",
                                      "size": 3})
        assert third.status_code == 429 and "writes" in third.json()["message"]
        fourth = await http.post("/mcp", headers=auth, json=_rpc("whoAmI", {}))
        assert fourth.status_code == 200
        over = await http.post("/mcp", headers=auth, json=_rpc("whoAmI", {}))
        assert over.status_code == 429
        assert 1 <= int(over.headers["retry-after"]) <= 60
        assert "more than 4 requests" in over.json()["message"]


@pytest.mark.anyio
async def test_security_events_are_audited_without_secrets(runtime: Runtime, world: Any,
                                                           database_url: str) -> None:
    space = await world.space("audit")
    m = await world.member(grants={space: "readwrite"})
    reader = await world.member("reader", {space: "read"})
    await admin.set_grant(runtime, m.key_id, space, "read")
    await admin.set_grant(runtime, m.key_id, space, "readwrite")
    await admin.update_user(runtime, reader.user["email"], role="writer")
    await admin.update_user(runtime, reader.user["email"], active=False)
    await admin.update_user(runtime, reader.user["email"], active=False)  # no change: no event
    saved = await memories.save(runtime, m.principal, "Audited fact", None, space)
    await memories.forget(runtime, m.principal, None, saved["memory"]["id"], space)
    await admin.revoke_key(runtime, m.key_id)
    with pytest.raises(Exception):  # noqa: B017 - any refusal
        await authenticate_header(runtime, f"Bearer {m.key}")

    events = await audit.read(runtime.settings, runtime, space=None, user=None, since="10m",
                              limit=500)
    kinds = [(e["kind"], str(e["target_id"])) for e in events]
    assert ("key.created", m.key_id) in kinds and ("key.revoked", m.key_id) in kinds
    assert ("grant.set", m.key_id) in kinds
    assert ("user.role_changed", reader.user["id"]) in kinds
    assert kinds.count(("user.deactivated", reader.user["id"])) == 1
    prefix = m.key[3:13]
    assert any(e["kind"] == "auth.failed" and e["detail"].get("prefix") == prefix for e in events)
    assert m.key not in json.dumps(events, default=str)  # never the secret
    in_space = await audit.read(runtime.settings, runtime, space=space, user=None, since=None,
                                limit=50)
    assert {e["kind"] for e in in_space} == {"space.created", "grant.set", "memory.forgotten"}
    forgot = next(e for e in in_space if e["kind"] == "memory.forgotten")
    assert str(forgot["target_id"]) == saved["memory"]["id"] and forgot["actor_email"]
    assert "Audited fact" not in json.dumps(events, default=str)  # never content
    # --user: what the user did and what was done to the user or the user's keys
    by_m = await audit.read(runtime.settings, runtime, space=None, user=m.user["email"],
                            since=None, limit=50)
    assert {e["kind"] for e in by_m} >= {"key.created", "grant.set", "memory.forgotten",
                                         "key.revoked"}
    about_reader = await audit.read(runtime.settings, runtime, space=None,
                                    user=reader.user["email"], since=None, limit=50)
    assert {e["kind"] for e in about_reader} >= {"user.role_changed", "user.deactivated",
                                                 "key.created", "grant.set"}
    assert all(e["kind"] != "memory.forgotten" for e in about_reader)

    # The application may append but never read, change or delete the trail.
    async with runtime.transaction() as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await conn.execute("SELECT count(*) FROM audit_events")
    async with runtime.transaction() as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await conn.execute("DELETE FROM audit_events")


def test_audit_cli_reads_and_checks_its_arguments(database_url: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    settings = settings_for(database_url)
    assert cli.run(["audit", "--since", "1h", "--json"], settings) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and all({"kind", "at"} <= set(r) for r in rows)
    assert cli.run(["audit", "--since", "yesterday-ish"], settings) == 1
    assert "--since must be like" in capsys.readouterr().err


def test_admin_commands_name_their_operator_and_nothing_else_does(
        database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Operators have no key, so an event an admin command records names the OS account and
    host that ran the CLI; the same service called outside a command (the server) names none,
    and the name does not outlive the command."""
    import asyncio
    import getpass
    import uuid

    settings = settings_for(database_url)
    email = f"op-{uuid.uuid4().hex[:8]}@example.test"
    assert cli.run(["users", "create", "--email", email, "--name", "Op", "--role", "writer"],
                   settings) == 0
    assert audit.operating() is None  # reset after the command

    from memory_mcp.cli_common import with_runtime
    asyncio.run(with_runtime(settings, lambda rt: admin.update_user(rt, email, role="reader")))

    capsys.readouterr()
    assert cli.run(["audit", "--since", "10m", "--json", "--limit", "500"], settings) == 0
    events = json.loads(capsys.readouterr().out)
    created = next(e for e in events if e["kind"] == "user.created"
                   and e["detail"].get("operator", "").startswith("cli: "))
    assert getpass.getuser() in created["detail"]["operator"]
    changed = next(e for e in events if e["kind"] == "user.role_changed"
                   and str(e["target_id"]) == str(created["target_id"]))
    assert "operator" not in changed["detail"]
