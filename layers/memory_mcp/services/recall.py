"""search_memory: recall by meaning, keyword and category in one space, with honest scores.

Every hit carries the signals behind its rank (``semantic``: cosine similarity; ``lexical``: the
share of the query's IDF mass its text contains; ``score``: the two fused) and a ``relevance``
word from the pinned model's calibrated floor. When even the best hit is weak the answer says so
(``noGoodMatch``) and still lists the closest few, marked weak: an agent must be able to tell
"here is the answer" from "here is the least unrelated thing".
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import psycopg

from memory_mcp.db import ann
from memory_mcp.db import memories as db
from memory_mcp.db import search as search_db
from memory_mcp.errors import GrantLostError, InvalidInputError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import matching, rerank, views
from memory_mcp.services import profile as profile_service
from memory_mcp.services import validation as v
from memory_mcp.services.access import checked_at_key_check, space_not_found
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

MAX_SEARCH_LIMIT = 50
DEFAULT_SEARCH_LIMIT = 10
#: With no good match, at most this many of the closest hits are shown (all marked weak).
WEAK_SHOWN = 3
#: The least ef_search any search uses (small spaces; see ``db.memories.EF_PER_MEMORIES``).
EF_FLOOR = 100


def thresholds(rt: Runtime) -> matching.Thresholds:
    """The pinned model's similarity bounds (settings override them)."""
    s = rt.settings
    return matching.thresholds_for(rt.embedder.model_id, s.version_threshold,
                                   s.forget_threshold, s.forget_margin, s.weak_score)


def _ef_bounds(rt: Runtime, limit: int) -> dict[str, int]:
    """The least and most ef_search a search for ``limit`` hits uses (db/ann.py)."""
    return {"floor": max(EF_FLOOR, limit * 2), "cap": max(rt.settings.hnsw_ef_search, limit * 2)}


def known_ann(rt: Runtime, space_id: uuid.UUID, limit: int) -> dict[str, str] | None:
    """The search's HNSW settings when the space's size was read lately (``Runtime.sizes``):
    the transaction sets them in its first statement and ``ranked`` is told so. None: ``ranked``
    reads the size itself (and remembers it)."""
    live = rt.sizes.get(space_id)
    if live is None:
        return None
    return ann.search_settings(ann.search_ef(live, **_ef_bounds(rt, limit)))


async def ranked(rt: Runtime, conn: Conn, space_id: uuid.UUID, *, query: str | None,
                 vector: str | None, pattern: str | None, category: str | None,
                 limit: int, ann_set: bool = False) -> tuple[list[db.Row], str]:
    """The rows search_memory shows, best first, and the ranking used (``vector``: the query
    literal at the index width, ``Runtime.query_vector``). ``ann_set``: the transaction began
    with ``known_ann``'s settings."""
    s = rt.settings
    if vector is None or query is None:
        return await search_db.newest(conn, space_id, pattern=pattern, category=category,
                                      limit=limit), "newest"
    if not ann_set:
        rt.sizes.note(space_id, await db.enable_search_ann(conn, space_id,
                                                            **_ef_bounds(rt, limit)))
    form = rt.vector_form
    if not s.hybrid_search:
        return await search_db.semantic(conn, space_id, form, vector=vector, pattern=pattern,
                                        category=category, limit=limit), "semantic"
    if s.fusion == "rrf":
        return await search_db.reciprocal_rank(
            conn, space_id, form, vector=vector, text=query, pattern=pattern, category=category,
            limit=limit, candidates=s.hybrid_candidates,
            lexical_weight=s.hybrid_lexical_weight), "hybrid-rrf"
    # A who/when/how-many/where question re-ranks every fused candidate by answer type.
    kind = rerank.expected(query) if s.answer_type_boost > 0 else None
    rows = await search_db.fused(
        conn, space_id, form, vector=vector, text=query, pattern=pattern, category=category,
        limit=limit, candidates=s.hybrid_candidates, lexical_boost=s.lexical_boost,
        every=kind is not None)
    if kind is not None:
        rows = rerank.answer_type(rows, kind, s.answer_type_boost, thresholds(rt).weak, limit)
    return rows, "hybrid"


