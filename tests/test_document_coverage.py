"""Nothing of a document silently dropped: large documents are searchable to their last line,
a bound that cuts one is reported in listDocuments / getDocument (text and structuredContent),
and a document's memories are inserted in batches, all or nothing (real PostgreSQL, real model).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlparse
from uuid import UUID

import pytest

from memory_mcp.db import processing
from memory_mcp.documents.coverage import MAX_PASSAGE_CHARS, describe, fit
from memory_mcp.documents.pipeline import EMBED_BATCH, Extractors, RetryLater, process
from memory_mcp.mcp import formatting
from memory_mcp.services import documents, memories, uploads
from memory_mcp.services.runtime import Runtime

from mcp_client import call

pytestmark = pytest.mark.anyio

BIRDS = ["Kestrel", "Heron", "Osprey", "Plover", "Avocet", "Merlin", "Curlew", "Dunlin"]
METRICS = ["tail latency", "drag", "memory use", "energy per query", "error rate", "noise"]


def name(i: int) -> str:
    return f"{BIRDS[i % len(BIRDS)]}-{i}"


def abstracts(n: int) -> str:
    """A Markdown file of ``n`` short technical abstracts, two statements each, every one naming
    its own prototype (``Heron-1`` ... ``Avocet-300``), so a phrase identifies one abstract."""
    parts = [f"# Collected abstracts 1-{n}"]
    for i in range(1, n + 1):
        parts.append(
            f"## Study {i} on {METRICS[i % len(METRICS)]}\n\n"
            f"The {name(i)} prototype reduced {METRICS[i % len(METRICS)]} by {i % 37 + 3} percent "
            f"on benchmark suite {i * 13 % 97}. Its controller for {name(i)} was calibrated at "
            f"{i * 7} kelvin in laboratory {i % 11}.")
    return "\n\n".join(parts) + "\n"




async def upload(rt: Runtime, principal: Any, text: str, space: str) -> UUID:
    data = text.encode()
    started = await uploads.create_upload(rt, principal, filename="abstracts.md",
                                          content_type="text/markdown", size=len(data),
                                          container_tag=space, base_url="http://t/")
    query = parse_qs(urlparse(started["uploadUrl"]).query)
    return await uploads.accept_local_upload(
        rt, started["documentId"], expires=int(query["expires"][0]), sig=query["sig"][0],
        content_type="text/markdown", body=data)


async def found(rt: Runtime, principal: Any, space: str, *, query: str | None = None,
                keyword: str | None = None) -> list[str]:
    result = await memories.search(rt, principal, query=query, keyword=keyword, category=None,
                                   include_profile=False, container_tag=space, limit=5)
    return [hit["memory"] for hit in result["results"]]


async def document_memories(rt: Runtime, doc_id: UUID) -> int:
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM memories WHERE source_document_id = %s", (doc_id,))
        row = await cur.fetchone()
    assert row is not None
    return int(row["n"])


async def test_a_document_past_the_old_200_memory_cap_is_searchable_to_its_end(
        rt: Runtime, world: Any, tools: Extractors) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await upload(rt, m.principal, abstracts(300), space)
    assert await process(rt, tools, doc_id) == "done"

    # The 290th and the last abstract: found by meaning and by keyword.
    assert any(name(290) in t for t in await found(
        rt, m.principal, space, query=f"{name(290)} prototype calibrated kelvin laboratory"))
    assert any(name(300) in t for t in await found(rt, m.principal, space,
                                                    keyword=f"{name(300)} prototype reduced"))
    doc = await documents.get(rt, m.principal, str(doc_id))
    coverage = doc["document"]["coverage"]
    assert doc["document"]["memoryCount"] == coverage["memoriesCreated"] == 600
    assert coverage["complete"] and coverage["cutBy"] is None
    assert coverage["indexedChars"] == coverage["extractedChars"] == coverage["sourceChars"]
    assert coverage["note"].startswith(f"Fully indexed: all {coverage['sourceChars']:,} characters")
    # getDocument's first page lists the first 20 in document order and says that search finds
    # the rest; its content is paged (the whole ~60,000-character file does not come at once).
    assert f"{name(1)} " in doc["memories"][0]["memory"] and doc["memoriesShown"] == 20
    assert "the first 20 of 600 are listed" in formatting.document(doc)
    page = doc["page"]
    assert page["offset"] == 0 and page["hasMore"] and page["end"] == page["nextOffset"] <= 20_000
    assert page["totalChars"] == len(abstracts(300).strip()) == coverage["extractedChars"]
    assert f"offset={page['nextOffset']}" in formatting.document(doc)


async def test_the_character_limit_cut_is_reported_in_both_tools(
        rt: Runtime, world: Any, tools: Extractors, live_server: str) -> None:
    rt.settings = rt.settings.model_copy(update={"max_extracted_chars": 3_000})
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    text = abstracts(40)
    doc_id = await upload(rt, m.principal, text, space)
    assert await process(rt, tools, doc_id) == "done"

    listed = await call(live_server, m.key, "listDocuments", {"containerTag": space})
    got = await call(live_server, m.key, "getDocument", {"documentId": str(doc_id)})
    for result, view in ((listed, listed.structured_content["documents"][0]),
                         (got, got.structured_content["document"])):
        coverage = view["coverage"]
        assert coverage["complete"] is False and coverage["cutBy"] == "max_extracted_chars"
        assert coverage["setting"] == "MEMORY_MCP_MAX_EXTRACTED_CHARS"
        assert coverage["sourceChars"] == len(text.strip())
        assert coverage["indexedChars"] == coverage["extractedChars"] <= 3_000
        note = coverage["note"]
        assert note.startswith(f"Partly indexed: {coverage['indexedChars']:,} of "
                               f"{len(text.strip()):,} characters")
        assert "exceeds the 3,000-character limit (MEMORY_MCP_MAX_EXTRACTED_CHARS)" in note
        assert "split the file and upload the parts" in note
        text_out = result.content[0].text
        assert "PARTLY INDEXED" in text_out and note in text_out
    assert "characters that were read; a bound cut the file" in got.content[0].text
    long_doc = {**got.structured_content,  # the last of several pages of a cut document
                "document": {**got.structured_content["document"], "content": "…"},
                "page": {"offset": 2_000, "end": 3_000, "totalChars": 3_000, "hasMore": False}}
    assert formatting.document(long_doc).count("[End of what was read: a bound cut the file") == 1
    assert "[End of the document.]" not in formatting.document(long_doc)
    # What was read is searchable; what the limit cut is not (and the document says so).
    assert await found(rt, m.principal, space, keyword="Study 2 on")
    assert not await found(rt, m.principal, space, keyword=name(38))


async def test_more_statements_than_the_memory_bound_are_grouped_not_dropped(
        rt: Runtime, world: Any, tools: Extractors) -> None:
    rt.settings = rt.settings.model_copy(update={"max_memories_per_document": 40})
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await upload(rt, m.principal, abstracts(120), space)
    assert await process(rt, tools, doc_id) == "done"
    doc = await documents.get(rt, m.principal, str(doc_id))
    coverage = doc["document"]["coverage"]
    assert 30 <= doc["document"]["memoryCount"] <= 40 and coverage["complete"]
    assert "240 statements were grouped into passages" in coverage["note"]
    assert "(MEMORY_MCP_MAX_MEMORIES_PER_DOCUMENT)" in coverage["note"]
    assert any(name(120) in t for t in await found(rt, m.principal, space,
                                                    keyword=f"{name(120)} was calibrated"))


async def test_a_memory_bound_too_small_even_for_passages_is_reported(
        rt: Runtime, world: Any, tools: Extractors) -> None:
    rt.settings = rt.settings.model_copy(update={"max_memories_per_document": 2})
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await upload(rt, m.principal, abstracts(60), space)  # ~11,000 chars > 2 x 2,000
    assert await process(rt, tools, doc_id) == "done"
    view = (await documents.list_page(rt, m.principal, 1, 10, space))["documents"][0]
    coverage = view["coverage"]
    assert view["memoryCount"] == 2 and coverage["cutBy"] == "max_memories_per_document"
    assert coverage["indexedChars"] < coverage["extractedChars"] / 2
    assert "more than the 2-memory limit per document" in coverage["note"]
    assert "PARTLY INDEXED" in formatting.document_line(view)


class SlowEmbedder:
    """The real model, one second slower per call: a slow provider running out the budget."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dimensions = inner, inner.model_id, inner.dimensions

    def embed(self, texts: list[str]) -> Any:
        time.sleep(1.0)
        return self.inner.embed(texts)


