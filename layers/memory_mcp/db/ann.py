"""Per-transaction HNSW settings for nearest-neighbour queries (``SET LOCAL`` as
``set_config(..., true)``, so a pooled connection never carries them into the next request and
RDS Proxy does not pin it).

``hnsw.iterative_scan = relaxed_order`` keeps a space filter from starving the index of
candidates; ``hnsw.ef_search`` is how deep the graph is searched: fixed for saves, scaled to the
space's size for search (docs/pgvector-halfvec-search.md, "Approximate-index recall").
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Conn = AsyncConnection[dict[str, Any]]

#: ``plan_cache_mode``: a vector query finds its bucket's HNSW graph only in a plan made for
#: the space's id (``VectorForm.predicate``: the planner folds the bucket to a constant); a
#: generic plan, which a database or role default of ``force_generic_plan`` would give, could
#: use no graph at all. Our statements are unnamed and planned once, so this changes nothing
#: else.
_CUSTOM_PLANS = "set_config('plan_cache_mode', 'force_custom_plan', true)"
_ANN = ("set_config('hnsw.iterative_scan', 'relaxed_order', true), "
        "set_config('hnsw.ef_search', %(ef)s, true), " + _CUSTOM_PLANS)


def _ef(ef_search: int) -> str:
    return str(max(10, min(ef_search, 1000)))


async def enable_filtered_ann(conn: Conn, ef_search: int) -> None:
    """Per-transaction HNSW settings (``SET LOCAL``, as ``set_config(..., true)``, so pooled
    connections stay clean), in one statement."""
    await conn.execute(f"SELECT {_ANN}", {"ef": _ef(ef_search)})


#: A space with at most this many current memories is also read exactly, through its btree
#: index, wherever its nearest rows are looked up through the graph: a save's version
#: candidates (``saves.version_candidates``) and search (``search._nearest``). The bucket's
#: graph is shared with other spaces, and a full test run showed it can fail to reach a small
#: space's rows at all: the iterative scan walked the ~3,000 rows it could reach, none of them
#: the space's, and a save did not see the memory it should version. The exact look costs well
#: under a millisecond at this size, so a small space never depends on the graph; a large one
#: owns most of its bucket's graph, where the index's recall is measured
#: (docs/pgvector-halfvec-search.md). Read at call time (``ann.EXACT_SPACE``), so one name
#: moves both looks.
EXACT_SPACE = 500


#: A space's search depth grows with it: ef_search = live memories / EF_PER_MEMORIES, between
#: the floor and the configured cap. A small space needs no deep search (recall@10 0.99+ at
#: ef 40 for 2.5k memories), and a deep one there would only make the planner's cost model,
#: which charges for ef_search, give up the index for an exact scan (35 ms instead of 7 at
#: 2.5k); 20k memories get 500, 40k and more the cap (bench/search_latency.py).
EF_PER_MEMORIES = 40


def search_ef(live_memories: int, *, floor: int, cap: int) -> int:
    """The ef_search ``enable_search_ann`` sets for a space of this many live memories."""
    return max(int(_ef(min(floor, cap))), min(int(_ef(cap)), live_memories // EF_PER_MEMORIES))


def search_settings(ef_search: int) -> dict[str, str]:
    """``enable_search_ann``'s settings for a known depth, by name: for a transaction that sets
    them in its first statement (``scope.enter``) instead of a statement of their own."""
    return {"hnsw.iterative_scan": "relaxed_order", "hnsw.ef_search": _ef(ef_search),
            "plan_cache_mode": "force_custom_plan"}


async def enable_search_ann(conn: Conn, space_id: UUID, *, floor: int, cap: int) -> int:
    """``enable_filtered_ann`` with ef_search scaled to the space's current size
    (``space_stats``, maintained by triggers, read under the transaction's scope), in the same
    single statement; returns that size (live memories), so the caller may remember it."""
    cur = await conn.execute(
        f"""SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),
                  set_config('hnsw.ef_search', greatest(%(floor)s, least(%(cap)s,
                      st.live / %(per)s))::text, true), {_CUSTOM_PLANS}, st.live
            FROM (SELECT coalesce((SELECT live_memories FROM space_stats
                                   WHERE space_id = %(space)s), 0) AS live) st""",
        {"floor": int(_ef(min(floor, cap))), "cap": int(_ef(cap)), "space": space_id,
         "per": EF_PER_MEMORIES})
    row = await cur.fetchone()
    assert row is not None
    return int(row["live"])
