"""Per-process resources shared by every request: settings, the pool and the embedder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, cast

import anyio.to_thread
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from memory_mcp.config import Settings
from memory_mcp.db.memories import vector_literal
from memory_mcp.documents.storage import ObjectStorage
from memory_mcp.embeddings import Embedder, pad_to_storage
from memory_mcp.errors import InvalidInputError, MemoryMcpError, UpstreamError

Conn = AsyncConnection[dict[str, Any]]


@dataclass
class Runtime:
    settings: Settings
    pool: AsyncConnectionPool
    embedder: Embedder
    storage: ObjectStorage | None = None  # where uploads live (S3 hosted, data dir locally)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        """A pooled connection inside one transaction: commit on success, roll back on error."""
        async with self.pool.connection() as conn, conn.transaction():
            yield cast(Conn, conn)

    async def embed(self, texts: list[str]) -> list[str]:
        """Embed off the event loop; return storage-width halfvec literals."""
        try:
            vectors = await anyio.to_thread.run_sync(self.embedder.embed, texts)
        except MemoryMcpError:
            raise
        except Exception as exc:
            raise UpstreamError("The embedding provider failed; please retry shortly.") from exc
        return [vector_literal(row.tolist()) for row in pad_to_storage(vectors)]

    async def embed_one(self, text: str) -> str:
        if not text.strip():
            raise InvalidInputError("Cannot embed empty text.")
        return (await self.embed([text]))[0]
