"""One dataset of ``bench/retrieval_quality.py``: seed it, query the product, score the lists.

Runs every query of a corpus through ``services.memories.search`` (twice: cold and with the
query embedding cached), under the alternative product modes, and through the in-process
baselines over the same memories, and collects what the report prints. The metrics live in
``_retrieval_data``; the order of the passes and what is compared with what lives here.
"""

from __future__ import annotations

import argparse
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import _common as common
import _retrieval_data as data
import numpy as np
from _common import Deadline, log
from _retrieval_seed import Seeded, seed_group

from memory_mcp.services import memories as memory_service
from memory_mcp.services.runtime import Runtime

K = 10

#: search_memory under other settings, same run and memories (the default is "product").
PRODUCT_MODES: dict[str, dict[str, Any]] = {
    "product_fused": {"answer_type_boost": 0.0},  # score fusion without answer types (before)
    "product_rrf": {"fusion": "rrf"},             # the ranking before score fusion
    "product_vector": {"hybrid_search": False},   # meaning only
}


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


def mean(xs: Sequence[float]) -> float:
    return float(np.mean(xs)) if xs else float("nan")


def pick_queries(queries: list[data.Query], limit: int | None) -> list[data.Query]:
    """All queries, or ``limit`` of them evenly spread (so a quick LoCoMo run visits every space)."""
    if limit is None or limit >= len(queries):
        return queries
    return [queries[i * len(queries) // limit] for i in range(max(limit, 0))]


async def run_dataset(rt: Runtime, key: str, user_id: uuid.UUID, key_id: str,
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
    principal = await common.request_principal(rt, key)  # the grants made above, as a request
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

    async def honest(searcher: Runtime, answers: list[dict[str, Any]]) -> dict[str, Any]:
        """Honest scores: evidence found but marked weak; unanswerable questions flagged."""
        evidence = weak_evidence = 0
        for q, res in zip(queries, answers, strict=False):
            s = seeded[q.group]
            for hit in res["results"]:
                if s.id_to_key.get(str(hit["id"])) in q.relevant:
                    evidence += 1
                    weak_evidence += hit.get("relevance") == "weak"
        flagged: Counter[str] = Counter()
        asked: Counter[str] = Counter()
        for q in corpus.unanswerable:
            res = await memory_service.search(searcher, principal, query=q.text, keyword=None,
                                              category=None, include_profile=False,
                                              container_tag=seeded[q.group].space_key, limit=K)
            asked[q.label] += 1
            flagged[q.label] += bool(res.get("noGoodMatch"))
        return {"evidence": evidence, "weak_evidence": weak_evidence,
                "answerable_flagged": sum(1 for res in answers if res.get("noGoodMatch")),
                "flagged": dict(flagged), "asked": dict(asked)}

    others: dict[str, Result] = {}
    honest_by: dict[str, dict[str, Any]] = {"product": await honest(rt, cold)}
    for mode, override in PRODUCT_MODES.items():
        if deadline.expired():
            deadline.notes.append(f"{corpus.name}: time budget spent before product mode {mode}")
            break
        alt = replace(rt, settings=rt.settings.model_copy(update=override))
        res_alt = Result()
        answers = []
        for q in queries:
            out = await memory_service.search(alt, principal, query=q.text, keyword=None,
                                              category=None, include_profile=False,
                                              container_tag=seeded[q.group].space_key, limit=K)
            answers.append(out)
            s = seeded[q.group]
            res_alt.add([s.id_to_key.get(str(r["id"]), "?") for r in out["results"]], q,
                        corpus.binary_relevant.get(q.qid))
        others[mode] = res_alt
        honest_by[mode] = await honest(alt, answers)

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
        "honest": honest_by,
        "lat_cold": lat_cold, "lat_warm": lat_warm, "same_lists": same_lists,
        "identical_to_cosine": identical, "same_set_as_cosine": same_set,
        "overlap_with_cosine": mean(overlap), "foreign": foreign,
    }
