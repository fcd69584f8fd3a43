"""An export is the space as of one moment: what changes while it runs is not in the file
(real PostgreSQL; the change is committed by another connection between the export's reads)."""

from __future__ import annotations

import io
import json
from typing import Any

import psycopg
import pytest

from memory_mcp.services import memories
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.transfer_export import export_space

from conftest import World

pytestmark = pytest.mark.anyio


async def test_changes_made_during_an_export_are_not_in_it(runtime: Runtime, world: World,
                                                           database_url: str) -> None:
    space = await world.space("snap")
    alice = await world.member(grants={space: "readwrite"}, name="Alice Before")
    for text in ("The on-call rota changes on Mondays.", "Staging resets every night at 02:00.",
                 "The billing export runs on the first of the month."):
        await memories.save(runtime, alice.principal, text, None, space)
    changed: list[int] = []

    def meanwhile(stage: str, done: int, total: int) -> None:
        """After the first memory is written: rename its author and forget a memory, committed
        by another connection (an admin and an agent acting while the export runs)."""
        if changed:
            return
        with psycopg.connect(database_url, autocommit=True) as other:
            other.execute("UPDATE users SET display_name = 'Alice After' WHERE email = %s",
                          (alice.user["email"],))
            cur = other.execute(
                "UPDATE memories SET is_forgotten = true, forgotten_at = now(),"
                " forget_reason = 'meanwhile' WHERE content LIKE 'Staging%%' AND NOT is_forgotten"
                " AND space_id = (SELECT id FROM spaces WHERE key = %s)", (space,))
            changed.append(cur.rowcount)

    out = io.StringIO()
    await export_space(runtime, space, out, progress=meanwhile)
    assert changed == [1], "the change really happened during the export"
    records: list[dict[str, Any]] = [json.loads(line) for line in out.getvalue().splitlines()]
    users = [r for r in records if r.get("type") == "user"]
    assert [u["display_name"] for u in users] == ["Alice Before"]
    staging = [r for r in records if r.get("type") == "memory"
               and r["content"].startswith("Staging")]
    assert len(staging) == 1 and staging[0]["is_forgotten"] is False
