"""Process start: migrate, pin the embedding model, and seed a demo on an empty database."""

from __future__ import annotations

import logging
from typing import Any

import anyio.to_thread

from memory_mcp.config import Settings
from memory_mcp.db import identity, meta
from memory_mcp.documents.storage import ObjectStorage
from memory_mcp.embeddings import Embedder
from memory_mcp.errors import ConfigurationError
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

DEMO_EMAIL = "demo@localhost"
DEMO_SPACE = "demo"


async def apply_migrations(settings: Settings, url: str) -> list[str]:
    # Imported here, like ``admin`` below: a Lambda request path migrates nothing and seeds no
    # demo, so its cold start does not import either.
    from memory_mcp.db.migrator import migrate

    return await anyio.to_thread.run_sync(migrate, url, settings.migrations_dir)


async def check_model(conn: Conn, embedder: Embedder) -> None:
    """Pin the model on first start; refuse to serve vectors from a different model."""
    pinned = await meta.pin_model(conn, embedder.model_id, embedder.dimensions)
    if pinned["model_id"] != embedder.model_id or pinned["dimensions"] != embedder.dimensions:
        raise ConfigurationError(
            f"This database's memories were embedded with {pinned['model_id']} "
            f"({pinned['dimensions']} dims), but the server is configured for "
            f"{embedder.model_id} ({embedder.dimensions} dims). Vectors from different models "
            "cannot be compared. Either configure the pinned model again "
            "(MEMORY_MCP_EMBEDDING_PROVIDER / MEMORY_MCP_EMBEDDING_MODEL), or re-embed every "
            "memory with the new one: `memory-mcp reembed --yes` (same environment as the server)."
        )


async def bootstrap_demo(rt: Runtime) -> dict[str, Any] | None:
    """On an empty database, create a demo user, space and key; return them (key shown once)."""
    from memory_mcp.services import admin

    async with rt.transaction() as conn:
        if await identity.count_users(conn) > 0:
            return None
    user = await admin.create_user(rt, DEMO_EMAIL, "Demo User", "writer")
    space = await admin.create_space(rt, DEMO_SPACE, "Demo space",
                                     "Created on first start; safe to delete.")
    key = await admin.create_key(rt, user["id"], "first-run")
    await admin.set_grant(rt, key["id"], space["key"], "readwrite")
    return {"user": user, "space": space, "key": key}


async def create_runtime(settings: Settings, *, check: bool = True) -> Runtime:
    """Database URL (embedded if none), migrations, pool, embedder and the model check."""
    from memory_mcp.db.pool import application_url, open_pool, resolve_database_url
    from memory_mcp.embeddings import build_embedder

    url = await anyio.to_thread.run_sync(resolve_database_url, settings)
    if settings.auto_migrate:
        await apply_migrations(settings, url)
    pool = await open_pool(settings, application_url(settings, url))
    try:
        runtime = Runtime(settings=settings, pool=pool, embedder=build_embedder(settings),
                          storage=build_storage(settings))
        if check:
            async with runtime.transaction() as conn:
                await check_model(conn, runtime.embedder)
    except BaseException:
        await pool.close()
        raise
    return runtime


async def create_runtime_unchecked(settings: Settings) -> Runtime:
    """For ``reembed``: the one command that must start while the pinned model differs."""
    return await create_runtime(settings, check=False)


def build_storage(settings: Settings) -> ObjectStorage:
    """S3 when a bucket is configured, else files in the data dir (stdlib only: cheap import)."""
    from memory_mcp.documents.storage import LocalStorage, S3Storage

    if settings.uploads_bucket:
        return S3Storage(settings.uploads_bucket)
    secret = settings.upload_signing_secret
    return LocalStorage.from_data_dir(settings.data_dir,
                                      secret.get_secret_value() if secret else None)
