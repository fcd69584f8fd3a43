"""Facts two documents (or a document and a person) share: deleting one source keeps them.

Real PostgreSQL, the real pipeline with the offline extractor, the real model. The scenario a
user meets: upload a revised file, delete the old one, and the facts the two have in common
must stay searchable (migrations 0018-0019, ``document_statements``).
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any
from uuid import UUID

import anyio
import psycopg
import pytest
from test_documents import uploaded

from memory_mcp.db import processing
from memory_mcp.db.migrator import migrate
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.errors import MemoryMcpError
from memory_mcp.mcp import formatting
from memory_mcp.services import admin, documents, memories
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.transfer_export import export_space
from memory_mcp.services.transfer_import import import_space

from conftest import ROOT, empty_database

pytestmark = pytest.mark.anyio

OLD = b"""# Launch notes

The launch date for Project Falcon is March 3rd.
The on-call engineer during launch week is Priya.
Customer emails go out two days after the launch.
"""

#: The revised file: two lines kept word for word, one dropped, one added.
NEW = b"""# Launch notes

The launch date for Project Falcon is March 3rd.
The on-call engineer during launch week is Priya.
The press kit lives in the marketing drive under Falcon.
"""


async def keyword(rt: Runtime, principal: Any, space: str, word: str) -> list[dict[str, Any]]:
    found = await memories.search(rt, principal, query=None, keyword=word, category=None,
                                  include_profile=False, container_tag=space, limit=10)
    return list(found["results"])


async def facts_of(rt: Runtime, principal: Any, doc: UUID) -> list[str]:
    got = await documents.get(rt, principal, str(doc))
    return [m["memory"] for m in got["memories"] if not m["isForgotten"]]


async def one_file(rt: Runtime, world: Any, tools: Extractors) -> tuple[str, Any, UUID]:
    """A space, a writer there, and OLD uploaded and processed: the start of most scenarios."""
    space = await world.space()
    writer = await world.member(grants={space: "readwrite"})
    doc = await uploaded(rt, writer.principal, "launch.md", "text/markdown", OLD, space)
    assert await process(rt, tools, doc) == "done"
    return space, writer, doc


async def two_versions(rt: Runtime, world: Any, tools: Extractors
                       ) -> tuple[str, Any, UUID, UUID]:
    space, writer, old = await one_file(rt, world, tools)
    new = await uploaded(rt, writer.principal, "launch-v2.md", "text/markdown", NEW, space)
    assert await process(rt, tools, new) == "done"
    return space, writer, old, new


async def test_deleting_the_old_file_keeps_the_facts_the_new_one_states(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    space, writer, old, new = await two_versions(rt, world, tools)
    old_facts = await facts_of(rt, writer.principal, old)
    shared = [f for f in old_facts if "Priya" in f or "March 3rd" in f]
    assert len(shared) == 2
    # the new file lists (and counts) the facts it shares, though the old one created them
    new_facts = await facts_of(rt, writer.principal, new)
    assert set(shared) <= set(new_facts) and any("press kit" in f for f in new_facts)
    listed = {d["id"]: d for d in
              (await documents.list_page(rt, writer.principal, 1, 10, space))["documents"]}
    assert listed[str(new)]["memoryCount"] == len(new_facts)

    result = await documents.delete(rt, writer.principal, str(old))
    assert result["keptMemories"] == 2
    assert result["forgottenMemories"] == len(old_facts) - 2
    assert "2 kept (2 stated by another document)" in formatting.deleted_document(result)
    priya = await keyword(rt, writer.principal, space, "Priya")
    assert len(priya) == 1 and priya[0]["sourceDocumentId"] == str(new)
    assert priya[0]["sourceDocumentTitle"] == "Launch notes"  # hits name their document
    assert f"from document 'Launch notes' ({new})" in formatting.memory_line(priya[0])
    assert await keyword(rt, writer.principal, space, "emails") == []  # only the old file said it
    listed_all = await memories.list_page(rt, writer.principal, 1, 20, space)
    emails = next(x for x in listed_all["memories"] if "emails" in x["memory"])
    assert emails["isForgotten"] and emails["forgetReason"] == "source document deleted"
    assert "with its document" in formatting.memory_line(emails)

    # the kept facts now belong to the new file: deleting it forgets them
    again = await documents.delete(rt, writer.principal, str(new))
    assert again["keptMemories"] == 0 and again["forgottenMemories"] == 3
    assert await keyword(rt, writer.principal, space, "Priya") == []


async def test_deleting_the_new_file_first_keeps_the_old_files_facts(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    space, writer, old, new = await two_versions(rt, world, tools)
    result = await documents.delete(rt, writer.principal, str(new))
    # the two shared facts stay (the old file created them); only the new line goes
    assert result["keptMemories"] == 2 and result["forgottenMemories"] == 1
    assert await keyword(rt, writer.principal, space, "press") == []
    priya = await keyword(rt, writer.principal, space, "Priya")
    assert len(priya) == 1 and priya[0]["sourceDocumentId"] == str(old)


async def test_a_persons_save_of_a_documents_fact_outlives_the_document(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    space, writer, doc = await one_file(rt, world, tools)
    fact = next(f for f in await facts_of(rt, writer.principal, doc) if "Priya" in f)

    saved = await memories.save(rt, writer.principal, fact, None, space)
    assert saved["action"] == "unchanged" and saved["keptFromDocument"] == str(doc)
    assert saved["memory"]["sourceDocumentId"] == str(doc)  # it still names its document
    assert "deleting that document no longer forgets it" in formatting.saved(saved)
    assert fact in await facts_of(rt, writer.principal, doc)  # the document still lists it
    again = await memories.save(rt, writer.principal, fact, None, space)
    assert again["action"] == "unchanged" and "keptFromDocument" not in again

    result = await documents.delete(rt, writer.principal, str(doc))
    assert result["keptMemories"] == 1 and result["forgottenMemories"] == 2
    assert "1 kept (1 saved or corrected by a person)" in formatting.deleted_document(result)
    kept = await keyword(rt, writer.principal, space, "Priya")
    assert [h["memory"] for h in kept] == [fact]
    assert await keyword(rt, writer.principal, space, "emails") == []
    # it still names its document, which is gone: the answer says so (getDocument would not
    # find it)
    assert kept[0]["sourceDocumentId"] == str(doc) and kept[0]["sourceDocumentDeleted"] is True
    assert f"from deleted document 'Launch notes' ({doc})" in formatting.memory_line(kept[0])


async def test_a_delete_during_the_commit_of_a_file_that_states_the_same_facts(
    rt: Runtime, world: Any, tools: Extractors, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old file is deleted while the new one's commit is open (its statements written, not
    yet committed): the delete waits for that commit (the space's document lock), sees the new
    file's statements and keeps the shared facts. Without the lock it would forget them."""
    space, writer, old = await one_file(rt, world, tools)
    new = await uploaded(rt, writer.principal, "launch-v2.md", "text/markdown", NEW, space)
    in_commit, deleted = anyio.Event(), anyio.Event()
    finish = processing.finish

    async def held_open(*args: Any, **kwargs: Any) -> None:
        in_commit.set()
        with anyio.move_on_after(3):  # the delete cannot finish meanwhile: it waits for us
            await deleted.wait()
        await finish(*args, **kwargs)

    async def delete_old() -> None:
        await in_commit.wait()
        await documents.delete(rt, writer.principal, str(old))
        deleted.set()

    monkeypatch.setattr(processing, "finish", held_open)
    async with anyio.create_task_group() as tg:
        tg.start_soon(process, rt, tools, new)
        tg.start_soon(delete_old)
    assert len(await keyword(rt, writer.principal, space, "Priya")) == 1
    assert len(await keyword(rt, writer.principal, space, "press")) == 1
    assert await keyword(rt, writer.principal, space, "emails") == []


