"""The machinery of the property-based isolation suite: a model of who may read and write what,
and a driver that checks a live server against it through real HTTP with real keys.

Used by ``tests/test_isolation_property.py`` (a seeded hypothesis slice on every ``make test``)
and ``bench/isolation.py`` (the same operations at full scale, choices from ``random``).

Every space gets a unique marker (``mk`` + 12 hex) in its name, description, memories and
documents, and a key of the form ``iso-`` + 10 hex. The world keeps a model of users (role,
active), keys (revoked, grants in grant order, selected space) and spaces, and after every
request checks:

(a) no HTTP body names another space: no marker, space key, space id, memory id or document id
    of a space the key cannot currently read, unless the request itself carried it;
(b) no write lands outside effective ReadWrite: a per-space fingerprint of memories, documents,
    recall statistics and activity (read through ``Runtime.transaction(system=True)``, the
    explicit every-space scope) changes only in the space the model allows that request to
    write (and in spaces whose upload the in-process worker is still processing), a refused
    write changes nothing, and at the end (``finish``) every author of every row (created,
    changed, forgotten, deleted) was allowed to write in that row's space;
(c) a space the key holds no grant on is refused with the very bytes a nonexistent one gets, once
    the tag and ids are replaced by placeholders (and a foreign id like a random one);
(d) a revoked key, or a key of a deactivated user, gets HTTP 401 (the anonymous answer, byte for
    byte) on the very next request, and on every later one.

Besides, the answers are checked against the model (which space a request acted on, which
spaces listSpaces/whoAmI show with which access, success or refusal); a disagreement that is no
isolation failure is counted as a "mismatch". Violations and mismatches both fail the test.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import secrets
import socket
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import httpx
import uvicorn
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.db import documents as documents_db
from memory_mcp.db.pool import open_pool
from memory_mcp.http.app import create_app
from memory_mcp.services import admin
from memory_mcp.services.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
T = TypeVar("T")

UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
MARKER_RE = re.compile(r"(?<![0-9a-z])mk[0-9a-f]{12}(?![0-9a-f])")
SPACE_RE = re.compile(r"(?<![0-9a-z-])iso-[0-9a-f]{10}(?![0-9a-f])")
ACCEPT = "application/json, text/event-stream"
UI_URIS = tuple(f"ui://memory-mcp/{n}.html"
                for n in ("select-space", "guided-save", "upload-file", "memory-graph"))
RESOURCE_URIS = ("memory-mcp://profile", "memory-mcp://spaces", "memory-mcp://memories", *UI_URIS)
FACTS = (
    "the team deploys to production every Friday afternoon",
    "the staging database runs PostgreSQL 16 in eu-west-1",
    "code reviews need two approvals before merging",
    "the on-call rotation changes every Monday at 9am",
    "invoices are exported to the finance system nightly",
    "the design system uses an 8 pixel spacing grid",
    "customer data is retained for 30 days after cancellation",
    "the mobile app supports iOS 16 and later",
    "feature flags are cleaned up after two releases",
    "the search cluster has three nodes and one replica",
    "the office cafeteria serves sushi on Wednesdays",
    "load tests run against the perf environment on Tuesdays",
)
QUERIES = ("when do we deploy?", "which database version does staging use?",
           "how many approvals does a review need?", "who is on call?", "data retention policy",
           "spacing grid of the design system", "supported iOS versions", "search cluster size")
CATEGORIES = ("decision", "convention", "preference", "infra")
#: Wording the server uses for the refusals the model predicts.
NOT_FOUND = "was not found"
NO_SPACES = "no spaces yet"
READ_ONLY = "read-only"
#: Phrases of the (c) probes and which tools take a containerTag.
TAG_PROBES = ("search_memory", "add_memory:save", "add_memory:forget", "add_memory:forget-id",
              "listDocuments", "listMemories", "getDocument", "deleteDocument", "select-space",
              "guided-save", "upload-file", "upload-start", "upload-status", "memory-graph",
              "POST /uploads")
ID_PROBES = ("getDocument", "deleteDocument", "upload-status", "add_memory:forget-id")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def isolation_settings(url: str, data_dir: Path) -> Settings:
    """The server's settings: this database, its own data dir (uploads, signing key), and no
    per-key rate limits (the suite makes thousands of calls a minute with a handful of keys)."""
    fields: dict[str, Any] = {"auto_migrate": True, "migrations_dir": ROOT / "migrations",
                              "data_dir": data_dir, "pool_min_size": 1, "pool_max_size": 4}
    for name in ("rate_limit_requests_per_minute", "rate_limit_writes_per_minute"):
        if name in Settings.model_fields:
            fields[name] = 0
    return Settings(database_url=SecretStr(url), **fields)


@contextmanager
def serving(settings: Settings) -> Iterator[tuple[str, Any]]:
    """The real app under uvicorn on a free loopback port: yields (base URL, app)."""
    port = free_port()
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True, name="isolation-server")
    thread.start()
    deadline = time.monotonic() + 90
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("isolation server did not start")
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    httpx.get(f"{base}/healthz", timeout=10).raise_for_status()
    try:
        yield base, app
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextmanager
def quiet_logs() -> Iterator[None]:
    """Refusals are the point of this suite and the server logs each one: only errors while
    inside (the previous levels come back afterwards, for the tests that read logs)."""
    loggers = [logging.getLogger(n) for n in ("httpx", "mcp", "memory_mcp", "uvicorn.error")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


class Portal:
    """An event loop on its own thread: the admin service and the database inspection are
    async, the state machine driving them is not."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True,
                                       name="isolation-portal")
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


# ------------------------------------------------------------------------------------ choices


class Chooser(Protocol):
    """Where the choices come from: hypothesis (the test) or ``random`` (the bench)."""

    def pick(self, label: str, options: Sequence[T]) -> T: ...

    def integer(self, label: str, lo: int, hi: int) -> int: ...

    def flag(self, label: str) -> bool: ...


