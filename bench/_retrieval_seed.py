"""Seeding for ``bench/retrieval_quality.py``: one space per corpus group, through the product.

Memories are embedded by the product's embedder and inserted with the product's own INSERT
(``db.memories.insert``), not through ``services.memories.save`` (whose near-duplicate
versioning would merge similar turns); the stored vectors and a BM25 index are kept for the
in-process baselines. That is its own concern, apart from querying and scoring.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import _retrieval_data as data
import numpy as np

from memory_mcp.db import memories as db
from memory_mcp.services import admin
from memory_mcp.services import validation as v
from memory_mcp.services.runtime import Runtime

EMBED_BATCH = 512
INSERT_BATCH = 500


@dataclass
class Seeded:
    """One seeded space: its key, memory id -> dataset key, and the stored vectors."""

    space_key: str
    doc_keys: list[str]
    id_to_key: dict[str, str]
    vectors: data.FloatArray  # float16-rounded, L2-normalised, native width
    bm25: data.BM25


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
