"""Uploads and extraction: local signed URLs, the pipeline's states, idempotency and bounds."""

from __future__ import annotations

import io
import time
import zipfile
from typing import Any
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import anyio.from_thread
import psycopg
import pytest

from memory_mcp.db import processing
from memory_mcp.documents.llm import OfflineExtractor
from memory_mcp.documents.pipeline import UPLOADER_LOST, Extractors, RetryLater, process
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.errors import AccessDeniedError, ConflictError, InvalidInputError, NotFoundError
from memory_mcp.services import admin, documents, memories, uploads
from memory_mcp.services import spaces as spaces_service
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio

NOTES = b"""# Launch notes

The launch date for Project Falcon is March 3rd.
The on-call engineer during launch week is Priya.
Customer emails go out two days after the launch.
"""




async def start_upload(rt: Runtime, principal: Any, filename: str, ctype: str, data: bytes,
                       space: str | None) -> dict[str, Any]:
    return await uploads.create_upload(rt, principal, filename=filename, content_type=ctype,
                                       size=len(data), container_tag=space, base_url="http://t/")


async def put_bytes(rt: Runtime, started: dict[str, Any], ctype: str, data: bytes) -> UUID:
    query = parse_qs(urlparse(started["uploadUrl"]).query)
    return await uploads.accept_local_upload(
        rt, started["documentId"], expires=int(query["expires"][0]), sig=query["sig"][0],
        content_type=ctype, body=data)


async def uploaded(rt: Runtime, principal: Any, filename: str, ctype: str, data: bytes,
                   space: str) -> UUID:
    started = await start_upload(rt, principal, filename, ctype, data, space)
    return await put_bytes(rt, started, ctype, data)


async def status(rt: Runtime, doc_id: UUID) -> dict[str, Any]:
    async with rt.transaction(system=True) as conn:
        row = await processing.by_id(conn, doc_id)
    assert row is not None
    return row


async def test_markdown_becomes_searchable_memories(rt: Runtime, world: Any, tools: Extractors
                                                    ) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"}, name="Uploader")
    doc_id = await uploaded(rt, m.principal, "launch.md", "text/markdown", NOTES, space)
    assert (await status(rt, doc_id))["status"] == "queued"
    assert await process(rt, tools, doc_id) == "done"

    found = await memories.search(rt, m.principal, query="who is on call for the launch?",
                                  keyword=None, category=None, include_profile=False,
                                  container_tag=space, limit=3)
    top = found["results"][0]
    assert "Priya" in top["memory"]
    assert top["sourceDocumentId"] == str(doc_id) and top["createdBy"] == "Uploader"

    listed = await documents.list_page(rt, m.principal, 1, 10, space)
    assert listed["documents"][0]["status"] == "done"
    assert listed["documents"][0]["title"] == "Launch notes"
    doc = await documents.get(rt, m.principal, str(doc_id))
    assert doc["document"]["contentKind"] == "content"
    assert "Project Falcon" in doc["document"]["content"]
    assert doc["document"]["summary"]
    texts = [x["memory"] for x in doc["memories"]]
    assert any("March 3rd" in t for t in texts) and any("Priya" in t for t in texts)


async def test_redelivery_and_reprocessing_never_duplicate(rt: Runtime, world: Any,
                                                           tools: Extractors) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, "notes.txt", "text/plain", NOTES, space)
    assert await process(rt, tools, doc_id) == "done"
    before = (await memories.list_page(rt, m.principal, 1, 50, space))["total"]
    assert await process(rt, tools, doc_id) == "skipped"  # a second delivery of the same job
    assert (await memories.list_page(rt, m.principal, 1, 50, space))["total"] == before