async def copy_space(rt: Runtime, source: str, target: str, tmp_path: Path) -> str:
    """Export ``source`` and import the file into ``target``; returns the export's text."""
    out = io.StringIO()
    await export_space(rt, source, out)
    path = tmp_path / "space.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    await import_space(rt, path, target)
    return out.getvalue()


async def test_export_and_import_carry_which_documents_state_a_fact(
    rt: Runtime, world: Any, tools: Extractors, tmp_path: Path
) -> None:
    space, writer, old, _ = await two_versions(rt, world, tools)
    copy = await world.space()
    exported = await copy_space(rt, space, copy, tmp_path)
    assert '"stated_in":["' in exported.replace(" ", "")
    member = await world.member(grants={copy: "readwrite"})
    docs = {d["filename"]: d for d in
            (await documents.list_page(rt, member.principal, 1, 10, copy))["documents"]}
    assert docs["launch-v2.md"]["memoryCount"] == 3
    await documents.delete(rt, member.principal, docs["launch.md"]["id"])
    assert len(await keyword(rt, member.principal, copy, "Priya")) == 1
    assert await keyword(rt, member.principal, copy, "emails") == []
    assert len(await keyword(rt, writer.principal, space, "emails")) == 1  # source untouched
    assert old != UUID(docs["launch.md"]["id"])


