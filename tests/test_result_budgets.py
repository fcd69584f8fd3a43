"""Every tool's result fits its documented budget (mcp/budget.py), even in the worst case the
current bounds allow, and getDocument pages a large document so all of it can still be read.

One space is filled to the bounds through the real services (real PostgreSQL, the real local
model): 55 memories of the longest allowed size (100,000 characters, with quotes, newlines and
non-ASCII text that JSON escaping makes longer), some forgotten; 50 documents whose every free-text
field is over-long; a 500,000-character document with memories; 40 more spaces with huge names and
descriptions; a user with a 2,000-character name. Then each tool, resource and the prompt
is called over real HTTP with the official MCP client and its text and structuredContent measured.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from memory_mcp.db import documents as documents_db
from memory_mcp.db import processing
from memory_mcp.db.pool import open_pool
from memory_mcp.embeddings.base import Embedder
from memory_mcp.mcp.budget import BUDGETS, MAX_PAGE_CHARS, PAGE_CHARS, SPACES_PAGE, json_size
from memory_mcp.services import admin, memories, validation
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import check_model

from conftest import World, settings_for
from mcp_client import connect

pytestmark = pytest.mark.anyio

LONGEST = 100_000  # MEMORY_MCP_MAX_CONTENT_CHARS
CITIES = ["Oslo", "Lima", "Kyoto", "Accra", "Quito", "Perth", "Turin", "Dakar", "Hanoi", "Porto"]
TOOLS = ["Kafka", "Redis", "Postgres", "Envoy", "Vault", "Nomad", "Spark", "Flink", "Airflow"]
WORDS = ["latency", "budget", "rollout", "canary", "failover", "replica", "quorum", "shard",
         "vacuum", "index", "lease", "backoff", "jitter", "tenant", "audit", "grant", "cipher"]


def long_text(i: int, size: int = LONGEST) -> str:
    """A distinct fact (its own city, tool and numbers, so no two are versions of each other)
    padded to ``size`` with text that JSON escapes heavily (quotes, newlines, non-ASCII)."""
    rng = random.Random(i)
    head = (f"Budget fact {i}: team {CITIES[i % 10]}-{i} runs {TOOLS[i % 9]} {i * 7 + 3} on port "
            f"{8000 + i} since {1990 + i}.")
    filler = "".join(f'"{rng.choice(WORDS)}" é\n' for _ in range(size // 8 + 1))
    return (head + " " + filler)[:size]


def few_words(i: int, size: int = LONGEST) -> str:
    """As long, in ~100 words of ~1,000 characters: saving text close to a stored memory
    compares their words pairwise (services/agreement.py), which is quadratic in word count."""
    head = f"Budget fact {i}: team {CITIES[i % 10]}-{i} runs {TOOLS[i % 9]} on port {9000 + i}."
    words = [WORDS[k % len(WORDS)] + "é" * 990 for k in range(size // 1_000)]
    return (head + " " + " ".join(words))[:size]


@dataclass
class Worst:
    url: str
    key: str
    space: str
    big_doc: str
    small_doc: str
    big_content: str
    memory_ids: list[str]


def sizes(result: Any) -> tuple[int, int]:
    text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
    return len(text), json_size(result.structured_content or {})


def within(name: str, result: Any) -> tuple[str, dict[str, Any]]:
    """The result's text and structuredContent, after checking both fit ``name``'s budget."""
    assert not result.is_error, result.content[0].text
    text_chars, structured_chars = sizes(result)
    budget = BUDGETS[name]
    assert text_chars <= budget.text, (name, text_chars, budget)
    assert structured_chars <= budget.structured, (name, structured_chars, budget)
    return result.content[0].text, dict(result.structured_content)


async def _documents(rt: Runtime, space_id: Any, user_id: Any, big_content: str) -> tuple[str, str]:
    """50 documents with every free-text field over-long, and one 500,000-character one."""
    async with rt.transaction(system=True) as conn:
        small = ""
        for i in range(50):
            row = await documents_db.insert(
                conn, space_id=space_id, user_id=user_id, title=f"Report {i} " + "T" * 3_000,
                filename=f"report-{i}-" + "f" * 240 + ".pdf", content_type="application/pdf",
                size_bytes=10_000, status="done", summary="S" * 5_000, content="short")
            await conn.execute(
                """UPDATE documents SET status_reason = %s, coverage_note = %s, extracted_chars = 5,
                          source_chars = 5, indexed_chars = 5, memories_created = 0,
                          cut_by = 'max_extracted_chars' WHERE id = %s""",
                ("R" * 5_000, "N" * 5_000, row["id"]))
            small = str(row["id"])
        big = await documents_db.insert(
            conn, space_id=space_id, user_id=user_id, title="The big one",
            filename="big.md", content_type="text/markdown", size_bytes=len(big_content),
            status="done", summary="A very long document.", content=big_content)
    return str(big["id"]), small


async def _long_memories(rt: Runtime, space_id: Any, doc_id: Any, user_id: Any, n: int
                         ) -> list[str]:
    """``n`` memories of the longest size, as the document pipeline writes them (one multi-row
    insert; a save per memory would re-check 100,000-character candidates each time), tagged
    with a profile category so they fill the profile too. The model reads only a text's start,
    so the start is what is embedded."""
    texts = [long_text(i) for i in range(n)]
    vectors = await rt.embed([t[:1_000] for t in texts])
    async with rt.transaction(system=True) as conn:
        created = await processing.insert_memories(
            conn, space_id=space_id, document_id=doc_id, user_id=user_id,
            memories=[(t, validation.content_hash(t), vec) for t, vec in zip(texts, vectors,
                                                                             strict=True)])
        assert created == n
        cur = await conn.execute(
            """UPDATE memories SET category = 'preference' WHERE source_document_id = %s
               RETURNING id""", (doc_id,))
        return sorted(str(r["id"]) for r in await cur.fetchall())


@pytest.fixture(scope="module")
async def worst(database_url: str, embedder: Embedder, live_server: str) -> AsyncIterator[Worst]:
    settings = settings_for(database_url)
    pool = await open_pool(settings, database_url)
    rt = Runtime(settings=settings, pool=pool, embedder=embedder)
    try:
        async with rt.transaction(system=True) as conn:
            await check_model(conn, embedder)
        world = World(rt)
        space = await world.space("budget")
        others = [f"budget-{uuid.uuid4().hex[:8]}-{i}" for i in range(40)]
        for key in others:
            await admin.create_space(rt, key, "Ñ" * 2_000, "D" * 10_000)
        m = await world.member(grants={space: "readwrite", **{k: "read" for k in others}},
                               name="Ω" * 2_000)
        async with rt.transaction(system=True) as conn:
            cur = await conn.execute("SELECT id FROM spaces WHERE key = %s", (space,))
            row = await cur.fetchone()
            assert row is not None
            space_id = row["id"]
        paragraphs = [f"Paragraph {i}. " + "Words of the document, é and “quotes”. " * (i % 9 + 2)
                      for i in range(5_000)]
        big_content = "\n\n".join(paragraphs)[:500_000]
        big, small = await _documents(rt, space_id, m.principal.user_id, big_content)
        ids = await _long_memories(rt, space_id, uuid.UUID(big), m.principal.user_id, 55)
        for memory_id in ids[::11]:  # listMemories shows forgotten ones too, with who forgot them
            await memories.forget(rt, m.principal, None, memory_id, space)
        yield Worst(live_server, m.key, space, big, small, big_content, ids)
    finally:
        await pool.close()


async def test_search_with_its_profile_fits(worst: Worst) -> None:
    async with connect(worst.url, worst.key) as client:
        for args in ({"keyword": "Budget fact", "limit": 50},
                     {"query": "which team runs Kafka " + "x" * 3_900, "limit": 50},
                     {"category": "preference", "limit": 50, "includeProfile": True}):
            text, data = within("search_memory", await client.call_tool(
                "search_memory", {**args, "containerTag": worst.space}))
            assert len(data["results"]) == 50 and len(data["profile"]["stable"]) == 10
            hit = data["results"][0]  # cut to fit, and it says so
            assert hit["memoryTruncated"] and hit["memoryChars"] == LONGEST
            assert hit["memory"].startswith("Budget fact") and len(hit["memory"]) < LONGEST
            assert text.count("Budget fact") >= 50


async def test_lists_fit(worst: Worst) -> None:
    async with connect(worst.url, worst.key) as client:
        _, mems = within("listMemories", await client.call_tool(
            "listMemories", {"limit": 50, "containerTag": worst.space}))
        assert len(mems["memories"]) == 50 and mems["total"] >= 55
        assert any(m["isForgotten"] for m in mems["memories"])
        text, docs = within("listDocuments", await client.call_tool(
            "listDocuments", {"limit": 50, "containerTag": worst.space}))
        # Every field over-long: the fixed fields of 50 documents alone pass the budget, so the
        # last ones are left out of structuredContent, counted, and the text says so.
        omitted = docs.get("omittedForBudget", {}).get("documents", 0)
        assert len(docs["documents"]) + omitted == 50 and docs["total"] == 51
        assert omitted == 0 or f"leaves the last {omitted} item(s) out" in text
        listed = docs["documents"][-1]
        assert len(listed["summary"]) <= 1_000 and len(listed["title"]) <= 200  # cut to fit
        assert "Report" in text
        text, page1 = within("listSpaces", await client.call_tool("listSpaces", {}))
        assert page1["count"] == 41 and len(page1["spaces"]) == SPACES_PAGE and page1["hasMore"]
        assert "more on the next page" in text
        _, page2 = within("listSpaces", await client.call_tool("listSpaces", {"page": 2}))
        assert len(page2["spaces"]) == 41 - SPACES_PAGE and not page2["hasMore"]
        keys = {s["key"] for s in page1["spaces"] + page2["spaces"]}
        assert len(keys) == 41 and worst.space in keys
        refused: Any = await client.call_tool("listSpaces", {"page": 3})
        assert refused.is_error and "page 3 is past the end" in refused.content[0].text
        text, me = within("whoAmI", await client.call_tool("whoAmI", {}))
        assert me["scopeTotal"] == 41 and len(me["scope"]) == SPACES_PAGE
        assert f"and {41 - SPACES_PAGE} more" in text


async def test_writes_fit(worst: Worst) -> None:
    async with connect(worst.url, worst.key) as client:
        new = few_words(900)
        within("add_memory", await client.call_tool(
            "add_memory", {"content": new, "containerTag": worst.space}))
        _, versioned = within("add_memory", await client.call_tool(
            "add_memory", {"content": new[:-5] + ".", "containerTag": worst.space}))
        assert versioned["action"] == "versioned" and versioned["memory"]["memoryTruncated"]
        _, unsure = within("add_memory", await client.call_tool(
            "add_memory", {"content": "team runs something on some port", "action": "forget",
                           "containerTag": worst.space}))
        assert unsure["action"] == "nothing_matched"
        within("deleteDocument", await client.call_tool(
            "deleteDocument", {"documentId": worst.small_doc, "containerTag": worst.space}))


async def test_resources_and_prompt_fit(worst: Worst) -> None:
    async with connect(worst.url, worst.key) as client:
        await client.call_tool("select-space", {"containerTag": worst.space})
        for uri in ("memory-mcp://profile", "memory-mcp://spaces", "memory-mcp://memories"):
            read: Any = await client.read_resource(uri)
            text = read.contents[0].text
            assert len(text) <= BUDGETS[uri].text, (uri, len(text))
            assert worst.space in text, uri
        prompt: Any = await client.get_prompt("context")
        text = prompt.messages[0].content.text
        assert len(text) <= BUDGETS["context"].text and "Budget fact" in text


async def test_get_document_pages_through_a_large_document(worst: Worst) -> None:
    """Read in default pages, the 500,000-character document comes back whole, each page within
    budget, breaking at paragraphs, saying where it is and how to read on."""
    content, pages = worst.big_content, []
    offset: int | None = 0
    async with connect(worst.url, worst.key) as client:
        while offset is not None:
            args: dict[str, Any] = {"documentId": worst.big_doc}
            if offset:
                args["offset"] = offset
            text, data = within("getDocument", await client.call_tool("getDocument", args))
            page = data["page"]
            assert "content" not in data["document"]  # the page is in the text, not twice
            assert page["totalChars"] == len(content) and page["offset"] == offset
            assert page["chars"] <= PAGE_CHARS and page["end"] == offset + page["chars"]
            body = content[page["offset"]:page["end"]]
            assert f"characters {offset:,}-{page['end']:,} of {len(content):,}:\n{body}\n" in text
            if page["hasMore"]:
                assert body.endswith("\n\n")  # a paragraph break, not mid-word
                assert f"offset={page['nextOffset']}." in text
            assert (len(data["memories"]) == 20) == (offset == 0)
            pages.append(body)
            offset = page["nextOffset"]
        assert "".join(pages) == content and len(pages) >= len(content) // PAGE_CHARS
        _, widest = within("getDocument", await client.call_tool(
            "getDocument", {"documentId": worst.big_doc, "limit": MAX_PAGE_CHARS}))
        assert MAX_PAGE_CHARS // 2 < widest["page"]["chars"] <= MAX_PAGE_CHARS


@pytest.mark.parametrize(("args", "message"), [
    ({"offset": -1}, "offset must be a character position in the document, 0 to"),
    ({"limit": 0}, "limit must be between 1 and 30,000 characters, got 0"),
    ({"limit": MAX_PAGE_CHARS + 1}, "limit must be between 1 and 30,000 characters"),
    ({"offset": 10**12}, "offset must be a character position in the document, 0 to"),
    ({"offset": 500_000}, "offset 500,000 is past the end of the document's content (500,000 "
                          "characters); use an offset below 500,000"),
    ({"offset": 1.5}, "offset"),
    ({"limit": "many"}, "limit"),
])
async def test_get_document_refuses_bad_pages(worst: Worst, args: dict[str, Any],
                                               message: str) -> None:
    async with connect(worst.url, worst.key) as client:
        got: Any = await client.call_tool("getDocument", {"documentId": worst.big_doc, **args})
    assert got.is_error and message in got.content[0].text, got.content[0].text
    assert "Traceback" not in got.content[0].text and "SELECT" not in got.content[0].text