class FirstChooser:
    """Always the first option, the lowest number and False (the coverage sweep)."""

    def pick(self, label: str, options: Sequence[T]) -> T:
        return next(iter(options))

    def integer(self, label: str, lo: int, hi: int) -> int:
        return lo

    def flag(self, label: str) -> bool:
        return False


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, label: str, options: Sequence[T]) -> T:
        return self.rng.choice(list(options))

    def integer(self, label: str, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def flag(self, label: str) -> bool:
        return self.rng.random() < 0.5


# -------------------------------------------------------------------------------------- model


@dataclass
class SpaceM:
    key: str
    id: str
    marker: str
    scenario: int
    texts: list[str] = field(default_factory=list)  # acknowledged memory texts
    saves: int = 0


@dataclass
class UserM:
    id: str
    email: str
    role: str
    active: bool = True


@dataclass
class KeyM:
    id: str
    secret: str
    user: UserM
    revoked: bool = False
    #: space key -> "read" | "readwrite", oldest grant first (dicts keep insertion order).
    grants: dict[str, str] = field(default_factory=dict)
    selected: str | None = None

    @property
    def alive(self) -> bool:
        return not self.revoked and self.user.active

    def __repr__(self) -> str:  # hypothesis prints choices; keep them short
        return f"KeyM({self.user.role}, {self.id[:8]}, {self.grants})"


@dataclass
class Upload:
    """A started upload whose bytes were not PUT yet."""

    document_id: str
    space: str
    url: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Reply:
    status: int
    body: str
    data: Any

    @property
    def result(self) -> dict[str, Any]:
        found = self.data.get("result") if isinstance(self.data, dict) else None
        return found if isinstance(found, dict) else {}

    @property
    def ok(self) -> bool:
        if not 200 <= self.status < 300 or not isinstance(self.data, dict):
            return False
        if "jsonrpc" not in self.data:  # a plain HTTP route
            return "error" not in self.data
        return "result" in self.data and not self.result.get("isError", False)

    @property
    def message(self) -> str:
        """The error (or answer) text a person would read."""
        if not isinstance(self.data, dict):
            return self.body
        if isinstance(self.data.get("error"), dict):
            return str(self.data["error"].get("message", ""))
        if "jsonrpc" not in self.data:
            return str(self.data.get("message", self.body))
        return self.text

    @property
    def text(self) -> str:
        r = self.result
        parts = [c.get("text", "") for c in r.get("content", []) if isinstance(c, dict)]
        parts += [c.get("text", "") for c in r.get("contents", []) if isinstance(c, dict)]
        parts += [m.get("content", {}).get("text", "") for m in r.get("messages", [])
                  if isinstance(m, dict)]
        return "\n".join(parts)

    @property
    def structured(self) -> dict[str, Any]:
        if isinstance(self.data, dict) and "jsonrpc" not in self.data:
            return self.data
        found = self.result.get("structuredContent")
        return found if isinstance(found, dict) else {}


@dataclass
class Stats:
    calls: Counter[str] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    #: Seconds spent waiting for HTTP answers, and reading the database for checks.
    http_seconds: float = 0.0
    db_seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.calls.values())


class IsolationFailure(AssertionError):
    """Raised in strict mode (the test) at the first violation or mismatch."""


def normalise(body: str, tag: str | None) -> str:
    """A body with the requested tag and every id replaced by placeholders (invariant c)."""
    if tag:
        body = body.replace(tag, "<TAG>").replace(tag.strip(), "<TAG>")
    return UUID_RE.sub("<ID>", body)


def access_label(access: str) -> str:
    return "ReadWrite" if access == "readwrite" else "Read"


# -------------------------------------------------------------------------------------- world

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


