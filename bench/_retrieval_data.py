"""Loaders, baselines and metrics for ``bench/retrieval_quality.py`` (benchmark-only code).

Nothing here touches the product: it parses the evaluation sets from ``/work/shared/data`` (read at
benchmark time only, never copied into the repository), and implements the in-process comparison
rankers (brute-force cosine, BM25, reciprocal-rank fusion) and the metrics (recall@k, nDCG@k).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Doc:
    """One memory to seed: ``key`` is the dataset's own id (Cranfield doc id, LoCoMo dia_id)."""

    key: str
    text: str


@dataclass(frozen=True)
class Query:
    """One evaluation query, searched within ``group`` (one space per group).

    ``relevant`` maps doc key -> gain used by nDCG (binary: 1; graded Cranfield: 5 - grade).
    """

    qid: str
    text: str
    group: str
    relevant: dict[str, float]
    label: str = ""  # e.g. the LoCoMo category


@dataclass
class Corpus:
    name: str
    groups: dict[str, list[Doc]]  # group (space) -> its documents, in dataset order
    queries: list[Query]
    notes: list[str] = field(default_factory=list)
    #: Cranfield only: the same queries with binary gains (for the binary-nDCG column).
    binary_relevant: dict[str, dict[str, float]] = field(default_factory=dict)
    #: Questions with no answer in their group (LoCoMo category 5, off-topic questions): they
    #: score the "no good match" flag, not recall.
    unanswerable: list[Query] = field(default_factory=list)
    #: Where it was read from (for the report's heading).
    source: str = ""


_WS = re.compile(r"\s+")


def squash(text: str) -> str:
    return _WS.sub(" ", text).strip()


# --------------------------------------------------------------------------------------------
# Cranfield


def _cran_records(raw: str) -> list[tuple[str, dict[str, str]]]:
    """``.I n`` records with their ``.T/.A/.B/.W`` fields, whitespace-collapsed."""
    out: list[tuple[str, dict[str, str]]] = []
    for rec in re.split(r"^\.I ", raw, flags=re.MULTILINE)[1:]:
        head, _, body = rec.partition("\n")
        fields: dict[str, list[str]] = {}
        current: str | None = None
        for line in body.split("\n"):
            tag = re.match(r"^\.([TABW])\s*$", line)
            if tag:
                current = tag.group(1)
                fields[current] = []
            elif current is not None:
                fields[current].append(line)
        out.append((head.strip(), {k: squash(" ".join(v)) for k, v in fields.items()}))
    return out


def load_cranfield(data_dir: Path) -> Corpus:
    """1,400 abstracts (title + text), 225 queries renumbered 1..225, graded qrels.

    The memory text is the title followed by the abstract; the abstract in this collection
    usually begins with the title again, and then the title is not repeated. Two records
    (471, 995) are empty and are left out (no query judges them).
    """
    base = data_dir / "cranfield"
    docs: list[Doc] = []
    skipped: list[str] = []
    for doc_id, f in _cran_records((base / "cran.all.1400").read_text()):
        title, body = f.get("T", ""), f.get("W", "")
        text = body if title and body.startswith(title) else squash(f"{title} {body}")
        if not text:
            skipped.append(doc_id)
            continue
        docs.append(Doc(str(int(doc_id)), text))
    graded: dict[str, dict[str, float]] = defaultdict(dict)
    binary: dict[str, dict[str, float]] = defaultdict(dict)
    for line in (base / "cranqrel").read_text().splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        q, d, g = parts[0], str(int(parts[1])), int(parts[2])
        if 1 <= g <= 4:  # 1 = most relevant; -1 = not relevant
            graded[q][d] = float(5 - g)
            binary[q][d] = 1.0
    queries: list[Query] = []
    for n, (_, f) in enumerate(_cran_records((base / "cran.qry").read_text()), start=1):
        qid = str(n)  # file ids are not 1..225; cranqrel numbers queries by file order
        if graded.get(qid):
            queries.append(Query(qid, f.get("W", ""), "cranfield", dict(graded[qid])))
    notes = [f"{len(docs)} abstracts seeded (empty records skipped: {', '.join(skipped) or 'none'}); "
             f"{len(queries)} queries with at least one relevant (grade 1-4) document"]
    known = {d.key for d in docs}
    dangling = sum(1 for q in queries for d in q.relevant if d not in known)
    if dangling:
        notes.append(f"{dangling} judged-relevant doc ids are not in the corpus (count as misses)")
    return Corpus("cranfield", {"cranfield": docs}, queries, notes,
                  {q: dict(v) for q, v in binary.items()})


