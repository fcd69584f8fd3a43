"""SQL for recall: fused (meaning + full text), semantic, newest; and the vector form per model.

Every query takes the space id as its first filter and reads current memories only. Nearest-
neighbour queries run in a transaction with ``hnsw.iterative_scan = relaxed_order``
(``ann.search_settings``, set with the transaction's scope, or ``ann.enable_search_ann``), so
a space filter cannot starve the HNSW index of candidates; ``relaxed_order`` may return
neighbours slightly out of order, so candidates are a MATERIALIZED CTE re-scored outside
(``distance + 0`` stops PostgreSQL 17+ from treating the index output as presorted).

Vectors: the column is ``halfvec(3072)`` for every model. Rows of a model of at most 384
dimensions (the local model) have ``embedding_width = 384`` and their own HNSW index over
``subvector(embedding, 1, 384)::halfvec(384)`` (migration 0008); queries use the same
expression, with a 384-wide query literal, so the planner can use that index and every distance
costs 384 dimensions, not 3,072.

Rows come from ``memories_in_scope`` (migration 0009): the transaction's read scope applied as
a plain condition, so the full-text and trigram GIN indexes stay usable under row-level
security (a policy would run before those non-leakproof operators and force a scan).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from memory_mcp.db import ann
from memory_mcp.db.memories import _COLUMNS, _FIELDS, _JOINS, _LIVE, Conn, Row

SMALL_WIDTH = 384
FULL_WIDTH = 3072
#: Spaces are hashed into this many buckets, each with its own HNSW graph per width (migration
#: 0012 creates them: the modulus there must equal this; a power of two, masked with ``& n-1``).
SPACE_BUCKETS = 16
#: A stem found in more than DF_SHARE of the space's current memories (at least DF_FLOOR, at
#: most DF_CAP of them) is common there, its IDF already low: it still scores, but no longer
#: draws full-text candidates, so the candidate scan stays bounded however large the space
#: grows. (Counts per stem: ``space_terms``.)
DF_CAP = 500
DF_FLOOR = 20
DF_SHARE = 0.02
_DF = {"df_cap": DF_CAP, "df_floor": DF_FLOOR, "df_share": DF_SHARE}


@dataclass(frozen=True)
class VectorForm:
    """How a model's vectors are compared: the index expression and its width predicate."""

    width: int

    @staticmethod
    def for_dimensions(dimensions: int) -> VectorForm:
        return VectorForm(SMALL_WIDTH if dimensions <= SMALL_WIDTH else FULL_WIDTH)

    @property
    def distance(self) -> str:
        """Cosine distance of row ``m`` to the query vector ``%(vec)s``."""
        if self.width == SMALL_WIDTH:
            return (f"subvector(m.embedding, 1, {SMALL_WIDTH})::halfvec({SMALL_WIDTH}) "
                    f"<=> %(vec)s::halfvec({SMALL_WIDTH})")
        return "m.embedding <=> %(vec)s::halfvec"

    @property
    def predicate(self) -> str:
        """The rows of this width in the query space's bucket (``%(space)s``): the predicate
        of exactly one of the width's partial HNSW indexes (migration 0012), once the planner
        has folded the space's bucket to a constant (it does: the parameters are bound before
        planning, ``prepare_threshold=None``)."""
        return (f"m.embedding_width = {self.width} AND (uuid_hash(m.space_id) & "
                f"{SPACE_BUCKETS - 1}) = (uuid_hash(%(space)s::uuid) & {SPACE_BUCKETS - 1})")

    def query_literal(self, storage_literal: str) -> str:
        """A storage literal (3,072 numbers, zero-padded) cut to this form's width."""
        if self.width == FULL_WIDTH:
            return storage_literal
        head = storage_literal[1:-1].split(",", self.width)[: self.width]
        return "[" + ",".join(head) + "]"


FULL = VectorForm(FULL_WIDTH)

#: The stems of the query text, each as one quoted tsquery term (chr(39) a quote, chr(92) a
#: backslash), with how many current memories of the space contain it (maintained in
#: space_terms, migration 0008) and its BM25 IDF; then their total IDF and the rarer ones as one
#: OR-query that draws full-text candidates.
_TERMS = """weights AS MATERIALIZED (
    SELECT t.q, t.df, n.live,
           ln(1 + (greatest(n.live, t.df) - t.df + 0.5) / (t.df + 0.5)) AS idf
    FROM (SELECT l.lexeme, greatest(coalesce(
                     (SELECT st.df FROM space_terms st
                      WHERE st.space_id = %(space)s AND st.lexeme = l.lexeme), 0), 0) AS df,
                 (chr(39) || replace(replace(l.lexeme, chr(92), chr(92) || chr(92)),
                                     chr(39), chr(39) || chr(39))
                  || chr(39))::tsquery AS q
          FROM (SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', %(text)s))) l) t,
         (SELECT coalesce((SELECT live_memories FROM space_stats WHERE space_id = %(space)s), 0)
                 AS live) n),
totals AS MATERIALIZED (
    SELECT coalesce(sum(idf), 0) AS idf_total, count(*) AS n_terms,
           string_agg(q::text, ' | ') FILTER (
               WHERE df > 0
                 AND df <= least(%(df_cap)s, greatest(%(df_floor)s, live * %(df_share)s))) AS rare
    FROM weights)"""