async def test_the_time_budget_commits_what_was_embedded_and_says_so(
        rt: Runtime, world: Any, tools: Extractors) -> None:
    rt.settings = rt.settings.model_copy(update={"job_time_budget_seconds": 4.0})
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await upload(rt, m.principal, abstracts(320), space)  # 640 statements: 10 batches
    real, rt.embedder = rt.embedder, SlowEmbedder(rt.embedder)
    try:
        assert await process(rt, tools, doc_id) == "done"
    finally:
        rt.embedder = real
    view = (await documents.get(rt, m.principal, str(doc_id)))["document"]
    coverage = view["coverage"]
    assert coverage["cutBy"] == "job_time_budget" and not coverage["complete"]
    assert 0 < view["memoryCount"] < 640 and view["memoryCount"] % EMBED_BATCH == 0
    assert f"after {view['memoryCount']:,} of 640 memories" in coverage["note"]
    assert "(MEMORY_MCP_JOB_TIME_BUDGET_SECONDS)" in coverage["note"]
    assert coverage["note"].startswith("Partly indexed: about ")
    assert any(name(8) in t for t in await found(rt, m.principal, space,
                                                  keyword=f"{name(8)} prototype"))


class PoisonEmbedder:
    """The real model, except that one text gets a value halfvec cannot store, so the INSERT
    batch holding it fails inside PostgreSQL after earlier batches went through."""

    def __init__(self, inner: Any, marker: str) -> None:
        self.inner, self.marker = inner, marker
        self.model_id, self.dimensions = inner.model_id, inner.dimensions

    def embed(self, texts: list[str]) -> Any:
        vectors = self.inner.embed(texts)
        return [[1e9, *v[1:]] if self.marker in t else v for t, v in zip(texts, vectors,
                                                                          strict=True)]