class FlakyEmbedder:
    """Fails the first call (a provider outage), then delegates to the real model."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, 0
        self.model_id, self.dimensions = inner.model_id, inner.dimensions

    def embed(self, texts: list[str]) -> Any:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("provider down")
        return self.inner.embed(texts)


async def test_crash_mid_way_is_retried_cleanly(rt: Runtime, world: Any, tools: Extractors) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, "notes.md", "text/markdown", NOTES, space)
    real = rt.embedder
    rt.embedder = FlakyEmbedder(real)
    try:
        with pytest.raises(RetryLater):
            await process(rt, tools, doc_id)
        row = await status(rt, doc_id)
        assert row["status"] == "embedding" and "temporary error" in (row["status_reason"] or "")
        assert (await memories.list_page(rt, m.principal, 1, 50, space))["total"] == 0
        assert await process(rt, tools, doc_id) == "done"
    finally:
        rt.embedder = real
    assert (await status(rt, doc_id))["attempts"] == 2


async def test_repeated_transient_failures_end_failed(rt: Runtime, world: Any, tools: Extractors
                                                      ) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, "notes.md", "text/markdown", NOTES, space)

    class Down:
        model_id, dimensions = rt.embedder.model_id, rt.embedder.dimensions

        def embed(self, texts: list[str]) -> Any:
            raise RuntimeError("still down")

    real, rt.embedder = rt.embedder, Down()
    try:
        for _ in range(rt.settings.max_processing_attempts - 1):
            with pytest.raises(RetryLater):
                await process(rt, tools, doc_id)
        assert await process(rt, tools, doc_id) == "failed"
    finally:
        rt.embedder = real
    row = await status(rt, doc_id)
    assert row["status"] == "failed" and "failed 3 times" in row["status_reason"]
    assert "still down" not in row["status_reason"]  # internal details stay in the log


def _zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a pdf")
    return buffer.getvalue()


@pytest.mark.parametrize(("filename", "ctype", "data", "reason"), [
    ("report.pdf", "application/pdf", b"%PDF-1.7\n garbage that is not a PDF body", "PDF"),
    ("report.pdf", "application/pdf", _zip_bytes(), "ZIP"),
    ("notes.txt", "text/plain", b"\xff\xfe\x00bad\x00bytes!", "UTF-16 text that does not decode"),
    ("notes.txt", "text/plain", b"caf\xe9 \x00 bytes", "not UTF-8 text"),
])
async def test_bad_files_fail_with_a_reason_and_write_nothing(
    rt: Runtime, world: Any, tools: Extractors, filename: str, ctype: str, data: bytes, reason: str
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, filename, ctype, data, space)
    assert await process(rt, tools, doc_id) == "failed"
    row = await status(rt, doc_id)
    assert row["status"] == "failed" and reason in row["status_reason"]
    listed = await documents.list_page(rt, m.principal, 1, 10, space)
    assert listed["documents"][0]["statusReason"] == row["status_reason"]
    assert (await memories.list_page(rt, m.principal, 1, 50, space))["total"] == 0


async def test_upload_refusals_leave_no_row(rt: Runtime, world: Any) -> None:
    space, other = await world.space(), await world.space()
    reader = await world.member("reader", {space: "readwrite"})
    writer = await world.member("writer", {space: "readwrite"})
    with pytest.raises(AccessDeniedError, match="read-only"):
        await start_upload(rt, reader.principal, "a.md", "text/markdown", NOTES, space)
    texts = []
    for tag in (other, "no-such-space"):
        with pytest.raises(NotFoundError) as info:
            await start_upload(rt, writer.principal, "a.md", "text/markdown", NOTES, tag)
        texts.append(str(info.value).replace(tag, "<tag>"))
    assert texts[0] == texts[1]
    with pytest.raises(InvalidInputError):
        await start_upload(rt, writer.principal, "a.exe", "application/x-msdownload", NOTES, space)
    with pytest.raises(InvalidInputError, match="limit"):
        await uploads.create_upload(rt, writer.principal, filename="big.md",
                                    content_type="text/markdown",
                                    size=rt.settings.max_upload_bytes + 1, container_tag=space,
                                    base_url="http://t/")
    listed = await documents.list_page(rt, writer.principal, 1, 10, space)
    assert listed["total"] == 0 and listed["documents"] == []
    counts = await spaces_service.list_spaces(rt, writer.principal)
    assert [x["documentCount"] for x in counts["spaces"]] == [0]


@pytest.mark.parametrize("change", ["key revoked", "user deactivated", "grant lowered",
                                    "grant revoked"])
async def test_upload_refused_when_access_is_lost_after_the_key_check(
    rt: Runtime, world: Any, change: str
) -> None:
    """The key check and the document row are two moments: a key revoked, a user deactivated
    or a grant lowered or removed in between (the principal below still carries the grants it
    was checked with) is refused by the writing transaction itself, and no row is left."""
    space = await world.space()
    m = await world.member("writer", {space: "readwrite"})
    if change == "key revoked":
        await admin.revoke_key(rt, str(m.key_id))
    elif change == "user deactivated":
        await admin.update_user(rt, str(m.user["id"]), active=False)
    elif change == "grant lowered":
        await admin.set_grant(rt, str(m.key_id), space, "read")
    else:
        await admin.revoke_grant(rt, str(m.key_id), space)
    error = NotFoundError if change != "grant lowered" else AccessDeniedError
    with pytest.raises(error):
        await start_upload(rt, m.principal, "a.md", "text/markdown", NOTES, space)
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM documents d JOIN spaces s "
                                 "ON s.id = d.space_id WHERE s.key = %s", (space,))
        row = await cur.fetchone()
    assert row is not None and row["n"] == 0


async def _memories_of(rt: Runtime, doc_id: UUID) -> int:
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM memories WHERE source_document_id = %s",
                                 (doc_id,))
        row = await cur.fetchone()
    assert row is not None
    return int(row["n"])


@pytest.mark.parametrize("change", ["key revoked", "user deactivated", "made a reader",
                                    "grant lowered", "grant revoked", "no key recorded"])
async def test_a_document_is_committed_only_while_its_uploader_may_write(
    rt: Runtime, world: Any, tools: Extractors, change: str
) -> None:
    """The extraction job writes memories in the uploader's name, so it checks, as a save
    does, that the uploading key may still write the space: access lost between the upload
    and the job ends the document failed, saying why, with no memory. A document with no key
    recorded (uploaded before the key was kept) is processed as before."""
    space = await world.space()
    m = await world.member("writer", {space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, "notes.md", "text/markdown", NOTES, space)
    if change == "key revoked":
        await admin.revoke_key(rt, str(m.key_id))
    elif change == "user deactivated":
        await admin.update_user(rt, str(m.user["id"]), active=False)
    elif change == "made a reader":
        await admin.update_user(rt, str(m.user["id"]), role="reader")
    elif change == "grant lowered":
        await admin.set_grant(rt, str(m.key_id), space, "read")
    elif change == "grant revoked":
        await admin.revoke_grant(rt, str(m.key_id), space)
    else:
        async with rt.transaction(system=True) as conn:
            await conn.execute("UPDATE documents SET created_by_key = NULL WHERE id = %s",
                               (doc_id,))
    outcome = await process(rt, tools, doc_id)
    row = await status(rt, doc_id)
    if change == "no key recorded":
        assert outcome == "done" and await _memories_of(rt, doc_id) == 3
        return
    assert outcome == "failed" and row["status"] == "failed"
    assert row["status_reason"] == UPLOADER_LOST
    assert await _memories_of(rt, doc_id) == 0


async def test_access_lost_while_the_job_runs_commits_nothing(
    rt: Runtime, world: Any, storage: LocalStorage
) -> None:
    """The check that counts is the one in the commit's transaction: a key revoked while the
    job extracts (after the job's first check passed) leaves the document failed, empty."""
    space = await world.space()
    m = await world.member("writer", {space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, "notes.md", "text/markdown", NOTES, space)
    url = rt.settings.database_url.get_secret_value()  # type: ignore[union-attr]

    class RevokingExtractor(OfflineExtractor):
        def extract(self, title: str, text: str, max_memories: int, *,
                    deadline: float | None = None) -> tuple[str, list[str]]:
            with psycopg.connect(url, autocommit=True) as conn:  # the admin, meanwhile
                conn.execute("UPDATE api_keys SET revoked_at = now() WHERE id = %s",
                             (m.key_id,))
            return super().extract(title, text, max_memories, deadline=deadline)

    outcome = await process(rt, Extractors(storage=storage, facts=RevokingExtractor()), doc_id)
    row = await status(rt, doc_id)
    assert (outcome, row["status"], row["status_reason"]) == ("failed", "failed", UPLOADER_LOST)
    assert await _memories_of(rt, doc_id) == 0


async def test_a_document_deleted_while_its_bytes_arrive_keeps_no_file(
    rt: Runtime, world: Any, storage: LocalStorage
) -> None:
    """deleteDocument between the PUT's checks and its write finds no file to remove: the PUT
    removes what it wrote and answers as for a URL that is no longer valid."""
    space = await world.space()
    m = await world.member("writer", {space: "readwrite"})
    started = await start_upload(rt, m.principal, "a.md", "text/markdown", NOTES, space)

    class DeletedMeanwhile(LocalStorage):
        def write(self, key: str, data: bytes) -> None:
            anyio.from_thread.run(documents.delete, rt, m.principal, started["documentId"], space)
            super().write(key, data)

    rt.storage = DeletedMeanwhile(storage.root, storage.secret)
    with pytest.raises(AccessDeniedError, match="not valid"):
        await put_bytes(rt, started, "text/markdown", NOTES)
    assert [p for p in storage.root.rglob("*") if p.is_file()] == []


async def test_a_pdfs_coverage_counts_the_characters_getdocument_pages(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    """Page breaks are stored as blank lines; the coverage counts the same characters as the
    document's ``totalChars``, so "all N characters" is the N a reader pages through."""
    from fixtures_docs import make_pdf

    space = await world.space()
    m = await world.member("writer", {space: "readwrite"})
    data = make_pdf([["The quarterly audit starts on the second Monday of April."],
                     ["Expense reports are due on the fifth working day."],
                     ["The travel desk books flights two weeks ahead."]])
    doc_id = await uploaded(rt, m.principal, "audit.pdf", "application/pdf", data, space)
    assert await process(rt, tools, doc_id) == "done"
    got = await documents.get(rt, m.principal, str(doc_id), space)
    coverage = got["document"]["coverage"]
    assert coverage["sourceChars"] == got["page"]["totalChars"]
    assert f"all {got['page']['totalChars']:,} characters" in coverage["note"]


async def test_local_put_checks_signature_size_type_and_replay(rt: Runtime, world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    started = await start_upload(rt, m.principal, "a.md", "text/markdown", NOTES, space)
    assert started["method"] == "PUT" and started["headers"] == {"Content-Type": "text/markdown"}
    assert started["expiresAt"] > time.time()
    query = parse_qs(urlparse(started["uploadUrl"]).query)
    expires, sig = int(query["expires"][0]), query["sig"][0]
    doc = started["documentId"]
    with pytest.raises(AccessDeniedError):
        await uploads.accept_local_upload(rt, doc, expires=expires + 1, sig=sig,
                                          content_type="text/markdown", body=NOTES)
    with pytest.raises(InvalidInputError, match="declared"):
        await uploads.accept_local_upload(rt, doc, expires=expires, sig=sig,
                                          content_type="text/markdown", body=NOTES + b"x")
    with pytest.raises(InvalidInputError, match="Content-Type"):
        await uploads.accept_local_upload(rt, doc, expires=expires, sig=sig,
                                          content_type="text/plain", body=NOTES)
    await uploads.accept_local_upload(rt, doc, expires=expires, sig=sig,
                                      content_type="text/markdown", body=NOTES)
    with pytest.raises(ConflictError, match="already uploaded"):
        await uploads.accept_local_upload(rt, doc, expires=expires, sig=sig,
                                          content_type="text/markdown", body=NOTES)
    storage = rt.storage
    assert isinstance(storage, LocalStorage)
    past = int(time.time()) - 5
    with pytest.raises(AccessDeniedError, match="expired"):
        storage.check_signature(doc, len(NOTES), "text/markdown", past,
                                storage.signature(doc, len(NOTES), "text/markdown", past))


async def test_delete_document_forgets_memories_and_removes_file(
    rt: Runtime, world: Any, tools: Extractors, storage: LocalStorage
) -> None:
    space = await world.space()
    writer = await world.member(grants={space: "readwrite"})
    reader = await world.member("reader", {space: "read"})
    doc_id = await uploaded(rt, writer.principal, "launch.md", "text/markdown", NOTES, space)
    assert await process(rt, tools, doc_id) == "done"
    row = await status(rt, doc_id)
    assert storage.path(row["storage_key"]).exists()
    with pytest.raises(AccessDeniedError):
        await documents.delete(rt, reader.principal, str(doc_id))
    result = await documents.delete(rt, writer.principal, str(doc_id))
    assert result["forgottenMemories"] >= 3 and result["fileRemoved"] is True
    assert not storage.path(row["storage_key"]).exists()
    assert (await documents.list_page(rt, writer.principal, 1, 10, space))["total"] == 0
    with pytest.raises(NotFoundError):
        await documents.get(rt, writer.principal, str(doc_id))
    found = await memories.search(rt, writer.principal, query=None, keyword="Falcon", category=None,
                                  include_profile=False, container_tag=space, limit=10)
    assert found["results"] == []
    assert await process(rt, tools, doc_id) == "skipped"


@pytest.mark.parametrize("kind", ["pdf", "docx", "csv"])
async def test_real_files_round_trip_into_memories(rt: Runtime, world: Any, tools: Extractors,
                                                   kind: str) -> None:
    """Files generated with real libraries go through the whole pipeline into searchable
    memories that name their source document."""
    from fixtures_docs import make_docx, make_pdf

    if kind == "pdf":
        data = make_pdf([["The quarterly audit starts on the second Monday of April."],
                         ["Expense reports above 500 euros need a director's approval."]],
                        title="Finance handbook", running_header="ACME Finance")
        filename, ctype = "handbook.pdf", "application/pdf"
        expected = ["second Monday of April", "500 euros need a director"]
    elif kind == "docx":
        data = make_docx(title="Onboarding")
        filename = "onboarding.docx"
        ctype = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        expected = ["disk encryption before handover", "finance office in Berlin", "Grace"]
    else:
        data = b"region,owner,budget\neu-west-1,Platform team,12000\nus-east-1,Data team,8000\n"
        filename, ctype = "budgets.csv", "text/csv"
        expected = ["eu-west-1", "Data team"]
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await uploaded(rt, m.principal, filename, ctype, data, space)
    assert await process(rt, tools, doc_id) == "done"
    doc = await documents.get(rt, m.principal, str(doc_id))
    texts = [x["memory"] for x in doc["memories"]]
    for phrase in expected:
        assert any(phrase in t for t in texts), (phrase, texts)
    assert all(x["sourceDocumentId"] == str(doc_id) for x in doc["memories"])
    if kind == "pdf":
        assert doc["document"]["title"] == "Finance handbook"
        assert not any(t == "ACME Finance" or t.startswith("Page ") for t in texts)
    found = await memories.search(rt, m.principal, query=expected[0], keyword=None,
                                  category=None, include_profile=False, container_tag=space,
                                  limit=3)
    assert any(expected[0] in hit["memory"] for hit in found["results"])


async def test_local_worker_watchdog_keeps_the_queue_moving(rt: Runtime, world: Any,
                                                            storage: LocalStorage) -> None:
    """A job stuck inside one step (beyond the between-page budget checks) is failed by the
    watchdog, and the next upload is still processed."""
    import threading

    from memory_mcp.documents.local_worker import LocalJobs

    release = threading.Event()

    class Stuck:
        def extract(self, title: str, text: str, max_memories: int, *,
                    deadline: float | None = None) -> tuple[str, list[str]]:
            if "stuck" in text:
                release.wait(30)  # a pathological step that ignores the deadline
            return OfflineExtractor().extract(title, text, max_memories)

    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    stuck = await uploaded(rt, m.principal, "a.md", "text/markdown", b"# A\n\nThis one is stuck.\n",
                           space)
    fine = await uploaded(rt, m.principal, "b.md", "text/markdown", NOTES, space)
    jobs = LocalJobs(rt, Extractors(storage=storage, facts=Stuck()))
    jobs.watchdog_seconds = 1.0
    try:
        jobs.submit(stuck)
        jobs.submit(fine)
        await jobs.drain(timeout=60)
    finally:
        release.set()
    row = await status(rt, stuck)
    assert row["status"] == "failed" and "was stopped" in row["status_reason"]
    assert (await status(rt, fine))["status"] == "done"