def _filters(space_id: UUID, pattern: str | None, category: str | None,
             params: dict[str, Any]) -> str:
    filters = [_LIVE]
    params["space"] = space_id
    if pattern is not None:
        filters.append(r"m.content ILIKE %(pattern)s ESCAPE '\'")
        params["pattern"] = pattern
    if category is not None:
        filters.append("m.category = %(category)s")
        params["category"] = category
    return " AND ".join(filters)


def _nearest(form: VectorForm, where: str) -> str:
    """The ``%(k)s`` nearest rows (``id``, ``distance``) for a search's filters ``where``: the
    bucket's HNSW graph, merged with an exact look through the space's btree index while the
    space holds at most ``%(small)s`` (``ann.EXACT_SPACE``) current memories (a one-time
    filter on ``space_stats``: a larger space never runs it). A shared graph was seen to leave
    a small space's rows unreachable (docs/pgvector-halfvec-search.md, "Save"); the exact look
    costs well under a millisecond at that size. ``distance + 0`` keeps that look off the HNSW index."""
    return f"""SELECT DISTINCT ON (u.id) u.id, u.distance FROM (
                (SELECT m.id, {form.distance} AS distance FROM memories_in_scope m
                 WHERE {where} AND {form.predicate} ORDER BY {form.distance} LIMIT %(k)s)
                UNION ALL
                (SELECT m.id, {form.distance} AS distance FROM memories_in_scope m
                 WHERE {where} AND (SELECT coalesce((SELECT s.live_memories FROM space_stats s
                                                     WHERE s.space_id = %(space)s), 0))
                                   <= %(small)s
                 ORDER BY 2 + 0 LIMIT %(k)s)) u ORDER BY u.id"""


def cosine(distance: str) -> str:
    """Cosine similarity from a cosine distance, 0 where it is undefined: pgvector answers NaN
    for a zero vector, which PostgreSQL sorts above every number and JSON cannot carry. New
    zero vectors are refused when written (``memories.vector_literal``); this keeps one written
    before that from topping every search."""
    return f"coalesce(nullif(1 - ({distance}), 'NaN'::float8), 0)"


async def fused(conn: Conn, space_id: UUID, form: VectorForm, *, vector: str, text: str,
                pattern: str | None, category: str | None, limit: int, candidates: int,
                lexical_boost: float, every: bool = False) -> list[Row]:
    """Meaning and full text, fused by their strength (not their rank).

    Candidates: the ``candidates`` nearest by cosine, plus the ``candidates`` best full-text
    matches drawn from the query's rarer stems (``DF_CAP``). Each candidate gets

    * ``semantic``: its exact cosine similarity to the query;
    * ``lexical``: the share of the query's IDF mass (BM25's IDF, ``N`` from ``space_stats``)
      that its text contains, 0 when it shares fewer than two stems with a query of two or more
      (one common word in common is no evidence: it is what put unrelated facts first under
      reciprocal-rank fusion);
    * ``score = semantic + lexical_boost * lexical * (1 - semantic)``: the full-text evidence
      closes part of the gap to 1, so the score stays in [semantic, 1] and reads as one number.

    The scored candidates carry the memory's columns (``_FIELDS``), so the result is shaped
    from them without reading ``memories`` a fourth time: a quarter less of the planning, which
    is about half of this query's time in a small space (1.25 -> 0.95 ms at 2.5k memories).

    ``every``: return every candidate (up to ``2 * max(candidates, limit)``), best first, not
    just ``limit``, for a re-ranking over them (``services/rerank.py``); the candidates are the
    same either way.
    """
    k = max(candidates, limit)
    params: dict[str, Any] = {"vec": vector, "text": text, "limit": 2 * k if every else limit,
                              "k": k, **_DF, "boost": lexical_boost,
                              "small": ann.EXACT_SPACE}
    where = _filters(space_id, pattern, category, params)
    query = f"""WITH sem AS MATERIALIZED ({_nearest(form, where)}),
        {_TERMS},
        lex AS MATERIALIZED (
            SELECT m.id FROM memories_in_scope m, totals tt
            WHERE tt.rare IS NOT NULL AND {where} AND m.content_tsv @@ tt.rare::tsquery
            ORDER BY (SELECT sum(w.idf) FROM weights w WHERE m.content_tsv @@ w.q) DESC,
                     ts_rank(m.content_tsv, tt.rare::tsquery, 1) DESC, m.id
            LIMIT %(k)s),
        scored AS MATERIALIZED (
            SELECT {_FIELDS}, {cosine(form.distance)} AS semantic,
                   CASE WHEN hit.matched >= least(2, tt.n_terms) AND tt.idf_total > 0
                        THEN hit.covered / tt.idf_total ELSE 0 END AS lexical
            FROM (SELECT id FROM sem UNION SELECT id FROM lex) c
            JOIN memories_in_scope m ON m.id = c.id
            CROSS JOIN totals tt
            CROSS JOIN LATERAL (SELECT coalesce(sum(w.idf), 0) AS covered, count(*) AS matched
                                FROM weights w
                                WHERE w.df > 0 AND m.content_tsv @@ w.q) hit)
        SELECT {_COLUMNS}, m.semantic, m.lexical,
               m.semantic + %(boost)s * m.lexical * (1 - m.semantic) AS score
        FROM scored m {_JOINS}
        ORDER BY score DESC, m.id LIMIT %(limit)s"""
    cur = await conn.execute(query.encode(), params)
    return await cur.fetchall()


