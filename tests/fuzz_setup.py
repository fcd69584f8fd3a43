"""Fuzz setup: the users, keys and spaces the cases act on (``prepare``), and a snapshot of the
rows in those spaces read through ``runtime.transaction(system=True)`` (``snapshot``)."""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
from fuzz_values import SEED_FACTS

from memory_mcp.models import Principal
from memory_mcp.services import admin
from memory_mcp.services import memories as memory_service
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime

# ------------------------------------------------------------------------------------------
# setup and snapshots


@dataclass
class Setup:
    """What the cases act on. Spaces: ``fuzz`` (the writer's ReadWrite space, the reader's Read),
    ``ro`` (the writer's Read space), ``foreign`` (no grant for either) and ``put`` (where
    signed upload URLs are made; its memories come from the background worker, so only its
    documents are modelled)."""

    base_url: str
    spaces: dict[str, str]
    space_ids: dict[str, uuid.UUID]
    keys: dict[str, str]
    ids: dict[str, list[str]]


async def _member(rt: Runtime, role: str, grants: list[tuple[str, str]]) -> tuple[str, Principal]:
    tag = uuid.uuid4().hex[:8]
    user = await admin.create_user(rt, f"fuzz-{tag}@example.test", f"Fuzz {role} {tag}", role)
    created = await admin.create_key(rt, user["id"], f"fuzz-{role}")
    for space, access in grants:
        await admin.set_grant(rt, created["id"], space, access)
    async with rt.transaction(system=True) as conn:
        principal = await authenticate(conn, created["key"])
    return str(created["key"]), principal


async def _upload(client: httpx.AsyncClient, key: str, space: str, name: str = "notes.md",
                  size: int = 40) -> dict[str, Any]:
    response = await client.post("/uploads", headers={"Authorization": f"Bearer {key}"}, json={
        "filename": name, "contentType": "text/markdown", "size": size, "containerTag": space})
    assert response.status_code == 201, response.text
    return dict(response.json())


async def prepare(rt: Runtime, base_url: str, *, docs: int = 20, wait_s: float = 60.0) -> Setup:
    """Create the spaces, keys and seed rows (``docs`` queued documents in the fuzzed space, for
    deleteDocument to delete); wait until the one processed document is done."""
    spaces: dict[str, str] = {}
    for role in ("fuzz", "ro", "foreign", "put"):
        spaces[role] = f"fz{role}-{uuid.uuid4().hex[:8]}"
        await admin.create_space(rt, spaces[role], f"Fuzz {role}", "fuzz target")
    writer, _ = await _member(rt, "writer", [(spaces["fuzz"], "readwrite"),
                                              (spaces["ro"], "read"), (spaces["put"], "readwrite")])
    reader, _ = await _member(rt, "reader", [(spaces["fuzz"], "readwrite")])
    revoked, revoked_principal = await _member(rt, "writer", [(spaces["fuzz"], "readwrite")])
    await admin.revoke_key(rt, str(revoked_principal.key_id))
    owner, owner_p = await _member(rt, "writer", [(spaces["ro"], "readwrite"),
                                                  (spaces["foreign"], "readwrite"),
                                                  (spaces["fuzz"], "readwrite")])
    ids: dict[str, list[str]] = defaultdict(list)
    for role in ("fuzz", "ro", "foreign"):
        for fact in SEED_FACTS:
            saved = await memory_service.save(rt, owner_p, fact, "decision", spaces[role])
            ids[f"{role}_mem"].append(saved["memory"]["id"])
    body = b"# Fuzz\n\nThe fuzz document says hello.\n"
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        for role in ("fuzz", "ro", "foreign"):
            for _ in range(docs if role == "fuzz" else 1):
                ids[f"{role}_doc"].append(
                    (await _upload(client, owner, spaces[role]))["documentId"])
        done = await _upload(client, owner, spaces["fuzz"], "done.md", len(body))
        put = await client.put(done["uploadUrl"], content=body,
                               headers={"Content-Type": "text/markdown"})
        assert put.status_code == 200, put.text
        ids["fuzz_doc_done"].append(done["documentId"])
        # Its memories arrive from the background worker: wait, or they would later show up
        # as writes no fuzz case explains.
        deadline = time.monotonic() + wait_s
        while True:
            async with rt.transaction(system=True) as conn:
                row = await (await conn.execute(
                    "SELECT status FROM documents WHERE id = %s",
                    (uuid.UUID(done["documentId"]),))).fetchone()
            if row is not None and row["status"] in ("done", "failed"):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"the seed document was not processed within {wait_s:.0f} s")
            await anyio.sleep(0.2)
    async with rt.transaction(system=True) as conn:
        rows = await (await conn.execute("SELECT id, key FROM spaces WHERE key = ANY(%s)",
                                         (list(spaces.values()),))).fetchall()
    by_key = {r["key"]: r["id"] for r in rows}
    return Setup(base_url=base_url, spaces=spaces,
                 space_ids={role: by_key[key] for role, key in spaces.items()},
                 keys={"writer": writer, "reader": reader, "revoked": revoked, "owner": owner},
                 ids=dict(ids))


#: Per space: every memory row, the live ones, the forgotten ones, every document row, the
#: deleted ones and those whose bytes were accepted.
FIELDS = ("memories", "live", "forgotten", "documents", "deleted", "uploaded")
Snapshot = dict[str, dict[str, int]]


async def snapshot(rt: Runtime, setup: Setup) -> Snapshot:
    """Row counts of the four spaces, read with the explicit every-space scope."""
    async with rt.transaction(system=True) as conn:
        rows = await (await conn.execute("""
            SELECT s.key,
                   (SELECT count(*) FROM memories m WHERE m.space_id = s.id) AS memories,
                   (SELECT count(*) FROM memories m WHERE m.space_id = s.id
                        AND m.is_latest AND NOT m.is_forgotten) AS live,
                   (SELECT count(*) FROM memories m WHERE m.space_id = s.id
                        AND m.is_forgotten) AS forgotten,
                   (SELECT count(*) FROM documents d WHERE d.space_id = s.id) AS documents,
                   (SELECT count(*) FROM documents d WHERE d.space_id = s.id
                        AND d.deleted_at IS NOT NULL) AS deleted,
                   (SELECT count(*) FROM documents d WHERE d.space_id = s.id
                        AND d.uploaded_at IS NOT NULL) AS uploaded
            FROM spaces s WHERE s.id = ANY(%s)""", (list(setup.space_ids.values()),))).fetchall()
    found = {r["key"]: {f: int(r[f]) for f in FIELDS} for r in rows}
    # The put space's memories come from the background worker (accepted uploads): not modelled.
    for f in ("memories", "live", "forgotten"):
        found[setup.spaces["put"]][f] = 0
    return found
