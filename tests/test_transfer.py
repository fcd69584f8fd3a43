"""Export and import of a space (services/transfer_*.py) against real PostgreSQL + pgvector.

A space is seeded through the real services (saves, a new version, a forget, a processed
upload, two authors, recalls), exported, and imported into a second, fresh database and into
another space of the same one. What must survive: search results (same texts, same order, so
the derived counters behind the lexical ranking are right too), every version with its forgotten
state and reason, documents with their text and stored original. Also: a bad line is reported
by number with nothing written, a failed batch is rolled back whole, a second import changes
nothing, authors map by email or to the importing user, and a file from another embedding model
is embedded again with the configured one.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import anyio.to_thread
import psycopg
import pytest
from test_documents import uploaded

from memory_mcp.db.pool import open_pool
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.embeddings import Embedder
from memory_mcp.errors import InvalidInputError
from memory_mcp.services import admin, memories, recall, uploads
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.startup import check_model
from memory_mcp.services.transfer_export import export_space
from memory_mcp.services.transfer_import import ImportWriteError, import_space

from conftest import ROOT, World, package_logging_restored, settings_for
from lambda_context import FakeContext

pytestmark = pytest.mark.anyio

NOTES = b"""# Falcon runbook

The on-call engineer during launch week is Priya.
Customer emails go out two days after the launch.
Rollbacks need approval from the release captain.
"""
FACTS = [
    ("The staging database lives in eu-west-1.", "infrastructure"),
    ("Alice prefers tabs over spaces in Python code.", "preference"),
    ("Deploys are frozen on Fridays after 3pm.", "policy"),
    ("The billing service is written in Go.", None),
    ("Project Falcon launches on March 3rd.", "decision"),
]
QUERIES = ["who is on call", "where is the staging database", "when does Falcon launch",
           "deploy freeze", "billing language", "rollback approval"]


async def make_runtime(url: str, embedder: Embedder, storage: LocalStorage) -> Runtime:
    settings = settings_for(url)
    rt = Runtime(settings=settings, pool=await open_pool(settings, url), embedder=embedder,
                 storage=storage)
    async with rt.transaction(system=True) as conn:
        await check_model(conn, embedder)
    return rt


@pytest.fixture
async def target(fresh_database_url: str, embedder: Embedder, tmp_path: Path
                 ) -> AsyncIterator[Runtime]:
    """A second, freshly migrated database with its own object storage: another deployment."""
    rt = await make_runtime(fresh_database_url, embedder,
                            LocalStorage(tmp_path / "target-objects", b"other-secret"))
    try:
        yield rt
    finally:
        await rt.pool.close()


class Seeded:
    def __init__(self, space: str, emails: list[str], doc_id: UUID) -> None:
        self.space, self.emails, self.doc_id = space, emails, doc_id


@pytest.fixture
async def seeded(rt: Runtime, world: World, tools: Extractors) -> Seeded:
    space = await world.space("exp")
    alice = await world.member(grants={space: "readwrite"}, name="Alice")
    bob = await world.member(grants={space: "readwrite"}, name="Bob")
    for text, category in FACTS:
        await memories.save(rt, alice.principal, text, category, space)
    again = await memories.save(rt, bob.principal, "Project Falcon launches on March 10th.",
                                None, space)
    assert again["memory"]["version"] == 2, again  # a real version chain to carry over
    billing = await recall.search(rt, bob.principal, query=None, keyword="billing",
                                  category=None, include_profile=False, container_tag=space,
                                  limit=1)
    await memories.forget(rt, bob.principal, None, billing["results"][0]["id"], space)
    doc_id = await uploaded(rt, alice.principal, "runbook.md", "text/markdown", NOTES, space)
    assert await process(rt, tools, doc_id) == "done"
    return Seeded(space, [alice.user["email"], bob.user["email"]], doc_id)


async def export_text(rt: Runtime, space: str, **kwargs: Any) -> str:
    out = io.StringIO()
    await export_space(rt, space, out, **kwargs)
    return out.getvalue()


def write(tmp_path: Path, text: str, name: str = "space.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


async def users_like(rt: Runtime, emails: list[str]) -> str:
    """Users with the given emails in ``rt``'s database; returns the last one's email."""
    for email in emails:
        await admin.create_user(rt, email, email.split("@")[0], "writer")
    return emails[-1]


async def searches(rt: Runtime, space: str) -> list[list[str]]:
    """What a reader sees for each query (texts in order), read with a key of that database."""
    reader = await World(rt).member("reader", grants={space: "read"})
    results = []
    for q in QUERIES:
        found = await recall.search(rt, reader.principal, query=q, keyword=None, category=None,
                                    include_profile=False, container_tag=space, limit=5)
        results.append([hit["memory"] for hit in found["results"]])
    return results


def history(url: str, space: str) -> list[tuple[Any, ...]]:
    """Every memory of the space with its chain, state, reason, times and authors' emails."""
    with psycopg.connect(url) as conn:
        return conn.execute(
            """SELECT m.content, m.category, m.version, p.content, m.is_latest, m.is_forgotten,
                      m.forget_reason, m.forgotten_at, fu.email, m.created_at, m.updated_at,
                      cu.email, uu.email, d.title, coalesce(r.recall_count, 0)
                 FROM memories m JOIN spaces s ON s.id = m.space_id
                 LEFT JOIN memories p ON p.id = m.parent_id
                 LEFT JOIN users fu ON fu.id = m.forgotten_by
                 JOIN users cu ON cu.id = m.created_by JOIN users uu ON uu.id = m.updated_by
                 LEFT JOIN documents d ON d.id = m.source_document_id
                 LEFT JOIN memory_recalls r ON r.memory_id = m.id
                WHERE s.key = %s ORDER BY m.content, m.version""", (space,)).fetchall()


