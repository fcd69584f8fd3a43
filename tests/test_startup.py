"""Migrations, the pinned embedding model, re-embedding and the registries."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from memory_mcp.db.migrator import load_migrations, migrate
from memory_mcp.db.search import SPACE_BUCKETS, VectorForm
from memory_mcp.errors import ConfigurationError
from memory_mcp.mcp import resources, tools, widgets
from memory_mcp.mcp.server import build_server
from memory_mcp.services import memories
from memory_mcp.services.reembed import reembed_all
from memory_mcp.services.startup import bootstrap_demo, create_runtime, create_runtime_unchecked

from conftest import ROOT, empty_database, settings_for

pytestmark = pytest.mark.anyio


def test_migrations_are_idempotent_and_recorded(fresh_database_url: str) -> None:
    assert migrate(fresh_database_url, ROOT / "migrations") == []  # fixture already applied them
    with psycopg.connect(fresh_database_url) as conn:
        rows = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
        ext = conn.execute("SELECT extversion FROM pg_extension WHERE extname='vector'").fetchone()
        hnsw = conn.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories'"
                            " AND indexdef LIKE '%USING hnsw%' ORDER BY indexname").fetchall()
    assert [r[0] for r in rows] == [m.version for m in load_migrations(ROOT / "migrations")]
    assert ext is not None and tuple(int(p) for p in ext[0].split(".")[:2]) >= (0, 8)
    # migration 0012: one graph per width and bucket of spaces, each a partial index
    assert [name for name, _ in hnsw] == sorted(
        f"memories_embedding_{w}hnsw_b{b:02d}" for w in ("", "384_") for b in range(SPACE_BUCKETS))
    assert all("halfvec_cosine_ops" in d and "m='32'" in d.replace(" ", "") for _, d in hnsw)
    assert all(f"& {SPACE_BUCKETS - 1}) = {int(n[-2:])})" in d for n, d in hnsw)


def test_migration_file_names_are_checked(tmp_path: Path) -> None:
    (tmp_path / "0001_ok.sql").write_text("SELECT 1;")
    (tmp_path / "0003_gap.sql").write_text("SELECT 1;")
    with pytest.raises(ConfigurationError, match="without gaps"):
        load_migrations(tmp_path)
    (tmp_path / "notes.sql").write_text("")
    with pytest.raises(ConfigurationError, match=r"0001_name\.sql"):
        load_migrations(tmp_path)


def test_failed_migration_leaves_nothing_behind(fresh_database_url: str, tmp_path: Path) -> None:
    for src in sorted((ROOT / "migrations").glob("*.sql")):
        (tmp_path / src.name).write_text(src.read_text())
    n = len(list(tmp_path.glob("*.sql")))
    (tmp_path / f"{n + 1:04d}_broken.sql").write_text(
        "CREATE TABLE half_done (id int); SELECT no_such_function();")
    with pytest.raises(psycopg.Error):
        migrate(fresh_database_url, tmp_path)
    with psycopg.connect(fresh_database_url) as conn:
        assert conn.execute("SELECT to_regclass('half_done')").fetchone() == (None,)
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (n,)


def test_a_migration_outside_a_transaction_resumes_after_a_failure(
        fresh_database_url: str, tmp_path: Path) -> None:
    """``CREATE INDEX CONCURRENTLY`` cannot run in a transaction: such a file runs statement by
    statement and is recorded only after its last one. Its first run fails half way, one index
    built and one left invalid by a failed build; run again, it keeps the built one, rebuilds
    the invalid one and is recorded once."""
    for src in sorted((ROOT / "migrations").glob("*.sql")):
        (tmp_path / src.name).write_text(src.read_text())
    n = len(list(tmp_path.glob("*.sql")))
    path = tmp_path / f"{n + 1:04d}_concurrent.sql"
    head = ("-- migrate: outside a transaction\n-- a comment; with a semicolon\n"
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS scratch_a_idx ON memories (updated_by);\n")
    with psycopg.connect(fresh_database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO users (email, display_name, role) VALUES "
                     "('scratch1@example.test', 'One', 'writer'), "
                     "('scratch2@example.test', 'One', 'writer')")
        built = conn.execute("SELECT oid FROM pg_class WHERE relname = 'scratch_a_idx'").fetchone()
        assert built is None
    # a unique index over duplicates fails after its catalog entry exists: left invalid
    path.write_text(head + "CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS scratch_b_idx "
                           "ON users (display_name);\n")
    with pytest.raises(psycopg.Error):
        migrate(fresh_database_url, tmp_path)
    with psycopg.connect(fresh_database_url) as conn:
        first = conn.execute("SELECT oid FROM pg_class WHERE relname = 'scratch_a_idx'").fetchone()
        invalid = conn.execute("SELECT indisvalid FROM pg_index WHERE indexrelid = "
                               "'scratch_b_idx'::regclass").fetchone()
        assert first is not None and invalid == (False,)
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (n,)
    path.write_text(head + "CREATE INDEX CONCURRENTLY IF NOT EXISTS scratch_b_idx "
                           "ON users (display_name);\n")
    assert migrate(fresh_database_url, tmp_path) == [path.stem]
    with psycopg.connect(fresh_database_url) as conn:
        again = conn.execute("SELECT oid FROM pg_class WHERE relname = 'scratch_a_idx'").fetchone()
        valid = conn.execute("SELECT bool_and(indisvalid) FROM pg_index WHERE indexrelid IN "
                             "('scratch_a_idx'::regclass, 'scratch_b_idx'::regclass)").fetchone()
        assert again == first and valid == (True,)  # the built index kept, the other rebuilt
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (n + 1,)
        conn.execute("DROP INDEX scratch_a_idx")
        conn.execute("DROP INDEX scratch_b_idx")
        conn.execute("DELETE FROM users WHERE email LIKE 'scratch_@example.test'")
        conn.execute("DELETE FROM schema_migrations WHERE version = %s", (n + 1,))
        conn.commit()


def _run_concurrently(url: str, directories: list[Path], pause: float = 0.0,
                      hold: Any = None) -> dict[int, object]:
    """``migrate`` from several threads at once (each ``pause`` s after the one before);
    ``hold``, a callable run once they are all started (a reader letting go, say)."""
    results: dict[int, object] = {}

    def run(i: int, directory: Path) -> None:
        try:
            results[i] = migrate(url, directory)
        except Exception as exc:  # reported below
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i, d)) for i, d in enumerate(directories)]
    for thread in threads:
        thread.start()
        time.sleep(pause)
    if hold is not None:
        hold()
    for thread in threads:
        thread.join(120)
    assert not any(t.is_alive() for t in threads), "a runner hung"
    return results


def test_runners_started_together_wait_for_each_other(pg_root_url: str) -> None:
    """Two servers (or a server and the CLI) starting on a fresh database: one migrates, the
    other waits for it (polling the lock, holding no snapshot that 0022's concurrent index
    builds would wait for) and finds nothing left to do."""
    url = empty_database(pg_root_url)
    results = _run_concurrently(url, [ROOT / "migrations"] * 2)
    assert not any(isinstance(r, Exception) for r in results.values()), results
    applied = sorted(len(r) for r in results.values())  # type: ignore[arg-type]
    assert applied == [0, len(load_migrations(ROOT / "migrations"))]


def test_a_runner_waiting_for_the_lock_does_not_stall_a_concurrent_index_build(
        pg_root_url: str, tmp_path: Path) -> None:
    """A database at 0021: the first runner builds 0022's indexes while a reader's snapshot
    delays it; a second runner arrives meanwhile and waits; both finish, the indexes valid."""
    url = empty_database(pg_root_url)
    early = tmp_path / "early"
    early.mkdir()
    for src in sorted((ROOT / "migrations").glob("*.sql")):
        if int(src.name[:4]) <= 21:
            (early / src.name).write_text(src.read_text())
    migrate(url, early)
    reader = psycopg.connect(url)
    reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
    reader.execute("SELECT count(*) FROM memories").fetchone()

    def let_go() -> None:
        time.sleep(1.0)
        reader.rollback()
        reader.close()

    results = _run_concurrently(url, [ROOT / "migrations"] * 2, pause=1.0, hold=let_go)
    assert not any(isinstance(r, Exception) for r in results.values()), results
    with psycopg.connect(url) as conn:
        valid = conn.execute("SELECT bool_and(indisvalid) FROM pg_index WHERE indexrelid::regclass"
                             "::text IN ('memories_space_past_hash_idx', "
                             "'memories_space_forgotten_idx')").fetchone()
    assert valid == (True,)


def test_a_file_outside_a_transaction_is_split_on_any_line_ending_and_holds_no_body(
        tmp_path: Path) -> None:
    (tmp_path / "0001_x.sql").write_text("-- migrate: outside a transaction\r\nSELECT 1;\r\n"
                                         "SELECT 2;\r\n")
    (migration,) = load_migrations(tmp_path)
    assert migration.statements() == ["-- migrate: outside a transaction\nSELECT 1",
                                      "SELECT 2"]  # read with universal newlines
    (tmp_path / "0001_x.sql").write_text("-- migrate: outside a transaction\n"
                                         "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ "
                                         "LANGUAGE sql;\n")
    (migration,) = load_migrations(tmp_path)
    with pytest.raises(ConfigurationError, match=r"\$\$"):
        migration.statements()


async def test_startup_refuses_a_changed_model_until_reembedded(fresh_database_url: str) -> None:
    local = settings_for(fresh_database_url)
    rt = await create_runtime(local)  # pins the local model
    try:
        demo = await bootstrap_demo(rt)
        assert demo is not None
        assert await bootstrap_demo(rt) is None  # only on an empty database
        member = await _principal(rt, demo["key"]["key"])
        await memories.save(rt, member, "Re-embedding keeps every memory searchable", None, "demo")
    finally:
        await rt.pool.close()

    other = settings_for(fresh_database_url, embedding_provider="openai",
                         openai_api_key="sk-test", embedding_model="text-embedding-3-large")
    with pytest.raises(ConfigurationError) as info:
        await create_runtime(other)
    message = str(info.value)
    assert "local:all-MiniLM-L6-v2-int8" in message and "openai:text-embedding-3-large" in message
    assert "memory-mcp reembed --yes" in message

    # Simulate having switched models earlier: pin something else, then re-embed with local.
    with psycopg.connect(fresh_database_url) as conn:
        conn.execute("UPDATE embedding_model SET model_id = 'openai:old-model', dimensions = 3072")
        # ... whose vectors filled all 3,072 dimensions: the rows live in the full-width index
        conn.execute("UPDATE memories SET embedding = array_fill(0.018::real, ARRAY[3072])"
                     "::vector::halfvec")
        assert conn.execute("SELECT DISTINCT embedding_width FROM memories").fetchall() == [(3072,)]
    with pytest.raises(ConfigurationError):
        await create_runtime(local)
    rt = await create_runtime_unchecked(local)
    try:
        result = await reembed_all(rt)
    finally:
        await rt.pool.close()
    assert result["reembedded"] == 1 and result["model"] == "local:all-MiniLM-L6-v2-int8"
    with psycopg.connect(fresh_database_url) as conn:  # back in the 384-d expression index
        assert conn.execute("SELECT DISTINCT embedding_width FROM memories").fetchall() == [(384,)]
        conn.execute("SET enable_seqscan = off")
        conn.execute("SET enable_bitmapscan = off")
        space_row = conn.execute("SELECT space_id, uuid_hash(space_id) & %s FROM memories LIMIT 1",
                                 (SPACE_BUCKETS - 1,)).fetchone()
        assert space_row is not None
        plan = " ".join(r[0] for r in conn.execute(
            f"EXPLAIN SELECT id FROM memories m WHERE m.space_id = %(space)s AND m.is_latest "
            f"AND NOT m.is_forgotten AND {VectorForm(384).predicate} "
            "ORDER BY subvector(m.embedding, 1, 384)::halfvec(384) "
            "<=> (SELECT subvector(embedding, 1, 384)::halfvec(384) FROM memories LIMIT 1) "
            "LIMIT 5", {"space": space_row[0]}).fetchall())
        assert f"memories_embedding_384_hnsw_b{space_row[1]:02d}" in plan
    rt = await create_runtime(local)
    try:
        member = await _principal(rt, demo["key"]["key"])
        found = await memories.search(rt, member, query="does re-embedding keep memories findable?",
                                      keyword=None, category=None, include_profile=False,
                                      container_tag=None, limit=1)
        assert found["results"][0]["memory"].startswith("Re-embedding")
    finally:
        await rt.pool.close()


async def _principal(rt: Any, key: str) -> Any:
    from memory_mcp.services.keys import authenticate

    async with rt.transaction(system=True) as conn:
        return await authenticate(conn, key)


async def test_registry_lists_every_tool_resource_and_prompt() -> None:
    server = build_server()
    listed = await server.list_tools()
    assert [t.name for t in listed] == [*widgets.WIDGET_TOOLS, *tools.TOOLS] == [
        "select-space", "guided-save", "upload-file", "upload-start", "upload-status",
        "memory-graph", "search_memory", "add_memory", "listDocuments", "getDocument",
        "deleteDocument", "listMemories", "listSpaces", "whoAmI"]
    by_name = {t.name: t for t in listed}
    for name in ("search_memory", "listDocuments", "getDocument", "listMemories", "listSpaces",
                 "whoAmI"):
        annotations = by_name[name].annotations
        assert annotations is not None and annotations.read_only_hint is True, name
    for name in ("add_memory", "deleteDocument"):
        annotations = by_name[name].annotations
        assert annotations is not None and annotations.destructive_hint is True, name
    for tool in listed:
        assert tool.description and len(tool.description) > 60, tool.name
    search_props = by_name["search_memory"].input_schema["properties"]
    assert set(search_props) == {"query", "keyword", "category", "includeProfile", "containerTag",
                                 "limit"}
    assert set(by_name["add_memory"].input_schema["properties"]) == {
        "content", "action", "category", "containerTag", "memoryId"}
    assert sorted(str(r.uri) for r in await server.list_resources()) == sorted(
        [*resources.RESOURCES, *(view.uri(name) for name, view in widgets.VIEWS.items())])
    assert [p.name for p in await server.list_prompts()] == ["context"]
