"""Forget a memory: by id, by exact text, or the one a text clearly means (``matching``);
when unsure, nothing changes and the candidates come back with their ids.

Apart from saving (``memories.py``) because the two share only the space's write check:
forget reads what search would show, decides with the agreement rules, and writes one flag.
"""

from __future__ import annotations

import uuid
from typing import Any

from memory_mcp.db import forgotten as forgotten_db
from memory_mcp.db import identity
from memory_mcp.db import memories as db
from memory_mcp.errors import ConflictError, GrantLostError, NotFoundError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import agreement, audit, matching, recall, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import checked_at_key_check, space_not_found, write_refusal
from memory_mcp.services.runtime import Runtime

MAX_REASON_CHARS = 1_000
#: Memories a forget-by-content request is compared with, and how many a refusal lists.
FORGET_CANDIDATES = 8
MAX_FORGET_SHOWN = 3


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
    elif text:  # kept as the forget's reason: it must be storable text too
        text = v.check_text(text, "content")
    # As a save: the key check's grants refuse a caller who may not write there before any
    # statement or embedding, and each transaction checks in its first statement that the key
    # still holds the space (the writing one: that it may still write there).
    space = checked_at_key_check(principal, container_tag, write=True)
    try:
        async with rt.transaction(read=[space.space_id], holder=principal.key_id) as conn:
            match, how = None, "id"
            if target_id is not None:
                match = await db.get(conn, space.space_id, target_id)
                if match is None:
                    raise NotFoundError(f'No memory with id {target_id} in space "{space.key}".')
                if match["is_forgotten"]:
                    return {"action": "already_forgotten", "space": space.key,
                            "memory": views.memory(match)}
            else:
                match = await db.find_live_by_hash(conn, space.space_id, v.content_hash(text))
                how = "exact"
                if match is None:  # a repeat, before any other memory is taken for it
                    gone = await forgotten_db.by_hash(conn, space.space_id, v.content_hash(text))
                    if gone is not None:
                        return {"action": "already_forgotten", "space": space.key,
                                "memory": views.memory(gone)}
        if match is None:
            match = await _closest_meant(rt, space.space_id, text, holder=principal.key_id)
            if "action" in match:
                return {"space": space.key, **await _repeated(rt, principal, space, text, match)}
            how = "similar"
    except GrantLostError:
        raise space_not_found(space.key) from None
    reason = (text or f"forget by id {target_id}")[:MAX_REASON_CHARS]
    try:  # opened only if the key may still write there; any error below rolls it back
        async with rt.transaction(write=[space.space_id], holder=principal.key_id) as conn:
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
                now = await db.get(conn, space.space_id, target["id"])
                if now is not None and now["is_forgotten"]:  # another request forgot it first
                    return {"action": "already_forgotten", "space": space.key,
                            "memory": views.memory(now)}
                raise ConflictError("That memory changed while this request ran (a newer "
                                    "version was saved); nothing was forgotten. Please retry.")
            await audit.record(conn, "memory.forgotten", principal, space_id=space.space_id,
                               target_id=target["id"], match=how)
            await identity.touch_space(conn, space.space_id)
            row = await db.get(conn, space.space_id, target["id"])
            if row is None:
                raise ConflictError("That memory disappeared while this request ran; please retry.")
    except GrantLostError:
        raise await write_refusal(rt, principal, space) from None

    result: dict[str, Any] = {"action": "forgotten", "match": how, "space": space.key,
                              "memory": views.memory(row)}
    if note:
        result["note"] = note
    if how == "similar":
        result["similarity"] = round(float(match["similarity"]), 4)
    if how == "exact":  # a second memory saying the same would still be found: say so
        same = await _closest_meant(rt, space.space_id, text, holder=principal.key_id)
        if "action" not in same:
            result["stillStated"] = {"id": str(same["id"]), "memory": same["content"],
                                     "similarity": round(float(same["similarity"]), 4)}
    return result


async def _repeated(rt: Runtime, principal: Principal, space: SpaceAccess, text: str,
                    unmatched: dict[str, Any]) -> dict[str, Any]:
    """A forget that matched no live memory: "already forgotten" if one of the space's recently
    forgotten memories is what the text clearly means (a repeat in other words: the same rules
    as a forget), else the ``nothing_matched`` answer as it is."""
    query = agreement.strip_preamble(text)
    form = rt.vector_form
    vector = await rt.query_vector(query)
    async with rt.transaction(read=[space.space_id], holder=principal.key_id) as conn:
        rows = await forgotten_db.closest_recent(conn, space.space_id, form, vector,
                                                 FORGET_CANDIDATES)
    decision = matching.choose_forget(
        query, [(r["content"], float(r["semantic"])) for r in rows], recall.thresholds(rt))
    if decision.index is None:
        return unmatched
    return {"action": "already_forgotten", "memory": views.memory(rows[decision.index])}


async def forget_candidates(rt: Runtime, space_id: uuid.UUID, query: str,
                            holder: uuid.UUID | None = None) -> list[db.Row]:
    """What search_memory would show for ``query`` (its candidates), closest first by cosine
    (``semantic``): forget compares against exactly what a person would see. ``holder``: the
    request's key, whose grant the transaction checks again (``Runtime.transaction``)."""
    vector = await rt.query_vector(query)
    async with rt.transaction(read=[space_id], holder=holder) as conn:
        rows, _ = await recall.ranked(rt, conn, space_id, query=query, vector=vector,
                                      pattern=None, category=None, limit=FORGET_CANDIDATES)
    return sorted(rows, key=lambda r: (-float(r["semantic"]), str(r["id"])))


async def _closest_meant(rt: Runtime, space_id: uuid.UUID, text: str,
                         holder: uuid.UUID) -> dict[str, Any]:
    """The memory a forget-by-content request means, from the candidates search would show it,
    or a ``nothing_matched`` answer listing them (with ids, to forget one exactly)."""
    query = agreement.strip_preamble(text)
    rows = await forget_candidates(rt, space_id, query, holder)
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