async def test_batch_insert_is_all_or_nothing(rt: Runtime, world: Any, tools: Extractors,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(processing, "INSERT_BATCH", 100)
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    doc_id = await upload(rt, m.principal, abstracts(150), space)  # 300 statements: 3 batches
    real, rt.embedder = rt.embedder, PoisonEmbedder(rt.embedder, f"{name(145)} ")
    try:
        with pytest.raises(RetryLater):
            await process(rt, tools, doc_id)
    finally:
        rt.embedder = real
    async with rt.transaction(system=True) as conn:
        row = await processing.by_id(conn, doc_id)
    assert row is not None and row["status"] == "embedding"
    assert "temporary error" in (row["status_reason"] or "")
    assert await document_memories(rt, doc_id) == 0  # batches 1 and 2 were rolled back too
    assert (await documents.get(rt, m.principal, str(doc_id)))["document"]["coverage"] is None
    assert await process(rt, tools, doc_id) == "done"  # the retry writes everything once
    assert await document_memories(rt, doc_id) == 300


def test_fit_groups_in_order_and_reports_a_cut() -> None:
    items = [f"Statement number {i} is here." for i in range(100)]
    fitted = fit(items, 10, MAX_PASSAGE_CHARS)
    assert len(fitted.memories) <= 10 and not fitted.cut and fitted.statements == 100
    assert "\n".join(fitted.memories) == "\n".join(items)
    assert fit(items, 100, MAX_PASSAGE_CHARS).passage_chars is None
    cut = fit(items, 2, 100)
    assert len(cut.memories) == 2 and cut.cut and all(len(x) <= 100 for x in cut.memories)
    long = fit(["word " * 1_000], 5, 1_000)  # one overlong statement is split, not truncated
    assert len(long.memories) == 5 and sum(map(len, long.memories)) >= 4_990 - 10
    coverage = describe(source_chars=1_000, extracted_chars=1_000, truncated=False, fitted=cut,
                        embedded=2, created=2, limits={"max_memories_per_document": 2,
                                                       "max_extracted_chars": 10,
                                                       "job_time_budget": 1})
    assert coverage.cut_by == "max_memories_per_document" and coverage.indexed_chars < 1_000


def test_ordered_ids_sort_in_document_order() -> None:
    ids = processing.ordered_ids(5_000)
    assert sorted(ids, key=lambda u: u.bytes) == ids and len(set(ids)) == 5_000
    assert all(u.version == 7 for u in ids[:3])
