"""One HNSW graph per bucket of spaces (migration 0012): a search walks its own space's bucket
graph, and a bucket shared by two spaces still never mixes them."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import numpy as np
import psycopg
import pytest
from psycopg import sql

from memory_mcp.db import ann as db_ann
from memory_mcp.db import search as search_db
from memory_mcp.db.identity import find_space
from memory_mcp.db.memories import vector_literal
from memory_mcp.db.migrator import migrate
from memory_mcp.db.pool import open_pool
from memory_mcp.db.search import SPACE_BUCKETS, VectorForm
from memory_mcp.services import admin, memories
from memory_mcp.services.runtime import Runtime

from conftest import ROOT, empty_database, settings_for

TEXTS = ["The billing service retries failed card payments three times.",
         "Staging is rebuilt from the production snapshot every Sunday.",
         "Alice owns the release checklist for the mobile app.",
         "Logs older than ninety days are archived to cold storage.",
         "The design review happens on Wednesdays after lunch."]


async def _bucket(rt: Runtime, space: str) -> tuple[UUID, int]:
    async with rt.transaction(system=True) as conn:
        row = await find_space(conn, space)
        assert row is not None
        cur = await conn.execute("SELECT uuid_hash(%s) & %s AS b",
                                 (row["id"], search_db.SPACE_BUCKETS - 1))
        found = await cur.fetchone()
        assert found is not None
        return row["id"], int(found["b"])


async def _spaces(rt: Runtime, world: Any) -> dict[str, tuple[str, UUID, int]]:
    """Spaces A and B in different buckets and C in A's bucket (new spaces go to the bucket
    with the fewest spaces: create spaces until both cases exist, a few dozen at most)."""
    made: list[tuple[str, UUID, int]] = []
    for _ in range(200):
        key = await world.space("bk")
        made.append((key, *await _bucket(rt, key)))
        a = made[0]
        b = next((s for s in made if s[2] != a[2]), None)
        c = next((s for s in made[1:] if s[2] == a[2]), None)
        if b is not None and c is not None:
            return {"A": a, "B": b, "C": c}
    raise AssertionError("no two spaces shared a bucket in 200 tries")


async def _plan(rt: Runtime, space_id: UUID, vector: str) -> str:
    form = rt.vector_form
    async with rt.transaction(system=True) as conn:
        for name in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            await conn.execute(f"SET LOCAL {name} = off")  # the plan a large space gets
        cur = await conn.execute(
            f"EXPLAIN SELECT m.id FROM memories m WHERE m.space_id = %(space)s AND m.is_latest "
            f"AND NOT m.is_forgotten AND {form.predicate} ORDER BY {form.distance} LIMIT 10",
            {"space": space_id, "vec": vector})
        return " ".join(r["QUERY PLAN"] for r in await cur.fetchall())


@pytest.mark.anyio
async def test_each_space_searches_its_own_bucket_graph_and_sees_only_itself(
        runtime: Runtime, world: Any) -> None:
    spaces = await _spaces(runtime, world)
    member = await world.member(grants={key: "readwrite" for key, _, _ in spaces.values()})
    saved: dict[str, set[str]] = {}
    for label, (key, _, _) in spaces.items():
        saved[label] = set()
        for text in TEXTS:  # the same texts in every space: only the space tells them apart
            out = await memories.save(runtime, member.principal, text, None, key)
            saved[label].add(out["memory"]["id"])
    vector = await runtime.query_vector("when is staging refreshed from production?")
    for label, (key, space_id, bucket) in spaces.items():
        plan = await _plan(runtime, space_id, vector)
        assert f"memories_embedding_384_hnsw_b{bucket:02d}" in plan, (label, plan)
        others = [b for b in range(search_db.SPACE_BUCKETS) if b != bucket]
        assert not any(f"_hnsw_b{b:02d}" in plan for b in others)
        found = await memories.search(runtime, member.principal, query="staging refresh schedule",
                                      keyword=None, category=None, include_profile=False,
                                      container_tag=key, limit=10)
        ids = {hit["id"] for hit in found["results"]}
        assert ids and ids <= saved[label], label  # C shares A's graph, never A's results
        assert found["results"][0]["memory"].startswith("Staging is rebuilt")


def _insert(conn: psycopg.Connection[Any], space: UUID, user: UUID, text: str,
            vector: np.ndarray) -> None:
    """One memory by plain SQL (the database is at migration 0011: no service runs on it)."""
    conn.execute(
        "INSERT INTO memories (space_id, content, content_hash, root_id, created_by, "
        "updated_by, embedding) VALUES (%s, %s, sha256(convert_to(%s, 'UTF8')), "
        "gen_random_uuid(), %s, %s, %s::halfvec)",
        (space, text, text, user, user,
         vector_literal((vector / np.linalg.norm(vector)).tolist(), 3072)))


def _index_search(conn: psycopg.Connection[Any], form: VectorForm, space: UUID, query: str,
                  index_prefix: str) -> list[Any]:
    """The space's exact top 10; asserts that the search pushed onto the index uses the graph
    of the space's bucket (``index_prefix`` + its number) and returns the same rows."""
    sql = (f"SELECT m.id FROM memories m WHERE m.space_id = %(space)s AND m.is_latest AND "
           f"NOT m.is_forgotten AND {form.predicate} ORDER BY {form.distance}, m.id LIMIT 10")
    params = {"space": space, "vec": query}
    bucket = conn.execute("SELECT uuid_hash(%s) & %s", (space, SPACE_BUCKETS - 1)).fetchone()
    assert bucket is not None
    with conn.transaction():  # exact, whatever the planner would choose: a loaded full run got
        # 9 rows of 10 here, as a graph scan (not an exact one) can when a filter drops rows
        for name in ("enable_indexscan", "enable_bitmapscan"):
            conn.execute(f"SET LOCAL {name} = off")
        exact = conn.execute(sql, params).fetchall()
    assert len(exact) == 10
    with conn.transaction():
        for name in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            conn.execute(f"SET LOCAL {name} = off")
        conn.execute("SET LOCAL hnsw.ef_search = 100")
        plan = " ".join(r[0] for r in conn.execute("EXPLAIN " + sql, params).fetchall())
        assert f"{index_prefix}{bucket[0]:02d}" in plan, plan
        assert conn.execute(sql, params).fetchall() == exact
    return exact


