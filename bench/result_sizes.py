"""The largest result each tool, resource and the prompt can produce, against its budget.

Fills one space to the current bounds (on the embedded PostgreSQL, with the local model): 55
memories of the longest allowed size (100,000 characters, text that JSON escapes heavily), 5 of
them forgotten; 50 documents with over-long titles, summaries, reasons and coverage notes; the
first 300 Cranfield abstracts as one Markdown document (~363 KB, the file issue 11 read whole with
getDocument; read from ``--data-dir``, a generated file of the same size if it is missing); 40
more spaces with huge names and descriptions; a user with a 2,000-character name. Then calls
everything over real HTTP with the official MCP client, at its largest settings (limit 50, the
widest getDocument page, ...), and prints the characters of the text and of structuredContent
(compact JSON) separately, in approximate tokens too (characters / 4: an approximation, English
prose runs ~4 characters a token, ids and JSON fewer), next to the budgets of mcp/budget.py.

``--pipeline`` sends the Cranfield file through the real upload pipeline (slow: it embeds every
statement) instead of storing its text directly; what getDocument returns is the same text.

    .venv/bin/python bench/result_sizes.py [--data-dir /work/shared/data] [--pipeline]
"""

from __future__ import annotations

import argparse
import logging
import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import _common as common
import _retrieval_data as data
import httpx2
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import documents as documents_db
from memory_mcp.db import processing
from memory_mcp.documents.llm import OfflineExtractor
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.http.app import create_app
from memory_mcp.mcp.budget import BUDGETS, CHARS_PER_TOKEN, MAX_PAGE_CHARS, json_size
from memory_mcp.services import admin, memories, uploads, validation
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["latency", "budget", "rollout", "canary", "failover", "replica", "quorum", "shard"]


