"""Browse and read source documents (uploads create them; see the documents issue)."""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

import anyio.to_thread

from memory_mcp.db import documents as db
from memory_mcp.db import identity, processing
from memory_mcp.db import memories as memories_db
from memory_mcp.documents.storage import derived_keys
from memory_mcp.errors import NotFoundError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import audit, ratelimit, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import readable_spaces, require_write, resolve_space
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

#: Memories getDocument lists (in document order); the rest are found by search_memory.
MAX_DOCUMENT_MEMORIES = 200


async def list_page(
    rt: Runtime, principal: Principal, page: int | None, limit: int | None,
    container_tag: str | None,
) -> dict[str, Any]:
    page_no, size, offset = v.paging(page, limit)
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag)
        rows, total = await db.page(conn, space.space_id, size, offset)
    v.check_page_exists(page_no, total, size)
    return {
        "space": space.key, "page": page_no, "limit": size, "total": total,
        "hasMore": offset + len(rows) < total,
        "documents": [views.document(row) for row in rows],
    }


async def _find(conn: Conn, principal: Principal, doc_id: UUID, container_tag: str | None
                ) -> tuple[dict[str, Any], SpaceAccess]:
    """The document and its space: the named space, or else whichever readable space holds it.
    A document anywhere else is reported exactly like one that does not exist."""
    if container_tag:
        spaces = [await resolve_space(conn, principal, container_tag)]
    else:
        spaces = await readable_spaces(conn, principal)
    row = await db.get(conn, doc_id, [s.space_id for s in spaces])
    if row is None:
        raise NotFoundError(f"Document {doc_id} was not found.")
    return row, next(s for s in spaces if s.space_id == row["space_id"])


async def get(
    rt: Runtime, principal: Principal, document_id: str, container_tag: str | None = None
) -> dict[str, Any]:
    """One document from a space the key can read (the named one, if ``containerTag`` is given).

    A document elsewhere is reported exactly like one that does not exist.
    """
    doc_id = v.parse_uuid(document_id, "documentId")
    async with rt.transaction() as conn:
        row, space = await _find(conn, principal, doc_id, container_tag)
        memories = await memories_db.for_document(conn, row["space_id"], doc_id,
                                                  MAX_DOCUMENT_MEMORIES)
    view = views.document(row, with_content=True)
    if view["content"]:
        view["contentKind"] = "content"
    elif view["summary"]:
        view["content"] = view["summary"]
        view["contentKind"] = "summary"  # the full text is not available: say so
    else:
        view["contentKind"] = "none"
    return {"space": space.key, "document": view,
            "memories": [views.memory(m) for m in memories],
            "memoriesShown": len(memories)}


async def delete(
    rt: Runtime, principal: Principal, document_id: str, container_tag: str | None = None
) -> dict[str, Any]:
    """Hide the document, forget its memories and remove the stored file (Writers only).

    The row stays (soft delete) so forgotten memories still name their source.
    """
    doc_id = v.parse_uuid(document_id, "documentId")
    await ratelimit.take_write(rt, principal)
    async with rt.transaction() as conn:
        row, space = await _find(conn, principal, doc_id, container_tag)
        require_write(principal, space)
        deleted = await processing.soft_delete(conn, doc_id, principal.user_id)
        assert deleted is not None
        forgotten = await processing.forget_document_memories(conn, doc_id, principal.user_id)
        await audit.record(conn, "document.deleted", principal, space_id=space.space_id,
                           target_id=doc_id, memoriesForgotten=forgotten)
        await identity.touch_space(conn, space.space_id)
    removed = False
    if deleted["storage_key"] and rt.storage is not None:
        try:
            for key in [deleted["storage_key"], *derived_keys(rt.storage, deleted["storage_key"])]:
                await anyio.to_thread.run_sync(rt.storage.delete, key)
            removed = True
        except Exception:  # the row is already gone from view; a leftover object is harmless
            log.exception("could not delete stored object for document %s", doc_id)
    return {"space": space.key, "documentId": str(doc_id), "title": row["title"],
            "forgottenMemories": forgotten, "fileRemoved": removed}
