"""Faults around the extraction worker and key revocation.

* The worker killed mid-document (its task cancelled while embedding, so the lease stays held
  as a dead process leaves it) → after a restart the document finishes, with exactly one memory
  per distinct statement.
* A stalled worker whose lease expired and was taken over cannot commit a second copy when it
  wakes up; a failure inside the final commit leaves nothing behind and the retry finishes.
* A key revoked while ~20 requests with it are in flight is refused (HTTP 401) on every request
  that starts after the revocation committed.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import anyio
import httpx
import pytest

from memory_mcp.db import processing
from memory_mcp.db.pool import open_pool
from memory_mcp.documents.local_worker import LocalJobs
from memory_mcp.documents.pipeline import Extractors, RetryLater, process
from memory_mcp.documents.segment import split_memories
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.embeddings import Embedder
from memory_mcp.errors import StoreUnavailableError, UpstreamError
from memory_mcp.services import admin, memories, uploads
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import check_model

from conftest import Member, World, settings_for

pytestmark = pytest.mark.anyio

CITIES = ["Oslo", "Lima", "Cairo", "Perth", "Quito", "Dakar", "Hanoi", "Riga", "Tunis", "Accra"]
#: 70 distinct statements: three embedding batches of 32 (pipeline.EMBED_BATCH).
STATEMENTS = [f"Truck {100 + i} had its brakes inspected in {CITIES[i % 10]} on day {i + 3} by "
              f"mechanic number {7 * i + 11}." for i in range(70)]
LOG = ("# Fleet maintenance log\n\n" + "\n".join(STATEMENTS) + "\n").encode()


@pytest.fixture
async def wrt(fresh_database_url: str, embedder: Embedder, tmp_path: Path
              ) -> AsyncIterator[Runtime]:
    """A runtime with local storage on a database of its own: the worker's start-up recovery
    (``processing.unfinished``) must see this test's documents only."""
    settings = settings_for(fresh_database_url)
    pool = await open_pool(settings, fresh_database_url)
    rt = Runtime(settings=settings, pool=pool, embedder=embedder,
                 storage=LocalStorage(tmp_path / "objects", b"test-secret"))
    async with rt.transaction(system=True) as conn:
        await check_model(conn, embedder)
    try:
        yield rt
    finally:
        await pool.close()


async def uploaded_log(rt: Runtime) -> tuple[UUID, Member]:
    """A writer, a space and the fleet log uploaded there (queued, not processed yet)."""
    world = World(rt)
    space = await world.space("fleet")
    member = await world.member("writer", {space: "readwrite"})
    started = await uploads.create_upload(rt, member.principal, filename="fleet.md",
                                          content_type="text/markdown", size=len(LOG),
                                          container_tag=space, base_url="http://t/")
    query = parse_qs(urlparse(started["uploadUrl"]).query)
    doc_id = await uploads.accept_local_upload(
        rt, started["documentId"], expires=int(query["expires"][0]), sig=query["sig"][0],
        content_type="text/markdown", body=LOG)
    return doc_id, member


async def document(rt: Runtime, doc_id: UUID) -> dict[str, Any]:
    async with rt.transaction(system=True) as conn:
        row = await processing.by_id(conn, doc_id)
        cur = await conn.execute(
            """SELECT count(*) AS n, count(DISTINCT content_hash) AS distinct_hashes,
                      count(DISTINCT content) AS distinct_texts,
                      (SELECT memories_created FROM documents WHERE id = %(d)s) AS created
               FROM memories WHERE source_document_id = %(d)s""", {"d": doc_id})
        counts = await cur.fetchone()
    assert row is not None and counts is not None
    return {**row, **counts}


def assert_finished_once(doc: dict[str, Any]) -> None:
    expected = len(split_memories(LOG.decode(), 5_000))
    assert expected == len(STATEMENTS)
    assert doc["status"] == "done", doc
    assert doc["n"] == expected, doc  # every statement, once
    assert doc["distinct_hashes"] == doc["n"] == doc["distinct_texts"], doc  # no duplicate
    assert doc["created"] == expected, doc


def embed_with(rt: Runtime, monkeypatch: pytest.MonkeyPatch,
               on_call: Callable[[int], Awaitable[None]]) -> list[int]:
    """Patch ``rt.embed`` so that ``on_call(n)`` runs before the n-th call (1-based) is made;
    returns the list the call numbers are appended to."""
    real = rt.embed
    calls: list[int] = []

    async def embed(texts: list[str]) -> list[str]:
        calls.append(len(calls) + 1)
        await on_call(len(calls))
        return await real(texts)

    monkeypatch.setattr(rt, "embed", embed)
    return calls