def long_text(i: int, size: int = 100_000) -> str:
    rng = random.Random(i)
    head = f"Bench fact {i}: team T{i} runs service S{i * 7} on port {8000 + i}."
    return (head + " " + "".join(f'"{rng.choice(WORDS)}" é\n'
                                 for _ in range(size // 8 + 1)))[:size]


def few_words(i: int, size: int = 100_000) -> str:
    """As long, in ~100 words: saving text close to a stored memory compares their words
    pairwise (services/agreement.py, quadratic in word count), which ``long_text`` makes take
    minutes; the result's size is what is measured here."""
    head = f"Bench fact {i}: team T{i} runs service S{i * 7} on port {8000 + i}."
    return (head + " " + " ".join(WORDS[k % len(WORDS)] + "é" * 990
                                  for k in range(size // 1_000)))[:size]


def cranfield(data_dir: Path) -> str:
    try:
        records = data._cran_records((data_dir / "cranfield" / "cran.all.1400").read_text())[:300]
        return "# Cranfield abstracts 1-300\n\n" + "\n\n".join(
            f"## {f.get('T', '').strip()}\n\n{f.get('W', '')}" for _, f in records) + "\n"
    except OSError as exc:
        common.log(f"Cranfield data not found ({exc!r}); using a generated 363 KB file")
        return "\n\n".join(f"## Study {i}\n\n" + "Words of an abstract. " * 55 for i in range(300))


async def build(rt: Runtime, args: argparse.Namespace) -> tuple[str, str, str, str]:
    """The worst-case space; returns (key, space, Cranfield document id, a small document id)."""
    user = await admin.create_user(rt, "bench-sizes@example.test", "Ω" * 2_000, "writer")
    key = await admin.create_key(rt, user["id"], "bench")
    space = await admin.create_space(rt, f"rs-{uuid.uuid4().hex[:6]}", "sizes", "")
    await admin.set_grant(rt, key["id"], space["key"], "readwrite")
    for i in range(40):
        other = await admin.create_space(rt, f"rs-{uuid.uuid4().hex[:6]}-{i}", "Ñ" * 2_000,
                                         "D" * 10_000)
        await admin.set_grant(rt, key["id"], other["key"], "read")
    async with rt.transaction(system=True) as conn:
        who = await authenticate(conn, key["key"])
    space_id, user_id = uuid.UUID(space["id"]), uuid.UUID(user["id"])
    markdown = cranfield(args.data_dir)
    common.log(f"Cranfield file: {len(markdown.encode()):,} bytes")
    if args.pipeline:
        body = markdown.encode()
        started = await uploads.create_upload(rt, who, filename="abstracts.md",
                                              content_type="text/markdown", size=len(body),
                                              container_tag=space["key"], base_url="http://b/")
        q = dict(p.split("=", 1) for p in started["uploadUrl"].split("?", 1)[1].split("&"))
        big = await uploads.accept_local_upload(rt, started["documentId"],
                                                expires=int(q["expires"]), sig=q["sig"],
                                                content_type="text/markdown", body=body)
        assert rt.storage is not None
        outcome = await process(rt, Extractors(storage=rt.storage, facts=OfflineExtractor()), big)
        common.log(f"pipeline: {outcome}")
    async with rt.transaction(system=True) as conn:
        if not args.pipeline:
            big = (await documents_db.insert(
                conn, space_id=space_id, user_id=user_id, title="Cranfield abstracts 1-300",
                filename="abstracts.md", content_type="text/markdown", size_bytes=len(markdown),
                status="done", summary="The first 300 Cranfield abstracts.",
                content=markdown.strip()))["id"]
        small = None
        for i in range(50):
            row = await documents_db.insert(
                conn, space_id=space_id, user_id=user_id, title=f"Report {i} " + "T" * 3_000,
                filename=f"r{i}-" + "f" * 240 + ".pdf", content_type="application/pdf",
                size_bytes=1, status="done", summary="S" * 5_000, content="x")
            await conn.execute("""UPDATE documents SET status_reason = %s, coverage_note = %s,
                extracted_chars = 1, source_chars = 1, indexed_chars = 1, memories_created = 0,
                cut_by = 'max_extracted_chars' WHERE id = %s""", ("R" * 5_000, "N" * 5_000,
                                                                    row["id"]))
            small = row["id"]
    texts = [long_text(i) for i in range(55)]
    vectors = await rt.embed([t[:1_000] for t in texts])
    async with rt.transaction(system=True) as conn:
        await processing.insert_memories(
            conn, space_id=space_id, document_id=big, user_id=user_id,
            memories=[(t, validation.content_hash(t), v) for t, v in zip(texts, vectors,
                                                                         strict=True)])
        cur = await conn.execute("""UPDATE memories SET category = 'preference'
            WHERE space_id = %s AND content LIKE 'Bench fact%%' RETURNING id""", (space_id,))
        ids = sorted(str(r["id"]) for r in await cur.fetchall())
    for memory_id in ids[::11]:
        await memories.forget(rt, who, None, memory_id, space["key"])
    return key["key"], space["key"], str(big), str(small)


def row(name: str, text: int, structured: int | None, note: str = "") -> None:
    budget = BUDGETS.get(name.split(" ")[0])
    b = f"{budget.text:,} / {budget.structured:,}" if budget else "none"
    s = "-" if structured is None else f"{structured:,} (~{structured // CHARS_PER_TOKEN:,})"
    print(f"| {name} | {text:,} (~{text // CHARS_PER_TOKEN:,}) | {s} | {b} | {note} |")


async def measure(url: str, key: str, space: str, big: str, small: str) -> None:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=300)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        await client.call_tool("select-space", {"containerTag": space})
        tag = {"containerTag": space}
        page = (await client.call_tool("getDocument", {"documentId": big}))
        total = page.structured_content["page"]["totalChars"]
        calls: list[tuple[str, str, dict[str, Any]]] = [
            ("search_memory (keyword, limit 50, profile)", "search_memory",
             {"keyword": "Bench fact", "limit": 50, **tag}),
            ("search_memory (query, limit 50, profile)", "search_memory",
             {"query": "which team runs the service on port 8010", "limit": 50, **tag}),
            ("add_memory (save 100,000 chars)", "add_memory", {"content": few_words(900), **tag}),
            ("add_memory (its next version)", "add_memory",
             {"content": few_words(900)[:-5] + ".", **tag}),
            ("add_memory (forget, unsure)", "add_memory",
             {"content": "a team runs something", "action": "forget", **tag}),
            ("listDocuments (limit 50)", "listDocuments", {"limit": 50, **tag}),
            ("getDocument (default page)", "getDocument", {"documentId": big}),
            (f"getDocument (limit {MAX_PAGE_CHARS:,})", "getDocument",
             {"documentId": big, "limit": MAX_PAGE_CHARS}),
            ("getDocument (a middle page)", "getDocument", {"documentId": big, "offset": total // 2}),
            ("deleteDocument", "deleteDocument", {"documentId": small, **tag}),
            ("listMemories (limit 50)", "listMemories", {"limit": 50, **tag}),
            ("listSpaces (41 spaces)", "listSpaces", {}),
            ("whoAmI (41 spaces)", "whoAmI", {}),
            ("memory-graph (widget, not budgeted)", "memory-graph", tag),
        ]
        print(f"\nThe Cranfield document is {total:,} characters (issue 11: getDocument returned "
              "it whole, ~470,000 characters of text and ~550,000 of structuredContent).\n")
        print("| result | text chars (~tokens) | structuredContent chars (~tokens) | budget text / "
              "structured | note (call time) |")
        print("| --- | ---: | ---: | ---: | --- |")
        for label, tool, args in calls:
            started = time.perf_counter()
            got: Any = await client.call_tool(tool, args)
            seconds = time.perf_counter() - started
            text = sum(len(c.text) for c in got.content if getattr(c, "type", "") == "text")
            structured = got.structured_content or {}
            note = ("ERROR; " if got.is_error else "") + f"{seconds:.1f} s"
            if "omittedForBudget" in structured:
                note += f"; left out {structured['omittedForBudget']}"
            row(label, text, json_size(structured), note)
        for uri in ("memory-mcp://profile", "memory-mcp://spaces", "memory-mcp://memories"):
            read: Any = await client.read_resource(uri)
            row(uri, len(read.contents[0].text), None)
        prompt: Any = await client.get_prompt("context")
        row("context (prompt)", len(prompt.messages[0].content.text), None)


async def run(url: str, args: argparse.Namespace) -> None:
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations",
                        pool_min_size=1, pool_max_size=4, log_level="WARNING",
                        data_dir=args.objects, rate_limit_requests_per_minute=0,
                        rate_limit_writes_per_minute=0)
    async with common.product_runtime(settings, url) as rt:
        rt.storage = LocalStorage(args.objects / "objects", b"bench-secret")
        key, space, big, small = await build(rt, args)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=0,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        await measure(f"http://127.0.0.1:{port}/mcp", key, space, big, small)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    print(f"\n(~tokens = characters / {CHARS_PER_TOKEN}. Load {common.loadavg()}.)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--pipeline", action="store_true")
    parser.add_argument("--pg-dir", default=None, help="embedded PostgreSQL parent directory")
    args = parser.parse_args()
    for name in ("httpx", "httpx2"):  # one line per request otherwise
        logging.getLogger(name).setLevel(logging.WARNING)
    with common.work_dir(None, "memory-mcp-sizes-") as objects:
        objects.chmod(0o755)
        args.objects = objects
        common.run_on_embedded(args.pg_dir, "sizes", run, args)


if __name__ == "__main__":
    main()
