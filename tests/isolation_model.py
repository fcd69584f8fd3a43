"""The machinery of the property-based isolation suite: a model of who may read and write what,
and a driver that checks a live server against it through real HTTP with real keys.

Used by ``tests/test_isolation_property.py`` (a seeded hypothesis slice on every ``make test``)
and ``bench/isolation.py`` (the same operations at full scale, choices from ``random``).
This module holds the model (constants, choosers, users, keys, spaces, replies); the driver is
layered over ``isolation_server`` (the app, its settings, the portal), ``isolation_base``
(state, database, HTTP), ``isolation_checks``, ``isolation_scenario``, ``isolation_tools``,
``isolation_uploads`` and ``isolation_world`` (``IsolationWorld``, ``sweep``, ``run_random``).

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

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

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
NO_SPACES = "has no spaces"
READ_ONLY = "read-only"
#: Phrases of the (c) probes and which tools take a containerTag.
TAG_PROBES = ("search_memory", "add_memory:save", "add_memory:forget", "add_memory:forget-id",
              "listDocuments", "listMemories", "getDocument", "deleteDocument", "select-space",
              "guided-save", "upload-file", "upload-start", "upload-status", "memory-graph",
              "POST /uploads")
ID_PROBES = ("getDocument", "deleteDocument", "upload-status", "add_memory:forget-id")



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
