"""The printed report of ``bench/retrieval_quality.py``.

The table layout (and the README's brute-force baselines it is read against) is what runs are
compared by, so it is kept apart from the code that measures; it only formats the dicts that
``_retrieval_run.run_dataset`` returns.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import _common as common
import _retrieval_data as data
import numpy as np
from _common import Deadline
from _retrieval_run import K, Result, mean

#: README.md of the evaluation data (measured with brute-force retrieval on this machine).
README_BASELINES: dict[str, list[tuple[str, str, str]]] = {
    "cranfield": [("BM25", "0.397", "0.365"), ("all-MiniLM-L6-v2", "0.414-0.419", "0.374-0.377"),
                  ("RRF of the two", "0.444", "0.408")],
    "locomo": [("BM25", "0.551", "0.413"), ("all-MiniLM-L6-v2", "0.442", "0.300"),
               ("RRF of the two", "0.552", "0.398")],
}


def pct(samples: Sequence[float], p: float) -> float:
    return float(np.percentile(np.asarray(samples) * 1000.0, p)) if samples else float("nan")


SYSTEM_NAMES = {
    "product": "product: search_memory, fusion + answer types",
    "product_fused": "product: fusion, answer_type_boost=0 (before)",
    "product_rrf": "product: search_memory, fusion=rrf",
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
    elif corpus.name.startswith("paraphrase"):
        print(f"Paraphrase set ({corpus.source}): {n} questions; top-1 = the right fact ranked "
              "first")
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
    for key, h in r["honest"].items():
        kept = h["evidence"] - h["weak_evidence"]
        unanswerable = ", ".join(f"{label} {h['flagged'].get(label, 0)}/{asked}"
                                 for label, asked in h["asked"].items())
        print(f"  honest scores, {key:<14}: {kept}/{h['evidence']} evidence hits in the top {K} "
              f"not weak ({kept / max(1, h['evidence']):.1%}); {h['answerable_flagged']}/{n} "
              f"answerable 'no good match'; unanswerable flagged: {unanswerable or 'none asked'}")
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