def derived(url: str, space: str) -> tuple[Any, ...]:
    """The space's trigger-maintained counters (0008) and its documents."""
    with psycopg.connect(url) as conn:
        stats = conn.execute("""SELECT live_memories, all_memories FROM space_stats t
                                JOIN spaces s ON s.id = t.space_id WHERE s.key = %s""",
                             (space,)).fetchall()
        terms = conn.execute("""SELECT lexeme, df FROM space_terms t JOIN spaces s
                                ON s.id = t.space_id WHERE s.key = %s AND df > 0
                                ORDER BY lexeme""", (space,)).fetchall()
        docs = conn.execute(
            """SELECT title, filename, content_type, size_bytes, status, summary, content,
                      memories_created, indexed_chars, d.created_at FROM documents d
                 JOIN spaces s ON s.id = d.space_id WHERE s.key = %s ORDER BY title""",
            (space,)).fetchall()
    return stats, terms, docs


def url_of(rt: Runtime) -> str:
    assert rt.settings.database_url is not None
    return rt.settings.database_url.get_secret_value()


async def test_round_trip_into_a_fresh_database(rt: Runtime, seeded: Seeded, target: Runtime,
                                                tmp_path: Path) -> None:
    before = await searches(rt, seeded.space)  # searching counts recalls: done before exporting
    text = await export_text(rt, seeded.space, with_files=True)
    header = json.loads(text.splitlines()[0])
    assert header["format"] == "memory-mcp-space-export" and header["version"] == 1
    assert header["embedding"]["model_id"] == rt.embedder.model_id
    assert header["counts"]["files"] == 1 and header["counts"]["users"] == 2

    await users_like(target, seeded.emails)
    result = await import_space(target, write(tmp_path, text), seeded.space)
    assert result["created_space"] is True and result["reembedded"] is False
    assert result["memories"] == header["counts"]["memories"] and result["skipped_memories"] == 0
    assert sorted(result["authors_mapped"]) == sorted(e.lower() for e in seeded.emails)
    assert result["authors_to_importing_user"] == []

    assert history(url_of(target), seeded.space) == history(url_of(rt), seeded.space)
    assert derived(url_of(target), seeded.space) == derived(url_of(rt), seeded.space)
    assert await searches(target, seeded.space) == before
    with psycopg.connect(url_of(target)) as conn:  # a fresh deployment keeps every id
        row = conn.execute("SELECT storage_key FROM documents WHERE id = %s",
                           (seeded.doc_id,)).fetchone()
    assert row is not None and row[0].startswith(f"imports/{seeded.space}/")
    assert target.storage is not None
    assert target.storage.read(row[0], 10_000) == NOTES