# --------------------------------------------------------------------------------------------
# LoCoMo

_DATE = re.compile(r"(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})")
_DIA = re.compile(r"^D:?(\d+):(\d+)$")


def _session_date(raw: str) -> str:
    """``1:56 pm on 8 May, 2023`` -> ``8 May 2023`` (the raw string if it does not parse)."""
    m = _DATE.search(raw or "")
    return f"{m.group(1)} {m.group(2)} {m.group(3)}" if m else squash(raw or "")


def _evidence_ids(values: Sequence[str]) -> list[str]:
    """Normalise evidence entries: ``'D8:6; D9:17'`` splits, ``'D:11:26'`` -> ``'D11:26'``,
    unparsable entries (``'D'``) are dropped."""
    out: list[str] = []
    for value in values:
        for part in re.split(r"[;,\s]+", str(value)):
            m = _DIA.match(part.strip())
            if m:
                out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return list(dict.fromkeys(out))


def load_locomo(data_dir: Path, *, dated: bool, captions: bool) -> Corpus:
    """One group per conversation: its dialogue turns; questions of categories 1-4.

    A turn's memory text is ``Speaker: text``, prefixed with ``[<session date>] `` when ``dated``
    and suffixed with `` [shared a photo: <caption>]`` when the turn shared an image and
    ``captions`` is on. Evidence ids that name no turn are dropped (a question left with no
    evidence is skipped); both are counted in the notes.
    """
    conversations = json.loads((data_dir / "locomo" / "locomo-dev.json").read_text())
    groups: dict[str, list[Doc]] = {}
    queries: list[Query] = []
    dropped_ids = 0
    skipped_q = 0
    cat5 = 0
    unanswerable: list[Query] = []
    for conv in conversations:
        group = str(conv.get("sample_id") or f"conv-{len(groups) + 1}")
        c = conv["conversation"]
        sessions = sorted((int(k.split("_")[1]), k) for k, v in c.items()
                          if re.fullmatch(r"session_\d+", k) and isinstance(v, list))
        docs: list[Doc] = []
        for n, key in sessions:
            date = _session_date(str(c.get(f"session_{n}_date_time", "")))
            for turn in c[key]:
                text = f"{turn['speaker']}: {squash(str(turn.get('text', '')))}"
                if captions and turn.get("blip_caption"):
                    text += f" [shared a photo: {squash(str(turn['blip_caption']))}]"
                if dated and date:
                    text = f"[{date}] {text}"
                docs.append(Doc(str(turn["dia_id"]), text))
        groups[group] = docs
        known = {d.key for d in docs}
        for i, qa in enumerate(conv.get("qa", [])):
            category = int(qa.get("category", 0))
            if category == 5:
                cat5 += 1
                unanswerable.append(Query(f"{group}#{i}", squash(str(qa.get("question", ""))),
                                          group, {}, label="cat 5"))
                continue
            if category not in (1, 2, 3, 4):
                continue
            ids = _evidence_ids(qa.get("evidence") or [])
            kept = [x for x in ids if x in known]
            dropped_ids += len(ids) - len(kept)
            question = squash(str(qa.get("question", "")))
            if not kept or not question:
                skipped_q += 1
                continue
            queries.append(Query(f"{group}#{i}", question, group, dict.fromkeys(kept, 1.0),
                                 label=f"cat {category}"))
    turns = sum(len(v) for v in groups.values())
    fmt = ("[<session date>] " if dated else "") + "Speaker: text" + (
        " [shared a photo: <caption>]" if captions else "")
    notes = [f"{len(groups)} conversations, {turns} turns seeded as '{fmt}'",
             f"{len(queries)} questions of categories 1-4 "
             f"({dict(sorted(Counter(q.label for q in queries).items()))}); "
             f"{cat5} category-5 (unanswerable) questions scored for the no-good-match flag only; "
             f"{skipped_q} skipped for lack of usable evidence; "
             f"{dropped_ids} evidence ids that name no turn dropped"]
    return Corpus("locomo", groups, queries, notes, unanswerable=unanswerable)


