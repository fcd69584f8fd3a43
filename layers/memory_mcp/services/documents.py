"""Browse and read source documents (uploads create them; see the documents issue)."""

from __future__ import annotations

import logging
from datetime import UTC
from typing import Any
from uuid import UUID

import anyio.to_thread

from memory_mcp.db import documents as db
from memory_mcp.db import identity, processing, statements
from memory_mcp.db import memories as memories_db
from memory_mcp.documents.storage import derived_keys
from memory_mcp.errors import GrantLostError, InvalidInputError, NotFoundError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import audit, ratelimit, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import (
    readable_spaces,
    require_write,
    resolve_space,
    write_refusal,
)
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

#: getDocument pages a document's content: ``limit`` characters from ``offset`` (default 20,000,
#: at most 30,000: a page and its header stay well inside the mcp/budget.py text budget, i.e. a
#: few thousand tokens of an agent's context rather than the whole 500,000-character document).
PAGE_CHARS = 20_000
MAX_PAGE_CHARS = 30_000
#: Pages break at a paragraph, else a line, a sentence or a word, if one lies in the page's
#: last half; only a page that is one unbroken run of characters is cut mid-word.
_BREAKS = ("\n\n", "\n", ". ", " ")
#: Offsets past this are refused before they reach SQL (``substr`` takes a 32-bit integer).
_MAX_OFFSET = 2**31 - 1 - MAX_PAGE_CHARS
#: Memories getDocument lists with the first page (in document order); search_memory finds all.
MAX_DOCUMENT_MEMORIES = 20


async def list_page(
    rt: Runtime, principal: Principal, page: int | None, limit: int | None,
    container_tag: str | None,
) -> dict[str, Any]:
    page_no, size, offset = v.paging(page, limit)
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, only=True)
        rows, total = await db.page(conn, space.space_id, size, offset)
    v.check_page_exists(page_no, total, size)
    rows = [await missing_upload(rt, row) for row in rows]
    return {
        "space": space.key, "page": page_no, "limit": size, "total": total,
        "hasMore": offset + len(rows) < total,
        "documents": [views.document(row) for row in rows],
    }


async def missing_upload(rt: Runtime, row: dict[str, Any]) -> dict[str, Any]:
    """``row``, failed for good when its upload URL expired and storage has no file: the file
    cannot arrive any more (the URL's signature refuses a late PUT), and a status that stays
    "queued" would keep a widget or an agent waiting for ever. ``views.upload_overdue`` alone
    cannot tell (on S3 a file that arrived is recorded only when the extraction worker claims
    it), so storage is asked, once per such row: after that it is failed. A lookup that fails
    counts as "stored", so a file is never called missing on a guess."""
    if not views.upload_overdue(row) or rt.storage is None or not row.get("storage_key"):
        return row
    try:
        stored = await anyio.to_thread.run_sync(rt.storage.exists, row["storage_key"])
    except Exception:  # the storage could not say: claim nothing
        log.warning("could not check the stored file of document %s", row["id"])
        stored = True
    if stored:
        return row
    expires = row["upload_expires_at"].astimezone(UTC)
    reason = (f"No file arrived: the upload URL expired at {expires:%Y-%m-%d %H:%M} UTC. Upload "
              "the file again (a new upload), and delete this entry with deleteDocument.")
    async with rt.transaction(system=True) as conn:
        failed = await processing.fail_unarrived(conn, row["id"], reason)
    return {**row, "status": "failed", "status_reason": reason} if failed else row


async def _spaces(conn: Conn, principal: Principal, container_tag: str | None
                  ) -> list[SpaceAccess]:
    """Where to look: the named space, or else every readable one."""
    if container_tag:
        return [await resolve_space(conn, principal, container_tag, only=True)]
    return await readable_spaces(conn, principal)


def _located(row: dict[str, Any] | None, doc_id: UUID, spaces: list[SpaceAccess]
             ) -> tuple[dict[str, Any], SpaceAccess]:
    """A document anywhere else is reported exactly like one that does not exist."""
    if row is None:
        raise NotFoundError(f"Document {doc_id} was not found.")
    return row, next(s for s in spaces if s.space_id == row["space_id"])


async def _find(conn: Conn, principal: Principal, doc_id: UUID, container_tag: str | None
                ) -> tuple[dict[str, Any], SpaceAccess]:
    """The document (without its content) and its space."""
    spaces = await _spaces(conn, principal, container_tag)
    return _located(await db.status(conn, doc_id, [s.space_id for s in spaces]), doc_id, spaces)


