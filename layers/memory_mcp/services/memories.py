"""Save, version, forget, search and list memories inside one resolved space."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from memory_mcp.db import identity
from memory_mcp.db import memories as db
from memory_mcp.db import search as search_db
from memory_mcp.errors import ConflictError, NotFoundError
from memory_mcp.models import Principal
from memory_mcp.services import agreement, matching, recall, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import resolve_space
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

#: search_memory lives in recall.py; re-exported because callers know it as memories.search.
search = recall.search
MAX_SAVE_ATTEMPTS = 3
MAX_REASON_CHARS = 1_000
#: Memories a forget-by-content request is compared with, and how many a refusal lists.
FORGET_CANDIDATES = 8
MAX_FORGET_SHOWN = 3
#: Nearest memories a save may become the next version of.
VERSION_CANDIDATES = 5


class _LostRace(Exception):
    """A concurrent save changed the row we meant to insert or supersede; retry or report it."""


async def save(
    rt: Runtime, principal: Principal, content: str, category: str | None, container_tag: str | None
) -> dict[str, Any]:
    """Store a memory. Identical live content: unchanged. Near-duplicate: its next version."""
    text = v.content(content, rt.settings.max_content_chars)
    tag = v.category(category)
    digest = v.content_hash(text)
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, write=True)
        existing = await db.find_live_by_hash(conn, space.space_id, digest)
    if existing is not None:
        return {"action": "unchanged", "space": space.key, "memory": views.memory(existing)}
    vector = await rt.embed_one(text)  # outside any transaction: may take a while
    for _ in range(MAX_SAVE_ATTEMPTS):
        try:
            async with rt.transaction() as conn:
                await _same_space(conn, principal, container_tag, space.space_id)
                await db.lock_space_for_save(conn, space.space_id)
                existing = await db.find_live_by_hash(conn, space.space_id, digest)
                if existing is not None:
                    return {"action": "unchanged", "space": space.key,
                            "memory": views.memory(existing)}
                result = await _insert_or_version(rt, conn, principal, space.space_id, text,
                                                  digest, tag, vector)
                await identity.touch_space(conn, space.space_id)
                return {"space": space.key, **result}
        except _LostRace:
            async with rt.transaction() as conn:
                existing = await db.find_live_by_hash(conn, space.space_id, digest)
            if existing is not None:
                return {"action": "unchanged", "space": space.key, "memory": views.memory(existing)}
    raise ConflictError("This memory was changed concurrently several times; please retry.")


async def _same_space(conn: Conn, principal: Principal, container_tag: str | None,
                      space_id: uuid.UUID) -> None:
    """Re-check write access at commit time and insist it is still the same space: a grant
    revoked (or the active space switched) while we were embedding must not redirect the write."""
    current = await resolve_space(conn, principal, container_tag, write=True)
    if current.space_id != space_id:
        raise ConflictError("The space changed while this request ran; nothing was written. "
                            "Please retry.")


async def _insert_or_version(
    rt: Runtime, conn: Conn, principal: Principal, space_id: uuid.UUID, text: str,
    digest: bytes, tag: str | None, vector: str,
) -> dict[str, Any]:
    await db.enable_filtered_ann(conn, rt.settings.hnsw_ef_search)
    form = rt.vector_form
    near = await search_db.nearest(conn, space_id, form, form.query_literal(vector),
                                   VERSION_CANDIDATES, lock=True)
    decision = matching.choose_version(
        text, [(r["content"], float(r["similarity"])) for r in near], recall.thresholds(rt))
    nearest = near[decision.index] if decision.index is not None else None
    new_id = uuid.uuid4()
    if nearest is not None:
        if not await db.supersede(conn, nearest["id"], principal.user_id):
            raise _LostRace()
        inserted = await db.insert(
            conn, memory_id=new_id, space_id=space_id, content=text, content_hash=digest,
            category=tag if tag is not None else nearest["category"], vector=vector,
            user_id=principal.user_id, root_id=nearest["root_id"], parent_id=nearest["id"],
            version=int(nearest["version"]) + 1,
        )
    else:
        inserted = await db.insert(
            conn, memory_id=new_id, space_id=space_id, content=text, content_hash=digest,
            category=tag, vector=vector, user_id=principal.user_id, root_id=new_id,
        )
    if not inserted:
        raise _LostRace()
    row = await db.get(conn, space_id, new_id)
    assert row is not None
    result: dict[str, Any] = {"action": "versioned" if nearest is not None else "saved",
                              "memory": views.memory(row)}
    if nearest is not None:
        result["supersedes"] = {
            "id": str(nearest["id"]),
            "memory": nearest["content"],
            "version": nearest["version"],
            "similarity": round(float(nearest["similarity"]), 4),
        }
    elif decision.reason:  # close to a memory, but about something else: both stay current
        closest = near[0]
        result["keptSeparateFrom"] = {"id": str(closest["id"]), "memory": closest["content"],
                                      "similarity": round(float(closest["similarity"]), 4),
                                      "reason": decision.reason}
    return result


async def forget(
    rt: Runtime, principal: Principal, content: str | None, memory_id: str | None,
    container_tag: str | None,
) -> dict[str, Any]:
    """Forget by id, else by exact text, else the memory the text clearly means (matching.py);
    when unsure, nothing changes and the candidates come back with their ids."""
    target_id = v.parse_uuid(memory_id, "memoryId") if memory_id else None
    text = (content or "").strip()
    if target_id is None:
        text = v.content(text, rt.settings.max_content_chars)
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, write=True)
        match, how = None, "id"
        if target_id is not None:
            match = await db.get(conn, space.space_id, target_id)
            if match is None:
                raise NotFoundError(f'No memory with id {target_id} in space "{space.key}".')
            if match["is_forgotten"]:
                return {"action": "already_forgotten", "space": space.key,
                        "memory": views.memory(match)}
        else:
            match, how = await db.find_live_by_hash(conn, space.space_id, v.content_hash(text)), "exact"
    if match is None:
        match = await _closest_meant(rt, space.space_id, text)
        if "action" in match:
            return {"space": space.key, **match}
        how = "similar"
    reason = (text or f"forget by id {target_id}")[:MAX_REASON_CHARS]
    async with rt.transaction() as conn:  # any error below rolls the forget back
        await _same_space(conn, principal, container_tag, space.space_id)
        target, note = match, None
        if not target["is_latest"]:  # a superseded version: forget the fact's current version
            latest = await db.latest_of_chain(conn, space.space_id, match["root_id"])
            if latest is None or latest["is_forgotten"]:
                return {"action": "already_forgotten", "space": space.key,
                        "memory": views.memory(latest or match)}
            target = latest
            note = (f"{target_id} is an older version (v{match['version']}); forgot the current "
                    f"version v{target['version']}.")
        if not await db.forget(conn, space.space_id, target["id"], principal.user_id, reason):
            raise ConflictError("That memory changed while this request ran (forgotten or "
                                "superseded); nothing was forgotten. Please retry.")
        await identity.touch_space(conn, space.space_id)
        row = await db.get(conn, space.space_id, target["id"])
        if row is None:
            raise ConflictError("That memory disappeared while this request ran; please retry.")
    result: dict[str, Any] = {"action": "forgotten", "match": how, "space": space.key,
                              "memory": views.memory(row)}
    if note:
        result["note"] = note
    if how == "similar":
        result["similarity"] = round(float(match["similarity"]), 4)
    return result


async def forget_candidates(rt: Runtime, space_id: uuid.UUID, query: str) -> list[db.Row]:
    """What search_memory would show for ``query`` (its candidates), closest first by cosine
    (``semantic``): forget compares against exactly what a person would see."""
    vector = await rt.query_vector(query)
    async with rt.transaction() as conn:
        rows, _ = await recall.ranked(rt, conn, space_id, query=query, vector=vector,
                                      pattern=None, category=None, limit=FORGET_CANDIDATES)
    return sorted(rows, key=lambda r: (-float(r["semantic"]), str(r["id"])))


async def _closest_meant(rt: Runtime, space_id: uuid.UUID, text: str) -> dict[str, Any]:
    """The memory a forget-by-content request means, from the candidates search would show it,
    or a ``nothing_matched`` answer listing them (with ids, to forget one exactly)."""
    query = agreement.strip_preamble(text)
    rows = await forget_candidates(rt, space_id, query)
    t = recall.thresholds(rt)
    decision = matching.choose_forget(query, [(r["content"], float(r["semantic"])) for r in rows],
                                      t)
    if decision.index is not None:
        return {**rows[decision.index], "similarity": rows[decision.index]["semantic"]}
    return {
        "action": "nothing_matched", "threshold": t.forget, "reason": decision.reason,
        "candidates": [
            {"id": str(r["id"]), "memory": r["content"],
             "similarity": round(float(r["semantic"]), 4),
             "differs": [c.detail for c in found]}
            for r, found in zip(rows[:MAX_FORGET_SHOWN], decision.conflicts, strict=False)],
    }


async def list_page(
    rt: Runtime, principal: Principal, page: int | None, limit: int | None,
    container_tag: str | None,
) -> dict[str, Any]:
    """Every memory of the space (latest, superseded and forgotten), newest first."""
    page_no, size, offset = v.paging(page, limit)
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag)
        rows, total = await db.page(conn, space.space_id, size, offset)
    v.check_page_exists(page_no, total, size)
    return {
        "space": space.key, "page": page_no, "limit": size, "total": total,
        "hasMore": offset + len(rows) < total,
        "memories": [views.memory(row) for row in rows],
    }
