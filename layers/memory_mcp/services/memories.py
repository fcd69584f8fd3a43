"""Save, version and list memories inside one resolved space; search (``recall.py``) and
forget (``forgetting.py``) are re-exported here, where callers look for them."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from memory_mcp.db import identity, saves
from memory_mcp.db import memories as db
from memory_mcp.db.ann import search_settings
from memory_mcp.errors import ConflictError, GrantLostError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import forgetting, offload, recall, versions, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import (
    checked_at_key_check,
    resolve_space,
    space_not_found,
    write_refusal,
)
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

#: search_memory lives in recall.py, forget in forgetting.py; re-exported because callers know
#: them as memories.search and memories.forget.
search = recall.search
forget = forgetting.forget
forget_candidates = forgetting.forget_candidates
MAX_SAVE_ATTEMPTS = 3
#: Nearest memories a save may become the next version of.
VERSION_CANDIDATES = 5
#: ef_search of the save's nearest-neighbour look. A save only needs near-duplicates (cosine at
#: the versioning threshold, 0.90 for MiniLM), which the graph finds at any depth; the deeper
#: search that gives *recall* its accuracy (``MEMORY_MCP_HNSW_EF_SEARCH``) would only slow
#: every write.
SAVE_EF_SEARCH = 100


class _LostRace(Exception):
    """A concurrent write changed what this save decided on; nothing was written. Retry."""


async def save(
    rt: Runtime, principal: Principal, content: str, category: str | None, container_tag: str | None
) -> dict[str, Any]:
    """Store a memory. Identical live content: unchanged. Near-duplicate: its next version.

    Concurrent saves of one space run side by side; only the end of each is serialised. A save
    decides which memory (if any) it becomes the next version of from a snapshot, writes its
    row, and then, holding the space's counter row until commit, checks that no memory it did
    not see arrived meanwhile close enough to change that decision (``saves.finish_save``); else
    it rolls back and decides again. Identical texts meet at the unique index, two versions of
    one memory at its row (the supersede is conditional), and the last attempt decides under
    the space's exclusive save lock (``saves.lock_exclusively``), so it cannot lose to another save;
    writers that take no save lock can still change what it decided on (a document's
    extraction or an import adding a close memory, a forget removing the one it versions or
    that has its text), and then the save reports a conflict. Whatever fails, the
    transaction rolls back: no half-written row."""
    text = v.content(content, rt.settings.max_content_chars)
    tag = v.category(category)
    digest = v.content_hash(text)
    # The grants of the request's key check refuse a read-only caller before any statement or
    # embedding; every transaction below opens on the space in a first statement that checks
    # the key still holds it (and, to write, may still write there: see ``access.write_refusal``).
    space = checked_at_key_check(principal, container_tag, write=True)
    if rt.settings.embedding_provider != "local":
        # A remote model costs a network call (and money) per text: first look whether the
        # identical text is already there. The local model embeds a short text in ~10 ms of
        # CPU, less than this look costs every new save (four round trips); an identical text
        # is then found by the write's own candidates (``_save_once``), and one repeated
        # within the process is not embedded again (``embed_one``'s cache).
        unchanged = await _identical(rt, principal, space, digest, tag)
        if unchanged is not None:
            return unchanged
    # outside any transaction (may take a while); cached only for this caller in this space
    vector = await rt.embed_one(text, (space.space_id, principal.user_id))
    ef = min(SAVE_EF_SEARCH, rt.settings.hnsw_ef_search)
    for attempt in range(1, MAX_SAVE_ATTEMPTS + 1):
        exclusive = attempt == MAX_SAVE_ATTEMPTS
        try:
            async with rt.transaction(write=[space.space_id], holder=principal.key_id,
                                      settings=search_settings(ef),
                                      lock=None if exclusive else space.space_id) as conn:
                result = await _save_once(rt, conn, space.space_id, text, digest, tag, vector,
                                          principal.user_id, exclusive=exclusive)
            return {"space": space.key, **result}
        except GrantLostError:
            raise await write_refusal(rt, principal, space) from None
        except _LostRace:  # the identical text may have won: then it is this save's answer
            unchanged = await _identical(rt, principal, space, digest, tag)
            if unchanged is not None:
                return unchanged
    raise ConflictError("This memory was changed concurrently several times; please retry.")


async def _identical(rt: Runtime, principal: Principal, space: SpaceAccess,
                     digest: bytes, tag: str | None) -> dict[str, Any] | None:
    """The "unchanged" answer if a current memory of the space has this text, else None; in
    a transaction of its own that re-checks the key's grant (lost: "not found"). When the save
    names a category the memory does not have, or the memory came from a document, it is
    claimed (re-tagged, made the person's own) in a writing transaction of its own
    (``_claim``)."""
    try:
        async with rt.transaction(read=[space.space_id], holder=principal.key_id) as conn:
            existing = await db.find_live_by_hash(conn, space.space_id, digest)
    except GrantLostError:
        raise space_not_found(space.key) from None
    if existing is None:
        return None
    if _claims(existing, tag):
        return await _claim(rt, principal, space, existing, tag)
    return {"action": "unchanged", "space": space.key, "memory": views.memory(existing)}


def _claims(existing: db.Row, tag: str | None) -> bool:
    """Whether saving ``existing``'s very text changes it: a new category, or a memory only a
    document held, which from now on a person holds too (deleting the document keeps it)."""
    return ((tag is not None and existing["category"] != tag)
            or (existing["source_document_id"] is not None and existing["claimed_at"] is None))


async def _claim(rt: Runtime, principal: Principal, space: SpaceAccess, existing: db.Row,
                 tag: str | None) -> dict[str, Any] | None:
    """Claim ``existing`` (no longer current: None, the save decides again)."""
    try:
        async with rt.transaction(write=[space.space_id], holder=principal.key_id) as conn:
            claimed = await _claim_row(conn, space.space_id, existing, tag, principal.user_id)
    except GrantLostError:
        raise await write_refusal(rt, principal, space) from None
    return None if claimed is None else {"space": space.key, **claimed}


async def _claim_row(conn: Conn, space_id: uuid.UUID, existing: db.Row, tag: str | None,
                     user_id: uuid.UUID) -> dict[str, Any] | None:
    """The "unchanged" answer for the same text, re-tagged and/or kept apart from its source
    document, or None if the memory is no longer current. A version is a new text; a category
    is re-tagged in place."""
    claimed = await saves.claim(conn, space_id, existing["id"], tag, user_id)
    if claimed is None:
        return None
    await identity.touch_space(conn, space_id)
    answer: dict[str, Any] = {"action": "unchanged", "memory": views.memory(claimed)}
    if tag is not None and existing["category"] != tag:
        answer["categoryWas"] = existing["category"]
    if existing["source_document_id"] is not None and existing["claimed_at"] is None:
        answer["keptFromDocument"] = str(existing["source_document_id"])
    return answer


async def _save_once(
    rt: Runtime, conn: Conn, space_id: uuid.UUID, text: str, digest: bytes, tag: str | None,
    vector: str, user_id: uuid.UUID, *, exclusive: bool,
) -> dict[str, Any]:
    """One attempt, in one transaction whose scope is the space, writable; raises
    ``_LostRace`` (rolling it back) when a concurrent write invalidated the decision."""
    form, t = rt.vector_form, recall.thresholds(rt)
    query = form.query_literal(vector)
    if exclusive:  # the shared lock came with the transaction's first statement otherwise
        await saves.lock_exclusively(conn, space_id)
    near, seen = await saves.version_candidates(conn, space_id, form, query, VERSION_CANDIDATES)
    if any(bytes(r["content_hash"]) == digest for r in near):
        # the identical text is already there: unchanged (never supersede a text with itself;
        # the unique index cannot stop that, the superseded row no longer counts)
        existing = await db.find_live_by_hash(conn, space_id, digest)
        if existing is None:  # forgotten or superseded since the candidates: decide again
            raise _LostRace()
        if not _claims(existing, tag):
            return {"action": "unchanged", "memory": views.memory(existing)}
        claimed = await _claim_row(conn, space_id, existing, tag, user_id)
        if claimed is None:
            raise _LostRace()
        return claimed
    texts = [text, *(r["content"] for r in near)]
    nearest, kept, reason = await offload.rules(texts, versions.choose, text, near, t)
    new_id = uuid.uuid4()
    row = await saves.save_row(
        conn, memory_id=new_id, space_id=space_id, content=text, content_hash=digest,
        category=tag if tag is not None or nearest is None else nearest["category"],
        vector=vector, user_id=user_id, supersedes=nearest)
    if row is None:  # predecessor taken, or identical text won: undo any supersede, retry
        raise _LostRace()
    unseen = await saves.finish_save(
        conn, space_id, new_id, form=form, vector=query, seen=seen, threshold=t.version)
    if unseen:  # a close memory arrived after the decision: decide again with it
        raise _LostRace()
    result: dict[str, Any] = {"action": "versioned" if nearest is not None else "saved",
                              "memory": views.memory(row)}
    if nearest is not None:
        result["supersedes"] = {
            "id": str(nearest["id"]),
            "memory": nearest["content"],
            "version": nearest["version"],
            "similarity": round(float(nearest["similarity"]), 4),
        }
    else:
        if kept is not None:  # close to a memory, but about something else: both stay current
            result["keptSeparateFrom"] = {"id": str(kept["id"]), "memory": kept["content"],
                                          "similarity": round(float(kept["similarity"]), 4),
                                          "reason": reason}
        if (replaced := await offload.rules(texts, versions.may_replace, text, near, t)) is not None:
            result["mayReplace"] = replaced
    return result


async def list_page(
    rt: Runtime, principal: Principal, page: int | None, limit: int | None,
    container_tag: str | None,
) -> dict[str, Any]:
    """Every memory of the space (latest, superseded and forgotten), newest first."""
    page_no, size, offset = v.paging(page, limit)
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, only=True)
        rows, total = await db.page(conn, space.space_id, size, offset)
    v.check_page_exists(page_no, total, size)
    return {
        "space": space.key, "page": page_no, "limit": size, "total": total,
        "hasMore": offset + len(rows) < total,
        "memories": [views.memory(row) for row in rows],
    }