async def test_second_import_changes_nothing(rt: Runtime, seeded: Seeded, target: Runtime,
                                             tmp_path: Path) -> None:
    path = write(tmp_path, await export_text(rt, seeded.space, with_files=True))
    importer = await users_like(target, ["importer@example.test"])
    first = await import_space(target, path, "moved", fallback_user=importer)
    snapshot = (history(url_of(target), "moved"), derived(url_of(target), "moved"))
    again = await import_space(target, path, "moved", fallback_user=importer)
    assert again["memories"] == again["documents"] == again["files"] == 0
    assert again["embedded"] == 0, "a re-run embeds nothing"
    assert again["skipped_memories"] == first["memories"]
    assert (history(url_of(target), "moved"), derived(url_of(target), "moved")) == snapshot


async def test_another_space_of_the_same_database(rt: Runtime, seeded: Seeded, world: World,
                                                  tmp_path: Path) -> None:
    before = await searches(rt, seeded.space)
    path = write(tmp_path, await export_text(rt, seeded.space))
    copy = await world.space("copy")
    result = await import_space(rt, path, copy)
    assert result["created_space"] is False and result["memories"] > 0
    assert await searches(rt, copy) == before
    assert derived(url_of(rt), copy)[:2] == derived(url_of(rt), seeded.space)[:2]
    into_itself = await import_space(rt, path, seeded.space)  # same space: the same ids
    assert into_itself["memories"] == 0 and into_itself["documents"] == 0


