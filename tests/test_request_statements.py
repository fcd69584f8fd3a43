"""What a request costs in statements (real embedded PostgreSQL): the key check brings the key's
grants with it, and a search whose space size was read lately opens its one transaction on that
space with its HNSW depth already set, then runs only its query and its statistics."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from memory_mcp.db import ann
from memory_mcp.errors import AccessDeniedError, NotFoundError
from memory_mcp.services import admin, memories, recall
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.space_sizes import SpaceSizes

from conftest import World

pytestmark = pytest.mark.anyio


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


@pytest.fixture
def embedded(runtime: Runtime) -> Iterator[list[str]]:
    """The texts the code under test embeds (``embed_one`` counted, then restored)."""
    texts: list[str] = []
    real = runtime.embed_one

    async def counting(text: str) -> str:
        texts.append(text)
        return await real(text)

    runtime.embed_one = counting  # type: ignore[method-assign]
    yield texts
    runtime.embed_one = real  # type: ignore[method-assign]


async def test_the_key_check_brings_the_keys_grants_oldest_first(runtime: Runtime,
                                                                 world: World) -> None:
    first, second, third = await world.space("g1"), await world.space("g2"), await world.space("g3")
    reader = await world.member("reader", grants={third: "readwrite", first: "read",
                                                  second: "readwrite"})
    async with runtime.transaction(system=True) as conn:  # grant order differs from name order
        for space, age in ((second, 3), (third, 2), (first, 1)):
            await conn.execute(
                "UPDATE grants g SET created_at = now() - make_interval(days => %s)"
                " FROM spaces s WHERE s.id = g.space_id AND s.key = %s AND g.key_id = %s",
                (age, space, reader.key_id))
    principal = await authenticate_header(runtime, f"Bearer {reader.key}")
    assert [s.key for s in principal.spaces] == [second, third, first]
    assert [(s.grant, s.effective) for s in principal.spaces] == [
        ("readwrite", "read"), ("readwrite", "read"), ("read", "read")], "the role is a ceiling"
    assert principal.spaces[0].name == f"Space {second}"
    assert principal.spaces[0].description == "test space"
    lonely = await world.member()
    assert (await authenticate_header(runtime, f"Bearer {lonely.key}")).spaces == ()


@pytest.mark.parametrize("live", [0, 39, 4_000, 4_039, 20_000, 39_999, 40_000, 1_000_000])
@pytest.mark.parametrize(("floor", "cap"), [(100, 1000), (100, 60), (20, 1000), (5, 5000)])
async def test_the_remembered_depth_is_the_one_the_statement_sets(
        runtime: Runtime, world: World, live: int, floor: int, cap: int) -> None:
    space = await world.space("ef")
    async with runtime.transaction(system=True) as conn:
        row = await (await conn.execute("SELECT id FROM spaces WHERE key = %s",
                                        (space,))).fetchone()
        assert row is not None
        await conn.execute(
            "INSERT INTO space_stats (space_id, live_memories, all_memories) VALUES (%s, %s, %s)"
            " ON CONFLICT (space_id) DO UPDATE SET live_memories = EXCLUDED.live_memories",
            (row["id"], live, live))
        read = await ann.enable_search_ann(conn, row["id"], floor=floor, cap=cap)
        setting = await (await conn.execute("SHOW hnsw.ef_search")).fetchone()
    assert read == live
    assert setting is not None
    assert int(setting["hnsw.ef_search"]) == ann.search_ef(live, floor=floor, cap=cap)
    assert ann.search_settings(ann.search_ef(live, floor=floor, cap=cap))["hnsw.ef_search"] == \
        setting["hnsw.ef_search"]


async def test_a_search_of_a_space_read_lately_is_three_statements(
        runtime: Runtime, world: World, statements: list[str]) -> None:
    space = await world.space("stmts")
    m = await world.member(grants={space: "readwrite"})
    saved = await memories.save(runtime, m.principal, "The release train leaves every Tuesday.",
                                None, space)

    async def search() -> dict[str, Any]:
        return await recall.search(runtime, m.principal, query="When does the release train go?",
                                   keyword=None, category=None, include_profile=False,
                                   container_tag=space, limit=5)

    runtime.sizes = SpaceSizes()
    statements.clear()
    first = await search()
    assert [s.split(" ")[0:2] for s in statements] == [
        ["SELECT", "set_config('role',"], ["SELECT", "set_config('hnsw.iterative_scan',"],
        ["WITH", "sem"], ["INSERT", "INTO"]], "first: the size is read, in its own statement"
    assert "hnsw.ef_search" not in statements[0]
    statements.clear()
    second = await search()
    assert len(statements) == 3, statements
    assert statements[0].startswith("SELECT set_config('role',") and \
        statements[0].count("set_config(%s, %s, true)") == 4, "depth set with the scope"
    assert statements[1].startswith("WITH sem") and statements[2].startswith("INSERT INTO")
    assert [h["id"] for h in second["results"]] == [h["id"] for h in first["results"]]
    assert second["results"][0]["id"] == saved["memory"]["id"]


async def test_a_refused_space_costs_no_statement_and_no_embedding(
        runtime: Runtime, world: World, statements: list[str], embedded: list[str]) -> None:
    mine, theirs = await world.space("mine"), await world.space("theirs")
    m = await world.member(grants={mine: "read"})
    statements.clear()
    with pytest.raises(Exception, match="was not found"):
        await recall.search(runtime, m.principal, query="An unseen question about trains",
                            keyword=None, category=None, include_profile=False,
                            container_tag=theirs, limit=5)
    assert statements == [] and embedded == []


@pytest.mark.parametrize("change", ["grant revoked", "key revoked", "user deactivated"])
async def test_a_search_after_the_key_check_obeys_a_grant_lost_meanwhile(
        runtime: Runtime, world: World, change: str) -> None:
    """The key check runs before the request's body is read, so time passes before the search;
    its first statement checks the grant again, and a lost one reads nothing."""
    space = await world.space("lost")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The vault code is 4711.", None, space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    for _ in range(2):  # the space's size unknown, then remembered: both paths check the grant
        found = await recall.search(runtime, principal, query="What is the vault code?",
                                    keyword=None, category=None, include_profile=False,
                                    container_tag=space, limit=5)
        assert found["results"] and "4711" in found["results"][0]["memory"]
    if change == "grant revoked":
        await admin.revoke_grant(runtime, m.key_id, space)
    elif change == "key revoked":
        await admin.revoke_key(runtime, m.key_id)
    else:
        await admin.update_user(runtime, m.user["email"], active=False)
    assert runtime.sizes.get(principal.spaces[0].space_id) is not None
    with pytest.raises(NotFoundError, match=f'Space "{space}" was not found'):  # size known
        await recall.search(runtime, principal, query="What is the vault code?", keyword=None,
                            category=None, include_profile=False, container_tag=space, limit=5)
    runtime.sizes = SpaceSizes()  # size unknown: the depth would be read in its own statement
    for tag in (space, None):  # the default space too
        with pytest.raises(NotFoundError, match=f'Space "{space}" was not found'):
            await recall.search(runtime, principal, query="What is the vault code?",
                                keyword=None, category=None, include_profile=False,
                                container_tag=tag, limit=5)


async def test_a_saves_first_look_is_one_statement_after_its_scope(
        runtime: Runtime, world: World, statements: list[str]) -> None:
    """The identical-text look before embedding opens on the space from the key check's grants
    (the scope statement also checks the key still holds it), then reads; an identical save
    ends there, with nothing embedded or written."""
    space = await world.space("look")
    m = await world.member(grants={space: "readwrite"})
    text = "The release train leaves every Tuesday."
    await memories.save(runtime, m.principal, text, None, space)
    statements.clear()
    again = await memories.save(runtime, m.principal, text, None, space)
    assert again["action"] == "unchanged"
    assert len(statements) == 2, statements
    assert statements[0].startswith("SELECT set_config('role',") and \
        "memory_mcp_still_granted" in statements[0]
    assert "content_hash" in statements[1]


async def test_a_read_only_saver_costs_no_statement_and_no_embedding(
        runtime: Runtime, world: World, statements: list[str], embedded: list[str]) -> None:
    space = await world.space("ro")
    m = await world.member(grants={space: "read"})
    statements.clear()
    with pytest.raises(AccessDeniedError, match="read-only"):
        await memories.save(runtime, m.principal, "A fact nobody may write here.", None, space)
    assert statements == [] and embedded == []


@pytest.mark.parametrize("change", ["grant revoked", "grant made read-only", "key revoked",
                                    "user deactivated"])
async def test_a_save_after_the_key_check_obeys_a_grant_changed_meanwhile(
        runtime: Runtime, world: World, change: str) -> None:
    """Both of a save's transactions read the grants again: its first look (the scope
    statement: the grant still there) and its write (the space resolved again where it writes,
    with the access as it is now). Nothing is written. A grant made read-only meanwhile still
    lets the first look answer "unchanged" for a text already stored, as it would have a
    moment earlier: that answer writes nothing."""
    space = await world.space("lostw")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The vault code is 4711.", None, space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    if change == "grant revoked":
        await admin.revoke_grant(runtime, m.key_id, space)
    elif change == "grant made read-only":
        await admin.set_grant(runtime, m.key_id, space, "read")
    elif change == "key revoked":
        await admin.revoke_key(runtime, m.key_id)
    else:
        await admin.update_user(runtime, m.user["email"], active=False)
    if change == "grant made read-only":
        same = await memories.save(runtime, principal, "The vault code is 4711.", None, space)
        assert same["action"] == "unchanged"
        with pytest.raises(AccessDeniedError, match="read-only"):
            await memories.save(runtime, principal, "The vault code is now 1234.", None, space)
    else:
        for text in ("The vault code is 4711.", "The vault code is now 1234."):  # same, new
            with pytest.raises(NotFoundError, match=f'Space "{space}" was not found'):
                await memories.save(runtime, principal, text, None, space)
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT m.content FROM memories m JOIN spaces s"
                                 " ON s.id = m.space_id WHERE s.key = %s", (space,))
        assert [r["content"] for r in await cur.fetchall()] == ["The vault code is 4711."]


async def test_a_new_save_is_seven_statements(runtime: Runtime, world: World,
                                              statements: list[str]) -> None:
    """First look: scope (grant still held) + identical-text lookup. Write: scope (key may still
    write there, migration 0016) + save lock + candidates + write + post-write check."""
    space = await world.space("seven")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The release train leaves every Tuesday.", None,
                        space)
    statements.clear()
    saved = await memories.save(runtime, m.principal, "Lunch is at noon in the canteen.", None,
                                space)
    assert saved["action"] == "saved"
    assert len(statements) == 7, statements
    assert "memory_mcp_still_granted" in statements[0]
    assert "memory_mcp_still_writable" in statements[2]
    assert "grants" not in " ".join(statements[3:]), "no second read of the grants"


@pytest.mark.parametrize(("change", "refused"), [
    ("grant revoked", NotFoundError), ("key revoked", NotFoundError),
    ("user deactivated", NotFoundError), ("grant made read-only", AccessDeniedError),
    ("user made a reader", AccessDeniedError)])
async def test_a_save_whose_access_changes_while_it_embeds_writes_nothing(
        runtime: Runtime, world: World, change: str, refused: type[Exception]) -> None:
    """The writing transaction's first statement checks the key may still write there, with
    the role and grant as they are now, not as the key check saw them."""
    space = await world.space("embedw")
    m = await world.member(grants={space: "readwrite"})
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    real = runtime.embed_one

    async def changing(text: str) -> str:
        if change == "grant revoked":
            await admin.revoke_grant(runtime, m.key_id, space)
        elif change == "key revoked":
            await admin.revoke_key(runtime, m.key_id)
        elif change == "user deactivated":
            await admin.update_user(runtime, m.user["email"], active=False)
        elif change == "grant made read-only":
            await admin.set_grant(runtime, m.key_id, space, "read")
        else:
            await admin.update_user(runtime, m.user["email"], role="reader")
        return await real(text)

    runtime.embed_one = changing  # type: ignore[method-assign]
    try:
        with pytest.raises(refused) as caught:
            await memories.save(runtime, principal, "The vault code is 4711.", None, space)
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]
    words = f'Space "{space}" was not found' if refused is NotFoundError else "read-only"
    assert words in str(caught.value)
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM memories m JOIN spaces s"
                                 " ON s.id = m.space_id WHERE s.key = %s", (space,))
        assert await cur.fetchone() == {"n": 0}


@pytest.mark.parametrize(("change", "refused"), [
    ("key revoked", NotFoundError), ("user made a reader", AccessDeniedError)])
async def test_a_forget_whose_access_changes_while_it_looks_forgets_nothing(
        runtime: Runtime, world: World, change: str, refused: type[Exception]) -> None:
    space = await world.space("embedf")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The staging database runs PostgreSQL 16.", None,
                        space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    real = runtime.query_vector

    async def changing(text: str) -> str:  # the look for the memory the text means
        if change == "key revoked":
            await admin.revoke_key(runtime, m.key_id)
        else:
            await admin.update_user(runtime, m.user["email"], role="reader")
        return await real(text)

    runtime.query_vector = changing  # type: ignore[method-assign]
    try:
        with pytest.raises(refused):
            await memories.forget(runtime, principal, "staging database runs PostgreSQL 16",
                                  None, space)
    finally:
        runtime.query_vector = real  # type: ignore[method-assign]
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT bool_and(NOT m.is_forgotten) AS kept FROM memories m"
                                 " JOIN spaces s ON s.id = m.space_id WHERE s.key = %s", (space,))
        assert await cur.fetchone() == {"kept": True}


async def test_extra_settings_cannot_replace_the_scope(runtime: Runtime) -> None:
    for name in ("role", "memory_mcp.read_spaces", "memory_mcp.write_spaces",
                 "session_authorization"):
        with pytest.raises(ValueError, match="may not replace"):
            async with runtime.transaction(read=[uuid.uuid4()], settings={name: "*"}):
                pass


def test_space_sizes_expire_and_stay_bounded() -> None:
    now = [0.0]
    sizes = SpaceSizes(ttl=30.0, capacity=2, clock=lambda: now[0])
    a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    assert sizes.get(a) is None
    sizes.note(a, 10)
    now[0] = 29.9
    assert sizes.get(a) == 10
    now[0] = 30.0
    assert sizes.get(a) is None, "read again once the reading is ttl seconds old"
    sizes.note(a, 11)
    sizes.note(b, 20)
    assert sizes.get(a) == 11  # a is now the most recently used
    sizes.note(c, 30)  # over capacity: b, the least recently used, goes
    assert (sizes.get(a), sizes.get(b), sizes.get(c)) == (11, None, 30)
