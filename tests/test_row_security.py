"""The second wall: PostgreSQL row-level security around spaces (migrations/0009).

Each test removes or falsifies the application's own space filter on purpose (raw SQL with no
``space_id`` condition, or a db function handed another space's id) and checks that the
database still shows and changes nothing outside the spaces the transaction was opened on.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import documents as documents_db
from memory_mcp.db import memories as memories_db
from memory_mcp.db import scope
from memory_mcp.db.pool import EMBEDDED_APP_USER, application_url, open_pool
from memory_mcp.services import memories
from memory_mcp.services.access import readable_spaces
from memory_mcp.services.runtime import Runtime

from conftest import settings_for

pytestmark = pytest.mark.anyio

POLICED = ("memories", "documents", "memory_recalls", "space_stats", "space_terms",
           "document_statements")
#: Identity, not space content: which spaces a key may use is read before any scope exists.
UNPOLICED = {"grants"}


async def _space_id(rt: Runtime, key: str) -> uuid.UUID:
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute("SELECT id FROM spaces WHERE key = %s", (key,))
        row = await cur.fetchone()
    assert row is not None
    return uuid.UUID(str(row["id"]))


async def _two_spaces(rt: Runtime, world: Any) -> tuple[Any, uuid.UUID, uuid.UUID, dict[str, Any]]:
    """A member of space A, and a space B holding a memory, a document and statistics."""
    a, b = await world.space("wall"), await world.space("wall")
    member = await world.member(grants={a: "readwrite"})
    other = await world.member(grants={b: "readwrite"})
    await memories.save(rt, member.principal, "Space A deploys on Tuesdays", None, a)
    saved = await memories.save(rt, other.principal, "Space B's launch code is 0000", None, b)
    await memories.search(rt, other.principal, query="launch code", keyword=None, category=None,
                          include_profile=False, container_tag=b, limit=3)  # recall stats in B
    b_id = await _space_id(rt, b)
    async with rt.transaction(system=True) as conn:
        await documents_db.insert(conn, space_id=b_id, user_id=other.principal.user_id,
                                  title="B doc", status="done", content="classified")
    return member, await _space_id(rt, a), b_id, saved


async def test_a_query_without_its_space_filter_sees_only_the_request_spaces(
    runtime: Runtime, world: Any
) -> None:
    member, a_id, b_id, _ = await _two_spaces(runtime, world)
    async with runtime.transaction() as conn:
        await readable_spaces(conn, member.principal)  # what every request path does first
        for table in POLICED:
            cur = await conn.execute(f"SELECT DISTINCT space_id FROM {table}")
            seen = {row["space_id"] for row in await cur.fetchall()}
            assert b_id not in seen, table
            assert seen <= {a_id}, table
        cur = await conn.execute("SELECT count(*) AS n FROM memories")
        assert (await cur.fetchone() or {})["n"] == 1


async def test_a_db_call_handed_another_spaces_id_returns_nothing(runtime: Runtime,
                                                                   world: Any) -> None:
    member, _, b_id, saved = await _two_spaces(runtime, world)
    b_memory = uuid.UUID(saved["memory"]["id"])
    async with runtime.transaction() as conn:
        await readable_spaces(conn, member.principal)
        assert await memories_db.get(conn, b_id, b_memory) is None
        rows, total = await documents_db.page(conn, b_id, 10, 0)
        assert rows == [] and total == 0


async def test_no_write_lands_outside_the_writable_spaces(runtime: Runtime, world: Any) -> None:
    member, _, b_id, saved = await _two_spaces(runtime, world)
    b_memory = uuid.UUID(saved["memory"]["id"])
    async with runtime.transaction() as conn:
        await readable_spaces(conn, member.principal)
        cur = await conn.execute("UPDATE memories SET content = 'defaced' WHERE id = %s",
                                 (b_memory,))
        assert cur.rowcount == 0
        cur = await conn.execute("DELETE FROM memories WHERE space_id = %s", (b_id,))
        assert cur.rowcount == 0
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"):
        async with runtime.transaction() as conn:
            await readable_spaces(conn, member.principal)
            await documents_db.insert(conn, space_id=b_id, user_id=member.principal.user_id,
                                      title="planted", status="done")
    async with runtime.transaction(system=True) as conn:
        row = await memories_db.get(conn, b_id, b_memory)
        assert row is not None and row["content"] == "Space B's launch code is 0000"


async def test_read_only_spaces_are_readable_but_not_writable(runtime: Runtime,
                                                              world: Any) -> None:
    space = await world.space("ro")
    writer = await world.member(grants={space: "readwrite"})
    reader = await world.member(grants={space: "read"})
    saved = await memories.save(runtime, writer.principal, "Read-only facts stay put", None,
                                space)
    async with runtime.transaction() as conn:
        await readable_spaces(conn, reader.principal)
        cur = await conn.execute("SELECT count(*) AS n FROM memories WHERE id = %s",
                                 (uuid.UUID(saved["memory"]["id"]),))
        assert (await cur.fetchone() or {})["n"] == 1
        cur = await conn.execute("UPDATE memories SET category = 'x' WHERE id = %s",
                                 (uuid.UUID(saved["memory"]["id"]),))
        assert cur.rowcount == 0


async def test_a_transaction_that_names_no_space_sees_none(runtime: Runtime, world: Any) -> None:
    await _two_spaces(runtime, world)
    async with runtime.transaction() as conn:
        for table in POLICED:
            cur = await conn.execute(f"SELECT count(*) AS n FROM {table}")
            assert (await cur.fetchone() or {})["n"] == 0, table
        cur = await conn.execute("SELECT current_user AS u")
        assert (await cur.fetchone() or {})["u"] == scope.APP_ROLE


async def test_every_table_with_a_space_id_is_policed_and_the_app_role_bypasses_nothing(
    runtime: Runtime
) -> None:
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute(
            """SELECT c.relname, c.relrowsecurity, count(p.polname) AS policies
                 FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
                      LEFT JOIN pg_policy p ON p.polrelid = c.oid
                WHERE a.attname = 'space_id' AND c.relkind IN ('r', 'p')
                  AND c.relnamespace = 'public'::regnamespace
                GROUP BY c.relname, c.relrowsecurity""")
        tables = {row["relname"]: row for row in await cur.fetchall()}
        cur = await conn.execute(
            """SELECT rolsuper, rolbypassrls, rolcreaterole, rolcreatedb FROM pg_roles
                WHERE rolname = ANY(%s)""", ([scope.APP_ROLE, EMBEDDED_APP_USER],))
        roles = await cur.fetchall()
        cur = await conn.execute(
            """SELECT count(*) AS n FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                WHERE r.rolname = ANY(%s)""", ([scope.APP_ROLE, EMBEDDED_APP_USER],))
        owned = (await cur.fetchone() or {})["n"]
    assert set(POLICED) <= set(tables)
    for name, row in tables.items():
        if name in UNPOLICED:
            continue
        assert row["relrowsecurity"] and row["policies"] >= 1, f"{name} has no policy"
    assert len(roles) == 2
    assert not any(any(r.values()) for r in roles)  # no superuser, BYPASSRLS, CREATEROLE, …
    assert owned == 0


async def test_the_embedded_server_logs_in_as_the_unprivileged_role(database_url: str) -> None:
    settings = Settings()  # no DATABASE_URL: the embedded default
    url = application_url(settings, database_url)
    assert f"user={EMBEDDED_APP_USER}" in url
    assert application_url(Settings(database_url=SecretStr(database_url)), database_url) == database_url
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute("SELECT session_user, current_setting('is_superuser')")
        assert await cur.fetchone() == (EMBEDDED_APP_USER, "off")
        # Without the request scope it sees no space data, and it cannot bypass the policies.
        cur = await conn.execute("SELECT count(*) FROM memories")
        assert await cur.fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await conn.execute("ALTER TABLE memories DISABLE ROW LEVEL SECURITY")


async def _unfiltered(conn: Any, space_id: uuid.UUID, limit: int, offset: int
                      ) -> tuple[list[dict[str, Any]], int]:
    """listMemories' SQL with its ``WHERE space_id`` removed: only the scope stands."""
    cur = await conn.execute(
        f"SELECT {memories_db._COLUMNS} FROM memories m {memories_db._JOINS} "
        "ORDER BY m.created_at DESC LIMIT %s OFFSET %s", (limit, offset))
    rows = await cur.fetchall()
    return rows, len(rows)


