"""Data for ``write_throughput.py``: distinct realistic texts, a 100k-memory space seeded by
binary COPY, and the per-row cost of one product INSERT with and without the HNSW index.

Seeded rows are local-model vectors (real MiniLM embeddings of topic sentences plus noise, 384
dims, zero-padded to ``halfvec(3072)`` as the product stores them), so the save path's
nearest-neighbour query and the 384-dim HNSW index of migration 0008 see a realistic graph.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo

from memory_mcp.config import STORAGE_DIMENSIONS
from memory_mcp.db import memories as db
from memory_mcp.db.search import SPACE_BUCKETS

LOCAL_DIMS = 384
#: The local model's rows have one HNSW graph per bucket of spaces (migrations 0008, 0012);
#: the bench's one space lives in the one named by ``space_index``.
INDEX_PREFIX = "memories_embedding_384_hnsw_b"
SUBJECTS = [
    "The billing service", "Our mobile app", "The data team", "The CI pipeline", "Alice",
    "Bob from platform", "The marketing site", "The search cluster", "The on-call rotation",
    "Customer support", "The design system", "The Berlin office", "The ML platform",
    "The security review", "The quarterly roadmap", "The staging database", "Priya",
    "The onboarding flow", "The API gateway", "The finance team", "The analytics dashboard",
    "The iOS release train", "Marco", "The payments ledger", "The legal team",
]
PREDICATES = [
    "prefers deployments on Tuesday mornings", "uses PostgreSQL 16 with two read replicas",
    "decided to drop support for Internet Explorer", "wants weekly status reports in Markdown",
    "requires two approvals on every code review", "is migrating from Jenkins to GitHub Actions",
    "keeps its secrets in AWS Secrets Manager", "writes documentation in British English",
    "had an outage caused by an expired TLS certificate", "pins Python dependencies with uv",
    "plans to hire two backend engineers next quarter", "tracks incidents in PagerDuty",
    "stores invoices as PDF in S3 for seven years", "runs load tests before every launch",
    "switched its feature flags to LaunchDarkly", "rotates API keys every ninety days",
    "holds its retro every second Thursday", "caps container memory at two gigabytes",
]
QUALIFIERS = [
    "since the March incident", "according to Dana", "for the EU region only",
    "as agreed in the last planning meeting", "until the migration is finished",
    "because of the audit findings", "as a temporary workaround", "per the new policy",
    "starting next sprint", "for customers on the enterprise plan", "after the reorg",
    "to cut cloud costs", "while the contractor is away", "as noted in the wiki",
    "", "for the mobile clients too", "as Legal asked", "on weekdays only",
]
TOPICS = [f"{s} {p}" for s in SUBJECTS for p in PREDICATES]
COPY = ("id", "space_id", "content", "content_hash", "category", "version", "root_id",
        "created_by", "updated_by", "created_at", "updated_at", "embedding")
COPY_TYPES = ["uuid", "uuid", "text", "bytea", "text", "int4", "uuid", "uuid", "uuid",
              "timestamptz", "timestamptz", "halfvec"]
_ZERO_TAIL = bytes(2 * (STORAGE_DIMENSIONS - LOCAL_DIMS))


def texts(rng: np.random.Generator) -> Iterator[str]:
    """Distinct fact-like texts, shuffled; a round number keeps later passes distinct."""
    combos = list(itertools.product(SUBJECTS, PREDICATES, QUALIFIERS))
    for round_no in itertools.count(1):
        for i in rng.permutation(len(combos)):
            s, p, q = combos[int(i)]
            tail = f" {q}" if q else ""
            yield f"{s} {p}{tail}." if round_no == 1 else f"{s} {p}{tail} (note {round_no})."


class _Halfvec384(Dumper):
    """Binary halfvec for COPY: dim, unused, big-endian float16; the zero tail is a constant."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        arr = np.asarray(obj)
        return (struct.pack(">HH", STORAGE_DIMENSIONS, 0) + arr.astype(">f2").tobytes()
                + _ZERO_TAIL)


def unit(rows: np.ndarray) -> np.ndarray:
    out: np.ndarray = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    return out