async def test_worker_killed_mid_document_finishes_after_restart_without_duplicates(
    wrt: Runtime, tools: Extractors, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = wrt
    doc_id, _ = await uploaded_log(rt)
    mid_way = anyio.Event()

    async def hang_on_second_batch(n: int) -> None:
        if n == 2:  # the first batch is embedded: the process "dies" here
            mid_way.set()
            await anyio.sleep_forever()

    embed_with(rt, monkeypatch, hang_on_second_batch)
    jobs = LocalJobs(rt, tools, retry_delay=0.05)
    jobs.submit(doc_id)
    with anyio.fail_after(30):
        await mid_way.wait()
    await jobs.close()  # cancels the job: no release, no commit, as if the process was killed

    killed = await document(rt, doc_id)
    assert killed["status"] == "embedding" and killed["n"] == 0, killed
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute("SELECT lease_until > now() AS held FROM documents WHERE id = %s",
                                 (doc_id,))
        held = await cur.fetchone()
    assert held is not None and held["held"]  # the dead worker's lease is still live
    with pytest.raises(RetryLater, match="lease"):  # nobody may take it over before it expires
        await process(rt, tools, doc_id)

    monkeypatch.undo()  # the restarted process embeds normally
    async with rt.transaction(system=True) as conn:  # what the server does at start
        await processing.expire_leases(conn)
    restarted = LocalJobs(rt, tools, retry_delay=0.05)
    assert await restarted.sweep() == 1
    await restarted.drain(timeout=60)

    doc = await document(rt, doc_id)
    assert_finished_once(doc)
    assert doc["attempts"] == 2
    assert await process(rt, tools, doc_id) == "skipped"  # a late redelivery changes nothing
    assert (await document(rt, doc_id))["n"] == doc["n"]


async def test_a_stalled_worker_that_lost_its_lease_cannot_commit_a_second_copy(
    wrt: Runtime, tools: Extractors, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = wrt
    doc_id, _ = await uploaded_log(rt)
    stalled, wake = anyio.Event(), anyio.Event()

    async def stall_second_call(n: int) -> None:
        if n == 2:
            stalled.set()
            await wake.wait()

    embed_with(rt, monkeypatch, stall_second_call)
    outcomes: dict[str, str] = {}

    async def run(name: str) -> None:
        outcomes[name] = await process(rt, tools, doc_id)

    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run, "stalled")
            await stalled.wait()
            async with rt.transaction(system=True) as conn:  # its lease runs out meanwhile
                await conn.execute("UPDATE documents SET lease_until = now() - interval '1 s' "
                                   "WHERE id = %s", (doc_id,))
            await run("successor")  # SQS redelivers: a second worker claims and finishes
            assert_finished_once(await document(rt, doc_id))
            wake.set()  # the first one wakes up and tries to commit with its stale token
    assert outcomes == {"successor": "done", "stalled": "skipped"}
    doc = await document(rt, doc_id)
    assert_finished_once(doc)
    assert doc["attempts"] == 2


async def test_a_failure_inside_the_final_commit_leaves_nothing_and_the_retry_finishes(
    wrt: Runtime, tools: Extractors, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = wrt
    doc_id, member = await uploaded_log(rt)
    real_finish = processing.finish

    async def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("connection lost mid-commit")  # after the memories were inserted

    monkeypatch.setattr(processing, "finish", crash)
    with pytest.raises(RetryLater):
        await process(rt, tools, doc_id)
    half = await document(rt, doc_id)
    assert half["status"] == "embedding" and half["n"] == 0, half  # rolled back, all of it
    monkeypatch.setattr(processing, "finish", real_finish)
    assert await process(rt, tools, doc_id) == "done"
    assert_finished_once(await document(rt, doc_id))
    found = await memories.search(rt, member.principal, query=None, keyword="Truck 169",
                                  category=None, include_profile=False, container_tag=None,
                                  limit=10)
    assert [m["memory"] for m in found["results"]] == [STATEMENTS[69]]


# --- revocation under load -----------------------------------------------------------------

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
           "MCP-Protocol-Version": "2025-11-25"}
CONCURRENCY = 20


async def test_a_revoked_key_is_refused_on_its_very_next_request_under_load(
    live_server: str, world: World
) -> None:
    space = await world.space("revoke")
    member = await world.member("writer", {space: "readwrite"})
    await memories.save(world.rt, member.principal, "The revocation drill runs on Fridays.",
                        None, space)
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "search_memory",
                       "arguments": {"query": "when is the revocation drill?",
                                     "containerTag": space, "includeProfile": False}}}
    # (started, finished, HTTP status, found the memory)
    calls: list[tuple[float, float, int, bool]] = []
    marks: dict[str, float] = {}
    stop = anyio.Event()

    async def searcher(http: httpx.AsyncClient) -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            response = await http.post(live_server, json=body)
            found = response.status_code == 200 and "Fridays" in response.text
            calls.append((t0, time.monotonic(), response.status_code, found))

    async def revoker() -> None:
        while len(calls) < 2 * CONCURRENCY:  # the load is established
            await anyio.sleep(0.005)
        marks["revoking"] = time.monotonic()
        await admin.revoke_key(world.rt, member.key_id)
        marks["revoked"] = time.monotonic()  # committed
        while sum(1 for c in calls if c[0] > marks["revoked"]) < 3 * CONCURRENCY:
            await anyio.sleep(0.005)
        stop.set()

    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    async with httpx.AsyncClient(headers={**HEADERS, "Authorization": f"Bearer {member.key}"},
                                 timeout=30, limits=limits, trust_env=False) as http:
        with anyio.fail_after(45):
            async with anyio.create_task_group() as tg:
                for _ in range(CONCURRENCY):
                    tg.start_soon(searcher, http)
                tg.start_soon(revoker)

    before = [c for c in calls if c[1] < marks["revoking"]]
    after = [c for c in calls if c[0] > marks["revoked"]]
    assert len(before) >= 2 * CONCURRENCY and all(c[2] == 200 and c[3] for c in before), before
    assert len(after) >= 3 * CONCURRENCY
    assert [c for c in after if c[2] != 401] == []  # not one slipped through after the commit


