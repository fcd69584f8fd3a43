"""What a request costs in statements (real embedded PostgreSQL): the key check brings the key's
grants with it, and a search whose space size was read lately opens its one transaction on that
space with its HNSW depth already set, then runs only its query and its statistics."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from memory_mcp.db import ann
from memory_mcp.errors import NotFoundError
from memory_mcp.services import admin, memories, recall
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.space_sizes import SpaceSizes

from conftest import World

pytestmark = pytest.mark.anyio


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
