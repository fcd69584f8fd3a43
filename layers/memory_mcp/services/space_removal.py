"""Delete a whole space for good: the operator's ``memory-mcp spaces delete`` (CLI and admin
Lambda). No MCP caller can reach it.

A space is the unit teams own, so ending a project, a tenant that leaves or a space created by
mistake needs a way out that does not mean hand-written SQL. Deleting is final and large, so
it is a two-step command: without confirmation it changes nothing and says exactly what would
go (and how to keep a copy), with it the rows go in one transaction (all or nothing), the
audit trail records who-knows-what was removed (the event outlives the space), and then the
stored files are removed; a file that cannot be removed is reported, never hidden.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio.to_thread

from memory_mcp.db import identity, saves, statements
from memory_mcp.db import space_removal as removal_db
from memory_mcp.documents.storage import derived_keys
from memory_mcp.errors import InvalidInputError, NotFoundError
from memory_mcp.services import audit
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)


def _n(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _contents(key: str, c: dict[str, Any]) -> str:
    return (f"Space {key!r} holds {_n(c['live_memories'], 'current memory', 'current memories')}"
            f" ({_n(c['memories'], 'memory row', 'memory rows')} with their history), "
            f"{_n(c['documents'], 'document', 'documents')} "
            f"({_n(c['files'], 'stored file', 'stored files')}) and "
            f"{_n(c['grants'], 'key grant', 'key grants')}")


async def delete_space(rt: Runtime, key: str, *, confirmed: bool) -> dict[str, Any]:
    """Delete ``key`` with everything in it (``confirmed``), else refuse, saying what it holds."""
    key = key.strip()
    async with rt.transaction(system=True) as conn:
        space = await identity.find_space(conn, key)
        if space is None:
            raise NotFoundError(f"No space with key {key!r}.")
        if confirmed:
            # Wait for a document commit and for saves in flight: each takes one of these locks
            # before its rows and then touches the space's row, and deleting that row under
            # them deadlocked. What the space holds is counted after them.
            await statements.lock_space_documents(conn, space["id"])
            await saves.lock_exclusively(conn, space["id"])
        contents = dict(await removal_db.space_contents(conn, space["id"]))
        if not confirmed:
            raise InvalidInputError(
                f"{_contents(key, contents)}. Deleting it removes all of that for good; to keep "
                f"a copy, run `memory-mcp export --space {key} --with-files -o {key}.jsonl` "
                "first. Nothing was deleted: pass --yes to delete it.")
        files = await removal_db.space_storage_keys(conn, space["id"])
        await removal_db.delete_space(conn, space["id"])
        counts: dict[str, Any] = {k: int(v) for k, v in contents.items()}
        await audit.record(conn, "space.deleted", space_id=space["id"], space_key=key, **counts)
    removed, failed = await _remove_files(rt, files)
    return {"space": key, "deleted": True, **counts,
            "files_removed": removed, "files_not_removed": failed}


async def _remove_files(rt: Runtime, files: list[tuple[str, bool]]) -> tuple[int, list[str]]:
    """Remove each stored original and what was derived from it (a transcript); the rows are
    gone already, so a failure leaves an orphan object, reported by key to remove by hand.
    Counts the files recorded as arrived (a pending upload's key is removed too, in case its
    file landed unclaimed, but not counted: storage is not asked, the admin role may not list
    the bucket)."""
    if rt.storage is None:
        return 0, [key for key, arrived in files if arrived]
    removed, failed = 0, []
    for key, arrived in files:
        try:
            for each in [key, *derived_keys(rt.storage, key)]:
                await anyio.to_thread.run_sync(rt.storage.delete, each)
            removed += arrived
        except Exception:  # one object's failure must not stop the rest
            log.exception("could not remove a stored file of a deleted space")
            failed.append(key)
    return removed, failed