@pytest.mark.parametrize("blip", ["claim", "release"])
async def test_a_database_blip_does_not_make_the_local_worker_drop_the_job(
    wrt: Runtime, tools: Extractors, monkeypatch: pytest.MonkeyPatch, blip: str
) -> None:
    """claim: the job's first transaction cannot get a connection. release: the embedding
    provider fails (transient) and the transaction that releases the lease cannot get one."""
    rt = wrt
    # The release case leaves the lease held: the worker waits it out (here 3 s, not 300 s).
    rt.settings = rt.settings.model_copy(update={"processing_lease_seconds": 3})
    doc_id, _ = await uploaded_log(rt)
    real_transaction, real_embed = rt.transaction, rt.embed
    fail_at = 1 if blip == "claim" else 3  # claim, advance to embedding, release
    transactions: list[int] = []

    @asynccontextmanager
    async def flaky(**kwargs: Any) -> AsyncIterator[Any]:
        transactions.append(1)
        if len(transactions) == fail_at:
            raise StoreUnavailableError()  # what the runtime raises when the pool gives up
        async with real_transaction(**kwargs) as conn:
            yield conn

    embeds: list[int] = []

    async def embed(texts: list[str]) -> list[str]:
        embeds.append(1)
        if blip == "release" and len(embeds) == 1:
            raise UpstreamError("The embedding provider failed; please retry shortly.")
        return await real_embed(texts)

    monkeypatch.setattr(rt, "transaction", flaky)
    monkeypatch.setattr(rt, "embed", embed)
    jobs = LocalJobs(rt, tools, retry_delay=0.05)
    jobs.submit(doc_id)
    await jobs.drain(timeout=60)
    assert (await document(rt, doc_id))["status"] == "done"


async def test_every_unfinished_upload_is_picked_up_however_many_and_whenever_left(
    wrt: Runtime, tools: Extractors, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start-up recovery read the first 100 unfinished documents only, and nothing looked
    again: 45 uploads stayed queued for good after a restart. The sweep pages through all of
    them (here 3 a page), skips what runs already, and keeps looking while the server runs."""
    from memory_mcp.documents import local_worker

    rt = wrt
    monkeypatch.setattr(local_worker, "SWEEP_PAGE", 3)
    world = World(rt)
    space = await world.space("inbox")
    member = await world.member("writer", {space: "readwrite"})

    async def upload(n: int) -> UUID:
        body = f"Parcel {n} was delivered to dock {n + 2} on day {n + 5}.\n".encode()
        started = await uploads.create_upload(rt, member.principal, filename=f"p{n}.txt",
                                              content_type="text/plain", size=len(body),
                                              container_tag=space, base_url="http://t/")
        query = parse_qs(urlparse(started["uploadUrl"]).query)
        return await uploads.accept_local_upload(
            rt, started["documentId"], expires=int(query["expires"][0]), sig=query["sig"][0],
            content_type="text/plain", body=body)

    left = [await upload(n) for n in range(7)]  # uploaded, no worker ran: as after a crash
    elsewhere = await upload(99)  # its file is another server's (same database): not ours
    async with rt.transaction(system=True) as conn:
        row = await processing.by_id(conn, elsewhere)
    assert row is not None and rt.storage is not None
    rt.storage.delete(row["storage_key"])
    jobs = LocalJobs(rt, tools, retry_delay=0.05)
    try:
        assert await jobs.sweep() == 7
        assert await jobs.sweep() == 0  # all running or done: none submitted twice
        await jobs.drain(timeout=90)
        assert {(await document(rt, d))["status"] for d in left} == {"done"}
        assert (await document(rt, elsewhere))["status"] == "queued"

        jobs.start_sweeping(every=0.2)  # while serving: a document nobody submitted
        late = await upload(7)
        with anyio.fail_after(60):
            while (await document(rt, late))["status"] != "done":
                await anyio.sleep(0.1)
    finally:
        await jobs.close()