async def test_authors_map_by_email_or_to_the_importing_user(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    path = write(tmp_path, await export_text(rt, seeded.space))
    alice, bob = seeded.emails
    await users_like(target, [alice.upper()])  # emails match case-insensitively
    with pytest.raises(InvalidInputError, match=r"1 author\(s\).*--user") as refused:
        await import_space(target, path, "mapped")
    assert bob in str(refused.value)
    assert derived(url_of(target), "mapped") == ([], [], []), "refused before writing"

    importer = await users_like(target, ["ops@example.test"])
    result = await import_space(target, path, "mapped", fallback_user=importer)
    assert result["authors_mapped"] == [alice.lower()]
    assert result["authors_to_importing_user"] == [bob.lower()]
    authors = {(row[0], row[11]) for row in history(url_of(target), "mapped")}
    source = {(row[0], row[11]) for row in history(url_of(rt), seeded.space)}
    expected = {(text, alice.upper() if who == alice else importer) for text, who in source}
    assert authors == expected


def _lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def _text(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


async def test_bad_lines_are_reported_by_number_and_write_nothing(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    records = _lines(await export_text(rt, seeded.space))
    importer = await users_like(target, ["ops2@example.test"])
    memory_at = next(i for i, r in enumerate(records) if r.get("type") == "memory")
    second_version = next(i for i, r in enumerate(records) if r.get("version") == 2)

    broken = [r.copy() for r in records]
    broken[memory_at]["version"] = "two"
    parent = records[second_version]["parent_id"]
    orphan = [r for r in records if r.get("id") != parent or r.get("type") != "memory"]
    cases = {
        "version": (_text(broken), memory_at + 1),
        "previous version": (_text(orphan), None),
        "not valid JSON": ("\n".join(json.dumps(r) for r in records[:3]) + "\n{oops\n", 4),
        "without its end record": (_text(records[:-1]), len(records) - 1),
        "header": (_text(records[1:]), 1),
        "NUL": (_text([*records[:memory_at], {**records[memory_at], "content": "a\u0000b"},
                       *records[memory_at + 1:]]), memory_at + 1),
        "embedding": (_text([*records[:memory_at], {**records[memory_at], "embedding": [
            1e6, *records[memory_at]["embedding"][1:]]}, *records[memory_at + 1:]]),
            memory_at + 1),
        "all zeros": (_text([*records[:memory_at], {**records[memory_at], "embedding": [
            0.0] * len(records[memory_at]["embedding"])}, *records[memory_at + 1:]]),
            memory_at + 1),
    }
    for needle, (text, line) in cases.items():
        with pytest.raises(InvalidInputError) as exc:
            await import_space(target, write(tmp_path, text), "bad", fallback_user=importer)
        message = str(exc.value)
        assert "Nothing was imported" in message
        if line is not None:
            assert message.startswith(f"line {line}:"), (needle, message)
        assert needle in message or needle == "not valid JSON", (needle, message)
    assert derived(url_of(target), "bad") == ([], [], []), "no space, no row"


async def test_a_failing_batch_leaves_no_stored_original(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    """A batch that stored a document's original and then failed on a later row: its rows are
    rolled back and its original is removed again, so no file is left that no document names;
    the import run again (fixed) stores it once."""
    records = _lines(await export_text(rt, seeded.space, with_files=True))
    importer = await users_like(target, ["ops9@example.test"])
    doc = next(i for i, r in enumerate(records) if r.get("type") == "document")
    mem = next(i for i, r in enumerate(records) if r.get("type") == "memory" and i > doc)
    original = records[mem].get("recall_count")
    records[mem]["recall_count"] = 2**40  # accepted by the format, refused by the database
    with pytest.raises(ImportWriteError, match="rolled back"):
        await import_space(target, write(tmp_path, _text(records)), "orphan",
                           fallback_user=importer, batch=1000)
    objects = tmp_path / "target-objects"
    assert [p for p in objects.rglob("*") if p.is_file()] == []
    records[mem]["recall_count"] = original
    done = await import_space(target, write(tmp_path, _text(records)), "orphan",
                              fallback_user=importer, batch=1000)
    assert done["files"] == 1 and len([p for p in objects.rglob("*") if p.is_file()]) == 1


async def test_a_failing_batch_is_rolled_back_whole(rt: Runtime, seeded: Seeded, target: Runtime,
                                                    tmp_path: Path) -> None:
    """A line the format accepts but the database refuses (an integer past the column's
    range): its batch leaves nothing behind, the batches before it stand."""
    records = _lines(await export_text(rt, seeded.space))
    importer = await users_like(target, ["ops3@example.test"])
    doc = next(i for i, r in enumerate(records) if r.get("type") == "document")
    records[doc]["pages"] = 2**40
    path = write(tmp_path, _text(records))
    with pytest.raises(ImportWriteError, match=r"lines \d+-\d+ could not be written") as exc:
        await import_space(target, path, "half", fallback_user=importer, batch=3)
    assert "rolled back" in str(exc.value) and str(2**40) not in str(exc.value)
    with psycopg.connect(url_of(target)) as conn:
        docs = conn.execute("SELECT count(*) FROM documents").fetchone()
        mems = conn.execute("SELECT count(*) FROM memories m JOIN spaces s ON s.id = m.space_id"
                            " WHERE s.key = 'half'").fetchone()
    assert docs == (0,)
    # the document comes right after the users, so its batch (the first) held the first memories
    first_batch = [r for r in records[doc:doc + 3] if r.get("type") == "memory"]
    assert mems == (0,) and len(first_batch) == 2

    records[doc]["pages"] = 3  # fixed: the same import now completes
    done = await import_space(target, write(tmp_path, _text(records)), "half",
                              fallback_user=importer, batch=3)
    assert done["documents"] == 1 and done["memories"] == sum(
        1 for r in records if r.get("type") == "memory")


async def test_a_file_from_another_model_is_embedded_again(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    """The header says Titan (1024 dims) and the vectors are of that width but meaningless: the
    importer must not use them, and search must still match the source exactly."""
    before = await searches(rt, seeded.space)
    records = _lines(await export_text(rt, seeded.space))
    records[0]["embedding"] = {"model_id": "amazon.titan-embed-text-v2:0", "dimensions": 1024}
    for r in records:
        if r.get("type") == "memory":
            seed = hashlib.sha256(r["content"].encode()).digest()
            r["embedding"] = [((seed[i % 32] / 255.0) - 0.5) for i in range(1024)]
    await users_like(target, seeded.emails)
    calls: list[tuple[str, int, int]] = []
    result = await import_space(target, write(tmp_path, _text(records)), seeded.space,
                                progress=lambda *a: calls.append(a))
    n = sum(1 for r in records if r.get("type") == "memory")
    assert result["reembedded"] is True and result["embedded"] == n == result["memories"]
    assert calls and calls[-1][1] == calls[-1][2] and calls[-1][0] == "import"
    assert await searches(target, seeded.space) == before
    with psycopg.connect(url_of(target)) as conn:
        rows = conn.execute("SELECT content, embedding::text FROM memories").fetchall()
    fresh = await target.embed([content for content, _ in rows])
    with psycopg.connect(url_of(target)) as conn:
        for (_, stored), expected in zip(rows, fresh, strict=True):
            cur = conn.execute("SELECT 1 - (%s::halfvec <=> %s::halfvec)", (stored, expected))
            similarity = cur.fetchone()
            assert similarity is not None and similarity[0] > 0.999


async def test_export_and_import_are_audited(rt: Runtime, seeded: Seeded, world: World,
                                             tmp_path: Path) -> None:
    path = write(tmp_path, await export_text(rt, seeded.space))
    copy = await world.space("audit")
    await import_space(rt, path, copy)
    with psycopg.connect(url_of(rt)) as conn:
        kinds = conn.execute(
            """SELECT e.kind, e.detail FROM audit_events e JOIN spaces s ON s.id = e.space_id
               WHERE s.key = ANY(%s) AND e.kind IN ('space.export', 'space.import')
               ORDER BY e.id""",
            ([seeded.space, copy],)).fetchall()
    assert [k for k, _ in kinds] == ["space.export", "space.import"]
    assert kinds[1][1]["counts"]["memories"] > 0
    assert "content" not in json.dumps(kinds), "ids and counts only, never content"


# -- the admin Lambda: export and import against S3 objects (moto) ------------------------------


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """The admin handler routes package loggers through Powertools; undo that afterwards."""
    with package_logging_restored():
        yield


def load_admin_handler() -> Any:
    spec = importlib.util.spec_from_file_location(f"lambda_admin_{uuid.uuid4().hex[:6]}",
                                                  ROOT / "functions" / "admin" / "handler.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.handler


async def test_admin_lambda_exports_and_imports_s3_objects(
        rt: Runtime, seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        restore_logging: None) -> None:
    import boto3
    import moto

    for name, value in {"DATABASE_URL": url_of(rt), "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations"),
                        "MEMORY_MCP_UPLOADS_BUCKET": "uploads-test", "AWS_DEFAULT_REGION": "eu-west-1",
                        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "MEMORY_MCP_RATE_LIMIT_REQUESTS_PER_MINUTE": "0",
                        "POWERTOOLS_METRICS_NAMESPACE": "MemoryMcpTest"}.items():
        monkeypatch.setenv(name, value)
    before = await searches(rt, seeded.space)
    with_files = await export_text(rt, seeded.space, with_files=True)  # the local original
    with moto.mock_aws():
        s3 = boto3.client("s3")
        for bucket in ("ops-exports", "uploads-test"):
            s3.create_bucket(Bucket=bucket,
                             CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
        s3.put_object(Bucket="ops-exports", Key="in/space.jsonl", Body=with_files.encode())
        handler = load_admin_handler()

        def invoke(*args: str) -> dict[str, Any]:
            result: dict[str, Any] = handler({"args": list(args)}, FakeContext())
            return result

        exported = await anyio.to_thread.run_sync(
            invoke, "export", "--space", seeded.space, "--output", "s3://ops-exports/out/a.jsonl")
        assert exported["ok"], exported
        assert exported["result"]["output"] == "s3://ops-exports/out/a.jsonl"
        body = s3.get_object(Bucket="ops-exports", Key="out/a.jsonl")["Body"].read().decode()
        assert json.loads(body.splitlines()[0])["counts"]["memories"] == \
            exported["result"]["memories"]

        copy = f"lambda-{uuid.uuid4().hex[:8]}"
        imported = await anyio.to_thread.run_sync(
            invoke, "import", "s3://ops-exports/in/space.jsonl", "--space", copy)
        assert imported["ok"], imported
        assert imported["result"]["files"] == 1 and imported["result"]["created_space"] is True
        stored = s3.list_objects_v2(Bucket="uploads-test", Prefix=f"imports/{copy}/")
        (obj,) = stored["Contents"]
        assert s3.get_object(Bucket="uploads-test", Key=obj["Key"])["Body"].read() == NOTES

        missing = await anyio.to_thread.run_sync(
            invoke, "import", "s3://ops-exports/nope.jsonl", "--space", copy)
        assert missing == {"ok": False, "command": "import",
                           "error": "Cannot read s3://ops-exports/nope.jsonl (404)."}
        local = await anyio.to_thread.run_sync(invoke, "export", "--space", seeded.space)
        assert local["ok"] is False and "--output s3://bucket/key" in local["error"]

        doctor = await anyio.to_thread.run_sync(invoke, "doctor")
        assert doctor["ok"] is True and doctor["result"]["ok"] is True, doctor
        monkeypatch.setenv("MEMORY_MCP_UPLOADS_BUCKET", "no-such-bucket")
        broken = await anyio.to_thread.run_sync(invoke, "doctor")
        assert broken["ok"] is False and broken["result"]["ok"] is False
        assert [c["status"] for c in broken["result"]["checks"] if c["name"] == "storage"] == [
            "fail"]
    assert await searches(rt, copy) == before


async def test_an_original_that_cannot_be_stored_rolls_its_batch_back(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    path = write(tmp_path, await export_text(rt, seeded.space, with_files=True))
    importer = await users_like(target, ["ops4@example.test"])
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the storage folder should be")
    target.storage = LocalStorage(blocker / "objects", b"x")
    with pytest.raises(ImportWriteError, match=r"could not be written \(the original could not "
                                               r"be stored \(NotADirectoryError\)\)"):
        await import_space(target, path, "nofiles", fallback_user=importer)
    assert derived(url_of(target), "nofiles")[2] == [], "the document row was rolled back"


async def _falcon_already_live(target: Runtime) -> str:
    """A space of ``target`` where the seeded fact's current text is live already."""
    world = World(target)
    dup = await world.space("dup")
    here = await world.member("writer", grants={dup: "readwrite"})
    await memories.save(target, here.principal, "Project Falcon launches on March 10th.", None,
                        dup)
    return dup


def _headless(target: Runtime, space: str) -> list[tuple[str]]:
    """Texts of the space's rows whose fact has no current version."""
    with psycopg.connect(url_of(target)) as conn:
        return conn.execute(
            """SELECT m.content FROM memories m JOIN spaces s ON s.id = m.space_id
               WHERE s.key = %s AND NOT EXISTS (
                   SELECT 1 FROM memories l WHERE l.root_id = m.root_id AND l.is_latest)""",
            (space,)).fetchall()


async def test_a_chain_whose_current_text_is_already_live_here_leaves_no_headless_history(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    """The target space already has, live, the text of an imported fact's current version:
    that version is skipped (one live memory per text), and the fact's older versions, which
    would be history with no current version, are not left behind either; the answer counts
    them."""
    text = await export_text(rt, seeded.space)
    importer = await users_like(target, ["ops10@example.test"])
    dup = await _falcon_already_live(target)
    result = await import_space(target, write(tmp_path, text), dup, fallback_user=importer)
    headless = _headless(target, dup)
    with psycopg.connect(url_of(target)) as conn:
        live = conn.execute(
            """SELECT count(*) FROM memories m JOIN spaces s ON s.id = m.space_id
               WHERE s.key = %s AND m.content = 'Project Falcon launches on March 10th.'""",
            (dup,)).fetchone()
    assert headless == [] and live == (1,)
    assert result["skipped_history"] == 1


async def test_a_documents_memories_keep_their_order_in_another_space(
        rt: Runtime, world: World, tools: Extractors, tmp_path: Path) -> None:
    """A document's memories share one commit time and list by id within it; in another space
    the ids are derived, so the import keeps the file's order another way: getDocument and
    listMemories list the copy exactly as the original."""
    from memory_mcp.services import documents

    source, copy = await world.space("ord"), await world.space("ord")
    m = await world.member(grants={source: "readwrite", copy: "readwrite"})
    steps = "".join(f"Step {i}: run check number {i} of the release.\n" for i in range(1, 31))
    doc_id = await uploaded(rt, m.principal, "steps.md", "text/markdown", steps.encode(), source)
    assert await process(rt, tools, doc_id) == "done"
    await import_space(rt, write(tmp_path, await export_text(rt, source)), copy)

    async def order(space: str) -> tuple[list[str], list[str]]:
        listed = await documents.list_page(rt, m.principal, 1, 1, space)
        doc = await documents.get(rt, m.principal, listed["documents"][0]["id"], space)
        page = await memories.list_page(rt, m.principal, 1, 50, space)
        return ([x["memory"] for x in doc["memories"]],
                [x["memory"] for x in page["memories"]])

    original, copied = await order(source), await order(copy)
    assert original[0][:3] == ["Step 1: run check number 1 of the release.",
                               "Step 2: run check number 2 of the release.",
                               "Step 3: run check number 3 of the release."]
    assert copied == original


async def test_missing_files_counts_only_originals_that_arrived_and_are_gone(
        rt: Runtime, seeded: Seeded, storage: LocalStorage) -> None:
    """An upload whose file never came is exported with no file and is not called missing; an
    original that arrived and is gone from storage is."""
    alice = await World(rt).member(grants={seeded.space: "readwrite"})
    await uploads.create_upload(rt, alice.principal, filename="never.md",
                                content_type="text/markdown", size=10,
                                container_tag=seeded.space, base_url="http://t/")
    out = io.StringIO()
    summary = await export_space(rt, seeded.space, out, with_files=True)
    assert (summary["files"], summary["missing_files"]) == (1, 0)
    for path in storage.root.rglob("*"):
        if path.is_file():
            path.unlink()
    summary = await export_space(rt, seeded.space, io.StringIO(), with_files=True)
    assert (summary["files"], summary["missing_files"]) == (0, 1)


async def test_a_merge_import_gives_an_uncategorised_identical_memory_its_category(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    """The target already has an exported text live: the import skips it (one live memory per
    text) and, as a save with a category would, gives it the file's category when it has
    none; a category already set here is kept."""
    text = await export_text(rt, seeded.space)
    importer = await users_like(target, ["ops11@example.test"])
    world = World(target)
    merged = await world.space("merge")
    here = await world.member("writer", grants={merged: "readwrite"})
    await memories.save(target, here.principal, "The staging database lives in eu-west-1.",
                        None, merged)
    await memories.save(target, here.principal, "Alice prefers tabs over spaces in Python code.",
                        "style", merged)
    await import_space(target, write(tmp_path, text), merged, fallback_user=importer)
    with psycopg.connect(url_of(target)) as conn:
        rows: dict[str, str] = dict(conn.execute(
            """SELECT m.content, m.category FROM memories m JOIN spaces s ON s.id = m.space_id
               WHERE s.key = %s AND m.is_latest AND NOT m.is_forgotten
                 AND m.content IN ('The staging database lives in eu-west-1.',
                                   'Alice prefers tabs over spaces in Python code.')""",
            (merged,)).fetchall())
    assert rows == {"The staging database lives in eu-west-1.": "infrastructure",
                    "Alice prefers tabs over spaces in Python code.": "style"}


async def test_a_rerun_after_a_failed_batch_leaves_no_headless_history(
        rt: Runtime, seeded: Seeded, target: Runtime, tmp_path: Path) -> None:
    """The first run inserts a fact's older version in an early batch and fails later; the
    fixed re-run skips that row as already there and the fact's current version as already
    live here: the older version is still dropped (the check covers the file, not the run)."""
    records = _lines(await export_text(rt, seeded.space))
    importer = await users_like(target, ["ops12@example.test"])
    dup = await _falcon_already_live(target)
    mems = [i for i, r in enumerate(records) if r.get("type") == "memory"]
    v1 = next(i for i in mems if records[i]["content"] == "Project Falcon launches on March 3rd.")
    last = next(i for i in reversed(mems) if i > v1 and "Falcon" not in records[i]["content"])
    original = records[last].get("recall_count")
    records[last]["recall_count"] = 2**40  # the last batch fails
    with pytest.raises(ImportWriteError):
        await import_space(target, write(tmp_path, _text(records)), dup,
                           fallback_user=importer, batch=1)
    records[last]["recall_count"] = original
    result = await import_space(target, write(tmp_path, _text(records)), dup,
                                fallback_user=importer, batch=1)
    headless = _headless(target, dup)
    assert headless == [] and result["skipped_history"] == 1
