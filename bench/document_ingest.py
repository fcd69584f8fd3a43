"""How long committing a large document's memories takes: one INSERT per memory vs batches.

A ~1,000-memory document (``--memories``) is committed the way the pipeline did before (one
``db.memories.insert`` round trip per memory) and the way it does now
(``db.processing.insert_memories``: multi-row INSERTs of ``INSERT_BATCH`` rows), each in one
transaction into a fresh space, ``--rounds`` times, alternating; the vectors are real
(all-MiniLM-L6-v2 int8, zero-padded to 3,072 like every stored vector) and embedded once up
front, in the pipeline's batches (that time is printed too). Runs on its own embedded
PostgreSQL. Prints numbers, asserts nothing.

    .venv/bin/python bench/document_ingest.py [--memories 1000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from pathlib import Path

import _common as common
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import documents as documents_db
from memory_mcp.db import memories as memories_db
from memory_mcp.db import processing
from memory_mcp.documents.pipeline import EMBED_BATCH
from memory_mcp.services import admin
from memory_mcp.services import validation as v
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
TEAMS = ["Platform", "Data", "Billing", "Search", "Identity", "Mobile", "Payments", "Growth"]


def statements(n: int) -> list[str]:
    return [f"Service {i} in region eu-{i % 7} is owned by the {TEAMS[i % 8]} team, deploys at "
            f"{i % 24:02d}:00 UTC and keeps {i % 90 + 7} days of logs." for i in range(n)]


async def commit(rt: Runtime, user_id: uuid.UUID, rows: list[tuple[str, bytes, str]],
                 batched: bool) -> float:
    sp = await admin.create_space(rt, f"ing-{uuid.uuid4().hex[:8]}", "ingest", "")
    space_id = uuid.UUID(sp["id"])
    async with rt.transaction(system=True) as conn:
        doc = await documents_db.insert(conn, space_id=space_id, user_id=user_id, title="d")
    started = time.perf_counter()
    async with rt.transaction(system=True) as conn:
        if batched:
            await processing.insert_memories(conn, space_id=space_id, document_id=doc["id"],
                                             user_id=user_id, memories=rows)
        else:  # the pipeline's loop before this change
            for text, digest, vector in rows:
                new_id = uuid.uuid4()
                await memories_db.insert(conn, memory_id=new_id, space_id=space_id,
                                         content=text, content_hash=digest, category=None,
                                         vector=vector, user_id=user_id, root_id=new_id,
                                         source_document_id=doc["id"])
    return time.perf_counter() - started


async def run(url: str, args: argparse.Namespace) -> None:
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations",
                        pool_min_size=1, pool_max_size=2, log_level="WARNING",
                        embedding_cache_size=0)
    async with common.product_runtime(settings, url) as rt:
        user = await admin.create_user(rt, "bench-ingest@example.test", "Bench Ingest", "writer")
        user_id = uuid.UUID(user["id"])
        texts = statements(args.memories)
        t = time.perf_counter()
        vectors: list[str] = []
        for i in range(0, len(texts), EMBED_BATCH):  # as the pipeline embeds
            vectors += await rt.embed(texts[i:i + EMBED_BATCH])
        embed_s = time.perf_counter() - t
        common.log(f"embedded {len(texts)} in batches of {EMBED_BATCH}: {embed_s:.1f} s")
        rows = [(t, v.content_hash(t), vec) for t, vec in zip(texts, vectors, strict=True)]
        times: dict[bool, list[float]] = {False: [], True: []}
        for r in range(args.rounds):
            for batched in (False, True) if r % 2 == 0 else (True, False):
                times[batched].append(await commit(rt, user_id, rows, batched))
            common.log(f"round {r + 1}: per-row {times[False][-1]:.2f} s, "
                       f"batched {times[True][-1]:.2f} s")
    print(f"\n{args.memories:,} memories per commit, {args.rounds} rounds; load "
          f"{common.loadavg()}; INSERT_BATCH={processing.INSERT_BATCH}\n")
    print("| commit | median s | min s | max s | memories/s (median) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for batched, label in ((False, "one INSERT per memory (before)"),
                           (True, "multi-row INSERT batches (now)")):
        xs = times[batched]
        med = statistics.median(xs)
        print(f"| {label} | {med:.2f} | {min(xs):.2f} | {max(xs):.2f} | {args.memories / med:,.0f} |")
    print(f"\nEmbedding them first (batches of {EMBED_BATCH}, local model): {embed_s:.1f} s.")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    p.add_argument("--memories", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--pg-dir", type=Path, default=None)
    args = p.parse_args()
    common.run_on_embedded(args.pg_dir, "ingest", run, args)


if __name__ == "__main__":
    main()