async def test_a_service_whose_query_lost_its_filter_still_serves_one_space(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seam: listMemories' SQL with its ``WHERE space_id`` removed, called through the
    real service by a member of A while B holds memories too."""
    member, _, _, _ = await _two_spaces(runtime, world)

    monkeypatch.setattr(memories_db, "page", _unfiltered)
    listed = await memories.list_page(runtime, member.principal, 1, 50, None)
    assert [m["memory"] for m in listed["memories"]] == ["Space A deploys on Tuesdays"]


async def test_a_listing_of_one_space_is_walled_from_the_keys_other_spaces(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key granted two spaces lists one: the transaction is narrowed to that space alone
    (``resolve_space(only=True)``), so the same unfiltered query sees nothing of the other
    space the key may also read."""
    a, b = await world.space("wall"), await world.space("wall")
    member = await world.member(grants={a: "readwrite", b: "read"})
    writer = await world.member(grants={b: "readwrite"})
    await memories.save(runtime, member.principal, "Space A deploys on Tuesdays", None, a)
    await memories.save(runtime, writer.principal, "Space B's launch code is 0000", None, b)

    monkeypatch.setattr(memories_db, "page", _unfiltered)
    for space, text in ((a, "Space A deploys on Tuesdays"), (b, "Space B's launch code is 0000")):
        listed = await memories.list_page(runtime, member.principal, 1, 50, space)
        assert [m["memory"] for m in listed["memories"]] == [text]


async def test_with_row_security_off_search_still_sees_the_request_space(
    database_url: str, embedder: Any, world: Any
) -> None:
    """MEMORY_MCP_ROW_SECURITY=false (for measuring) skips the role, not the scope: search
    reads through memories_in_scope, which must still show the request's space."""
    space = await world.space("off")
    m = await world.member(grants={space: "readwrite"})
    settings = settings_for(database_url, row_security=False)
    pool = await open_pool(settings, database_url)
    try:
        rt = Runtime(settings=settings, pool=pool, embedder=embedder)
        await memories.save(rt, m.principal, "The release train leaves on Thursdays", None, space)
        found = await memories.search(rt, m.principal, query="when does the release train go",
                                      keyword=None, category=None, include_profile=False,
                                      container_tag=space, limit=3)
        assert found["results"][0]["memory"] == "The release train leaves on Thursdays"
        async with rt.transaction() as conn:
            cur = await conn.execute("SELECT current_user AS u")
            assert (await cur.fetchone() or {})["u"] != scope.APP_ROLE
    finally:
        await pool.close()
