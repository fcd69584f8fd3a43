"""The isolation world's foundation: the database queries and ``WorldBase`` (state, failures,
model, database, HTTP)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

import httpx
from isolation_model import (
    ACCEPT,
    IsolationFailure,
    KeyM,
    Reply,
    SpaceM,
    Stats,
    Upload,
    UserM,
)
from isolation_server import Portal

from memory_mcp.config import Settings
from memory_mcp.db.pool import open_pool
from memory_mcp.services.runtime import Runtime

#: Per space: last activity; count and order-free hash of every memory (id, version flags, content,
#: source, last update) and document (id, status, deleted, last update); recall counts.
FINGERPRINT_SQL = """
WITH m AS (
  SELECT space_id, count(*) || ':' || sum(hashtextextended(
           id::text || is_latest::text || is_forgotten::text || content_hash::text
           || coalesce(source_document_id::text, '-') || updated_at::text, 0)::numeric) AS fp
    FROM memories GROUP BY space_id),
d AS (
  SELECT space_id, count(*) || ':' || sum(hashtextextended(
           id::text || status || (deleted_at IS NULL)::text || updated_at::text, 0)::numeric) AS fp
    FROM documents GROUP BY space_id),
r AS (SELECT space_id, sum(recall_count)::text AS fp FROM memory_recalls GROUP BY space_id)
SELECT s.key, coalesce(s.last_activity_at::text, '-') AS activity,
       coalesce(m.fp, '0') AS memories, coalesce(d.fp, '0') AS documents,
       coalesce(r.fp, '0') AS recalls
  FROM spaces s LEFT JOIN m ON m.space_id = s.id LEFT JOIN d ON d.space_id = s.id
  LEFT JOIN r ON r.space_id = s.id"""
IDS_SQL = """
SELECT m.id::text AS id, s.key FROM memories m JOIN spaces s ON s.id = m.space_id
 WHERE s.key = ANY(%(keys)s)
