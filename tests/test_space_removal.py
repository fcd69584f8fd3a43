"""``memory-mcp spaces delete``: a space and everything in it go for good, and only on --yes.

Real PostgreSQL and the real pipeline: a space with memories (a version chain, a forgotten
one, recall statistics), a processed document with its stored file, statements and grants.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

import anyio
import psycopg
import pytest
from test_documents import NOTES, uploaded

from memory_mcp.cli import run
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.errors import InvalidInputError, NotFoundError
from memory_mcp.services import memories, space_removal
from memory_mcp.services.runtime import Runtime

from conftest import settings_for

pytestmark = pytest.mark.anyio

#: Every table whose rows belong to a space.
SPACE_TABLES = ("memories", "documents", "document_statements", "memory_recalls", "space_stats",
                "space_terms", "grants")


def rows_of(url: str, space_id: UUID) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: int(conn.execute(f"SELECT count(*) FROM {t} WHERE space_id = %s",
                                    (space_id,)).fetchone()[0])  # type: ignore[index]
                for t in SPACE_TABLES}


def space_id_of(url: str, key: str) -> UUID | None:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT id FROM spaces WHERE key = %s", (key,)).fetchone()
    return row[0] if row else None


async def filled(rt: Runtime, world: Any, tools: Extractors) -> tuple[str, str, Any, str]:
    """A space with a bit of everything, a second space, and the stored file's key."""
    doomed, kept = await world.space(), await world.space()
    m = await world.member(grants={doomed: "readwrite", kept: "readwrite"})
    await memories.save(rt, m.principal, "The team prefers squash merges for feature branches",
                        None, doomed)
    again = await memories.save(rt, m.principal, "The team prefers squash merges for all "
                                "feature branches", None, doomed)
    assert again["action"] == "versioned"  # a chain: the parent row goes with its child
    gone = await memories.save(rt, m.principal, "Lunch is at noon", None, doomed)
    await memories.forget(rt, m.principal, None, gone["memory"]["id"], doomed)
    await memories.search(rt, m.principal, query="squash merges", keyword=None,
                          category=None, include_profile=False, container_tag=doomed, limit=3)
    doc = await uploaded(rt, m.principal, "launch.md", "text/markdown", NOTES, doomed)
    assert await process(rt, tools, doc) == "done"
    await memories.save(rt, m.principal, "Kept space fact", None, kept)
    url = rt.settings.database_url.get_secret_value()  # type: ignore[union-attr]
    with psycopg.connect(url) as conn:
        key = conn.execute("SELECT storage_key FROM documents WHERE id = %s", (doc,)).fetchone()
    assert key is not None
    return doomed, kept, m, key[0]


async def test_without_yes_nothing_goes_and_the_contents_are_listed(
    rt: Runtime, world: Any, tools: Extractors, storage: LocalStorage
) -> None:
    doomed, _, _, file_key = await filled(rt, world, tools)
    url = rt.settings.database_url.get_secret_value()  # type: ignore[union-attr]
    space_id = space_id_of(url, doomed)
    assert space_id is not None
    before = rows_of(url, space_id)
    with pytest.raises(InvalidInputError) as refused:
        await space_removal.delete_space(rt, doomed, confirmed=False)
    message = str(refused.value)
    assert f"Space {doomed!r} holds 4 current memories (6 memory rows" in message
    assert "1 document (1 stored file) and 1 key grant" in message
    assert f"memory-mcp export --space {doomed}" in message and "Nothing was deleted" in message
    assert rows_of(url, space_id) == before and storage.path(file_key).exists()


async def test_yes_removes_every_row_and_file_of_the_space_and_nothing_else(
    rt: Runtime, world: Any, tools: Extractors, storage: LocalStorage
) -> None:
    doomed, kept, m, file_key = await filled(rt, world, tools)
    url = rt.settings.database_url.get_secret_value()  # type: ignore[union-attr]
    space_id, kept_id = space_id_of(url, doomed), space_id_of(url, kept)
    assert space_id is not None and kept_id is not None
    kept_before = rows_of(url, kept_id)
    assert all(rows_of(url, space_id)[t] > 0 for t in SPACE_TABLES)

    result = await space_removal.delete_space(rt, f" {doomed} ", confirmed=True)
    assert result["deleted"] is True and result["live_memories"] == 4
    assert result["files_removed"] == 1 and result["files_not_removed"] == []
    assert space_id_of(url, doomed) is None
    assert rows_of(url, space_id) == dict.fromkeys(SPACE_TABLES, 0)
    assert not storage.path(file_key).exists()
    assert not storage.path(file_key).parent.exists()  # no empty folder left behind
    assert rows_of(url, kept_id) == kept_before
    found = await memories.search(rt, m.principal, query=None, keyword="Kept", category=None,
                                  include_profile=False, container_tag=kept, limit=3)
    assert len(found["results"]) == 1
    with psycopg.connect(url) as conn:  # the audit trail outlives the space
        event = conn.execute("SELECT detail FROM audit_events WHERE kind = 'space.deleted' "
                             "AND space_id = %s", (space_id,)).fetchone()
    assert event is not None and event[0]["space_key"] == doomed and event[0]["documents"] == 1
    with pytest.raises(NotFoundError, match="No space with key"):
        await space_removal.delete_space(rt, doomed, confirmed=True)