async def test_an_import_into_a_space_that_already_has_the_fact_records_it_all_the_same(
    rt: Runtime, world: Any, tools: Extractors, tmp_path: Path
) -> None:
    """The import skips a memory whose text the target space already has live; the imported
    document still states it, so deleting the target's own document keeps the fact."""
    source, target = await world.space(), await world.space()
    writer = await world.member(grants={source: "readwrite", target: "readwrite"})
    doc = await uploaded(rt, writer.principal, "launch.md", "text/markdown", OLD, source)
    assert await process(rt, tools, doc) == "done"
    rota = await uploaded(rt, writer.principal, "rota.md", "text/markdown",
                          b"The on-call engineer during launch week is Priya.\n", target)
    assert await process(rt, tools, rota) == "done"
    await copy_space(rt, source, target, tmp_path)
    docs = {d["filename"]: d for d in
            (await documents.list_page(rt, writer.principal, 1, 10, target))["documents"]}
    assert docs["launch.md"]["memoryCount"] == 3
    result = await documents.delete(rt, writer.principal, str(rota))
    assert result["keptMemories"] == 1 and result["forgottenMemories"] == 0
    assert len(await keyword(rt, writer.principal, target, "Priya")) == 1


def raw_document(conn: psycopg.Connection[Any]) -> tuple[UUID, UUID, UUID]:
    """A user, a space and a done document written by plain SQL, as older code would."""
    user = conn.execute("""INSERT INTO users (email, display_name, role)
                           VALUES (gen_random_uuid() || '@x.test', 'A', 'writer')
                           RETURNING id""").fetchone()
    space = conn.execute("""INSERT INTO spaces (key, name)
                            VALUES ('t-' || left(md5(random()::text), 12), 'T')
                            RETURNING id""").fetchone()
    assert user is not None and space is not None
    doc = conn.execute(
        """INSERT INTO documents (space_id, title, status, created_by, updated_by)
           VALUES (%s, 'D', 'done', %s, %s) RETURNING id""",
        (space[0], user[0], user[0])).fetchone()
    assert doc is not None
    return user[0], space[0], doc[0]


def raw_memory(conn: psycopg.Connection[Any], user: UUID, space: UUID, source: UUID | None,
               text: str) -> UUID:
    """A memory row written by plain SQL (no statement of its own), as older code would."""
    row = conn.execute(
        """INSERT INTO memories (id, space_id, content, content_hash, root_id,
                                 source_document_id, created_by, updated_by, embedding)
           SELECT i, %s, %s, sha256(%s::bytea), i, %s, %s, %s,
                  array_fill(0.1, ARRAY[3072])::halfvec
           FROM gen_random_uuid() AS i RETURNING id""",
        (space, text, text.encode(), source, user, user)).fetchone()
    assert row is not None
    return UUID(str(row[0]))


