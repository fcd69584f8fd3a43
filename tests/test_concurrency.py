"""Races and mid-request changes: nothing deadlocks, nothing half-writes, leases are owned."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from memory_mcp.db import processing
from memory_mcp.db import saves as saves_db
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.errors import AccessDeniedError, ConflictError, NotFoundError
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


def _decide_together(monkeypatch: pytest.MonkeyPatch, *parties: int
                     ) -> Callable[[], list[int]]:
    """Make concurrent saves decide from the same snapshot: the first ``parties[0]`` calls of
    ``version_candidates`` wait for each other before returning (so each decides without the
    others' rows), the next ``parties[1]`` likewise, and so on; later calls pass. Returns a
    function giving how many times each save attempt ran (``save_row`` calls)."""
    real, write = saves_db.version_candidates, saves_db.save_row
    barriers = [asyncio.Barrier(n) for n in parties]
    limits = [sum(parties[:i + 1]) for i in range(len(parties))]
    calls = {"candidates": 0, "writes": 0}

    async def candidates(*a: Any, **k: Any) -> Any:
        result = await real(*a, **k)
        calls["candidates"] += 1
        for barrier, limit in zip(barriers, limits, strict=True):
            if calls["candidates"] <= limit:
                await asyncio.wait_for(barrier.wait(), 30)
                break
        return result

    async def save_row(*a: Any, **k: Any) -> Any:
        calls["writes"] += 1
        return await write(*a, **k)

    monkeypatch.setattr(saves_db, "version_candidates", candidates)
    monkeypatch.setattr(saves_db, "save_row", save_row)
    return lambda: [calls["candidates"], calls["writes"]]


def _count_exclusive(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record every exclusive save lock taken (``lock_exclusively``; shared attempts take
    theirs in their transaction's first statement)."""
    real, modes = saves_db.lock_exclusively, []

    async def lock(*a: Any, **k: Any) -> None:
        modes.append(True)
        await real(*a, **k)

    monkeypatch.setattr(saves_db, "lock_exclusively", lock)
    return modes


async def _live(runtime: Runtime, m: Any, space: str) -> list[dict[str, Any]]:
    page = await memories.list_page(runtime, m.principal, 1, 50, space)
    return [x for x in page["memories"] if x["isLatest"] and not x["isForgotten"]]


def _one_chain(rows: list[dict[str, Any]]) -> list[int]:
    """The versions of the space's memories, checking they form one unforked chain."""
    by_id = {r["id"]: r for r in rows}
    parents = [r["parentMemoryId"] for r in rows if r["parentMemoryId"]]
    assert len(parents) == len(set(parents)), "two versions of one memory: a fork"
    for r in rows:
        if r["parentMemoryId"]:
            assert by_id[r["parentMemoryId"]]["version"] == r["version"] - 1
    assert sum(1 for r in rows if r["isLatest"]) == 1
    return sorted(r["version"] for r in rows)


async def test_concurrent_identical_saves_make_one_memory(runtime: Runtime, world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    text = "The release freeze starts two weeks before the quarterly launch"
    results = await asyncio.gather(*(memories.save(runtime, m.principal, text, None, space)
                                     for _ in range(8)))
    assert sorted(r["action"] for r in results) == ["saved"] + ["unchanged"] * 7
    assert len({r["memory"]["id"] for r in results}) == 1
    page = await memories.list_page(runtime, m.principal, 1, 50, space)
    assert page["total"] == 1


async def test_a_twin_saved_while_embedding_is_found_not_superseded(runtime: Runtime,
                                                                     world: Any) -> None:
    """The identical text is saved by someone else while this save embeds: this save's
    decision then sees it as its closest candidate (cosine 1). It must report it unchanged,
    not supersede it with an identical copy (which the unique index would let through)."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    fact = "The quarterly business review takes place in the Berlin office"
    real = runtime.embed_one

    async def twin_lands(text: str, scope: Any = None) -> str:
        runtime.embed_one = real  # type: ignore[method-assign]
        await memories.save(runtime, m.principal, text, None, space)
        return await real(text, scope)

    runtime.embed_one = twin_lands  # type: ignore[method-assign]
    try:
        result = await memories.save(runtime, m.principal, fact, None, space)
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]
    assert result["action"] == "unchanged" and result["memory"]["version"] == 1
    page = await memories.list_page(runtime, m.principal, 1, 50, space)
    assert page["total"] == 1 and page["memories"][0]["id"] == result["memory"]["id"]


async def test_racing_rewordings_without_a_predecessor_make_one_chain(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two near-identical new facts, each decided before the other was written: both would be
    first versions, but the later commit sees the earlier row arrive (post-write check) and
    decides again, as its next version."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    attempts = _decide_together(monkeypatch, 2)
    results = await asyncio.gather(*(
        memories.save(runtime, m.principal, text, None, space)
        for text in ("The team deploys to production every Friday afternoon",
                     "The team deploys to production every Thursday afternoon")))
    assert sorted(r["action"] for r in results) == ["saved", "versioned"]
    saved, versioned = sorted(results, key=lambda r: r["action"])
    assert versioned["supersedes"]["id"] == saved["memory"]["id"]
    assert attempts() == [3, 3]  # the loser wrote, rolled back and wrote again
    page = await memories.list_page(runtime, m.principal, 1, 50, space)
    assert _one_chain(page["memories"]) == [1, 2]


async def test_racing_versions_of_one_memory_never_fork(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three rewordings decide on the same predecessor at once; the predecessor's row lets
    one supersede it, the others decide again; the last one, having lost twice, decides under
    the space's exclusive save lock. One chain, four versions, nothing lost."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    first = await memories.save(runtime, m.principal,
                                "The team deploys to production every Friday afternoon", None, space)
    attempts = _decide_together(monkeypatch, 3, 2)
    modes = _count_exclusive(monkeypatch)
    results = await asyncio.gather(*(
        memories.save(runtime, m.principal, f"The team deploys to production every {day}", None,
                      space)
        for day in ("Thursday afternoon", "Monday afternoon", "Friday morning")))
    assert [r["action"] for r in results] == ["versioned"] * 3
    assert sorted(r["memory"]["version"] for r in results) == [2, 3, 4]
    assert attempts() == [6, 6] and modes.count(True) == 1
    page = await memories.list_page(runtime, m.principal, 1, 50, space)
    assert _one_chain(page["memories"]) == [1, 2, 3, 4]
    ids = {1: first["memory"]["id"]} | {r["memory"]["version"]: r["memory"]["id"] for r in results}
    assert all(r["supersedes"]["id"] == ids[r["memory"]["version"] - 1] for r in results)


async def test_racing_identical_versions_make_one(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same rewording saved twice at once: one supersedes, the other finds it."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    first = await memories.save(runtime, m.principal,
                                "The team deploys to production every Friday afternoon", None, space)
    _decide_together(monkeypatch, 2)
    text = "The team deploys to production every Thursday afternoon"
    results = await asyncio.gather(*(memories.save(runtime, m.principal, text, None, space)
                                     for _ in range(2)))
    assert sorted(r["action"] for r in results) == ["unchanged", "versioned"]
    assert results[0]["memory"]["id"] == results[1]["memory"]["id"]
    live = await _live(runtime, m, space)
    assert [x["memory"] for x in live] == [text]
    assert live[0]["parentMemoryId"] == first["memory"]["id"]


async def test_unrelated_concurrent_saves_do_not_retry(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows arriving after a decision are checked, but only a close one sends a save back: three
    unrelated facts decided at once are each written once."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    attempts = _decide_together(monkeypatch, 3)
    results = await asyncio.gather(*(
        memories.save(runtime, m.principal, text, None, space)
        for text in ("The staging database runs PostgreSQL 16",
                     "Lunch is served at noon in the canteen",
                     "Invoices must be approved by the finance lead")))
    assert [r["action"] for r in results] == ["saved"] * 3
    assert attempts() == [3, 3]


async def test_an_exclusive_save_waits_for_saves_in_flight(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exclusive attempt decides without a post-write check, so it must not decide while a
    shared save is between its decision and its commit: it waits for it, then sees its row."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    is_b = contextvars.ContextVar("is_b", default=False)
    a_decided, b_locking, release_a = asyncio.Event(), asyncio.Event(), asyncio.Event()
    real_lock, real_candidates = saves_db.lock_exclusively, saves_db.version_candidates

    async def lock(*a: Any, **k: Any) -> None:
        if is_b.get():
            b_locking.set()
        await real_lock(*a, **k)

    async def candidates(*a: Any, **k: Any) -> Any:
        result = await real_candidates(*a, **k)
        if not is_b.get() and not a_decided.is_set():
            a_decided.set()
            await asyncio.wait_for(release_a.wait(), 30)
        return result

    monkeypatch.setattr(saves_db, "lock_exclusively", lock)
    monkeypatch.setattr(saves_db, "version_candidates", candidates)

    async def save_b() -> dict[str, Any]:
        is_b.set(True)
        return await memories.save(runtime, m.principal,
                                   "The team deploys to production every Thursday afternoon",
                                   None, space)

    a = asyncio.create_task(memories.save(
        runtime, m.principal, "The team deploys to production every Friday afternoon", None,
        space))
    await asyncio.wait_for(a_decided.wait(), 30)
    monkeypatch.setattr(memories, "MAX_SAVE_ATTEMPTS", 1)  # B's first attempt is its last
    b = asyncio.create_task(save_b())
    await asyncio.wait_for(b_locking.wait(), 30)
    await asyncio.sleep(0.3)
    assert not b.done()  # waiting for A's shared lock
    release_a.set()
    first, second = await asyncio.gather(a, b)
    assert first["action"] == "saved" and second["action"] == "versioned"
    assert second["supersedes"]["id"] == first["memory"]["id"]


async def test_a_save_failing_after_its_write_leaves_nothing(
    runtime: Runtime, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The supersede and the insert are one statement, the check after them in the same
    transaction: an error there rolls both back."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    first = await memories.save(runtime, m.principal,
                                "The team deploys to production every Friday afternoon", None, space)
    before = await memories.list_page(runtime, m.principal, 1, 50, space)

    async def broken(*a: Any, **k: Any) -> Any:
        raise RuntimeError("connection lost after the write")

    monkeypatch.setattr(saves_db, "finish_save", broken)
    with pytest.raises(RuntimeError):
        await memories.save(runtime, m.principal,
                            "The team deploys to production every Thursday afternoon", None, space)
    after = await memories.list_page(runtime, m.principal, 1, 50, space)
    assert after == before and after["memories"][0]["isLatest"] is True
    monkeypatch.undo()
    again = await memories.save(runtime, m.principal,
                                "The team deploys to production every Thursday afternoon", None,
                                space)
    assert again["action"] == "versioned"
    assert again["supersedes"]["id"] == first["memory"]["id"]


async def test_save_refuses_when_write_access_ends_mid_request(runtime: Runtime, world: Any
                                                               ) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    real = runtime.embed_one

    async def downgrading(text: str, scope: Any = None) -> str:
        await admin.set_grant(runtime, m.key_id, space, "read")  # operator acts while we embed
        return await real(text, scope)

    runtime.embed_one = downgrading  # type: ignore[method-assign]
    try:
        with pytest.raises(AccessDeniedError) as info:
            await memories.save(runtime, m.principal, "Rotate the signing keys every quarter",
                                None, space)
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]
    assert "nothing was written" in str(info.value)
    page = await memories.list_page(runtime, m.principal, 1, 10, space)
    assert page["total"] == 0


async def test_forget_refuses_when_the_space_changes_mid_request(runtime: Runtime, world: Any
                                                                  ) -> None:
    first, second = await world.space(), await world.space()
    m = await world.member(grants={first: "readwrite", second: "readwrite"})
    saved = await memories.save(runtime, m.principal, "Rotate the signing keys every quarter",
                                None, first)
    real = runtime.embed_one

    async def revoking(text: str, scope: Any = None) -> str:
        await admin.revoke_grant(runtime, m.key_id, first)  # operator acts while we embed
        return await real(text, scope)

    runtime.embed_one = revoking  # type: ignore[method-assign]
    try:  # the space it resolved is gone: refused in its words, not redirected to `second`
        with pytest.raises(NotFoundError) as info:
            await memories.forget(runtime, m.principal, "Rotate signing keys each quarter", None,
                                  None)
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]
    assert f'Space "{first}" was not found' in str(info.value)
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
    v2 = await memories.save(runtime, m.principal, "The staging database runs on PostgreSQL 16",
                             None, space)  # a rewording: the current version says the same
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
    async with runtime.transaction(system=True) as conn:
        first = await processing.claim(conn, doc_id, 0)  # a lease that expires at once
    assert first is not None
    await asyncio.sleep(0.01)
    async with runtime.transaction(system=True) as conn:
        second = await processing.claim(conn, doc_id, 300)  # another worker takes over
    assert second is not None and second["attempts"] == first["attempts"] + 1
    async with runtime.transaction(system=True) as conn:
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
        except ConflictError:  # 409: already uploaded
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