class IsolationWorld:
    """The live server, the admin runtime, the model, and every operation of the suite.

    Each ``op_*`` makes at least one HTTP request and checks it. ``strict`` (the test) raises at
    the first violation or mismatch; otherwise (the bench) they are counted and the run goes on.
    """

    OPS: ClassVar[dict[str, int]] = {  # operation -> weight (both the test and the bench)
        "op_search": 8, "op_save": 8, "op_forget": 4, "op_list_memories": 4,
        "op_list_documents": 3, "op_get_document": 4, "op_delete_document": 2,
        "op_list_spaces": 3, "op_who_am_i": 3, "op_select_space": 3, "op_guided_save": 2,
        "op_upload_file": 2, "op_upload_start": 2, "op_post_uploads": 2, "op_put": 3,
        "op_upload_status": 3, "op_graph": 3, "op_resource": 6, "op_prompt": 3,
        "op_differential": 8, "op_grant": 3, "op_revoke_grant": 2, "op_revoke_key": 1,
        "op_deactivate": 1, "op_reactivate": 1, "op_set_role": 1, "op_new_key": 1,
        "op_new_space": 1,
    }

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

    # ------------------------------------------------------------------ checks

    def check(self, op: str, key: KeyM | None, reply: Reply, request_text: str,
              allowed: set[str], *, one_space: str | None = None) -> None:
        """(b) then (a) for one request; ``one_space``: the answer is about that space only."""
        if key is not None:
            self.permitted |= {(s, key.user.id) for s in allowed}
        self.settle(op, allowed)
        self.check_leaks(op, key, reply, request_text, one_space=one_space)

    def check_leaks(self, op: str, key: KeyM | None, reply: Reply, request_text: str, *,
                    one_space: str | None = None) -> None:
        """Invariant (a), and that a one-space answer names ids of that space only."""
        self.stats.checks["bodies scanned"] += 1
        body = reply.body.lower()
        sent = request_text.lower()
        readable = self.readable(key) if key is not None else set()
        exempt = set(MARKER_RE.findall(sent)) | set(SPACE_RE.findall(sent)) | set(
            UUID_RE.findall(sent))
        leaks: list[str] = []
        for marker in set(MARKER_RE.findall(body)) - exempt:
            owner = self.marker_owner.get(marker)
            if owner is not None and owner not in readable:
                leaks.append(f"marker {marker} of space {owner}")
        for space in set(SPACE_RE.findall(body)) - exempt:
            if space in self.spaces and space not in readable:
                leaks.append(f"space key {space}")
        ids = set(UUID_RE.findall(body)) - exempt
        unknown = {i for i in ids if i not in self.id_owner and i not in self.other_ids}
        if unknown and self.spaces:
            self._refresh_ids(set(self.spaces))
            self.other_ids |= {i for i in unknown if i not in self.id_owner}
        for i in ids:
            owner = self.id_owner.get(i)
            if owner is None:
                continue
            if owner not in readable:
                leaks.append(f"id {i} of space {owner}")
            elif one_space is not None and owner != one_space:
                self.mismatch(op, f"an answer about space {one_space} names id {i} of {owner}")
        if leaks:
            who = "no key" if key is None else f"key {key!r} (alive={key.alive})"
            self.violation("a", f"{op} for {who} revealed {sorted(set(leaks))}; request "
                                f"{request_text[:300]}; answer {reply.body[:500]}")

    def expect_read(self, op: str, k: KeyM, reply: Reply, tag: str | None) -> str | None:
        """A one-space read against the model; the space it acted on when it succeeded."""
        if not k.alive:
            return None
        kind, space = self.resolve(k, tag)
        if kind == "ok":
            if not reply.ok:
                self.mismatch(op, f"expected an answer from {space} (tag {tag!r}), got "
                                  f"{reply.status} {reply.message[:300]}")
                return None
            got = reply.structured.get("space")
            if isinstance(got, dict):
                got = got.get("key")
            if got is not None and got != space:
                self.mismatch(op, f"acted on {got}, the model says {space} (tag {tag!r})")
            return space
        if reply.ok:
            self.violation("a", f"{op} answered for tag {tag!r} although the key cannot read it: "
                                f"{reply.body[:300]}")
        else:
            self._refusal(op, reply, NOT_FOUND if kind == "missing" else NO_SPACES)
        return None

    def expect_write(self, op: str, k: KeyM, reply: Reply, tag: str | None) -> str | None:
        """A write against the model; the space written when it succeeded."""
        if not k.alive:
            return None
        kind, space = self.resolve(k, tag)
        if kind == "ok" and space is not None and self.effective(k, space) == "readwrite":
            if not reply.ok:
                self.mismatch(op, f"expected a write in {space}, got {reply.status} "
                                  f"{reply.message[:300]}")
                return None
            got = reply.structured.get("space")
            if got is not None and got != space:
                self.mismatch(op, f"wrote in {got}, the model says {space}")
            return space
        if reply.ok:
            self.violation("b", f"{op} accepted a write (tag {tag!r}, resolved {space}) outside "
                                f"effective ReadWrite: {reply.body[:300]}")
            return None
        self._refusal(op, reply, READ_ONLY if kind == "ok" else
                      NOT_FOUND if kind == "missing" else NO_SPACES)
        return None

    def _refusal(self, op: str, reply: Reply, phrase: str) -> None:
        if phrase not in reply.message:
            self.mismatch(op, f"expected a refusal saying {phrase!r}, got {reply.status} "
                              f"{reply.message[:300]}")

    # ------------------------------------------------------------------ choosing

    def pick_key(self, c: Chooser) -> KeyM:
        """Mostly a live key (a dead one only checks invariant d)."""
        if self.forced_key is not None:
            return self.forced_key
        alive = self.alive_keys()
        if alive and c.pick("key kind", ("alive",) * 5 + ("any",)) == "alive":
            return c.pick("alive key", alive)
        return c.pick("key", self.keys)

    def alive_keys(self) -> list[KeyM]:
        return [k for k in self.keys if k.alive]

    def pick_tag(self, c: Chooser, k: KeyM) -> str | None:
        kind = c.pick("tag", ("granted", "none", "granted", "ungranted", "old", "missing",
                              "odd"))
        if kind == "granted" and k.grants:
            key = c.pick("granted space", list(k.grants))
            return f" {key} " if c.pick("padded", (False, False, True)) else key
        if kind == "odd":  # never a key: wildcards, the RLS "every space", another's key upper-cased
            hidden = [s.upper() for s in self.spaces if s not in k.grants]
            return c.pick("odd tag", ("*", "%", "iso-%", "_", *hidden[-2:]))
        if kind in ("granted", "ungranted"):
            others = [s for s in self.current if s not in k.grants]
            if others:
                return c.pick("ungranted space", others)
        if kind in ("granted", "ungranted", "old"):
            old = [s for s in self.spaces if s not in self.current]
            if old:
                return c.pick("old space", old[-12:])
        if kind == "none":
            return None
        return self.missing_tag()

    @staticmethod
    def missing_tag() -> str:
        return f"iso-{secrets.token_hex(5)}"

    def marker_for(self, space: str | None) -> str:
        found = self.spaces.get(space or "")
        return found.marker if found else f"mk{secrets.token_hex(6)}"

    def text_for(self, c: Chooser, space: str | None) -> str:
        found = self.spaces.get(space or "")
        kind = c.pick("text", ("new", "new", "again", "reword", "shared"))
        if kind == "shared":  # the same words in many spaces, no marker: dedup stays per space
            return f"team-wide note: {c.pick('fact', FACTS)}"
        if found is not None and found.texts and kind == "again":
            return c.pick("existing text", found.texts[-6:])
        if found is not None and found.texts and kind == "reword":  # may become a new version
            return c.pick("existing text", found.texts[-6:]) + ", as agreed by the team"
        n = found.saves if found else 0
        if found is not None:
            found.saves += 1
        return f"{self.marker_for(space)} note {n}: {c.pick('fact', FACTS)}"

    def pick_document(self, c: Chooser, k: KeyM) -> str:
        """A document id: one the key may read, one elsewhere, or a random one."""
        readable = [d for d in self.documents if self.id_owner.get(d) in self.readable(k)]
        foreign = [d for d in self.documents if self.id_owner.get(d) not in self.readable(k)]
        kind = c.pick("document", ("readable", "readable", "foreign", "random"))
        if kind == "readable" and readable:
            return c.pick("readable document", sorted(readable)[-10:])
        if kind in ("readable", "foreign") and foreign:
            return c.pick("foreign document", sorted(foreign)[-10:])
        return str(uuid.uuid4())

    def pick_memory(self, c: Chooser, space: str | None) -> str:
        """A memory id of ``space``, of another space, or a random one."""
        kind = c.pick("memory", ("own", "own", "other", "random"))
        memories = [(i, s) for i, s in self.id_owner.items() if self.is_memory(i)]
        mine = sorted(i for i, s in memories if s == space)
        others = sorted(i for i, s in memories if s != space)
        if kind == "own" and mine:
            return c.pick("own memory", mine[-10:])
        if kind in ("own", "other") and others:
            return c.pick("other memory", others[-10:])
        return str(uuid.uuid4())

    # ------------------------------------------------------------------ scenario

    def new_scenario(self, c: Chooser) -> None:
        """A fresh cast: 2-4 spaces, a seeding Writer with ReadWrite on all of them, 2-3 more
        users with 1-2 keys each and random grants. Earlier scenarios' spaces stay in the
        database, unreachable from the new keys: foreign content every request could leak."""
        self.scenario += 1
        self.current, self.users, self.keys, self.uploads = [], [], [], []
        self.fingerprint = self._read_fingerprint()  # a fresh baseline (after a failed example)
        seeder = self._create_user("writer")
        for _ in range(c.integer("spaces", 2, 4)):
            self._create_space(seeder)
        seed_key = self._create_key(seeder)
        for space in self.current:
            self._grant(seed_key, space, "readwrite")
        for space in self.current:
            for _ in range(c.integer("seed memories", 1, 2)):
                self._save(seed_key, space, self.text_for(c, space), None)
        self._link_first_memories(seeder)
        for _ in range(c.integer("users", 2, 3)):
            user = self._create_user(c.pick("role", ("writer", "writer", "reader")))
            for _ in range(c.integer("keys", 1, 2)):
                k = self._create_key(user)
                for space in self.current:
                    access = c.pick("grant", ("none", "none", "read", "readwrite"))
                    if access != "none":
                        self._grant(k, space, access)
        self.settle("new scenario", set(self.current))

    def _create_user(self, role: str) -> UserM:
        tag = uuid.uuid4().hex[:10]
        row = self.portal.run(admin.create_user(self.rt, f"{tag}@isolation.test",
                                                f"User {tag}", role))
        user = UserM(id=str(row["id"]), email=row["email"], role=role)
        self.other_ids.add(user.id)
        self.users.append(user)
        return user

    def _create_key(self, user: UserM) -> KeyM:
        row = self.portal.run(admin.create_key(self.rt, user.id, "isolation"))
        k = KeyM(id=str(row["id"]), secret=row["key"], user=user)
        self.other_ids.add(k.id)
        self.keys.append(k)
        return k

    def _grant(self, k: KeyM, space: str, access: str) -> None:
        self.portal.run(admin.set_grant(self.rt, k.id, space, access))
        k.grants[space] = access  # an existing grant keeps its place (created_at)

    def _create_space(self, owner: UserM) -> str:
        key, marker = f"iso-{secrets.token_hex(5)}", f"mk{secrets.token_hex(6)}"
        row = self.portal.run(admin.create_space(self.rt, key, f"Space {marker}",
                                                 f"isolation space {marker}"))
        space = SpaceM(key=key, id=str(row["id"]), marker=marker, scenario=self.scenario)
        self.spaces[key] = space
        self.permitted.add((key, owner.id))  # the seeded document's author
        self.marker_owner[marker] = key
        self.id_owner[space.id] = key
        self.current.append(key)

        async def insert() -> str:
            async with self.rt.transaction(system=True) as conn:
                doc = await documents_db.insert(
                    conn, space_id=uuid.UUID(space.id), user_id=uuid.UUID(owner.id),
                    title=f"{marker} handbook", filename=f"{marker}-handbook.md",
                    content_type="text/markdown", size_bytes=120, status="done",
                    summary=f"{marker} summary: how this team works.",
                    content=f"{marker} handbook. {FACTS[0]}. {FACTS[2]}.")
            return str(doc["id"])

        doc_id = self.portal.run(insert())
        self.documents.add(doc_id)
        self.id_owner[doc_id] = key
        self.settle("create space", {key})
        return key

    def _link_first_memories(self, owner: UserM) -> None:
        """The seeded document of each space becomes the source of one of its memories."""
        async def link() -> None:
            async with self.rt.transaction(system=True) as conn:
                for key in self.current:
                    await conn.execute(
                        """UPDATE memories SET source_document_id = (
                               SELECT d.id FROM documents d WHERE d.space_id = m.space_id
                               ORDER BY d.created_at LIMIT 1)
                           FROM (SELECT id, space_id FROM memories WHERE space_id = %s
                                 ORDER BY created_at LIMIT 1) AS m
                           WHERE memories.id = m.id""",
                        (uuid.UUID(self.spaces[key].id),))
        self.portal.run(link())

    def _save(self, k: KeyM, tag: str | None, content: str, category: str | None,
              op: str = "add_memory") -> Reply:
        args: dict[str, Any] = {"content": content}
        if category:
            args["category"] = category
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(op, k, "add_memory", args)
        written = self.expect_write(op, k, reply, tag)
        self.check(op, k, reply, sent, {written} if written else set(), one_space=written)
        if written and reply.ok and written in self.spaces:
            action = reply.structured.get("action")
            if action not in ("saved", "unchanged", "versioned"):
                self.mismatch(op, f"unexpected save action {action!r}")
            if content not in self.spaces[written].texts:
                self.spaces[written].texts.append(content)
        return reply

    # ------------------------------------------------------------------ tools

    def op_search(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        mode = c.pick("search", ("query", "query", "keyword-own", "keyword-foreign", "category",
                                 "query+category"))
        args: dict[str, Any] = {"includeProfile": c.flag("profile"),
                                "limit": c.integer("limit", 1, 20)}
        if mode.startswith("query"):
            args["query"] = c.pick("query", QUERIES)
        if mode.endswith("category"):
            args["category"] = c.pick("category", CATEGORIES)
        foreign_marker = None
        if mode == "keyword-own":
            args["keyword"] = self.marker_for(target)
        if mode == "keyword-foreign":
            others = [s for s in self.spaces.values() if s.key != target]
            foreign_marker = (c.pick("foreign space", others[-12:]).marker if others
                              else f"mk{secrets.token_hex(6)}")
            args["keyword"] = foreign_marker
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool("search_memory", k, "search_memory", args)
        space = self.expect_read("search_memory", k, reply, tag)
        self.check("search_memory", k, reply, sent, {space} if space else set(), one_space=space)
        if space and reply.ok:
            results = reply.structured.get("results", [])
            if foreign_marker is not None and results:
                self.violation("a", f"keyword {foreign_marker} of another space found "
                                    f"{len(results)} memories in {space}: {reply.body[:300]}")
            if mode == "keyword-own" and any(
                    str(args["keyword"]) not in r.get("memory", "").lower() for r in results):
                self.mismatch("search_memory", "a keyword hit without the keyword")

    def op_save(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        content = self.text_for(c, target or tag)
        category = c.pick("category", (None, None, *CATEGORIES))
        self._save(k, tag, content, category)

    def op_forget(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        args: dict[str, Any] = {"action": "forget"}
        by_id = c.flag("by id")
        memory_id = None
        if by_id:
            memory_id = self.pick_memory(c, target)
            args.update(content="forget by id", memoryId=memory_id)
        else:
            space = self.spaces.get(target or "")
            if space is not None and space.texts and c.flag("exact"):
                args["content"] = c.pick("forget text", space.texts[-6:])
            else:
                args["content"] = f"{self.marker_for(target or tag)} {c.pick('fact', FACTS)}"
        if tag is not None:
            args["containerTag"] = tag
        op = "add_memory:forget"
        reply, sent = self.tool(op, k, "add_memory", args)
        kind, space_key = self.resolve(k, tag)
        may_write = kind == "ok" and space_key is not None and self.effective(
            k, space_key) == "readwrite"
        if k.alive and may_write and by_id and self.id_owner.get(str(memory_id)) != space_key:
            # the id is not a memory of the resolved space: refused like a missing one
            if reply.ok:
                self.violation("b", f"forget of memory {memory_id} (space "
                                    f"{self.id_owner.get(str(memory_id))}) through "
                                    f"{space_key} was accepted: {reply.body[:300]}")
            else:
                self._refusal(op, reply, "No memory with id")
            written = None
        else:
            if by_id and may_write and not reply.ok and k.alive:
                self.mismatch(op, f"memory {memory_id} is {self.describe_id(str(memory_id))}")
            written = self.expect_write(op, k, reply, tag)
        self.check(op, k, reply, sent, {written} if written else set(), one_space=written)

    def _page(self, c: Chooser, name: str, items: str) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        args: dict[str, Any] = {"page": 1, "limit": c.integer("limit", 1, 50)}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(name, k, name, args)
        space = self.expect_read(name, k, reply, tag)
        self.check(name, k, reply, sent, set(), one_space=space)
        if space and reply.ok and not isinstance(reply.structured.get(items), list):
            self.mismatch(name, f"no {items} list in {reply.body[:200]}")

    def op_list_memories(self, c: Chooser) -> None:
        self._page(c, "listMemories", "memories")

    def op_list_documents(self, c: Chooser) -> None:
        self._page(c, "listDocuments", "documents")

    def _document_call(self, c: Chooser, name: str, *, write: bool) -> None:
        k = self.pick_key(c)
        doc = self.pick_document(c, k)
        tag = self.pick_tag(c, k) if c.flag("with tag") else None
        args: dict[str, Any] = {"documentId": doc}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(name, k, name, args)
        written = self._expect_document(name, k, reply, doc, tag, write=write)
        self.check(name, k, reply, sent, {written} if written and write else set(),
                   one_space=written)

    def _expect_document(self, op: str, k: KeyM, reply: Reply, doc: str, tag: str | None, *,
                         write: bool) -> str | None:
        """getDocument/deleteDocument/upload-status: the named space (else any readable one)
        must hold the live document; a write needs effective ReadWrite there."""
        if not k.alive:
            return None
        if tag:
            kind, _ = self.resolve(k, tag)
            if kind != "ok":
                if reply.ok:
                    self.violation("a", f"{op} answered through unreadable tag {tag}")
                else:
                    self._refusal(op, reply, NOT_FOUND)
                return None
        owner = self.id_owner.get(doc)
        deleted = doc in self.deleted
        visible = (owner is not None and not deleted and owner in self.readable(k)
                   and (not tag or owner == tag.strip()))
        if not visible:
            if reply.ok:
                self.violation("a" if not write else "b",
                               f"{op} of document {doc} (space {owner}, deleted={deleted}) "
                               f"answered for tag {tag!r}: {reply.body[:300]}")
            else:
                self._refusal(op, reply, f"Document {doc} was not found.")
            return None
        assert owner is not None
        if write and self.effective(k, owner) != "readwrite":
            if reply.ok:
                self.violation("b", f"{op} of document {doc} in read-only {owner} accepted")
            else:
                self._refusal(op, reply, READ_ONLY)
            return None
        if not reply.ok:
            self.mismatch(op, f"expected document {doc} of {owner}, got {reply.message[:300]}")
            return None
        if reply.structured.get("space") != owner:
            self.mismatch(op, f"document {doc} reported in {reply.structured.get('space')}, "
                              f"lives in {owner}")
        return owner

    def op_get_document(self, c: Chooser) -> None:
        self._document_call(c, "getDocument", write=False)

    def op_delete_document(self, c: Chooser) -> None:
        k = self.pick_key(c)
        doc = self.pick_document(c, k)
        tag = self.pick_tag(c, k) if c.flag("with tag") else None
        args: dict[str, Any] = {"documentId": doc}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool("deleteDocument", k, "deleteDocument", args)
        written = self._expect_document("deleteDocument", k, reply, doc, tag, write=True)
        self.check("deleteDocument", k, reply, sent, {written} if written else set(),
                   one_space=written)
        if written and reply.ok:
            self.deleted.add(doc)

    def op_upload_status(self, c: Chooser) -> None:
        self._document_call(c, "upload-status", write=False)

    def _check_spaces_listing(self, op: str, k: KeyM, items: list[dict[str, Any]],
                              key_field: str = "key") -> None:
        got = {i.get(key_field): i.get("access") for i in items}
        want = {s: access_label(self.effective(k, s) or "read") for s in k.grants}
        if got != want:
            self.mismatch(op, f"listed {got}, the model says {want}")

    def op_list_spaces(self, c: Chooser) -> None:
        k = self.pick_key(c)
        reply, sent = self.tool("listSpaces", k, "listSpaces", {})
        self.check("listSpaces", k, reply, sent, set())
        if k.alive:
            if not reply.ok:
                self.mismatch("listSpaces", reply.message[:300])
                return
            self._check_spaces_listing("listSpaces", k, reply.structured.get("spaces", []))
            if reply.structured.get("activeSpace") != self.default(k):
                self.mismatch("listSpaces", f"active {reply.structured.get('activeSpace')}, "
                                            f"the model says {self.default(k)}")

    def op_who_am_i(self, c: Chooser) -> None:
        k = self.pick_key(c)
        reply, sent = self.tool("whoAmI", k, "whoAmI", {})
        self.check("whoAmI", k, reply, sent, set())
        if not k.alive:
            return
        if not reply.ok:
            self.mismatch("whoAmI", reply.message[:300])
            return
        who = reply.structured
        self._check_spaces_listing("whoAmI", k, who.get("scope", []), "space")
        granted = {s["space"]: s.get("grantedAccess") for s in who.get("scope", [])}
        if granted != {s: access_label(a) for s, a in k.grants.items()}:
            self.mismatch("whoAmI", f"granted {granted}, the model says {k.grants}")
        if who.get("key", {}).get("id") != k.id or who.get("user", {}).get("id") != k.user.id:
            self.mismatch("whoAmI", "another key or user")
        active = who.get("activeSpace") or {}
        if active.get("key") != self.default(k):
            self.mismatch("whoAmI", f"active {active}, the model says {self.default(k)}")

    def op_select_space(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k) if c.pick("select", ("switch", "switch", "picker")) == "switch" \
            else None
        reply, sent = self.tool("select-space", k, "select-space",
                                {"containerTag": tag} if tag else {})
        self.check("select-space", k, reply, sent, set())
        if not k.alive:
            return
        if tag is None:
            if not reply.ok:
                self.mismatch("select-space", reply.message[:300])
                return
            self._check_spaces_listing("select-space", k, reply.structured.get("spaces", []))
            active = reply.structured.get("activeSpace") or {}
            if active.get("key") != self.default(k):
                self.mismatch("select-space", f"picker active {active}, model {self.default(k)}")
            return
        if self.expect_read("select-space", k, reply, tag) is not None:
            k.selected = tag.strip()
            got = (reply.structured.get("activeSpace") or {}).get("key")
            if got != tag.strip():
                self.mismatch("select-space", f"switched to {got}, asked for {tag}")

    def _writable_view(self, op: str, name: str, c: Chooser, args: dict[str, Any],
                       default_field: str) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k) if c.flag("with tag") else None
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(op, k, name, args)
        self.check(op, k, reply, sent, set())
        if not k.alive:
            return
        writable = self.writable(k)
        if tag and tag.strip() not in k.grants and writable:
            if reply.ok:
                self.violation("a", f"{op} accepted unreadable tag {tag}: {reply.body[:300]}")
            else:
                self._refusal(op, reply, NOT_FOUND)
            return
        if not reply.ok:
            self.mismatch(op, reply.message[:300])
            return
        listed = sorted(s["key"] for s in reply.structured.get("writableSpaces", []))
        if listed != writable:
            self.mismatch(op, f"writable {listed}, the model says {writable}")
        chosen = reply.structured.get(default_field)
        if isinstance(chosen, dict):
            chosen = chosen.get("containerTag")
        if writable:
            active = self.default(k)
            want = tag.strip() if tag and tag.strip() in writable else (
                active if active in writable else writable[0])
            if chosen != want:
                self.mismatch(op, f"default {chosen}, the model says {want}")
        elif chosen is not None:
            self.mismatch(op, f"default {chosen} with nowhere to write")

    def op_guided_save(self, c: Chooser) -> None:
        k_preview = c.pick("draft", ("empty", "text"))
        args: dict[str, Any] = {}
        if k_preview == "text":
            args["content"] = f"draft: {c.pick('fact', FACTS)}"
            args["category"] = c.pick("category", CATEGORIES)
        self._writable_view("guided-save", "guided-save", c, args, "draft")

    def op_upload_file(self, c: Chooser) -> None:
        self._writable_view("upload-file", "upload-file", c, {}, "defaultSpace")

    def _upload_body(self, space: str | None, c: Chooser) -> tuple[str, bytes]:
        marker = self.marker_for(space)
        facts = [c.pick("fact", FACTS) for _ in range(3)]
        text = f"# {marker} runbook\n\n" + "\n\n".join(
            f"{marker} fact {i}: {fact}." for i, fact in enumerate(facts))
        return f"{marker}-runbook.md", text.encode()

    def _start_upload(self, c: Chooser, via: str, writer: tuple[KeyM, str] | None = None
                      ) -> None:
        """``POST /uploads`` or ``upload-start``; ``writer``: this key into this space."""
        k, tag = writer if writer is not None else (self.pick_key(c), None)
        if writer is None:
            tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        filename, body = self._upload_body(target or tag, c)
        args: dict[str, Any] = {"filename": filename, "contentType": "text/markdown",
                                "size": len(body)}
        if tag is not None:
            args["containerTag"] = tag
        if via == "POST /uploads":
            reply, sent = self.send(via, k, "POST", "/uploads", payload=args)
            if reply.ok and reply.status != 201:
                self.mismatch(via, f"HTTP {reply.status}")
        else:
            reply, sent = self.tool(via, k, "upload-start", args)
        written = self.expect_write(via, k, reply, tag)
        if k.alive and not reply.ok and via == "POST /uploads":
            kind, _ = self.resolve(k, tag)
            want = 403 if kind == "ok" else 404
            if reply.status != want:
                self.mismatch(via, f"refused with HTTP {reply.status}, expected {want}")
        self.check(via, k, reply, sent, {written} if written else set(), one_space=written)
        if written and reply.ok:
            s = reply.structured
            self.documents.add(s["documentId"])
            self.id_owner[s["documentId"]] = written
            self.uploads.append(Upload(s["documentId"], written, s["uploadUrl"],
                                       dict(s.get("headers") or {}), body))

    def op_upload_start(self, c: Chooser) -> None:
        self._start_upload(c, "upload-start")

    def op_post_uploads(self, c: Chooser) -> None:
        self._start_upload(c, "POST /uploads")

    def op_put(self, c: Chooser) -> None:
        """The local PUT: the signed URL as given (then the worker processes the document in
        its own space only), or one whose document id was swapped for another pending upload's
        (refused, nothing changes)."""
        if not self.uploads:  # start one that can succeed: a key that may write, into its space
            writers = [(k, s) for k in self.alive_keys() for s in self.writable(k)]
            self._start_upload(c, c.pick("start", ("upload-start", "POST /uploads")),
                               c.pick("writer", writers) if writers else None)
            if not self.uploads:
                return
        up = c.pick("upload", self.uploads)
        others = [u for u in self.uploads if u.document_id != up.document_id]
        if others and c.pick("put", ("valid", "valid", "forged")) == "forged":
            victim = c.pick("victim", others)
            url = up.url.replace(up.document_id, victim.document_id)
            reply, sent = self.send("PUT /uploads/local", None, "PUT", url, content=victim.body,
                                    headers=victim.headers)
            if reply.status != 403:
                self.violation("b", f"a PUT signed for {up.document_id} was accepted for "
                                    f"{victim.document_id}: {reply.status} {reply.body[:200]}")
            self.check("PUT /uploads/local", None, reply, sent, set())
            return
        self.uploads.remove(up)
        reply, sent = self.send("PUT /uploads/local", None, "PUT", up.url, content=up.body,
                                headers=up.headers)
        want = 403 if up.document_id in self.deleted else 200  # deleted before its bytes came
        if reply.status != want:
            self.mismatch("PUT /uploads/local", f"HTTP {reply.status} (expected {want}) "
                                                f"{reply.body[:200]}")
        if reply.status == 200:
            self.working[up.document_id] = up.space
        self.check("PUT /uploads/local", None, reply, sent,
                   {up.space} if reply.status == 200 else set(), one_space=up.space)

    def op_graph(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        args: dict[str, Any] = {"includeInactive": c.flag("inactive")}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool("memory-graph", k, "memory-graph", args)
        space = self.expect_read("memory-graph", k, reply, tag)
        self.check("memory-graph", k, reply, sent, set(), one_space=space)

    # ------------------------------------------------------------------ resources, prompt

    def op_resource(self, c: Chooser) -> None:
        k = self.pick_key(c)
        self.read_resource(k, c.pick("uri", RESOURCE_URIS))

    def read_resource(self, k: KeyM, uri: str) -> None:
        op = f"resource {uri}"
        reply, sent = self.mcp(op, k, "resources/read", {"uri": uri})
        one = self.default(k) if uri in ("memory-mcp://profile", "memory-mcp://memories") \
            else None
        self.check(op, k, reply, sent, set(), one_space=one)
        if not k.alive:
            return
        if uri in UI_URIS:
            seen = self.ui_bodies.setdefault(uri, reply.body)
            if not reply.ok or reply.body != seen:
                self.mismatch(op, "a ui:// view differs between keys or failed")
            return
        if uri == "memory-mcp://spaces":
            if not reply.ok:
                self.mismatch(op, reply.message[:300])
                return
            data = json.loads(reply.text)
            self._check_spaces_listing(op, k, data.get("spaces", []))
            if data.get("activeSpace") != self.default(k):
                self.mismatch(op, f"active {data.get('activeSpace')}, model {self.default(k)}")
            return
        space = self.default(k)
        if space is None:
            if reply.ok:
                self.violation("a", f"{op} answered for a key without spaces: {reply.body[:300]}")
            else:
                self._refusal(op, reply, NO_SPACES)
            return
        if not reply.ok:
            self.mismatch(op, reply.message[:300])
            return
        got = json.loads(reply.text).get("space")
        if got != space:
            self.mismatch(op, f"resource of {got}, the model says {space}")

    def op_prompt(self, c: Chooser) -> None:
        k = self.pick_key(c)
        reply, sent = self.mcp("prompt context", k, "prompts/get",
                               {"name": "context", "arguments": {}})
        self.check("prompt context", k, reply, sent, set())
        if k.alive and not reply.ok:
            self.mismatch("prompt context", reply.message[:300])
        if k.alive and reply.ok and self.default(k) and f"space {self.default(k)}" not in reply.text:
            self.mismatch("prompt context", f"no profile of active {self.default(k)}")

    # ------------------------------------------------------------------ (c) differential

    def _probe_args(self, probe: str, tag: str | None, doc: str | None, memory: str | None
                    ) -> tuple[str, dict[str, Any]]:
        """(tool name or HTTP route, arguments) of one (c) probe."""
        base: dict[str, Any] = {} if tag is None else {"containerTag": tag}
        neutral = "isolation probe: the deploy window is Friday"
        doc = doc or str(uuid.uuid4())
        table: dict[str, tuple[str, dict[str, Any]]] = {
            "search_memory": ("search_memory", {"query": "deploy window", **base}),
            "add_memory:save": ("add_memory", {"content": neutral, **base}),
            "add_memory:forget": ("add_memory", {"content": neutral, "action": "forget", **base}),
            "add_memory:forget-id": ("add_memory", {"content": "x", "action": "forget",
                                                    "memoryId": memory or str(uuid.uuid4()),
                                                    **base}),
            "listDocuments": ("listDocuments", base),
            "listMemories": ("listMemories", base),
            "getDocument": ("getDocument", {"documentId": doc, **base}),
            "deleteDocument": ("deleteDocument", {"documentId": doc, **base}),
            "select-space": ("select-space", base),
            "guided-save": ("guided-save", {"content": neutral, **base}),
            "upload-file": ("upload-file", base),
            "upload-start": ("upload-start", {"filename": "probe.md", "contentType":
                                              "text/markdown", "size": 10, **base}),
            "upload-status": ("upload-status", {"documentId": doc, **base}),
            "memory-graph": ("memory-graph", base),
            "POST /uploads": ("POST /uploads", {"filename": "probe.md",
                                                "contentType": "text/markdown", "size": 10,
                                                **base}),
        }
        return table[probe]

    def _probe(self, op: str, k: KeyM, name: str, args: dict[str, Any]) -> tuple[Reply, str]:
        if name == "POST /uploads":
            return self.send(op, k, "POST", "/uploads", payload=args)
        return self.tool(op, k, name, args)

    def op_differential(self, c: Chooser) -> None:
        """(c): an ungranted space and a nonexistent one get the same bytes; so do a foreign
        id and a random one."""
        alive = self.alive_keys()
        if not alive:
            self.op_who_am_i(c)
            return
        k = c.pick("key", alive)
        if c.pick("differ by", ("tag", "tag", "id")) == "id":
            self._differential_id(c, k)
            return
        ungranted = [s for s in self.spaces if s not in k.grants]
        if not ungranted:
            ungranted = [self._create_space(self.users[0])]
        hidden = c.pick("ungranted space", ungranted[-12:])
        missing = self.missing_tag()
        variant = c.pick("variant", ("plain", "plain", "upper", "padded"))
        if variant == "upper":
            hidden, missing = hidden.upper(), missing.upper()
        elif variant == "padded":
            hidden, missing = f" {hidden} ", f" {missing} "
        probe = c.pick("probe", TAG_PROBES)
        replies = []
        for tag in (hidden, missing):
            name, args = self._probe_args(probe, tag, None, None)
            reply, sent = self._probe(f"(c) {probe}", k, name, args)
            self.check(f"(c) {probe}", k, reply, sent, set())
            replies.append((reply, tag))
        (a, ta), (b, tb) = replies
        self.stats.checks["(c) tag pairs"] += 1
        if (a.status, normalise(a.body, ta)) != (b.status, normalise(b.body, tb)):
            self.violation("c", f"{probe}: ungranted {ta} answered {a.status} {a.body[:300]} "
                                f"but nonexistent {tb} answered {b.status} {b.body[:300]}")
        can_write_somewhere = bool(self.writable(k))
        if a.ok and not (probe in ("guided-save", "upload-file") and not can_write_somewhere):
            self.violation("a", f"{probe} answered for ungranted {ta}: {a.body[:300]}")

    def _differential_id(self, c: Chooser, k: KeyM) -> None:
        probe = c.pick("id probe", ID_PROBES)
        tag = c.pick("tag", [None, *k.grants])
        readable = self.readable(k)
        if probe == "add_memory:forget-id":
            foreign = sorted(i for i, s in self.id_owner.items()
                             if s not in readable and self.is_memory(i))
        else:
            foreign = sorted(d for d in self.documents if self.id_owner.get(d) not in readable)
        if not foreign:
            self.op_list_spaces(c)
            return
        hidden = c.pick("foreign id", foreign[-12:])
        replies = []
        for ident in (hidden, str(uuid.uuid4())):
            doc, memory = (None, ident) if probe == "add_memory:forget-id" else (ident, None)
            name, args = self._probe_args(probe, tag, doc, memory)
            reply, sent = self._probe(f"(c) {probe} by id", k, name, args)
            self.check(f"(c) {probe} by id", k, reply, sent, set())
            replies.append(reply)
        a, b = replies
        self.stats.checks["(c) id pairs"] += 1
        if (a.status, normalise(a.body, None)) != (b.status, normalise(b.body, None)):
            self.violation("c", f"{probe}: foreign id {hidden} answered {a.status} "
                                f"{a.body[:300]} but a random id answered {b.status} "
                                f"{b.body[:300]}")
        if a.ok:
            self.violation("a", f"{probe} answered for foreign id {hidden}: {a.body[:300]}")

    # ------------------------------------------------------------------ administration

    def probe_dead(self, c: Chooser, k: KeyM, why: str) -> None:
        """(d): the very next request of a revoked key (or a deactivated user's) is a 401."""
        kind = c.pick("next request", ("tool", "resource", "prompt", "uploads"))
        before = self.stats.checks["dead key refused"]
        if kind == "tool":
            name = c.pick("tool", ("whoAmI", "listSpaces", "search_memory", "add_memory"))
            args = {"search_memory": {"query": "deploy"},
                    "add_memory": {"content": f"{why}: must not be stored"}}.get(name, {})
            reply, sent = self.tool(f"(d) {name}", k, name, args)
        elif kind == "resource":
            uri = c.pick("uri", RESOURCE_URIS)
            reply, sent = self.mcp(f"(d) resource {uri}", k, "resources/read", {"uri": uri})
        elif kind == "prompt":
            reply, sent = self.mcp("(d) prompt context", k, "prompts/get", {"name": "context"})
        else:
            reply, sent = self.send("(d) POST /uploads", k, "POST", "/uploads", payload={
                "filename": "x.md", "contentType": "text/markdown", "size": 5})
        assert self.stats.checks["dead key refused"] == before + 1
        self.stats.checks["(d) next-request probes"] += 1
        self.check(f"(d) {kind}", k, reply, sent, set())

    def op_grant(self, c: Chooser) -> None:
        k = self.pick_key(c)
        space = c.pick("space", self.current)
        self._grant(k, space, c.pick("access", ("read", "readwrite")))
        self.op_who_am_i_of(k)

    def op_who_am_i_of(self, k: KeyM) -> None:
        """whoAmI with this key (the model right after an administrative change)."""
        reply, sent = self.tool("whoAmI", k, "whoAmI", {})
        self.check("whoAmI", k, reply, sent, set())
        if k.alive and reply.ok:
            got = {s["space"]: s["access"] for s in reply.structured.get("scope", [])}
            want = {s: access_label(self.effective(k, s) or "read") for s in k.grants}
            if got != want:
                self.mismatch("whoAmI", f"after a grant change: {got}, the model says {want}")
        elif k.alive:
            self.mismatch("whoAmI", reply.message[:300])

    def op_revoke_grant(self, c: Chooser) -> None:
        k = self.pick_key(c)
        if not k.grants:
            self.op_grant(c)
            return
        space = c.pick("revoke", list(k.grants))
        self.portal.run(admin.revoke_grant(self.rt, k.id, space))
        del k.grants[space]
        # the very next request through the revoked space is refused like a missing space
        if k.alive:
            reply, sent = self.tool("listMemories", k, "listMemories", {"containerTag": space})
            self.expect_read("listMemories", k, reply, space)
            self.check("listMemories", k, reply, sent, set())

    def op_revoke_key(self, c: Chooser) -> None:
        k = self.pick_key(c)
        if not k.revoked:
            self.portal.run(admin.revoke_key(self.rt, k.id))
            k.revoked = True
        self.probe_dead(c, k, "revoked")

    def op_deactivate(self, c: Chooser) -> None:
        user = c.pick("user", self.users)
        self.portal.run(admin.update_user(self.rt, user.id, active=False))
        user.active = False
        mine = [k for k in self.keys if k.user is user]
        if mine:
            self.probe_dead(c, c.pick("key", mine), "deactivated")

    def op_reactivate(self, c: Chooser) -> None:
        user = c.pick("user", self.users)
        self.portal.run(admin.update_user(self.rt, user.id, active=True))
        user.active = True
        mine = [k for k in self.keys if k.user is user]
        if mine:
            self.op_who_am_i_of(c.pick("key", mine))

    def op_set_role(self, c: Chooser) -> None:
        user = c.pick("user", self.users)
        role = c.pick("role", ("writer", "reader"))
        self.portal.run(admin.update_user(self.rt, user.id, role=role))
        user.role = role
        mine = [k for k in self.keys if k.user is user]
        if mine:
            self.op_who_am_i_of(c.pick("key", mine))

    def op_new_key(self, c: Chooser) -> None:
        k = self._create_key(c.pick("user", self.users))
        for space in self.current:
            access = c.pick("grant", ("none", "read", "readwrite"))
            if access != "none":
                self._grant(k, space, access)
        self.op_who_am_i_of(k)

    def op_new_space(self, c: Chooser) -> None:
        owner = c.pick("owner", self.users)
        space = self._create_space(owner)
        k = self.pick_key(c)
        if c.flag("grant it"):
            self._grant(k, space, c.pick("access", ("read", "readwrite")))
        self.op_who_am_i_of(k)


ADMIN_OPS = ("op_grant", "op_revoke_grant", "op_revoke_key", "op_deactivate", "op_reactivate",
             "op_set_role", "op_new_key", "op_new_space")


def sweep(world: IsolationWorld) -> None:
    """Coverage: a new scenario, then every non-administrative operation once with its seeding
    Writer (ReadWrite everywhere, first choices: granted spaces, so the writes and the upload
    go through), and every resource."""
    first = FirstChooser()
    world.new_scenario(first)
    world.forced_key = world.keys[0]
    try:
        for op in world.OPS:
            if op not in ADMIN_OPS:
                getattr(world, op)(first)
        for uri in RESOURCE_URIS:
            world.read_resource(world.keys[0], uri)
    finally:
        world.forced_key = None


def run_random(world: IsolationWorld, rng: random.Random, *, calls: int, budget_s: float,
               steps: int = 300, progress: Callable[[IsolationWorld], None] | None = None
               ) -> bool:
    """The bench's walk: scenarios of ``steps`` weighted random operations until ``calls``
    requests were made or ``budget_s`` passed. Returns whether it stopped for the time budget."""
    chooser = RandomChooser(rng)
    sweep(world)
    names = list(world.OPS)
    weights = [world.OPS[n] for n in names]
    start = time.monotonic()
    while world.stats.total < calls:
        if progress is not None:
            progress(world)
        world.new_scenario(chooser)
        for _ in range(steps):
            if world.stats.total >= calls:
                break
            if time.monotonic() - start > budget_s:
                return True
            getattr(world, rng.choices(names, weights)[0])(chooser)
    return False
