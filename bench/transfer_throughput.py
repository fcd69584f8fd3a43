"""Export / import throughput: how long moving a space takes, per path.

Run: ``.venv/bin/python bench/transfer_throughput.py [--n 2000] [--pg-dir DIR]``. Prints numbers
and asserts nothing. On its own embedded PostgreSQL (two fresh databases, A and B):

1. writes a synthetic version-1 export of ``--n`` memories WITHOUT vectors (every 10th memory has
   a second version, every 20th is forgotten) and imports it into A: the path where every text
   is embedded (as when the file's model differs from the configured one);
2. exports A (vectors included) — the export path;
3. imports that file into B: vectors reused, nothing embedded;
4. imports it into B again: the idempotent re-run (everything skipped).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from _common import log, machine_facts, product_runtime, run_on_embedded, with_database

from memory_mcp.db.migrator import migrate
from memory_mcp.services import admin
from memory_mcp.services.transfer_export import export_space
from memory_mcp.services.transfer_import import import_space

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ["Kafka", "Redis", "Postgres", "Envoy", "Vault", "Nomad", "Spark", "Flink", "Airflow"]
WORDS = ["latency", "budget", "rollout", "canary", "failover", "replica", "quorum", "shard"]


def synthetic_export(n: int, model: str, dims: int) -> str:
    now = datetime.now(UTC).isoformat()
    user = str(uuid.uuid4())
    lines: list[dict[str, object]] = []
    chains = 0
    for i in range(n):
        mid = str(uuid.uuid4())
        text = (f"Service {i} runs on {TOOLS[i % len(TOOLS)]} with a {WORDS[i % len(WORDS)]} "
                f"of {i * 7 % 1000} ms in region {i % 5}.")
        second = i % 10 == 0
        base = {"type": "memory", "root_id": mid, "version": 1, "content": text,
                "category": None, "is_forgotten": False, "created_by": user,
                "updated_by": user, "created_at": now, "updated_at": now}
        forgotten = i % 20 == 5
        lines.append({**base, "id": mid, "is_latest": not second, "is_forgotten": forgotten,
                      "forgotten_at": now if forgotten else None,
                      "forgotten_by": user if forgotten else None,
                      "forget_reason": "bench" if forgotten else None})
        if second:
            chains += 1
            lines.append({**base, "id": str(uuid.uuid4()), "parent_id": mid, "version": 2,
                          "is_latest": True, "content": text.replace("ms", "ms (revised)")})
    counts = {"users": 1, "documents": 0, "memories": len(lines), "files": 0}
    header = {"format": "memory-mcp-space-export", "version": 1, "exported_at": now,
              "space": {"id": str(uuid.uuid4()), "key": "bench", "name": "Bench",
                        "created_at": now},
              "embedding": {"model_id": model, "dimensions": dims}, "counts": counts}
    body = [header, {"type": "user", "id": user, "email": "bench@example.test"}, *lines,
            {"type": "end", "counts": counts}]
    return "".join(json.dumps(r) + "\n" for r in body)


async def run(url: str, n: int) -> None:
    from pydantic import SecretStr

    from memory_mcp.config import Settings

    settings = Settings(database_url=SecretStr(url), rate_limit_requests_per_minute=0,
                        rate_limit_writes_per_minute=0)
    name = f"bench_b_{uuid.uuid4().hex[:8]}"
    other = with_database(url, name)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    migrate(other, ROOT / "migrations")
    work = Path(tempfile.mkdtemp(prefix="memory-mcp-bench-transfer-"))
    rows: list[tuple[str, float, int]] = []
    async with product_runtime(settings, url) as a:
        await admin.create_user(a, "bench@example.test", "Bench", "writer")
        source = work / "synthetic.jsonl"
        source.write_text(synthetic_export(n, "other-model", 1024))
        t = time.perf_counter()
        result = await import_space(a, source, "bench")
        rows.append(("import, every text embedded", time.perf_counter() - t, result["memories"]))
        out = io.StringIO()
        t = time.perf_counter()
        summary = await export_space(a, "bench", out)
        rows.append(("export (vectors included)", time.perf_counter() - t, summary["memories"]))
        exported = work / "exported.jsonl"
        exported.write_text(out.getvalue())
    settings_b = Settings(database_url=SecretStr(other))
    async with product_runtime(settings_b, other) as b:
        await admin.create_user(b, "bench@example.test", "Bench", "writer")
        for label in ("import, vectors reused", "import again (idempotent)"):
            t = time.perf_counter()
            result = await import_space(b, exported, "bench")
            rows.append((label, time.perf_counter() - t, result["memories"] +
                         result["skipped_memories"]))
    facts = machine_facts(url)
    print(f"\nmachine: {facts}")
    print(f"export file: {exported.stat().st_size / 1e6:.1f} MB for {summary['memories']} "
          f"memories ({exported.stat().st_size / max(summary['memories'], 1) / 1e3:.1f} KB each, "
          f"384-dim vectors)")
    print(f"{'path':<32} {'seconds':>8} {'memories':>9} {'per second':>11}")
    for label, seconds, count in rows:
        print(f"{label:<32} {seconds:8.2f} {count:9d} {count / seconds:11.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="version-1 memories to generate")
    parser.add_argument("--pg-dir", help="data dir for the embedded PostgreSQL (default: temp)")
    args = parser.parse_args()
    log(f"transfer throughput with n={args.n}")
    run_on_embedded(args.pg_dir, "transfer", run, args.n)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
