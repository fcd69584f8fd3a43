"""Seeding for ``bench/search_latency.py``: the identity, the spaces and the memories by COPY.

Seeding is the slow, database-shaped part of the benchmark (binary COPY of precomputed
vectors, dropping and rebuilding the HNSW index), and its timings are reported on their own;
keeping it here leaves the entry script with the order of the phases only.
"""

from __future__ import annotations

import argparse
import hashlib
import struct
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import psycopg
from _common import log
from _search_data import (
    CATEGORIES,
    LOCAL_DIMS,
    TOPICS,
    Dataset,
    l2_normalise,
    noisy,
    padded,
    pseudo_word,
    vector_index,
    zipf_words,
)
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo

from memory_mcp.db.search import SPACE_BUCKETS, VectorForm
from memory_mcp.services import admin
from memory_mcp.services.runtime import Runtime

COPY_COLUMNS = ("id", "space_id", "content", "content_hash", "category", "version", "root_id",
                "is_latest", "is_forgotten", "forgotten_at", "forgotten_by", "created_by",
                "updated_by", "created_at", "updated_at", "embedding")
COPY_TYPES = ["uuid", "uuid", "text", "bytea", "text", "int4", "uuid", "bool", "bool",
              "timestamptz", "uuid", "uuid", "uuid", "timestamptz", "timestamptz", "halfvec"]


class _HalfvecDumper(Dumper):
    """Binary halfvec for COPY: int16 dim, int16 unused, dim big-endian float16 values."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        arr = np.asarray(obj)
        return struct.pack(">HH", arr.shape[0], 0) + arr.astype(">f2", copy=False).tobytes()


async def _bucket(rt: Runtime, space_id: uuid.UUID) -> int:
    """The space's bucket of graphs (migration 0012), as PostgreSQL computes it."""
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute("SELECT uuid_hash(%s) & %s AS b", (space_id, SPACE_BUCKETS - 1))
        row = await cur.fetchone()
        assert row is not None
        return int(row["b"])


async def make_dataset(rt: Runtime, args: argparse.Namespace, rng: np.random.Generator) -> Dataset:
    """A writer user, ``--spaces`` spaces, one key with read grants on all of them, and the
    cluster centroids (real MiniLM topic embeddings, or random unit vectors at 3072 dims)."""
    user = await admin.create_user(rt, "bench-writer@example.test", "Bench Writer", "writer")
    key = await admin.create_key(rt, user["id"], "bench")
    space_ids: list[uuid.UUID] = []
    space_keys: list[str] = []
    first_bucket: int | None = None
    for s in range(args.spaces):
        for attempt in range(1000):
            sp = await admin.create_space(rt, f"bench-s{s}-{attempt}", f"Bench space {s}",
                                          "benchmark")
            bucket = await _bucket(rt, uuid.UUID(sp["id"]))
            # --one-bucket: the worst case, every space in one graph (the others stay empty)
            if not args.one_bucket or first_bucket in (None, bucket):
                break
        first_bucket = bucket if first_bucket is None else first_bucket
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
    return Dataset(space_ids, space_keys, space_clusters, centroids, uuid.UUID(user["id"]),
                   key["key"], counts, VectorForm.for_dimensions(args.native_dims))


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
        prefix = vector_index(ds.form)
        indexes = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories' "
            "AND starts_with(indexname, %s) ORDER BY indexname", (prefix,)).fetchall()
        assert indexes, prefix
        buckets = [int(r[0]) for r in conn.execute(
            "SELECT uuid_hash(s) & %s FROM unnest(%s::uuid[]) WITH ORDINALITY u(s, i) ORDER BY i",
            (SPACE_BUCKETS - 1, ds.space_ids)).fetchall()]
        out["buckets"] = buckets
        out["indexdef"] = indexes[buckets[0]][1]  # the first space's graph, as an example
        if mode == "insert":
            t = time.perf_counter()
            seed_rows(conn, ds, order, meta, rng, sigma_range)
            out["copy_with_index_s"] = time.perf_counter() - t
            out["copy_with_index_rows"] = n
        else:
            tail = max(0, min(tail, n // 10))
            bulk, rest = order[: n - tail], order[n - tail :]
            for name, _ in indexes:
                conn.execute(f"DROP INDEX {name}")
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
            for _, indexdef in indexes:  # every bucket's graph (the empty ones take no time)
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
        # The seed's pages go to disk now, not while a timed layer runs (the checkpointer
        # would otherwise write them in the background during the first round).
        t = time.perf_counter()
        conn.execute("CHECKPOINT")
        out["checkpoint_s"] = time.perf_counter() - t
        row = conn.execute(
            """SELECT pg_size_pretty(pg_table_size('memories')) AS heap_toast,
                      pg_size_pretty(sum(pg_relation_size(i.indexname::regclass))) AS hnsw,
                      (SELECT count(*) FROM memories WHERE is_latest AND NOT is_forgotten) AS live
               FROM pg_indexes i WHERE i.tablename = 'memories'
                 AND starts_with(i.indexname, %s)""",
            (prefix,)).fetchone()
        assert row is not None
        out["heap_toast"], out["hnsw_size"], out["live"] = row
    return out
