"""The access matrix over real HTTP with the official MCP client and real bearer keys."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from memory_mcp.db import documents as documents_db
from memory_mcp.services import admin, audit, memories
from memory_mcp.services.runtime import Runtime

from mcp_client import call, connect

pytestmark = pytest.mark.anyio


def _error(result: Any) -> str:
    assert result.is_error, result.content
    return str(result.content[0].text)


async def _total(url: str, key: str, space: str) -> int:
    result = await call(url, key, "listMemories", {"containerTag": space})
    return int(result.structured_content["total"])


async def test_writer_with_readwrite_writes(live_server: str, world: Any) -> None:
    space = await world.space()
    w = await world.member("writer", {space: "readwrite"})
    result = await call(live_server, w.key, "add_memory",
                        {"content": "Writers can write here", "containerTag": space})
    assert not result.is_error
    assert result.structured_content["action"] == "saved"
    assert result.structured_content["memory"]["createdByUserId"] == w.user["id"]
    assert await _total(live_server, w.key, space) == 1


@pytest.mark.parametrize(("role", "grant", "reason"), [
    ("reader", "readwrite", "your role is Reader"),
    ("writer", "read", "grant there is Read"),
])
async def test_read_only_combinations_are_refused_and_write_nothing(
    live_server: str, world: Any, runtime: Runtime, role: str, grant: str, reason: str
) -> None:
    space = await world.space()
    m = await world.member(role, {space: grant})
    for args in ({"content": "Should not be stored"},
                 {"content": "Should not be stored", "action": "forget"}):
        text = _error(await call(live_server, m.key, "add_memory", {**args, "containerTag": space}))
        assert f'read-only in space "{space}"' in text and reason in text
    assert await _total(live_server, m.key, space) == 0
    spaces = (await call(live_server, m.key, "listSpaces")).structured_content
    assert [s["access"] for s in spaces["spaces"]] == ["Read"]
    # the refusals are filed under the space: `audit --space` shows them
    events = await audit.read(runtime.settings, runtime, space=space, user=None, since=None,
                              limit=50)
    assert [e["kind"] for e in events if e["kind"] == "write.denied"] == ["write.denied"] * 2


async def test_reader_sees_read_everywhere(live_server: str, world: Any) -> None:
    a, b = await world.space(), await world.space()
    r = await world.member("reader", {a: "readwrite", b: "read"})
    who = (await call(live_server, r.key, "whoAmI")).structured_content
    assert who["user"]["role"] == "Reader"
    assert {s["access"] for s in who["scope"]} == {"Read"}
    assert r.key[14:] not in str(who) and len(r.key[14:]) == 43


async def test_ungranted_and_nonexistent_spaces_are_indistinguishable(
    live_server: str, world: Any, runtime: Runtime
) -> None:
    mine, secret = await world.space(), await world.space("secret")
    owner = await world.member("writer", {secret: "readwrite"})
    saved = await memories.save(runtime, owner.principal, "Secret plan", None, secret)
    async with runtime.transaction(system=True) as conn:
        doc = await documents_db.insert(conn, space_id=(await _space_id(runtime, secret)),
                                        user_id=owner.principal.user_id, title="Secret doc",
                                        status="done", content="classified")
    outsider = await world.member("writer", {mine: "readwrite"})
    missing = f"nope-{uuid.uuid4().hex[:8]}"
    calls: list[tuple[str, dict[str, Any]]] = [
        ("search_memory", {"query": "plan"}),
        ("search_memory", {"keyword": "Secret"}),
        ("add_memory", {"content": "intrusion"}),
        ("add_memory", {"content": "Secret plan", "action": "forget"}),
        ("add_memory", {"content": "", "action": "forget", "memoryId": saved["memory"]["id"]}),
        ("listDocuments", {}),
        ("listMemories", {}),
        ("getDocument", {"documentId": str(doc["id"])}),
        ("deleteDocument", {"documentId": str(doc["id"])}),
        ("select-space", {}),
    ]
    async with connect(live_server, outsider.key) as client:
        for tool, args in calls:
            texts = []
            for tag in (secret, missing):
                result = await client.call_tool(tool, {**args, "containerTag": tag})
                texts.append(_error(result).replace(tag, "<tag>"))
            assert texts[0] == texts[1], tool
            assert "not found" in texts[0]
        # Without naming the space, a document elsewhere looks like a missing one.
        texts = []
        for tool in ("getDocument", "deleteDocument"):
            texts = []
            for doc_id in (str(doc["id"]), str(uuid.uuid4())):
                result = await client.call_tool(tool, {"documentId": doc_id})
                texts.append(_error(result).replace(doc_id, "<id>"))
            assert texts[0] == texts[1], tool
    assert (await memories.list_page(runtime, owner.principal, 1, 10, secret))["total"] == 1


async def _space_id(runtime: Runtime, key: str) -> Any:
    from memory_mcp.db import identity

    async with runtime.transaction(system=True) as conn:
        row = await identity.find_space(conn, key)
    assert row is not None
    return row["id"]


async def test_active_space_rule(live_server: str, world: Any) -> None:
    first, second = await world.space(), await world.space()
    m = await world.member("writer", {first: "readwrite", second: "read"})
    who = (await call(live_server, m.key, "whoAmI")).structured_content
    assert who["activeSpace"] == {"key": first, "name": f"Space {first}", "access": "ReadWrite",
                                  "source": "default"}
    # A one-off containerTag does not move the active space.
    await call(live_server, m.key, "listMemories", {"containerTag": second})
    assert (await call(live_server, m.key, "whoAmI")).structured_content["activeSpace"]["key"] == first
    switched = await call(live_server, m.key, "select-space", {"containerTag": second})
    assert switched.structured_content["activeSpace"]["key"] == second
    who = (await call(live_server, m.key, "whoAmI")).structured_content
    assert who["activeSpace"]["key"] == second and who["activeSpace"]["source"] == "selected"
    listed = (await call(live_server, m.key, "listSpaces")).structured_content
    assert [s["key"] for s in listed["spaces"] if s["active"]] == [second]
    # Writes without containerTag now go to the (read-only) active space and are refused.
    text = _error(await call(live_server, m.key, "add_memory", {"content": "x"}))
    assert f'read-only in space "{second}"' in text


async def test_no_grants_gives_a_clear_error(live_server: str, world: Any) -> None:
    m = await world.member("writer", {})
    text = _error(await call(live_server, m.key, "search_memory", {"query": "anything"}))
    assert "no spaces" in text
    listed = (await call(live_server, m.key, "listSpaces")).structured_content
    assert listed["count"] == 0


def _post_mcp(url: str, key: str | None) -> httpx.Response:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    return httpx.post(url, json=body, headers=headers, timeout=30)


async def test_revoked_key_and_deactivated_user_get_401(
    live_server: str, world: Any, runtime: Runtime
) -> None:
    space = await world.space()
    author = await world.member("writer", {space: "readwrite"}, name="Departed Author")
    reader = await world.member("reader", {space: "read"})
    saved = await call(live_server, author.key, "add_memory",
                       {"content": "Knowledge outlives its author", "containerTag": space})
    assert not saved.is_error

    spare = await admin.create_key(runtime, author.user["id"], "spare")
    await admin.set_grant(runtime, spare["id"], space, "readwrite")
    await admin.revoke_key(runtime, author.key_id)
    revoked = _post_mcp(live_server, author.key)
    assert revoked.status_code == 401
    assert revoked.headers["www-authenticate"].startswith("Bearer")
    assert _post_mcp(live_server, spare["key"]).status_code != 401

    await admin.update_user(runtime, author.user["id"], active=False)
    deactivated = _post_mcp(live_server, spare["key"])
    assert deactivated.status_code == 401
    unknown = _post_mcp(live_server, "mm_0123456789_" + "A" * 43)
    missing = _post_mcp(live_server, None)
    assert deactivated.json() == revoked.json() == unknown.json() == missing.json()

    found = (await call(live_server, reader.key, "search_memory",
                        {"keyword": "outlives", "containerTag": space})).structured_content
    assert found["results"][0]["createdBy"] == "Departed Author"
    assert found["results"][0]["createdByUserId"] == author.user["id"]


async def test_a_container_tag_in_other_case_names_the_same_space(
        live_server: str, world: Any) -> None:
    """Space keys are lower case: "Demo-X" is "demo-x"."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    saved = await call(live_server, m.key, "add_memory", {"content": "Upper case tags work",
                                                          "containerTag": space.upper()})
    assert not saved.is_error and saved.structured_content["space"] == space
