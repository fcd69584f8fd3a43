"""Forget a memory: by id, by exact text, or the one a text clearly means (``matching``);
when unsure, nothing changes and the candidates come back with their ids.

Apart from saving (``memories.py``) because the two share only the space's write check:
forget reads what search would show, decides with the agreement rules, and writes one flag.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any

from memory_mcp.db import forgotten as forgotten_db
from memory_mcp.db import identity
from memory_mcp.db import memories as db
from memory_mcp.errors import ConflictError, GrantLostError, NotFoundError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import agreement, audit, matching, offload, recall, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import checked_at_key_check, space_not_found, write_refusal
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

MAX_REASON_CHARS = 1_000
#: Memories a forget-by-content request is compared with, and how many a refusal lists.
FORGET_CANDIDATES = 8
MAX_FORGET_SHOWN = 3


async def forget(
    rt: Runtime, principal: Principal, content: str | None, memory_id: str | None,
    container_tag: str | None,
) -> dict[str, Any]:
    """Forget by id, else by exact text, else the memory the text clearly means (matching.py);
    when unsure, nothing changes and the candidates come back with their ids. A repeat (the same
    words, or the same other words) answers "already forgotten" and never takes another memory;
    an older wording that now says something else is refused with the current version."""
    target_id = v.parse_uuid(memory_id, "memoryId") if memory_id else None
    text = (content or "").strip()
    if target_id is None:
        text = v.content(text, rt.settings.max_content_chars)
    elif text:  # kept as the forget's reason and compared with the memory (embedded): the
        # same bounds and form as any content
        text = v.content(text, rt.settings.max_content_chars)
    # As a save: the key check's grants refuse a caller who may not write there before any
    # statement or embedding, and each transaction checks in its first statement that the key
    # still holds the space (the writing one: that it may still write there).
    space = checked_at_key_check(principal, container_tag, write=True)
    try:
        plan = await _decide(rt, principal, space, text, target_id)
    except GrantLostError:
        raise space_not_found(space.key) from None
    if plan.answer is not None:
        return {"space": space.key, **plan.answer}
    assert plan.match is not None
    match = plan.match
    reason = (text or f"forget by id {target_id}")[:MAX_REASON_CHARS]
    try:  # opened only if the key may still write there; any error below rolls it back. The
        # space's save lock, shared as saves take it: a space's deletion waits for the forget.
        async with rt.transaction(write=[space.space_id], holder=principal.key_id,
                                  lock=space.space_id) as conn:
            target, note = match, None
            if not target["is_latest"]:  # an older wording of the same fact: its current version
                latest = await db.latest_of_chain(conn, space.space_id, match["root_id"])
                if latest is None or latest["is_forgotten"]:
                    return {"action": "already_forgotten", "space": space.key,
                            "memory": views.memory(latest or match)}
                target = latest
                note = (f"{match['id']} is an older version (v{match['version']}); forgot the "
                        f"current version v{target['version']}.")
            if not await db.forget(conn, space.space_id, target["id"], principal.user_id, reason):
                now = await db.get(conn, space.space_id, target["id"])
                if now is not None and now["is_forgotten"]:  # another request forgot it first
                    return {"action": "already_forgotten", "space": space.key,
                            "memory": views.memory(now)}
                raise ConflictError("That memory changed while this request ran (a newer "
                                    "version was saved); nothing was forgotten. Please retry.")
            await audit.record(conn, "memory.forgotten", principal, space_id=space.space_id,
                               target_id=target["id"], match=plan.how)
            await identity.touch_space(conn, space.space_id)
            row = await db.get(conn, space.space_id, target["id"])
            if row is None:
                raise ConflictError("That memory disappeared while this request ran; please retry.")
    except GrantLostError:
        raise await write_refusal(rt, principal, space) from None

    result: dict[str, Any] = {"action": "forgotten", "match": plan.how, "space": space.key,
                              "memory": views.memory(row)}
    if plan.reason:
        result["reason"] = plan.reason[:MAX_REASON_CHARS]
    if note:
        result["note"] = note
    if plan.how == "similar":
        result["similarity"] = round(float(match["semantic"]), 4)
    still = plan.still
    if plan.how == "exact":  # a second memory saying the same would still be found: say so
        try:
            rows, decision = await _live_decision(rt, space.space_id, text, principal.key_id)
        except Exception:  # the forget has committed: report it, without this extra
            log.warning("could not look for a second memory after a forget", exc_info=True)
            rows, decision = [], None
        still = rows[decision.index] if decision and decision.index is not None else None
    if still is not None:
        result["stillStated"] = {"id": str(still["id"]), "memory": still["content"],
                                 "similarity": round(float(still["semantic"]), 4)}
    return result


@dataclass(frozen=True)
class _Plan:
    """What a forget decided before writing: an ``answer`` (nothing to write), or the ``match``
    to forget, ``how`` it was found and, for a similar match, a second memory that clearly
    says the same (``still``: named in the answer, never forgotten along)."""

    answer: dict[str, Any] | None = None
    match: db.Row | None = None
    how: str = "id"
    still: db.Row | None = None
    reason: str | None = None


def _already(row: db.Row) -> _Plan:
    return _Plan({"action": "already_forgotten", "memory": views.memory(row)})


def _superseded(older: db.Row, latest: db.Row, differs: list[agreement.Conflict]) -> _Plan:
    """An older wording that the fact's current version contradicts: forgetting "it" would
    remove what the fact says now, which the request did not say."""
    return _Plan({"action": "superseded", "memory": views.memory(older),
                  "current": views.memory(latest), "differs": [c.detail for c in differs]})


async def _decide(rt: Runtime, principal: Principal, space: SpaceAccess, text: str,
                  target_id: uuid.UUID | None) -> _Plan:
    """By id, by exact text (live, already forgotten, or an older wording), else by meaning."""
    if target_id is not None:
        return await _by_id(rt, principal, space, text, target_id)
    async with rt.transaction(read=[space.space_id], holder=principal.key_id) as conn:
        digest = v.content_hash(text)
        match = await db.find_live_by_hash(conn, space.space_id, digest)
        if match is not None:
            return _Plan(match=match, how="exact")
        gone = await forgotten_db.by_hash(conn, space.space_id, digest)
        if gone is not None:  # a repeat, before any other memory is taken for it
            return _already(gone)
        older = await forgotten_db.superseded_by_hash(conn, space.space_id, digest)
        if older is not None:
            return await _named(conn, space.space_id, older, "exact")
    rows, decision = await _live_decision(rt, space.space_id, text, principal.key_id)
    live = rows[decision.index] if decision.index is not None else None
    t = recall.thresholds(rt)
    candidates = [{"id": str(r["id"]), "memory": r["content"],
                   "similarity": round(float(r["semantic"]), 4),  # what an unrelated memory
                   # differs in says nothing ("says the opposite" of a 0.12 match misleads)
                   "differs": [c.detail for c in found] if r["semantic"] >= t.weak else []}
                  for r, found in zip(rows[:MAX_FORGET_SHOWN], decision.conflicts, strict=False)]
    repeat = await _recent_repeat(rt, principal, space, text, live)
    if repeat is not None:  # and live memories still close to it are listed, never hidden
        plan = _already(repeat)
        close = [c for c in candidates if c["similarity"] >= t.forget]
        return _Plan({**plan.answer, "candidates": close}) if close and plan.answer else plan
    if live is None or decision.index is None:
        return _Plan({"action": "nothing_matched", "threshold": t.forget,
                      "reason": decision.reason, "candidates": candidates})
    rest = [r for i, r in enumerate(rows) if i != decision.index]
    pairs = [(r["content"], float(r["semantic"])) for r in rest]
    again = await offload.rules([text, *(c for c, _ in pairs)], matching.choose_forget,
                                agreement.strip_preamble(text), pairs, t)
    return _Plan(match=live, how="similar",
                 still=rest[again.index] if again.index is not None else None)


async def _by_id(rt: Runtime, principal: Principal, space: SpaceAccess, text: str,
                 target_id: uuid.UUID) -> _Plan:
    """The memory a memoryId names. An id is easy to copy from the wrong line of a list, and
    the content is what the person said. When the content is another memory's exact text, or
    clearly means another fact (the forget-by-content rules), *and* is not about the named
    memory at all (not among what search shows for it at ``strong`` relevance), nothing is
    forgotten and both are shown (``id_mismatch``). Otherwise the id decides, and content other
    than the memory's own text is kept as the forget's reason (the answer says so): "outdated:
    the retro moved to Friday" forgets the Thursday memory it names, even when the Friday one
    is saved too."""
    digest = v.content_hash(text) if text else None
    async with rt.transaction(read=[space.space_id], holder=principal.key_id) as conn:
        named = await db.get(conn, space.space_id, target_id)
        if named is None:
            raise NotFoundError(f'No memory with id {target_id} in space "{space.key}".')
        plan = await _named(conn, space.space_id, named, "id")
        if digest is None or plan.match is None or digest == v.content_hash(named["content"]):
            return plan
        meant = await db.find_live_by_hash(conn, space.space_id, digest)
    rows, decision = await _live_decision(rt, space.space_id, text, principal.key_id)
    if meant is None and decision.index is not None:
        meant = rows[decision.index]
    strong = recall.thresholds(rt).strong
    about_named = any(r["root_id"] == named["root_id"] and float(r["semantic"]) >= strong
                      for r in rows)
    if meant is not None and meant["root_id"] != named["root_id"] and not about_named:
        return _Plan({"action": "id_mismatch", "memory": views.memory(named),
                      "meant": views.memory(meant)})
    return _Plan(match=plan.match, how=plan.how, reason=text)


async def _named(conn: Conn, space_id: uuid.UUID, match: db.Row, how: str) -> _Plan:
    """A memory named by id or by an older wording's exact text: forgotten already, current,
    or an older version whose current one says the same fact (forgotten in its place) or
    contradicts it (refused: ``_superseded``)."""
    if match["is_forgotten"]:
        return _already(match)
    if match["is_latest"]:
        return _Plan(match=match, how=how)
    latest = await db.latest_of_chain(conn, space_id, match["root_id"])
    if latest is None or latest["is_forgotten"]:
        return _already(latest or match)
    differs = await offload.rules([match["content"], latest["content"]], agreement.conflicts,
                                  match["content"], latest["content"])
    return _superseded(match, latest, differs) if differs else _Plan(match=match, how=how)


async def _recent_repeat(rt: Runtime, principal: Principal, space: SpaceAccess, text: str,
                         live: db.Row | None) -> db.Row | None:
    """The recently forgotten memory the text clearly means (the same rules as a forget), if
    it is at least as close as the live memory the text would otherwise forget (``live``) and
    was forgotten after that one was saved: then this is a repeat of that forget, in other
    words, and acts on nothing. A live memory saved after the forget (the fact saved again) is
    what a new forget means."""
    query = agreement.strip_preamble(text)  # the scope forget_candidates embeds it under
    vector = await rt.query_vector(query, (space.space_id, principal.key_id))
    async with rt.transaction(read=[space.space_id], holder=principal.key_id) as conn:
        rows = await forgotten_db.closest_recent(conn, space.space_id, rt.vector_form, vector,
                                                 FORGET_CANDIDATES)
    pairs = [(r["content"], float(r["semantic"])) for r in rows]
    decision = await offload.rules([query, *(c for c, _ in pairs)], matching.choose_forget,
                                   query, pairs, recall.thresholds(rt))
    if decision.index is None:
        return None
    row = rows[decision.index]
    if live is None:
        return row
    repeat = (float(row["semantic"]) >= float(live["semantic"])
              and row["forgotten_at"] > live["created_at"])
    return row if repeat else None


async def forget_candidates(rt: Runtime, space_id: uuid.UUID, query: str,
                            holder: uuid.UUID | None = None) -> list[db.Row]:
    """What search_memory would show for ``query`` (its candidates), closest first by cosine
    (``semantic``): forget compares against exactly what a person would see. ``holder``: the
    request's key, whose grant the transaction checks again (``Runtime.transaction``)."""
    vector = await rt.query_vector(query, (space_id, holder) if holder is not None else None)
    # Full text reads no more of it than a search may ask (``max_query_chars``): a forget of
    # 100,000 characters made PostgreSQL weigh thousands of stems against every candidate
    # (1-2 s). A longer text is forgotten by meaning only when a memory says it nearly word for
    # word (the ``long`` rule), and such a memory is among the nearest by meaning anyway.
    words = query[: rt.settings.max_query_chars]
    async with rt.transaction(read=[space_id], holder=holder) as conn:
        rows, _ = await recall.ranked(rt, conn, space_id, query=words, vector=vector,
                                      pattern=None, category=None, limit=FORGET_CANDIDATES)
    return sorted(rows, key=lambda r: (-float(r["semantic"]), str(r["id"])))


async def _live_decision(rt: Runtime, space_id: uuid.UUID, text: str, holder: uuid.UUID
                         ) -> tuple[list[db.Row], matching.Decision]:
    """The candidates search would show for a forget's text and which one it clearly means."""
    query = agreement.strip_preamble(text)
    rows = await forget_candidates(rt, space_id, query, holder)
    pairs = [(r["content"], float(r["semantic"])) for r in rows]
    decision = await offload.rules([query, *(c for c, _ in pairs)], matching.choose_forget,
                                   query, pairs, recall.thresholds(rt))
    return rows, decision