def test_a_document_memory_written_by_any_code_is_recorded(database_url: str) -> None:
    """The trigger records a document memory whoever inserts it (an extraction job of the
    previous release during a deploy writes memories, not statements)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        user, space, doc = raw_document(conn)
        memory = raw_memory(conn, user, space, doc, "old code")
        rows = conn.execute("SELECT document_id, memory_id FROM document_statements "
                            "WHERE space_id = %s", (space,)).fetchall()
    assert rows == [(doc, memory)]


def test_the_migration_records_the_source_of_every_existing_document_memory(
    pg_root_url: str, tmp_path: Path
) -> None:
    """A database with document memories from before 0017 gets a statement for each chain."""
    older = tmp_path / "migrations"
    older.mkdir()
    for sql in sorted((ROOT / "migrations").glob("*.sql")):
        if sql.name < "0017":
            shutil.copy(sql, older / sql.name)
    url = empty_database(pg_root_url)
    migrate(url, older)
    with psycopg.connect(url, autocommit=True) as conn:
        user, space, doc = raw_document(conn)
        for n, source in enumerate([doc, doc, None]):
            raw_memory(conn, user, space, source, f"fact {n}")
    migrate(url, ROOT / "migrations")
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            """SELECT s.document_id, m.content FROM document_statements s
               JOIN memories m ON m.id = s.memory_id ORDER BY m.content""").fetchall()
    assert rows == [(doc, "fact 0"), (doc, "fact 1")]


async def test_the_same_file_twice_deleting_either_copy_keeps_every_fact(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    space, writer, first = await one_file(rt, world, tools)
    second = await uploaded(rt, writer.principal, "launch (1).md", "text/markdown", OLD, space)
    assert await process(rt, tools, second) == "done"
    listed = await documents.list_page(rt, writer.principal, 1, 10, space)
    assert [d["memoryCount"] for d in listed["documents"]] == [3, 3]
    result = await documents.delete(rt, writer.principal, str(second))
    assert result == {**result, "forgottenMemories": 0, "keptMemories": 3}
    assert len(await keyword(rt, writer.principal, space, "Priya")) == 1
    assert len(await facts_of(rt, writer.principal, first)) == 3


async def test_a_persons_correction_is_not_the_documents_text_and_a_reupload_keeps_it(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    """A person corrects a document's fact (a new version). getDocument lists only what the
    document says that is still current (never the correction as its text), its count agrees
    with its list, and uploading the old file again does not make the old wording current
    beside the correction: it says so in the coverage."""
    space, writer, doc = await one_file(rt, world, tools)
    fixed = await memories.save(rt, writer.principal, "The on-call engineer during launch week "
                                "is Priya Raman.", None, space)
    assert fixed["action"] == "versioned"
    gone = next(f for f in await facts_of(rt, writer.principal, doc) if "emails" in f)
    await memories.forget(rt, writer.principal, gone, None, space)
    got = await documents.get(rt, writer.principal, str(doc))
    listed = [m["memory"] for m in got["memories"]]
    assert len(listed) == 1 and "March 3rd" in listed[0]  # no correction, nothing forgotten
    assert got["document"]["memoryCount"] == 1

    again = await uploaded(rt, writer.principal, "launch.md", "text/markdown", OLD, space)
    assert await process(rt, tools, again) == "done"
    priya = await keyword(rt, writer.principal, space, "Priya")
    assert [h["memory"] for h in priya] == ["The on-call engineer during launch week is Priya "
                                            "Raman."]
    note = (await documents.get(rt, writer.principal, str(again)))["document"]["coverage"]["note"]
    assert "1 is an older wording of facts since corrected" in note
    # a person forgot that line: the same file does not bring it back, and says so
    assert await keyword(rt, writer.principal, space, "emails") == []
    assert "1 was forgotten in the space earlier and stays forgotten" in note

    # a fact forgotten only because its document was deleted comes back with the file
    await documents.delete(rt, writer.principal, str(doc))
    await documents.delete(rt, writer.principal, str(again))
    assert await keyword(rt, writer.principal, space, "March") == []
    third = await uploaded(rt, writer.principal, "launch.md", "text/markdown", OLD, space)
    assert await process(rt, tools, third) == "done"
    assert len(await keyword(rt, writer.principal, space, "March")) == 1


async def test_an_import_keeps_a_persons_fact_the_target_had_from_a_document(
    rt: Runtime, world: Any, tools: Extractors, tmp_path: Path
) -> None:
    source, target = await world.space(), await world.space()
    writer = await world.member(grants={source: "readwrite", target: "readwrite"})
    fact = "The on-call engineer during launch week is Priya."
    await memories.save(rt, writer.principal, fact, None, source)  # a person's own
    rota = await uploaded(rt, writer.principal, "rota.md", "text/markdown",
                          fact.encode() + b"\n", target)
    assert await process(rt, tools, rota) == "done"
    await copy_space(rt, source, target, tmp_path)
    result = await documents.delete(rt, writer.principal, str(rota))
    assert result["forgottenMemories"] == 0 and result["keptMemories"] == 1
    assert [h["memory"] for h in await keyword(rt, writer.principal, target, "Priya")] == [fact]


async def test_a_reupload_does_not_bring_back_a_fact_corrected_then_forgotten(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    space, writer, _ = await one_file(rt, world, tools)
    fixed = await memories.save(rt, writer.principal, "The on-call engineer during launch week "
                                "is Priya Raman.", None, space)
    assert fixed["action"] == "versioned"
    await memories.forget(rt, writer.principal, "", fixed["memory"]["id"], space)
    again = await uploaded(rt, writer.principal, "launch.md", "text/markdown", OLD, space)
    assert await process(rt, tools, again) == "done"
    assert await keyword(rt, writer.principal, space, "Priya") == []
    note = (await documents.get(rt, writer.principal, str(again)))["document"]["coverage"]["note"]
    assert "1 was forgotten in the space earlier and stays forgotten" in note


@pytest.mark.parametrize("who", ["reader", "read-grant", "ungranted", "revoked", "deactivated"])
async def test_only_a_writer_may_claim_or_delete_a_documents_facts(
    rt: Runtime, world: Any, tools: Extractors, who: str
) -> None:
    """A claim (a save of a document's very text) and a delete are writes: a Reader, a Read
    grant, a key without a grant, a key revoked or a user deactivated since its key check are
    refused, and neither the claim nor the document changes."""
    space, writer, doc = await one_file(rt, world, tools)
    fact = next(f for f in await facts_of(rt, writer.principal, doc) if "Priya" in f)
    access = {"ungranted": None, "read-grant": "read"}.get(who, "readwrite")
    grants = {space: access} if access else {}
    other = await world.member("reader" if who == "reader" else "writer", grants)
    if who == "revoked":
        await admin.revoke_key(rt, other.key_id)
    if who == "deactivated":
        await admin.update_user(rt, other.user["id"], active=False)
    with pytest.raises(MemoryMcpError):
        await memories.save(rt, other.principal, fact, None, space)
    with pytest.raises(MemoryMcpError):
        await documents.delete(rt, other.principal, str(doc), space)
    url = rt.settings.database_url.get_secret_value()  # type: ignore[union-attr]
    with psycopg.connect(url) as conn:
        claimed = conn.execute("SELECT count(*) FROM memories WHERE source_document_id = %s "
                               "AND claimed_at IS NOT NULL", (doc,)).fetchone()
        deleted = conn.execute("SELECT deleted_at FROM documents WHERE id = %s",
                               (doc,)).fetchone()
    assert claimed == (0,) and deleted == (None,)
    assert len(await keyword(rt, writer.principal, space, "Priya")) == 1