def test_migration_0012_splits_an_existing_index_into_bucket_graphs(pg_root_url: str,
                                                                    tmp_path: Path) -> None:
    """A deployment at migration 0011 with memories in several spaces (and full-width rows of a
    hosted model in one): 0012 builds every bucket's graph from the existing rows and drops the
    shared ones; afterwards each space's search (pushed onto the index) uses its bucket's graph
    of the rows' width and finds exactly what an exact scan of that space finds."""
    before = tmp_path / "migrations"
    before.mkdir()
    for path in sorted((ROOT / "migrations").glob("*.sql")):
        if int(path.name[:4]) <= 11:
            shutil.copy(path, before / path.name)
    url = empty_database(pg_root_url)
    migrate(url, before)
    rng = np.random.default_rng(12)
    with psycopg.connect(url, autocommit=True, prepare_threshold=None) as conn:
        user = conn.execute("INSERT INTO users (email, display_name, role) VALUES "
                            "('u@example.test', 'U', 'writer') RETURNING id").fetchone()
        assert user is not None
        spaces = [row[0] for row in conn.execute(
            "INSERT INTO spaces (key, name) SELECT 'up-' || i, 'Up ' || i "
            "FROM generate_series(1, 6) i RETURNING id").fetchall()]
        for space in spaces:
            for i in range(30):
                padded = np.concatenate([rng.standard_normal(384), np.zeros(2688)])
                _insert(conn, space, user[0], f"memory {i} of {space}", padded)
        wide = np.concatenate([rng.standard_normal(1024), np.zeros(2048)])  # a 1,024-d model
        for i in range(30):  # the full-width graphs: a hosted model's rows, in the first space
            _insert(conn, spaces[0], user[0], f"wide memory {i}", np.roll(wide, i))
    later = sorted(p.stem for p in (ROOT / "migrations").glob("*.sql") if int(p.name[:4]) > 11)
    assert migrate(url, ROOT / "migrations") == later  # 0012, then what came after it
    assert later[0] == "0012_space_bucket_graphs"
    query = vector_literal((lambda v: (v / np.linalg.norm(v)).tolist())(rng.standard_normal(384)))
    with psycopg.connect(url, autocommit=True, prepare_threshold=None) as conn:
        names = {r[0] for r in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'memories'").fetchall()}
        assert "memories_embedding_384_hnsw" not in names and "memories_embedding_hnsw" not in names
        # 0013 on existing rows: the profile's ordered category index replaces the plain one
        assert "memories_space_category_updated_idx" in names
        assert "memories_space_category_idx" not in names
        for space in spaces:
            _index_search(conn, VectorForm(384), space, query, "memories_embedding_384_hnsw_b")
        wide_query = vector_literal(np.roll(wide, 3).tolist())
        exact = _index_search(conn, VectorForm(3072), spaces[0], wide_query,
                              "memories_embedding_hnsw_b")
        assert len(exact) == 10


@pytest.mark.anyio
async def test_a_generic_plan_default_cannot_take_the_bucket_graphs_away(
        runtime: Runtime, world: Any) -> None:
    """The bucket graph is found only in a plan made for the space's id. A generic plan (what
    ``plan_cache_mode = force_generic_plan`` as a database or role default would give) can use
    none; the search's HNSW settings force custom plans for their transaction."""
    key = await world.space("gp")
    member = await world.member(grants={key: "readwrite"})
    for text in TEXTS:
        await memories.save(runtime, member.principal, text, None, key)
    space_id, bucket = await _bucket(runtime, key)
    form = runtime.vector_form
    vector = await runtime.query_vector("when is staging refreshed from production?")
    query = (f"SELECT m.id FROM memories m WHERE m.space_id = %(space)s AND m.is_latest AND NOT "
             f"m.is_forgotten AND {form.predicate} ORDER BY {form.distance} LIMIT 10"
             ).replace("%(space)s", "$1").replace("%(vec)s", "$2")
    name = f"bucket_probe_{uuid4().hex[:8]}"
    run = sql.SQL("EXPLAIN EXECUTE {}({}::uuid, {}::halfvec)").format(
        sql.Identifier(name), sql.Literal(str(space_id)), sql.Literal(vector))
    async with runtime.transaction(system=True) as conn:
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            await conn.execute(f"SET LOCAL {setting} = off")
        await conn.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        await conn.execute(sql.SQL("PREPARE {} (uuid, halfvec) AS ").format(sql.Identifier(name))
                           + sql.SQL(query))
        generic = " ".join(r["QUERY PLAN"] for r in await (await conn.execute(run)).fetchall())
        assert "_hnsw_b" not in generic, generic  # what such a default would do to searches
        await db_ann.enable_search_ann(conn, space_id, floor=100, cap=1000)
        custom = " ".join(r["QUERY PLAN"] for r in await (await conn.execute(run)).fetchall())
        assert f"memories_embedding_384_hnsw_b{bucket:02d}" in custom, custom
        await conn.execute(sql.SQL("DEALLOCATE {}").format(sql.Identifier(name)))


@pytest.mark.anyio
async def test_new_spaces_go_to_the_bucket_with_the_fewest_spaces_then_memories(
        fresh_database_url: str, embedder: Any) -> None:
    """Sixteen spaces, sixteen graphs; the next one joins the bucket whose spaces hold the
    fewest memories (identity.insert_space)."""
    settings = settings_for(fresh_database_url)
    pool = await open_pool(settings, fresh_database_url)
    rt = Runtime(settings=settings, pool=pool, embedder=embedder)
    try:
        made = [await admin.create_space(rt, f"bal-{i}", f"Space {i}", "") for i in range(16)]
        buckets = {(await _bucket(rt, s["key"]))[1]: s for s in made}
        assert sorted(buckets) == list(range(SPACE_BUCKETS)), "one graph per space"
        quiet = 11  # every bucket's space holds memories, this one's the fewest
        async with rt.transaction(system=True) as conn:
            for bucket, space in buckets.items():
                await conn.execute(
                    "INSERT INTO space_stats (space_id, live_memories, all_memories)"
                    " VALUES (%(id)s, %(n)s, %(n)s) ON CONFLICT (space_id) DO UPDATE"
                    " SET live_memories = EXCLUDED.live_memories",
                    {"id": UUID(space["id"]), "n": 5 if bucket == quiet else 100_000})
        seventeenth = await admin.create_space(rt, "bal-16", "Space 16", "")
        assert (await _bucket(rt, seventeenth["key"]))[1] == quiet
        eighteenth = await admin.create_space(rt, "bal-17", "Space 17", "")
        assert (await _bucket(rt, eighteenth["key"]))[1] != quiet, "fewest spaces come first"
    finally:
        await pool.close()