async def search(
    rt: Runtime, principal: Principal, *, query: str | None, keyword: str | None,
    category: str | None, include_profile: bool, container_tag: str | None, limit: int | None,
) -> dict[str, Any]:
    """Semantic, keyword and category recall in one space; filters intersect."""
    q = (query or "").strip() or None
    kw = (keyword or "").strip() or None
    tag = v.category(category)
    if q is None and kw is None and tag is None:
        raise InvalidInputError("Give at least one of query, keyword or category.")
    if q is not None:
        q = v.content(q, rt.settings.max_query_chars, "query")
    if kw is not None:
        kw = v.content(kw, rt.settings.max_query_chars, "keyword")
    limit = DEFAULT_SEARCH_LIMIT if limit is None else limit
    if not 1 <= limit <= MAX_SEARCH_LIMIT:
        raise InvalidInputError(f"limit must be between 1 and {MAX_SEARCH_LIMIT}, got {limit}.")
    # The key's grants came with the key check: a refused space costs no statement and no
    # embedding, and the one transaction opens on the resolved space (and, when its size was read
    # lately, the HNSW depth) from its first statement, which also checks that the key still
    # holds that grant (``holder``: time passes between the key check and here). It writes only
    # recall statistics.
    space = checked_at_key_check(principal, container_tag)
    vector = await rt.query_vector(q, (space.space_id, principal.user_id)) \
        if q is not None else None
    ann_settings = known_ann(rt, space.space_id, limit) if vector is not None else None
    try:
        async with rt.transaction(read=[space.space_id], holder=principal.key_id, durable=False,
                                  settings=ann_settings) as conn:
            result, recalled = await _search_in(rt, conn, space, q, kw, tag, vector,
                                                include_profile, limit,
                                                ann_set=ann_settings is not None)
            await _record_recalls(conn, space.space_id, recalled)
    except GrantLostError:
        raise space_not_found(space.key) from None
    return result


async def _search_in(rt: Runtime, conn: Conn, space: SpaceAccess, q: str | None, kw: str | None,
                     tag: str | None, vector: str | None, include_profile: bool, limit: int, *,
                     ann_set: bool) -> tuple[dict[str, Any], list[uuid.UUID]]:
    """The search itself, in a transaction that sees exactly ``space``; and the memories it
    recalled (the hits of a query, weak ones excepted), for the statistics. A keyword or
    category alone lists matches newest first: browsing, which would otherwise push whatever a
    broad keyword lists into the profile's "most recalled"."""
    rows, ranking = await ranked(rt, conn, space.space_id, query=q, vector=vector,
                                 pattern=v.like_pattern(kw) if kw else None, category=tag,
                                 limit=limit, ann_set=ann_set)
    profile = await profile_service.build(rt, conn, space) if include_profile else None
    hits = [views.memory(row) for row in rows]
    result: dict[str, Any] = {"space": space.key, "query": q, "keyword": kw, "category": tag,
                              "ranking": ranking}
    if ranking != "newest":
        t = thresholds(rt)
        label(rows, hits, ranking, t, query=q)
        result["noGoodMatch"] = not hits or all(h["relevance"] == "weak" for h in hits)
        result["weakBelow"] = t.weak
        if result["noGoodMatch"]:
            hits = hits[:WEAK_SHOWN]
    result.update(count=len(hits), results=hits)
    if profile is not None:
        result["profile"] = profile
    if ranking == "newest":  # a keyword or category listing browses; it recalls nothing
        return result, []
    return result, [uuid.UUID(h["id"]) for h in hits if h.get("relevance") != "weak"]


def label(rows: list[db.Row], hits: list[dict[str, Any]], ranking: str,
          t: matching.Thresholds, query: str | None = None) -> None:
    """Each hit's relevance word, from its row's unrounded score (the hit shows it rounded to
    four places: 0.21996 shown as 0.22 is still below a 0.22 floor, as ``rerank`` judged it).
    Under rank fusion the score is a rank, so the cosine is the basis. A hit whose words match
    but whose meaning is below the weak floor ("x" finding "Path C:\\temp\\x") is at most
    moderate: the label never says more than both signals support. So is a hit stating
    another day or month than the query asks about ("Who hosts the Monday standup?" → "The
    standup host on Tuesday is Kim": close in meaning, not the answer); it says which
    (``otherDate``)."""
    for row, hit in zip(rows, hits, strict=True):
        basis = row["semantic"] if ranking == "hybrid-rrf" else row["score"]
        hit["relevance"] = matching.relevance(float(basis), t)
        if hit["relevance"] == "strong" and float(row["semantic"]) < t.weak:
            hit["relevance"] = "moderate"  # the words match, the meaning does not: not strong
        other = matching.other_date(query, hit["memory"]) if query else None
        if other is not None:
            hit["otherDate"] = other
            if hit["relevance"] == "strong":
                hit["relevance"] = "moderate"


async def _record_recalls(conn: Conn, space_id: uuid.UUID, ids: list[uuid.UUID]) -> None:
    """Statistics only: the last statement of the search's transaction, and never allowed to
    fail a search. Weak hits are not counted: they were shown, not recalled.

    The search's transaction writes nothing else, so a failure here rolls the whole transaction
    back (``psycopg.Rollback`` ends it quietly; the caller already holds the result) instead of
    wrapping the statement in a savepoint: two statements fewer on every search."""
    if not ids:
        return
    try:
        await db.record_recalls(conn, space_id, ids)
    except psycopg.Error:
        log.warning("could not record recall statistics", exc_info=True)
        raise psycopg.Rollback() from None
