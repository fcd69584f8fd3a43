"""Per-process resources shared by every request: settings, the pool and the embedder."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, cast
from uuid import UUID

import psycopg
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from memory_mcp.config import STORAGE_DIMENSIONS, Settings
from memory_mcp.db import scope
from memory_mcp.db.memories import vector_literal
from memory_mcp.db.pool import distrust_idle, note_idle
from memory_mcp.db.search import VectorForm
from memory_mcp.documents.storage import ObjectStorage
from memory_mcp.embeddings import Embedder
from memory_mcp.embeddings.batching import EmbeddingBatcher
from memory_mcp.errors import (
    ConflictError,
    GrantLostError,
    InvalidInputError,
    MemoryMcpError,
    StoreUnavailableError,
    UpstreamError,
)
from memory_mcp.services.space_sizes import SpaceSizes

Conn = AsyncConnection[dict[str, Any]]


@asynccontextmanager
async def _pooled(pool: AsyncConnectionPool) -> AsyncIterator[Conn]:
    """A pooled connection, noted as fine to reuse at once when the block ends without error
    (its transaction committed: db/pool.py), and the database's absence as one retryable error.

    The database went away (or every connection stayed busy): nothing was committed, so nothing
    was written and the caller may simply retry. Connections that were fine a moment ago may be
    broken too: each is checked before its next use."""
    try:
        async with pool.connection() as conn:
            yield cast(Conn, conn)
            note_idle(conn)
    except (psycopg.OperationalError, PoolTimeout) as exc:
        if (getattr(exc, "sqlstate", None) or "").startswith("40"):  # a deadlock, a serialization
            raise ConflictError(  # failure: rolled back whole; the store and connection are fine
                "This change collided with another one made at the same moment; nothing was "
                "changed. Please retry.") from exc
        distrust_idle()
        raise StoreUnavailableError() from exc


@dataclass
class Runtime:
    settings: Settings
    pool: AsyncConnectionPool
    embedder: Embedder
    storage: ObjectStorage | None = None  # where uploads live (S3 hosted, data dir locally)
    _literals: OrderedDict[tuple[Hashable, bytes], str] = field(default_factory=OrderedDict, repr=False)
    #: Merges concurrent embeds into one provider call; None: made on first use (see ``embed``).
    batcher: EmbeddingBatcher | None = field(default=None, repr=False)
    #: Spaces' sizes as recently read, for the search depth (services/space_sizes.py).
    sizes: SpaceSizes = field(default_factory=SpaceSizes, repr=False)

    @asynccontextmanager
    async def transaction(self, *, system: bool = False, read: Sequence[UUID] = (),
                          write: Sequence[UUID] = (), durable: bool = True,
                          snapshot: bool = False, settings: Mapping[str, str] | None = None,
                          holder: UUID | None = None,
                          lock: UUID | None = None) -> AsyncIterator[Conn]:
        """A pooled connection inside one transaction: commit on success, roll back on error.

        The transaction runs as the application role under row-level security and sees no
        space until ``access.readable_spaces`` names the caller's (``db/scope.py``).
        ``read``/``write`` open it on spaces this request resolved (and checked) in an earlier
        transaction. ``system=True`` is the explicit every-space scope of the paths that serve no
        single caller (extraction worker, admin CLI, re-embedding); request paths never pass it.
        ``durable=False``: the commit does not wait for the WAL flush (counters, statistics).
        ``snapshot=True``: a read-only transaction whose every statement sees the database as of
        its first one (REPEATABLE READ), for reads that must add up, such as an export.
        ``settings``: more transaction-local settings, set in the same first statement.
        ``holder``: the request's key id, for ``read``/``write`` spaces resolved from the grants
        its key check returned: the same first statement opens only those the key still holds
        (and, to write, may still write), and a lost one raises ``GrantLostError``
        (db/scope.py).
        ``lock``: a space whose save lock the same first statement takes shared (a save's).
        """
        async with _pooled(self.pool) as conn, conn.transaction():
            if snapshot:  # must come before any other statement of the transaction
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            kept = await scope.enter(conn, system=system, read=read, write=write,
                                     as_app=self.settings.row_security, durable=durable,
                                     settings=settings, holder=holder, lock=lock)
            if not kept:
                raise GrantLostError("This space is no longer granted to this key.")
            yield conn

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[Conn]:
        """A pooled connection in autocommit mode, for a request step that is one statement:
        the statement is its own transaction, so it costs one round trip where BEGIN, the scope
        and COMMIT around it would cost three more (the key check runs on every request).

        No scope and no role are set: only for statements that read no table under row-level
        security (spaces' rows). Failures map as in ``transaction``."""
        async with _pooled(self.pool) as conn:
            await conn.set_autocommit(True)
            try:
                yield conn
            finally:
                if not conn.closed:  # a connection psycopg closed goes nowhere
                    await conn.set_autocommit(False)  # as the pool hands connections out

    async def embed(self, texts: list[str]) -> list[str]:
        """Embed off the event loop; return storage-width halfvec literals.

        Concurrent calls share one provider call (embeddings/batching.py), except with Bedrock,
        whose API embeds one text per call. A replaced ``embedder`` (tests) gets a new batcher.
        """
        batcher = self.batcher
        if batcher is None or batcher.embedder is not self.embedder:
            batcher = self.batcher = EmbeddingBatcher(
                self.embedder, enabled=self.settings.embedding_provider != "bedrock")
        try:
            vectors = await batcher.embed(texts)
        except MemoryMcpError:
            raise
        except Exception as exc:
            raise UpstreamError("The embedding provider failed; please retry shortly.") from exc
        if len(vectors) != len(texts) or any(len(row) > STORAGE_DIMENSIONS for row in vectors):
            raise UpstreamError("The embedding provider returned vectors of the wrong shape.")
        try:
            return [vector_literal(row, STORAGE_DIMENSIONS) for row in vectors]
        except ValueError:
            raise UpstreamError("The embedding provider returned numbers a vector cannot hold "
                                "(not finite, out of range, or all zeros).") from None

    @property
    def vector_form(self) -> VectorForm:
        """How this model's vectors are indexed and compared (db/search.py)."""
        return VectorForm.for_dimensions(self.embedder.dimensions)

    async def query_vector(self, text: str, scope: Hashable = None) -> str:
        """A query's literal at the index width (``embed_one``'s, cut for small models)."""
        return self.vector_form.query_literal(await self.embed_one(text, scope))

    async def embed_one(self, text: str, scope: Hashable = None) -> str:
        """One text (a save, a query). Agents repeat queries, and formatting a 3072-wide
        literal costs about a millisecond, so the finished literal is cached, but only under
        ``scope`` (the space and the caller: ``(space_id, user_id)``) and not at all without
        one. A cache shared across spaces is a side channel: a hit answers in half the time,
        so any key could time a search to learn whether a text was just saved, searched or
        uploaded in a space it cannot read (a security review measured 13-18 ms against
        35-53 ms). Within one caller's scope a hit reveals only that caller's own texts."""
        if not text.strip():
            raise InvalidInputError("Cannot embed empty text.")
        # keyed by a digest, not the text: 512 entries of 100,000-character texts held 50 MB
        key = (scope, hashlib.blake2b(text.encode(), digest_size=16).digest())
        cached = self._literals.get(key) if scope is not None else None
        if cached is not None:
            self._literals.move_to_end(key)
            return cached
        literal = (await self.embed([text]))[0]
        if scope is not None and self.settings.embedding_cache_size > 0:
            self._literals[key] = literal
            while len(self._literals) > self.settings.embedding_cache_size:
                self._literals.popitem(last=False)
        return literal