def test_the_cli_refuses_without_yes_and_deletes_with_it(
    fresh_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(fresh_database_url)
    assert run(["spaces", "create", "--key", "old-project", "--name", "Old"], settings) == 0
    capsys.readouterr()
    assert run(["spaces", "delete", "old-project"], settings) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: Space 'old-project' holds 0 current memories")
    assert "0 documents (0 stored files) and 0 key grants" in err
    assert space_id_of(fresh_database_url, "old-project") is not None
    assert run(["--json", "spaces", "delete", "old-project", "--yes"], settings) == 0
    assert '"deleted": true' in capsys.readouterr().out
    assert space_id_of(fresh_database_url, "old-project") is None
    assert run(["spaces", "delete", "old-project", "--yes"], settings) == 1
    assert "No space with key 'old-project'" in capsys.readouterr().err
    # its audit trail stays readable by its key
    assert run(["--json", "audit", "--space", "old-project"], settings) == 0
    events = json.loads(capsys.readouterr().out)
    assert [(e["kind"], e["space"]) for e in events] == [("space.deleted", "old-project"),
                                                          ("space.created", "old-project")]
    # a new space may take the key: --space then lists both spaces' trails
    assert run(["spaces", "create", "--key", "old-project", "--name", "New"], settings) == 0
    capsys.readouterr()
    assert run(["--json", "audit", "--space", "old-project"], settings) == 0
    events = json.loads(capsys.readouterr().out)
    assert [e["kind"] for e in events] == ["space.created", "space.deleted", "space.created"]
    assert len({e["space_id"] for e in events}) == 2
    assert run(["audit", "--space", "never-was"], settings) == 1
    assert "No space 'never-was' (nor a deleted one)" in capsys.readouterr().err


@pytest.mark.parametrize("writer", ["document commit", "forget"])
async def test_a_space_deleted_while_a_write_is_in_flight_waits_for_it(
        rt: Runtime, world: Any, writer: str) -> None:
    """A document's commit (the space's document lock) and a forget (the space's save lock,
    shared, as a save takes it) write their rows, then touch the space's row. A deletion
    arriving in between waits for them (the same locks first), then removes all of it;
    deleting the space's row under them deadlocked."""
    from memory_mcp.db import identity, statements

    key = await world.space()
    m = await world.member(grants={key: "readwrite"})
    await memories.save(rt, m.principal, "The team prefers squash merges", None, key)
    url = rt.settings.database_url.get_secret_value()  # type: ignore[union-attr]
    space = space_id_of(url, key)
    assert space is not None
    result: dict[str, Any] = {}

    async def delete() -> None:
        result.update(await space_removal.delete_space(rt, key, confirmed=True))

    forget = writer == "forget"
    async with anyio.create_task_group() as tasks, \
            rt.transaction(system=True, lock=space if forget else None) as conn:
        if forget:
            await conn.execute("UPDATE memories SET is_forgotten = true, forgotten_at = now() "
                               "WHERE space_id = %s", (space,))
        else:
            await statements.lock_space_documents(conn, space)
            await conn.execute(
                "INSERT INTO memories (id, space_id, content, content_hash, root_id, created_by,"
                " updated_by, embedding) SELECT id, %s, 'A fact being committed', "
                "sha256('A fact being committed'::bytea), id, %s, %s, "
                "('[1' || repeat(',0', 3071) || ']')::halfvec FROM gen_random_uuid() AS id",
                (space, m.principal.user_id, m.principal.user_id))
        tasks.start_soon(delete)
        await anyio.sleep(0.5)  # the deletion is now waiting, whichever lock it reached
        await identity.touch_space(conn, space)
    assert result["deleted"] is True and result["memories"] == (1 if forget else 2)
    assert space_id_of(url, key) is None and set(rows_of(url, space).values()) == {0}
