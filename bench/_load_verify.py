"""The verification of ``bench/load.py``: the server's state at the end against what every
client was told."""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import _common as common
import anyio
import anyio.to_thread
from _load_records import KeyPlan, Ledger
from _load_setup import (
    ROOT,
    TOKEN,
)
from _load_wire import Wire, session
from pydantic import SecretStr

from memory_mcp.config import Settings

# --------------------------------------------------------------------------------------------
# verification


@dataclass
class Findings:
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # every other failed check
    notes: list[str] = field(default_factory=list)  # facts, not failures
    checked: Counter[str] = field(default_factory=Counter)


async def list_space(url: str, key: str, space: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    async with session(url, key, Wire()) as client:
        page = 1
        while True:
            res = await client.call_tool("listMemories",
                                         {"containerTag": space, "page": page, "limit": 50})
            if res.is_error:
                raise RuntimeError(f"listMemories {space} page {page}: {res.content}")
            data = dict(res.structured_content or {})
            for m in data["memories"]:
                out[m["id"]] = m
            if not data["hasMore"]:
                return out
            page += 1


async def keyword_checks(url: str, readers: dict[str, str],
                         checks: list[tuple[str, str, str, bool]], budget_s: float,
                         found: Findings, workers: int = 8) -> None:
    """(space, keyword, memory id, should be found) through search_memory(keyword=...)."""
    todo = list(checks)
    stop = time.monotonic() + budget_s

    async def worker(space_keys: dict[str, str]) -> None:
        sessions: dict[str, Any] = {}
        async with _Stack() as stack:
            while todo and time.monotonic() < stop:
                space, keyword, memory_id, present = todo.pop()
                if space not in sessions:
                    sessions[space] = await stack.enter(session(url, space_keys[space], Wire()))
                res = await sessions[space].call_tool(
                    "search_memory", {"keyword": keyword, "containerTag": space,
                                      "includeProfile": False, "limit": 10})
                ids = ([r["id"] for r in (res.structured_content or {}).get("results", [])]
                       if not res.is_error else None)
                kind = "found by keyword" if present else "absent from keyword search"
                found.checked[kind] += 1
                if ids is None:
                    found.problems.append(f"keyword search for {keyword} in {space} failed: "
                                          f"{res.content}")
                elif present and memory_id not in ids:
                    found.problems.append(f"{memory_id} ({keyword}, {space}) is current but a "
                                          "keyword search does not find it")
                elif not present and memory_id in ids:
                    found.problems.append(f"{memory_id} ({keyword}, {space}) was forgotten but "
                                          "a keyword search still returns it")

    async with anyio.create_task_group() as tg:
        for _ in range(workers):
            tg.start_soon(worker, readers)
    if todo:
        found.notes.append(f"keyword checks stopped at the {budget_s:.0f} s budget: "
                           f"{len(todo)} of {len(checks)} not run")


class _Stack:
    """A tiny async exit stack (contextlib.AsyncExitStack with a typed enter)."""

    async def __aenter__(self) -> _Stack:
        from contextlib import AsyncExitStack

        self._stack = AsyncExitStack()
        await self._stack.__aenter__()
        return self

    async def enter(self, cm: Any) -> Any:
        return await self._stack.enter_async_context(cm)

    async def __aexit__(self, *exc: Any) -> None:
        await self._stack.__aexit__(*exc)


async def verify(url: str, base: str, plans: list[KeyPlan], ledger: Ledger,
                 args: argparse.Namespace) -> Findings:
    found = Findings()
    mcp_url = f"{base}/mcp"
    readers: dict[str, str] = {}
    for plan in plans:
        for space in plan.read_spaces:
            readers.setdefault(space, plan.key)

    # -- through the product: every space's full listing
    listed: dict[str, dict[str, dict[str, Any]]] = {}
    for space, key in readers.items():
        listed[space] = await list_space(mcp_url, key, space)
    found.notes.append("listMemories: " + ", ".join(f"{s} {len(m)}" for s, m in listed.items()))

    expected_current: dict[str, Any] = {}
    for memory_id, ack in ledger.saves.items():
        found.checked["acknowledged saves"] += 1
        row = listed.get(ack.space, {}).get(memory_id)
        if row is None or row["memory"] != ack.content:
            found.lost.append(f"{memory_id} ({ack.token}, {ack.space}, {ack.action}): "
                              + ("not listed" if row is None else "listed with other text"))
            continue
        superseded = memory_id in ledger.superseded
        forgotten = memory_id in ledger.forgotten
        if not superseded and not forgotten:
            expected_current[memory_id] = ack
            if not row["isLatest"] or row["isForgotten"]:
                found.lost.append(f"{memory_id} ({ack.token}, {ack.space}): acknowledged, no "
                                  "acknowledged forget or version, but listed "
                                  + ("forgotten" if row["isForgotten"] else "superseded"))
        if superseded and row["isLatest"] and not row["isForgotten"]:
            found.problems.append(f"{memory_id}: acknowledged as superseded by "
                                  f"{ledger.superseded[memory_id]} but listed as latest")
    for memory_id in ledger.forgotten:
        found.checked["acknowledged forgets"] += 1
        seen = [listed[s][memory_id] for s in listed if memory_id in listed[s]]
        if not seen or not seen[0]["isForgotten"]:
            found.problems.append(f"{memory_id}: forget acknowledged, but "
                                  + ("not listed" if not seen else "listed as not forgotten"))
    # duplicates: a save's text stored twice in its space
    for space, by_id in listed.items():
        texts = Counter(r["memory"] for r in by_id.values() if TOKEN.search(r["memory"]))
        for text, n in texts.items():
            if n > 1:
                found.duplicated.append(f"{space}: {n} rows with {text[:80]!r}")

    # -- through the product: keyword search per acknowledged save and forget
    checks = [(a.space, a.token, i, True) for i, a in expected_current.items()]
    for memory_id in ledger.forgotten:
        gone = ledger.saves.get(memory_id)
        if gone is not None:
            checks.append((gone.space, gone.token, memory_id, False))
    await keyword_checks(mcp_url, readers, checks, args.verify_budget, found)

    # -- in the database (system transaction): strays, wrong spaces, unacknowledged rows
    settings = Settings(database_url=SecretStr(url), migrations_dir=ROOT / "migrations")
    async with common.product_runtime(settings, url) as rt, rt.transaction(system=True) as conn:
        cur = await conn.execute(
            """SELECT m.id::text AS id, s.key AS space, m.content, m.is_latest,
                      m.is_forgotten, m.content_hash
               FROM memories m JOIN spaces s ON s.id = m.space_id
               WHERE m.content LIKE '%%(ref lt%%' AND m.source_document_id IS NULL""")
        db_rows = await cur.fetchall()
        cur = await conn.execute(
            """SELECT d.id::text AS id, d.status, d.status_reason, d.memories_created,
                      d.attempts,
                      (SELECT count(*) FROM memories m WHERE m.source_document_id = d.id) AS n,
                      (SELECT count(DISTINCT content_hash) FROM memories m
                       WHERE m.source_document_id = d.id) AS distinct_hashes
               FROM documents d WHERE d.id = ANY(%s::uuid[])""",
            ([u.document_id for u in ledger.uploads],))
        docs = {r["id"]: r for r in await cur.fetchall()}
    by_token: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in db_rows:
        match = TOKEN.search(r["content"])
        if match:
            by_token[match.group(1)].append(r)
    denied = {token: (space, kind) for space, token, kind in ledger.denied}
    acked_tokens = {a.token for a in ledger.saves.values()}
    unacked = 0
    for token, token_rows in by_token.items():
        if len(token_rows) > 1:
            found.duplicated.append(f"database: {len(token_rows)} rows for {token}")
        if token in denied:
            found.problems.append(f"WRITE THROUGH A READ GRANT: {token} landed in "
                                  f"{token_rows[0]['space']} ({denied[token][1]})")
            continue
        attempt = ledger.attempts.get(token)
        if attempt is None:
            found.problems.append(f"{token}: a row nobody tried to save")
            continue
        if any(r["space"] != attempt[0] for r in token_rows):
            found.problems.append(f"{token}: saved to {attempt[0]}, stored in "
                                  f"{[r['space'] for r in token_rows]}")
        if token not in acked_tokens:
            unacked += 1
            found.notes.append(f"{token}: stored although the save was not acknowledged "
                               f"(last outcome: {attempt[2]})")
    found.checked["database rows of bench saves"] = len(db_rows)
    db_ids = {r["id"] for r in db_rows}
    for memory_id, ack in ledger.saves.items():
        if memory_id not in db_ids:
            found.lost.append(f"{memory_id} ({ack.token}): not in the database")
    failed_saves = sum(1 for t, a in ledger.attempts.items() if t not in acked_tokens)
    found.notes.append(f"saves never acknowledged: {failed_saves}; of those stored anyway: "
                       f"{unacked}")

    # -- uploads
    for up in ledger.uploads:
        found.checked["accepted uploads"] += 1
        d = docs.get(up.document_id)
        if d is None:
            found.problems.append(f"upload {up.document_id}: no document row")
        elif d["status"] != "done":
            found.problems.append(f"upload {up.document_id}: {d['status']} "
                                  f"({d['status_reason']})")
        elif not (d["n"] == d["memories_created"] == d["distinct_hashes"] == up.statements):
            found.problems.append(f"upload {up.document_id}: {d['n']} memories, "
                                  f"{d['distinct_hashes']} distinct, {d['memories_created']} "
                                  f"reported, {up.statements} statements")
        if d is not None and int(d["attempts"]) > 1:
            found.notes.append(f"upload {up.document_id}: {d['attempts']} attempts")
    misses = [m for m in ledger.ryw_misses
              if m[1] not in ledger.superseded and m[1] not in ledger.forgotten]
    if misses:
        found.problems.append(f"read-your-writes: {len(misses)} keyword searches right after "
                              f"an acknowledged save missed it, e.g. {misses[:3]}")
    return found
