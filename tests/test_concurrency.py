"""Races and mid-request changes: nothing deadlocks, nothing half-writes, leases are owned."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from memory_mcp.db import processing
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.errors import AccessDeniedError, ConflictError, InvalidInputError
from memory_mcp.services import admin, memories, uploads
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio


async def test_concurrent_searches_over_the_same_memories_never_deadlock(
    runtime: Runtime, world: Any
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    for text in ("Kafka retention is seven days", "The Kafka cluster has five brokers",
                 "Kafka topics are replicated three times", "Consumers commit offsets hourly"):
        await memories.save(runtime, m.principal, text, None, space)

    async def one(i: int) -> int:
        result = await memories.search(
            runtime, m.principal, query="kafka" if i % 2 else "brokers and offsets",
            keyword=None, category=None, include_profile=bool(i % 3), container_tag=space,
            limit=4)
        return int(result["count"])

    counts = await asyncio.gather(*(one(i) for i in range(60)))
    assert all(c == 4 for c in counts)


async def test_concurrent_near_duplicate_saves_make_one_chain(runtime: Runtime, world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The team deploys to production every Friday afternoon",
                        None, space)
    variants = ["The team deploys to production every Thursday afternoon",
                "The team deploys to production every Monday afternoon",
                "The team deploys to production every Friday morning"]
    results = await asyncio.gather(*(memories.save(runtime, m.principal, v, None, space)
                                     for v in variants))
    assert sorted(r["action"] for r in results) == ["versioned"] * 3
    page = await memories.list_page(runtime, m.principal, 1, 50, space)
    live = [x for x in page["memories"] if x["isLatest"] and not x["isForgotten"]]
    assert len(live) == 1 and live[0]["version"] == 4


async def test_forget_refuses_when_the_space_changes_mid_request(runtime: Runtime, world: Any
                                                                  ) -> None:
    first, second = await world.space(), await world.space()
    m = await world.member(grants={first: "readwrite", second: "readwrite"})
    saved = await memories.save(runtime, m.principal, "Rotate the signing keys every quarter",
                                None, first)
    real = runtime.embed_one

    async def revoking(text: str) -> str:
        await admin.revoke_grant(runtime, m.key_id, first)  # operator acts while we embed
        return await real(text)

    runtime.embed_one = revoking  # type: ignore[method-assign]
    try:
        with pytest.raises(ConflictError) as info:
            await memories.forget(runtime, m.principal, "Rotate signing keys each quarter", None,
                                  None)
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]
    assert "nothing was written" in str(info.value)
    await admin.set_grant(runtime, m.key_id, first, "readwrite")
    page = await memories.list_page(runtime, m.principal, 1, 10, first)
    assert [x["isForgotten"] for x in page["memories"]] == [False]
    assert page["memories"][0]["id"] == saved["memory"]["id"]


async def test_forgetting_an_old_version_forgets_the_current_one(runtime: Runtime, world: Any
                                                                  ) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    v1 = await memories.save(runtime, m.principal, "The staging database runs PostgreSQL 16",
                             None, space)
    v2 = await memories.save(runtime, m.principal, "The staging database runs PostgreSQL 17",
                             None, space)
    assert v2["action"] == "versioned"
    result = await memories.forget(runtime, m.principal, "", v1["memory"]["id"], space)
    assert result["action"] == "forgotten" and result["memory"]["id"] == v2["memory"]["id"]
    assert "older version" in result["note"]
    found = await memories.search(runtime, m.principal, query=None, keyword="staging",
                                  category=None, include_profile=False, container_tag=space,
                                  limit=10)
    assert found["results"] == []


async def test_a_stale_worker_cannot_touch_a_document_another_worker_claimed(
    runtime: Runtime, world: Any, tmp_path: Any
) -> None:
    runtime.storage = LocalStorage(tmp_path / "objects", b"k")
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    started = await uploads.create_upload(runtime, m.principal, filename="a.md",
                                          content_type="text/markdown", size=5,
                                          container_tag=space, base_url="http://t/")
    doc_id = started["documentId"]
    async with runtime.transaction() as conn:
        first = await processing.claim(conn, doc_id, 0)  # a lease that expires at once
    assert first is not None
    await asyncio.sleep(0.01)
    async with runtime.transaction() as conn:
        second = await processing.claim(conn, doc_id, 300)  # another worker takes over
    assert second is not None and second["attempts"] == first["attempts"] + 1
    async with runtime.transaction() as conn:
        await processing.fail(conn, doc_id, first["attempts"], "stale worker's verdict")
        await processing.release(conn, doc_id, first["attempts"], "stale release")
        assert not await processing.advance(conn, doc_id, first["attempts"], "embedding", 300)
        assert await processing.lock_for_finish(conn, doc_id, first["attempts"]) is None
        row = await processing.by_id(conn, doc_id)
    assert row is not None and row["status"] == "extracting" and row["status_reason"] is None
    assert row["lease_until"] > datetime.now(UTC) + timedelta(seconds=200)  # not released


async def test_concurrent_local_puts_have_one_winner(runtime: Runtime, world: Any, tmp_path: Any
                                                     ) -> None:
    runtime.storage = LocalStorage(tmp_path / "objects", b"k")
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    body = b"# Notes\n\nThe VPN endpoint moved to vpn2.\n"
    started = await uploads.create_upload(runtime, m.principal, filename="n.md",
                                          content_type="text/markdown", size=len(body),
                                          container_tag=space, base_url="http://t/")
    query = parse_qs(urlparse(started["uploadUrl"]).query)

    async def put() -> str:
        try:
            await uploads.accept_local_upload(
                runtime, started["documentId"], expires=int(query["expires"][0]),
                sig=query["sig"][0], content_type="text/markdown", body=body)
            return "ok"
        except InvalidInputError:
            return "refused"

    assert sorted(await asyncio.gather(*(put() for _ in range(5)))) == ["ok"] + ["refused"] * 4
    # A URL for a document that does not exist answers exactly like a bad signature.
    errors = []
    for document_id, sig in (("7d1c2f7e-0000-4000-8000-000000000000", query["sig"][0]),
                             (started["documentId"], "0" * 64)):
        with pytest.raises(AccessDeniedError) as info:
            await uploads.accept_local_upload(runtime, document_id,
                                              expires=int(query["expires"][0]), sig=sig,
                                              content_type="text/markdown", body=body)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
