"""The synthetic data of ``bench/search_latency.py``: topics, clustered vectors, words, queries.

Kept apart from the seeding and the measurements so that what the benchmark searches (and why
it looks like real memories: MiniLM topic centroids, Zipf-distributed words) is in one place.
Pure numpy; nothing here touches the database.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import numpy as np

from memory_mcp.config import STORAGE_DIMENSIONS
from memory_mcp.db.search import VectorForm

LIMIT = 10
LOCAL_DIMS = 384

SUBJECTS = [
    "The billing service", "Our mobile app", "The data team", "The CI pipeline", "Alice",
    "Bob", "The marketing site", "The search cluster", "The on-call rotation",
    "Customer support", "The design system", "The Berlin office", "The ML platform",
    "The security review", "The quarterly roadmap", "The staging database",
    "The onboarding flow", "The API gateway", "The finance team", "The analytics dashboard",
]
PREDICATES = [
    "prefers deployments on Tuesday mornings", "uses PostgreSQL 16 with two read replicas",
    "decided to drop support for Internet Explorer", "wants weekly status reports in Markdown",
    "requires two approvals on every code review", "is migrating from Jenkins to GitHub Actions",
    "keeps its secrets in AWS Secrets Manager", "writes documentation in British English",
    "had an outage caused by an expired TLS certificate",
    "plans to hire two backend engineers next quarter",
]
QUESTION_PREFIXES = ["What do we know about whether", "Remind me if", "Is it true that",
                     "Context needed: whether", "Did anyone note that"]
TOPICS = [f"{s} {p}" for s in SUBJECTS for p in PREDICATES]  # 200 cluster "topics"
CATEGORIES = ["preference", "decision", "convention", "note", "fact", "todo"]


@dataclass
class Dataset:
    space_ids: list[uuid.UUID]
    space_keys: list[str]
    space_clusters: list[np.ndarray]  # cluster ids each space draws from
    centroids: np.ndarray  # (200, native_dims), unit rows
    user_id: uuid.UUID
    key: str
    counts: list[int]
    form: VectorForm  # how the product compares these vectors (db/search.py)


@dataclass
class Pair:
    text: str
    space: int
    vector: str = ""  # halfvec literal, as the server builds it


def vector_index(form: VectorForm) -> str:
    """The name prefix of the HNSW indexes that serve rows of this width: one per bucket of
    spaces (migrations 0008, 0012), ``<prefix>NN`` for bucket NN."""
    return "memories_embedding_384_hnsw_b" if form.width == 384 else "memories_embedding_hnsw_b"


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Row-wise L2 normalisation as float32; zero rows stay zero (the package's own helper works
    on lists: it no longer uses numpy)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = (vectors / norms).astype(np.float32)
    return out


def noisy(centroids: np.ndarray, which: np.ndarray, sigma: np.ndarray | float,
          rng: np.random.Generator) -> np.ndarray:
    """Unit vectors near the given centroids: c + sigma * g / sqrt(d), normalised."""
    d = centroids.shape[1]
    g = rng.standard_normal((len(which), d)).astype(np.float32)
    sig = np.asarray(sigma, dtype=np.float32).reshape(-1, 1)
    return l2_normalise(centroids[which] + sig * g / np.sqrt(d))


VOCABULARY = 50_000


def zipf_words(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Word ranks with Zipf frequencies (P(rank r) ~ 1/r): a few very common words and a long
    tail of rare ones, as in real text, so the full-text side of search meets both kinds."""
    ranks = np.arange(1, VOCABULARY + 1)
    p = 1.0 / ranks
    out: np.ndarray = rng.choice(VOCABULARY, size=shape, p=p / p.sum())
    return out


def pseudo_word(rank: int) -> str:
    """A made-up word per rank ("vokelu"), stable and unlike any English stem."""
    syllables = ["ka", "vo", "lu", "mi", "ze", "ru", "ta", "po", "ni", "se", "qu", "fi"]
    word, r = "", rank + 1
    while r:
        r, d = divmod(r, len(syllables))
        word += syllables[d]
    return word + "x"


def padded(vectors: np.ndarray) -> np.ndarray:
    out = np.zeros((vectors.shape[0], STORAGE_DIMENSIONS), dtype=np.float32)
    out[:, : vectors.shape[1]] = vectors
    return out


def query_pairs(rng: np.random.Generator, queries: int, spaces: int) -> list[Pair]:
    """The timed (query text, space) pairs: a question about each topic in turn, with a
    Zipf-drawn word, spread over the spaces (vectors are filled in later by the embedder)."""
    pairs: list[Pair] = []
    for i in range(queries):
        topic = TOPICS[i % len(TOPICS)]
        prefix = QUESTION_PREFIXES[(i // len(TOPICS) + i) % len(QUESTION_PREFIXES)]
        word = pseudo_word(int(zipf_words(rng, (1,))[0]))
        text = f"{prefix} {topic[0].lower()}{topic[1:]}, as in {word}?"
        pairs.append(Pair(text, i % spaces))
    return pairs