def _page_bounds(offset: int | None, limit: int | None) -> tuple[int, int]:
    """Validated ``(offset, limit)`` of a content page, in characters."""
    offset = 0 if offset is None else offset
    limit = PAGE_CHARS if limit is None else limit
    for name, value in (("offset", offset), ("limit", limit)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInputError(f"{name} must be a whole number of characters.")
    if not 0 <= offset <= _MAX_OFFSET:
        raise InvalidInputError(f"offset must be a character position in the document, 0 to "
                                f"{_MAX_OFFSET:,}; got {offset:,}.")
    if not 1 <= limit <= MAX_PAGE_CHARS:
        raise InvalidInputError(f"limit must be between 1 and {MAX_PAGE_CHARS:,} characters, "
                                f"got {limit:,}.")
    return offset, limit


def _page_end(text: str, complete: bool) -> int:
    """Where this page stops: after the last paragraph (line, sentence, word) break in its
    second half, so the next page starts on a fresh one; the whole text if it is the last."""
    if complete:
        return len(text)
    for sep in _BREAKS:
        at = text.rfind(sep, len(text) // 2)
        if at > 0:
            return at + len(sep)
    return len(text)


def _page(view: dict[str, Any], row: dict[str, Any], offset: int, limit: int) -> dict[str, Any]:
    """Cut the page out of the content (or the summary, when only that exists) and say where it
    lies: ``totalChars``, this page's ``offset``..``end`` and the ``nextOffset`` to read on."""
    if row["content_chars"]:
        kind, total, text = "content", int(row["content_chars"]), row["content"] or ""
    elif view["summary"]:
        kind, total = "summary", len(view["summary"])  # the full text is not available: say so
        text = view["summary"][offset:offset + limit]
    else:
        kind, total, text = "none", 0, ""
    if offset and offset >= total:
        raise InvalidInputError(
            f"offset {offset:,} is past the end of the document's {kind} ({total:,} characters)"
            f"; use an offset below {total:,} (0 reads from the start)." if total else
            f"offset {offset:,} is past the end: the document has no content or summary to "
            "page through; read it with offset 0.")
    end = offset + _page_end(text, offset + len(text) >= total)
    view["content"] = text[:end - offset] if kind != "none" else None
    view["contentKind"] = kind
    more = end < total
    return {"offset": offset, "end": end, "chars": end - offset, "totalChars": total,
            "limit": limit, "hasMore": more, "nextOffset": end if more else None}


async def get(
    rt: Runtime, principal: Principal, document_id: str, container_tag: str | None = None,
    offset: int | None = None, limit: int | None = None,
) -> dict[str, Any]:
    """One page of a document from a space the key can read (the named one, if
    ``containerTag`` is given): ``limit`` characters of content from ``offset``, the page's
    place in the whole, and (with the first page) the first memories extracted from it.

    A document elsewhere is reported exactly like one that does not exist.
    """
    doc_id = v.parse_uuid(document_id, "documentId")
    start, size = _page_bounds(offset, limit)
    async with rt.transaction() as conn:
        spaces = await _spaces(conn, principal, container_tag)
        row, space = _located(await db.get_page(conn, doc_id, [s.space_id for s in spaces],
                                                start, size), doc_id, spaces)
        memories = [] if start else await memories_db.for_document(
            conn, row["space_id"], doc_id, MAX_DOCUMENT_MEMORIES)
    row = await missing_upload(rt, row)
    view = views.document(row)
    page = _page(view, row, start, size)
    return {"space": space.key, "document": view, "page": page,
            "memories": [views.memory(m) for m in memories],
            "memoriesShown": len(memories)}


async def delete(
    rt: Runtime, principal: Principal, document_id: str, container_tag: str | None = None
) -> dict[str, Any]:
    """Hide the document, forget its memories and remove the stored file (Writers only).

    The row stays (soft delete) so forgotten memories still name their source. A fact another
    live document also states is kept, attributed to that document (``keptMemories``).
    """
    doc_id = v.parse_uuid(document_id, "documentId")
    await ratelimit.take_write(rt, principal)
    async with rt.transaction() as conn:
        row, space = await _find(conn, principal, doc_id, container_tag)
    require_write(principal, space)
    try:  # opened only if the key may still write there (revoked, deactivated: refused)
        async with rt.transaction(write=[space.space_id], holder=principal.key_id) as conn:
            await statements.lock_space_documents(conn, space.space_id)
            deleted = await processing.soft_delete(conn, doc_id, principal.user_id)
            if deleted is None:  # a concurrent delete got there first
                raise NotFoundError(f"Document {doc_id} was not found.")
            facts = await statements.forget_document_memories(conn, doc_id, principal.user_id)
            await audit.record(conn, "document.deleted", principal, space_id=space.space_id,
                               target_id=doc_id, memoriesForgotten=facts.forgotten,
                               memoriesKept=facts.kept)
            await identity.touch_space(conn, space.space_id)
    except GrantLostError:
        raise await write_refusal(rt, principal, space) from None
    removed = False
    if deleted["storage_key"] and rt.storage is not None:
        try:  # "removed" only for a file that was there (an upload may never have arrived)
            stored = await anyio.to_thread.run_sync(rt.storage.exists, deleted["storage_key"])
            for key in [deleted["storage_key"], *derived_keys(rt.storage, deleted["storage_key"])]:
                await anyio.to_thread.run_sync(rt.storage.delete, key)
            removed = stored
        except Exception:  # the row is already gone from view; a leftover object is harmless
            log.exception("could not delete stored object for document %s", doc_id)
    return {"space": space.key, "documentId": str(doc_id), "title": row["title"],
            "forgottenMemories": facts.forgotten, "keptMemories": facts.kept,
            "keptByDocuments": facts.kept_by_documents,
            "fileRemoved": removed}