def load_paraphrase(path: Path, name: str = "paraphrase") -> Corpus:
    """bench/data/paraphrase_set.json (written for this project): one group of short team facts,
    each asked for by one paraphrased question; its off-topic questions are unanswerable.
    ``paraphrase_holdout.json`` has the same form (held out: never used to tune the ranking)."""
    raw = json.loads(path.read_text())
    docs = [Doc(f"p{i}", fact) for i, (fact, _) in enumerate(raw["pairs"])]
    queries = [Query(f"p{i}", question, "facts", {f"p{i}": 1.0}, label="paraphrase")
               for i, (_, question) in enumerate(raw["pairs"])]
    off = [Query(f"off{i}", q, "facts", {}, label="off-topic")
           for i, q in enumerate(raw.get("offtopic", []))]
    notes = [f"{len(docs)} facts in one space, {len(queries)} paraphrased questions (one right "
             f"fact each), {len(off)} off-topic questions"]
    return Corpus(name, {"facts": docs}, queries, notes, unanswerable=off,
                  source=f"bench/data/{path.name}")


# --------------------------------------------------------------------------------------------
# baselines

_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """Lowercased word tokens (letters and digits); no stemming, no stop words."""
    return _TOKEN.findall(text.lower())


class BM25:
    """Okapi BM25 (k1=1.2, b=0.75) with the non-negative idf ln(1 + (N - n + 0.5) / (n + 0.5))."""

    def __init__(self, texts: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        docs = [Counter(tokens(t)) for t in texts]
        self.n = len(docs)
        lengths = np.asarray([sum(d.values()) for d in docs], dtype=np.float64)
        avg = float(lengths.mean()) if self.n else 0.0
        self.norm = k1 * (1.0 - b + b * lengths / (avg or 1.0))
        postings: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for i, d in enumerate(docs):
            for term, tf in d.items():
                postings[term][0].append(i)
                postings[term][1].append(tf)
        self.postings = {t: (np.asarray(ix), np.asarray(tf, dtype=np.float64))
                         for t, (ix, tf) in postings.items()}

    def scores(self, query: str) -> npt.NDArray[np.float64]:
        out = np.zeros(self.n, dtype=np.float64)
        for term, qtf in Counter(tokens(query)).items():
            hit = self.postings.get(term)
            if hit is None:
                continue
            ix, tf = hit
            idf = math.log(1.0 + (self.n - len(ix) + 0.5) / (len(ix) + 0.5))
            out[ix] += qtf * idf * tf * (self.k1 + 1.0) / (tf + self.norm[ix])
        return out

    def ranking(self, query: str) -> list[int]:
        """Indices of documents with a positive score, best first (ties: corpus order)."""
        s = self.scores(query)
        order = np.argsort(-s, kind="stable")
        return [int(i) for i in order if s[i] > 0]


def cosine_ranking(doc_vectors: FloatArray, query_vector: FloatArray) -> list[int]:
    """Every document, by descending cosine similarity (ties: corpus order)."""
    sims = doc_vectors @ query_vector
    return [int(i) for i in np.argsort(-sims, kind="stable")]


def rrf(rankings: Sequence[Sequence[int]], k: int = 60) -> list[int]:
    """Reciprocal-rank fusion: score(d) = sum over lists of 1 / (k + rank), rank from 1."""
    score: dict[int, float] = defaultdict(float)
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            score[doc] += 1.0 / (k + rank)
    return sorted(score, key=lambda d: (-score[d], d))


def parse_literal(literal: str, dims: int) -> FloatArray:
    """The first ``dims`` numbers of a halfvec text literal ``[a,b,...]``."""
    return np.asarray(literal[1:-1].split(",", dims)[:dims], dtype=np.float32)


def as_stored(vectors: FloatArray) -> FloatArray:
    """Round to float16 as ``halfvec`` stores them, then L2-normalise (cosine)."""
    v = np.asarray(vectors, dtype=np.float16).astype(np.float32)
    norms = np.linalg.norm(v, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    out: FloatArray = (v / norms).astype(np.float32)
    return out


# --------------------------------------------------------------------------------------------
# metrics


def recall_at(ranked: Sequence[str], relevant: dict[str, float], k: int) -> float:
    if not relevant:
        return float("nan")
    return len(set(ranked[:k]) & relevant.keys()) / len(relevant)


def ndcg_at(ranked: Sequence[str], relevant: dict[str, float], k: int) -> float:
    """nDCG@k with gain = relevant[doc] (0 for unjudged) and discount 1/log2(rank + 1)."""
    if not relevant:
        return float("nan")
    dcg = sum(relevant.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0