UNION ALL
SELECT d.id::text AS id, s.key FROM documents d JOIN spaces s ON s.id = d.space_id
 WHERE s.key = ANY(%(keys)s)"""
#: A deleted document is finished too: the worker writes nothing for it any more.
PENDING_SQL = """SELECT id::text AS id,
                        CASE WHEN deleted_at IS NULL THEN status ELSE 'deleted' END AS status
                   FROM documents WHERE id = ANY(%s::uuid[])"""
TERMINAL = ("done", "failed", "deleted")
AUTHORS_SQL = """
SELECT DISTINCT s.key, a.user_id::text AS user_id, a.what FROM (
    SELECT space_id, created_by AS user_id, 'memory created' AS what FROM memories
    UNION ALL SELECT space_id, updated_by, 'memory changed' FROM memories
    UNION ALL SELECT space_id, forgotten_by, 'memory forgotten' FROM memories
     WHERE forgotten_by IS NOT NULL
    UNION ALL SELECT space_id, created_by, 'document created' FROM documents
    UNION ALL SELECT space_id, updated_by, 'document changed or deleted' FROM documents
) a JOIN spaces s ON s.id = a.space_id"""


class WorldBase:
    """The live server, the admin runtime and the model: failures, model queries, database
    fingerprints and HTTP (the first layer of ``IsolationWorld``)."""

    def __init__(self, base: str, app: Any, settings: Settings, url: str, *,
                 strict: bool) -> None:
        self.base = base
        self.strict = strict
        self.stats = Stats()
        self.portal = Portal()
        pool = self.portal.run(open_pool(settings.model_copy(update={"pool_max_size": 2}), url))
        self.rt = Runtime(settings=settings, pool=pool, embedder=app.state.runtime.embedder)
        self.http = httpx.Client(timeout=120)
        self.scenario = 0
        self.spaces: dict[str, SpaceM] = {}  # every space ever made, by key
        self.marker_owner: dict[str, str] = {}  # marker -> space key
        self.id_owner: dict[str, str] = {}  # space/memory/document id -> space key
        self.current: list[str] = []  # the current scenario's spaces
        self.users: list[UserM] = []
        self.keys: list[KeyM] = []
        self.uploads: list[Upload] = []
        self.documents: set[str] = set()  # ids of documents of every space (seeded, uploaded)
        self.deleted: set[str] = set()  # documents deleted through deleteDocument
        self.other_ids: set[str] = set()  # ids bound to no space (users, keys)
        self.working: dict[str, str] = {}  # uploaded document id -> space, until processed
        self.ui_bodies: dict[str, str] = {}
        self.last_request = ""
        self.forced_key: KeyM | None = None  # the coverage sweep's key
        #: (space, user id) of every write the model allowed: who may appear as an author there.
        self.permitted: set[tuple[str, str]] = set()
        self.fingerprint: dict[str, tuple[str, ...]] = {}
        self.fingerprint = self._read_fingerprint()
        self.unauthorized_mcp = self._anonymous("/mcp", {"jsonrpc": "2.0", "id": 1,
                                                         "method": "tools/list", "params": {}})
        self.unauthorized_uploads = self._anonymous("/uploads", {
            "filename": "x.md", "contentType": "text/markdown", "size": 1})

    def close(self) -> None:
        self.http.close()
        self.portal.run(self.rt.pool.close())
        self.portal.close()

    # ------------------------------------------------------------------ failures

    def violation(self, invariant: str, detail: str) -> None:
        msg = f"isolation violation ({invariant}) at call {self.stats.total}: {detail}"
        self.stats.violations.append(msg)
        if self.strict:
            raise IsolationFailure(msg)

    def mismatch(self, op: str, detail: str) -> None:
        msg = (f"model mismatch in {op} at call {self.stats.total}: {detail} "
               f"[request: {self.last_request}]")
        self.stats.mismatches.append(msg)
        if self.strict:
            raise IsolationFailure(msg)

    # ------------------------------------------------------------------ model

    def readable(self, k: KeyM) -> set[str]:
        return set(k.grants) if k.alive else set()

    def effective(self, k: KeyM, space: str) -> str | None:
        grant = k.grants.get(space) if k.alive else None
        if grant is None:
            return None
        return "readwrite" if grant == "readwrite" and k.user.role == "writer" else "read"

    def writable(self, k: KeyM) -> list[str]:
        return sorted(s for s in k.grants if self.effective(k, s) == "readwrite")

    def default(self, k: KeyM) -> str | None:
        if k.selected in k.grants:
            return k.selected
        return next(iter(k.grants), None)

    def resolve(self, k: KeyM, tag: str | None) -> tuple[str, str | None]:
        """('ok', space) | ('missing', None) | ('nospaces', None), as access.resolve_space."""
        if tag and tag.strip():  # the server trims a tag; keys are case-sensitive
            return ("ok", tag.strip()) if tag.strip() in k.grants else ("missing", None)
        space = self.default(k)
        return ("ok", space) if space else ("nospaces", None)

    def is_memory(self, ident: str) -> bool:
        """Whether a known id is a memory's (not a space's or a document's)."""
        owner = self.id_owner.get(ident)
        return (owner is not None and ident not in self.documents
                and ident != self.spaces[owner].id)

    # ------------------------------------------------------------------ database

    def _read_fingerprint(self) -> dict[str, tuple[str, ...]]:
        return self._snapshot([])[1]

    def _snapshot(self, pending: Sequence[str]
                  ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
        """(status of the ``pending`` documents, per-space fingerprints), the status first: a
        document the worker had finished by then has all its writes in the fingerprints."""
        async def read() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
            async with self.rt.transaction(system=True) as conn:
                status: dict[str, str] = {}
                if pending:
                    rows = await (await conn.execute(PENDING_SQL, (list(pending),))).fetchall()
                    status = {r["id"]: r["status"] for r in rows}
                rows = await (await conn.execute(FINGERPRINT_SQL)).fetchall()
            return status, {r["key"]: (str(r["activity"]), r["memories"], r["documents"],
                                       r["recalls"]) for r in rows}
        return self.portal.run(read())

    def _read_ids(self, keys: Sequence[str]) -> list[dict[str, Any]]:
        async def read() -> list[dict[str, Any]]:
            async with self.rt.transaction(system=True) as conn:
                return await (await conn.execute(IDS_SQL, {"keys": list(keys)})).fetchall()
        return self.portal.run(read())

    def describe_id(self, ident: str) -> str:
        """Where an id lives in the database (for failure messages)."""
        async def read() -> str:
            async with self.rt.transaction(system=True) as conn:
                rows = await (await conn.execute(
                    """SELECT 'memory' AS kind, s.key, m.is_latest::text AS a, m.is_forgotten::text AS b
                         FROM memories m JOIN spaces s ON s.id = m.space_id WHERE m.id = %(i)s
                       UNION ALL
                       SELECT 'document', s.key, d.status, (d.deleted_at IS NOT NULL)::text
                         FROM documents d JOIN spaces s ON s.id = d.space_id WHERE d.id = %(i)s""",
                    {"i": uuid.UUID(ident)})).fetchall()
            return "; ".join(f"{r['kind']} in {r['key']} ({r['a']}, {r['b']})" for r in rows) \
                or "nowhere"
        return self.portal.run(read())

    def settle(self, op: str, allowed: set[str]) -> None:
        """Invariant (b): only ``allowed`` spaces (and those the worker is busy in) changed."""
        busy = set(self.working.values())
        t = time.perf_counter()
        status, now = self._snapshot(list(self.working))
        self.stats.db_seconds += time.perf_counter() - t
        for doc in list(self.working):
            if status.get(doc, "done") in TERMINAL:
                del self.working[doc]
        changed = {s for s, fp in now.items() if self.fingerprint.get(s) != fp}
        changed |= set(self.fingerprint) - set(now)
        outside = changed - allowed - busy
        before, self.fingerprint = self.fingerprint, now
        if changed:
            self._refresh_ids(changed)
        if outside:
            parts = ("last activity", "memories", "documents", "recall statistics")
            what = {s: [p for p, a, b in zip(parts, before.get(s, ("",) * 4),
                                             now.get(s, ("",) * 4), strict=True) if a != b]
                    for s in sorted(outside)}
            self.violation("b", f"{op} changed {what} although it may write only "
                                f"{sorted(allowed) or 'nothing'} [request: {self.last_request}]")

    def finish(self, timeout: float = 120) -> None:
        """Let the worker finish every uploaded document (nothing else may change meanwhile),
        then audit every row's authors: whoever created, changed, forgot or deleted anything in
        a space must have been allowed to write there (invariant b, read from the database)."""
        deadline = time.monotonic() + timeout
        while self.working and time.monotonic() < deadline:
            time.sleep(0.2)
            self.settle("waiting for the worker", set())
        if self.working:
            self.mismatch("worker", f"documents still processing after {timeout:.0f} s: "
                                    f"{sorted(self.working)}")

        async def read() -> list[dict[str, Any]]:
            async with self.rt.transaction(system=True) as conn:
                return await (await conn.execute(AUTHORS_SQL)).fetchall()
        rows = self.portal.run(read())
        self.stats.checks["authors audited"] += len(rows)
        for row in rows:
            if (row["key"], row["user_id"]) not in self.permitted:
                self.violation("b", f"{row['what']} in {row['key']} by user {row['user_id']}, "
                                    "who was never allowed to write there")

    def _refresh_ids(self, spaces: set[str]) -> None:
        for row in self._read_ids(sorted(spaces)):
            self.id_owner[row["id"]] = row["key"]

    # ------------------------------------------------------------------ HTTP

    def _anonymous(self, path: str, payload: dict[str, Any]) -> str:
        r = self.http.post(self.base + path, json=payload, headers={"Accept": ACCEPT})
        assert r.status_code == 401, (path, r.status_code, r.text)
        return r.text

    def send(self, op: str, key: KeyM | None, method: str, path: str, *,
             payload: Any = None, content: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[Reply, str]:
        """One HTTP request; checks 5xx and (d). Returns the reply and the request's text."""
        self.stats.calls[op] += 1
        hdrs = {"Accept": ACCEPT, **(headers or {})}
        if key is not None:
            hdrs["Authorization"] = f"Bearer {key.secret}"
        url = path if path.startswith("http") else self.base + path
        t = time.perf_counter()
        if payload is not None:
            response = self.http.request(method, url, json=payload, headers=hdrs)
        else:
            response = self.http.request(method, url, content=content, headers=hdrs)
        self.stats.http_seconds += time.perf_counter() - t
        try:
            data = response.json()
        except ValueError:
            data = None
        reply = Reply(response.status_code, response.text, data)
        request_text = url + " " + (json.dumps(payload) if payload is not None else "")
        self.last_request = f"{method} {request_text}"[:600]
        if reply.status >= 500:
            self.violation("5xx", f"{op}: HTTP {reply.status} for {request_text[:300]}: "
                                  f"{reply.body[:300]}")
        if key is not None and not key.alive:
            self.stats.checks["dead key refused"] += 1
            expected = self.unauthorized_uploads if path == "/uploads" else self.unauthorized_mcp
            if reply.status != 401 or reply.body != expected:
                why = "revoked" if key.revoked else "user deactivated"
                self.violation("d", f"{op} with a {why} key: HTTP {reply.status} "
                                    f"{reply.body[:300]} (expected 401 {expected})")
        return reply, request_text

    def mcp(self, op: str, key: KeyM | None, method: str, params: dict[str, Any]
            ) -> tuple[Reply, str]:
        return self.send(op, key, "POST", "/mcp",
                         payload={"jsonrpc": "2.0", "id": 1, "method": method, "params": params})

    def tool(self, op: str, key: KeyM | None, name: str, args: dict[str, Any]
             ) -> tuple[Reply, str]:
        return self.mcp(op, key, "tools/call", {"name": name, "arguments": args})