async def reciprocal_rank(conn: Conn, space_id: UUID, form: VectorForm, *, vector: str, text: str,
                          pattern: str | None, category: str | None, limit: int,
                          candidates: int, lexical_weight: float) -> list[Row]:
    """The ranking before score fusion (reciprocal rank, k = 60), kept for comparison
    (``MEMORY_MCP_FUSION=rrf``, bench/retrieval_quality.py). Same candidates and signals as
    ``fused``; only the order differs (``score`` is the RRF value)."""
    params: dict[str, Any] = {"vec": vector, "text": text, "limit": limit,
                              "k": max(candidates, limit), **_DF, "wl": lexical_weight,
                              "small": ann.EXACT_SPACE}
    where = _filters(space_id, pattern, category, params)
    query = f"""WITH sem AS MATERIALIZED ({_nearest(form, where)}),
        {_TERMS},
        lex AS MATERIALIZED (
            SELECT m.id, (SELECT sum(w.idf * ts_rank(m.content_tsv, w.q, 1)) FROM weights w
                          WHERE w.df > 0 AND m.content_tsv @@ w.q) AS rank
            FROM memories_in_scope m, totals tt
            WHERE tt.rare IS NOT NULL AND {where} AND m.content_tsv @@ tt.rare::tsquery
            ORDER BY rank DESC, m.id LIMIT %(k)s),
        fusion AS (
            SELECT id, sum(weight / (60.0 + position)) AS relevance FROM (
                SELECT id, 1.0 AS weight,
                       row_number() OVER (ORDER BY distance + 0, id) AS position FROM sem
                UNION ALL
                SELECT id, %(wl)s, row_number() OVER (ORDER BY rank DESC, id) FROM lex
            ) ranked GROUP BY id ORDER BY relevance DESC, id LIMIT %(limit)s)
        SELECT {_COLUMNS}, {cosine(form.distance)} AS semantic, NULL::float8 AS lexical,
               f.relevance AS score
        FROM fusion f JOIN memories_in_scope m ON m.id = f.id {_JOINS}
        ORDER BY f.relevance DESC, m.id"""
    cur = await conn.execute(query.encode(), params)
    return await cur.fetchall()


async def semantic(conn: Conn, space_id: UUID, form: VectorForm, *, vector: str,
                   pattern: str | None, category: str | None, limit: int) -> list[Row]:
    """Cosine order only; ``score`` = ``semantic`` = the cosine similarity."""
    params: dict[str, Any] = {"vec": vector, "limit": limit, "k": limit,
                              "small": ann.EXACT_SPACE}
    where = _filters(space_id, pattern, category, params)
    query = f"""WITH near AS MATERIALIZED ({_nearest(form, where)}),
        hits AS MATERIALIZED (
            SELECT {_FIELDS}, n.distance FROM near n JOIN memories_in_scope m ON m.id = n.id
            ORDER BY n.distance + 0, m.id LIMIT %(limit)s)
        SELECT {_COLUMNS}, {cosine("m.distance")} AS semantic, NULL::float8 AS lexical,
               {cosine("m.distance")} AS score
        FROM hits m {_JOINS}
        ORDER BY m.distance + 0, m.id"""
    cur = await conn.execute(query.encode(), params)
    return await cur.fetchall()


async def newest(conn: Conn, space_id: UUID, *, pattern: str | None, category: str | None,
                 limit: int) -> list[Row]:
    """No query text: keyword and/or category filters, newest first, no scores."""
    params: dict[str, Any] = {"limit": limit}
    where = _filters(space_id, pattern, category, params)
    cur = await conn.execute(
        f"""SELECT {_COLUMNS}, NULL::float8 AS semantic, NULL::float8 AS lexical,
                   NULL::float8 AS score
            FROM memories_in_scope m {_JOINS} WHERE {where} ORDER BY m.updated_at DESC, m.id
            LIMIT %(limit)s""".encode(), params)
    return await cur.fetchall()
