"""Re-embed every memory with the configured model and re-pin it.

Run after deliberately changing the embedding provider or model. It works in batches, each in its
own transaction, and re-pins the model only after the last batch, so an interrupted run simply
fails the model check at the next start and can be run again. ``progress(phase, done, total)``
is told after every batch (the CLI draws it on stderr).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memory_mcp.db import meta
from memory_mcp.db.transfer import count_all_memories
from memory_mcp.services.runtime import Runtime

BATCH = 64


async def reembed_all(rt: Runtime, progress: Callable[[str, int, int], None] | None = None
                      ) -> dict[str, Any]:
    done = 0
    after = None
    async with rt.transaction(system=True) as conn:
        total = await count_all_memories(conn)
    while True:
        async with rt.transaction(system=True) as conn:
            rows = await meta.memory_batch(conn, after, BATCH)
        if not rows:
            break
        vectors = await rt.embed([row["content"] for row in rows])
        async with rt.transaction(system=True) as conn:
            for row, vector in zip(rows, vectors, strict=True):
                await meta.set_embedding(conn, row["id"], vector)
        done += len(rows)
        after = rows[-1]["id"]
        if progress:
            progress("reembed", done, max(total, done))
    async with rt.transaction(system=True) as conn:
        await meta.repin_model(conn, rt.embedder.model_id, rt.embedder.dimensions)
    return {"reembedded": done, "model": rt.embedder.model_id,
            "dimensions": rt.embedder.dimensions}