def noisy(centroids: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Unit vectors near random centroids (cosine to the centroid about 0.6-0.8)."""
    pick = rng.integers(0, len(centroids), n)
    g = rng.standard_normal((n, centroids.shape[1])).astype(np.float32)
    sigma = rng.uniform(0.6, 1.1, (n, 1)).astype(np.float32)
    return unit(centroids[pick] + sigma * g / np.sqrt(centroids.shape[1]))


def space_index(conn: psycopg.Connection[Any], space_id: uuid.UUID) -> str:
    """The 384 HNSW index (graph) that holds this space's rows (migration 0012's bucket)."""
    row = conn.execute("SELECT uuid_hash(%s) & %s", (space_id, SPACE_BUCKETS - 1)).fetchone()
    assert row is not None
    return f"{INDEX_PREFIX}{int(row[0]):02d}"


def seed(url: str, space_id: uuid.UUID, user_id: uuid.UUID, n: int, centroids: np.ndarray,
         rng: np.random.Generator, chunk: int = 10_000) -> dict[str, Any]:
    """COPY ``n`` memories into one space with its bucket's 384 HNSW index dropped, then rebuild
    it (its own definition, pg_get_indexdef) and VACUUM ANALYZE. COPY fires the 0008 triggers,
    so space_stats/space_terms are right; chunks keep each statement's transition table small."""
    out: dict[str, Any] = {}
    now = datetime.now(UTC)
    with psycopg.connect(url, autocommit=True) as conn:
        info = TypeInfo.fetch(conn, "halfvec")
        assert info is not None
        info.register(conn)
        conn.adapters.register_dumper(np.ndarray, type("D", (_Halfvec384,), {"oid": info.oid}))
        out["index"] = index = space_index(conn, space_id)
        row = conn.execute("SELECT pg_get_indexdef(%s::regclass)", (index,)).fetchone()
        assert row is not None
        out["indexdef"] = row[0]
        conn.execute(f"DROP INDEX {index}")
        t = time.perf_counter()
        for start in range(0, n, chunk):
            vecs = noisy(centroids, min(chunk, n - start), rng).astype(np.float16)
            with conn.cursor() as cur, cur.copy(
                    f"COPY memories ({', '.join(COPY)}) FROM STDIN (FORMAT BINARY)") as cp:
                cp.set_types(COPY_TYPES)
                for j, vec in enumerate(vecs):
                    i = start + j
                    content = f"Archived note {i}: {TOPICS[i % len(TOPICS)]}."
                    mid = uuid.UUID(bytes=rng.bytes(16), version=4)
                    created = now - timedelta(seconds=int(rng.integers(60, 90 * 86400)))
                    cp.write_row((mid, space_id, content, hashlib.sha256(content.encode()).digest(),
                                  None, 1, mid, user_id, user_id, created, created, vec))
        out["copy_s"] = time.perf_counter() - t
        conn.execute("SET maintenance_work_mem = '1GB'")
        t = time.perf_counter()
        conn.execute(out["indexdef"])
        out["index_s"] = time.perf_counter() - t
        t = time.perf_counter()
        conn.execute("VACUUM ANALYZE memories")
        out["vacuum_s"] = time.perf_counter() - t
        row = conn.execute("SELECT pg_size_pretty(pg_relation_size(%s::regclass)), "
                           "(SELECT live_memories FROM space_stats WHERE space_id = %s)",
                           (index, space_id)).fetchone()
        assert row is not None
        out["index_size"], out["live"] = row
    return out


#: What each insert-cost variant changes inside its (rolled-back) transaction; ``{index}``:
#: the space's 384 HNSW index.
VARIANTS: dict[str, list[str]] = {
    "product (HNSW index + stats triggers)": [],
    "without the 384 HNSW index": ["DROP INDEX {index}"],
    "without the space_stats/space_terms triggers": [
        "ALTER TABLE memories DISABLE TRIGGER memories_space_stats_insert"],
    "without either": ["DROP INDEX {index}",
                       "ALTER TABLE memories DISABLE TRIGGER memories_space_stats_insert"],
}


async def insert_cost(conn: Any, space_id: uuid.UUID, user_id: uuid.UUID, centroids: np.ndarray,
                      rng: np.random.Generator, rows: int, rounds: int, index: str
                      ) -> dict[str, list[float]]:
    """Seconds per row of ``db.insert`` (the product's INSERT, one statement per row) for each
    variant, ``rounds`` times in turn; every transaction is rolled back (DROP INDEX too)."""
    out: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for r in range(rounds):
        for name, setup in VARIANTS.items():
            vecs = noisy(centroids, rows, rng)
            async with conn.transaction(force_rollback=True):
                for statement in setup:
                    await conn.execute(statement.format(index=index))
                t = time.perf_counter()
                for j, vec in enumerate(vecs):
                    text = f"Insert-cost probe {r}-{j}: {TOPICS[j % len(TOPICS)]}."
                    mid = uuid.uuid4()
                    await db.insert(conn, memory_id=mid, space_id=space_id, content=text,
                                    content_hash=hashlib.sha256(text.encode()).digest(),
                                    category=None, vector=db.vector_literal(
                                        vec.tolist(), STORAGE_DIMENSIONS),
                                    user_id=user_id, root_id=mid)
                out[name].append((time.perf_counter() - t) / rows)
    return out
