"""Fuzz invariants: what makes an error unreadable, the problems and counts, and the harness's
first layer (state, placeholders, problem reports)."""

from __future__ import annotations

import re
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
from fuzz_requests import Case
from fuzz_setup import (
    Setup,
    Snapshot,
)
from fuzz_values import (
    MAX_MESSAGE_CHARS,
    MAX_UPLOAD_BYTES,
    Ref,
)

# ------------------------------------------------------------------------------------------
# checks


_SQL = re.compile(r"(?is)\b(select\s.{1,200}\sfrom\s|insert\s+into\s|update\s+\w+\s+set\s|"
                  r"delete\s+from\s|returning\s+\*|\bwhere\s+\w+\s*=\s*%s|\$\d+\b)")
_LEAK_MARKERS = ("traceback (most recent call last)", 'file "/', "psycopg", "sqlstate",
                 "pg_catalog", "syntax error at or near", "violates", "duplicate key value",
                 "current transaction is aborted", "object at 0x", "<class '", "asyncio.",
                 "exceptiongroup", "taskgroup", "site-packages", "starlette.", "uvicorn.")
_NO_REASON = re.compile(r"(?i)^(error executing tool [\w-]+:?\s*|internal server error\.?|"
                        r"internal error\.?|invalid request parameters\.?|"
                        r"an? (unexpected|unknown) error( occurred)?\.?|"
                        r"error\.?|none|null|\{\}|\[\])$")
_KEY_SHAPE = re.compile(r"mm_[0-9a-f]{10}_[A-Za-z0-9_-]{43}")


def unreadable(message: Any, sent: str, secrets: Sequence[str]) -> str | None:
    """Why ``message`` is not a readable error for a person or model, or None.

    A marker that the request itself contained (a hostile input echoed back within the length
    bound) does not count against the message."""
    if not isinstance(message, str) or not message.strip():
        return f"no message ({message!r})"
    if len(message) > MAX_MESSAGE_CHARS:
        return f"{len(message):,} characters long (echoes the input or a stack?)"
    if any("\ud800" <= ch <= "\udfff" for ch in message):
        return ("contains an unpaired surrogate: not valid Unicode, so a strict JSON parser "
                "(the official MCP client's) refuses the whole answer")
    if _NO_REASON.match(message.strip()):
        return f"no reason given: {message.strip()!r}"
    low, sent_low = message.lower(), sent.lower()
    for marker in _LEAK_MARKERS:
        if marker in low and marker not in sent_low:
            return f"contains {marker!r}"
    sql = _SQL.search(message)
    if sql and sql.group(0).lower() not in sent_low:
        return f"contains SQL ({sql.group(0)!r})"
    for secret in secrets:
        if secret and secret in message:
            return "contains an API key"
    key = _KEY_SHAPE.search(message)
    if key and key.group(0) not in sent:
        return "contains something shaped like an API key"
    return None


@dataclass
class Problem:
    kind: str  # 5xx, unreadable, partial_write, hang, unhealthy, transport
    label: str
    detail: str
    request: str
    response: str

    def __str__(self) -> str:
        return (f"[{self.kind}] {self.label}: {self.detail}\n  request: {self.request}\n"
                f"  response: {self.response}")


@dataclass
class Stats:
    cases: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    problems: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: Problems by (kind, label, what went wrong), with the shortest requests that showed each.
    signatures: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    shortest: dict[tuple[str, str, str], list[Problem]] = field(default_factory=dict)
    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    #: The first answer seen per (label, outcome), to see what the cases reach.
    samples: dict[tuple[str, str], str] = field(default_factory=dict)

    def record(self, problem: Problem, keep: int = 2) -> None:
        self.problems[(problem.kind, problem.label)] += 1
        detail = re.sub(r"fz(fuzz|ro|foreign|put)-[0-9a-f]{8}", r"<\1 space>", problem.detail)
        detail = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27}", "<id>", detail)
        key = (problem.kind, problem.label, re.sub(r"\d+", "#", detail)[:120])
        self.signatures[key] += 1
        found = sorted([*self.shortest.get(key, []), problem], key=lambda p: len(p.request))
        self.shortest[key] = found[:keep]

    @property
    def examples(self) -> list[Problem]:
        return [p for found in self.shortest.values() for p in found]

    def count(self, kind: str, label: str | None = None) -> int:
        return sum(n for (k, lab), n in self.problems.items()
                   if k == kind and (label is None or lab == label))


def _short(value: Any, limit: int = 400) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} chars)"


def _restyle(value: str, style: str) -> str:
    return {
        "": value, "upper": value.upper(), "padded": f"  {value}\t", "braced": f"{{{value}}}",
        "urn": f"urn:uuid:{value}", "hex": value.replace("-", ""), "trailing": value + "x",
        "prefix": value[:-1], "double": value + value,
    }.get(style, value)


class HarnessBase:
    """The harness's state, placeholders resolution and problem reports (the first layer of
    ``Harness``)."""

    def __init__(self, setup: Setup, snapshot: Callable[[], Snapshot], *, strict: bool,
                 timeout: float = 60.0, health_every: int = 25) -> None:
        self.setup = setup
        self.read_counts = snapshot
        self.strict = strict
        self.stats = Stats()
        self.health_every = health_every
        self.http = httpx.Client(base_url=setup.base_url, timeout=timeout)
        self.pending_put: dict[str, Any] | None = None
        self.secrets = [setup.keys[k] for k in ("writer", "reader", "revoked", "owner")]
        self.last = self.read_counts()

    def close(self) -> None:
        self.http.close()

    # --- resolving placeholders

    def _ref(self, ref: Ref) -> str:
        name = ref.name
        if name in ("fuzz", "ro", "foreign", "put"):
            value = self.setup.spaces[name]
        elif name == "none":
            value = "fzfuzz-00000000"
        elif name == "uuid":
            value = str(uuid.uuid5(uuid.NAMESPACE_URL, "fuzz-nothing"))
        elif name == "writer_key":
            value = self.setup.keys["writer"]
        elif name.startswith("put_"):
            value = str(self._put_target()[name])
        else:
            found = self.setup.ids.get(name.removesuffix("_old"), [])
            value = (found[0] if name.endswith("_old") else found[-1]) if found else str(
                uuid.uuid4())
        return _restyle(value, ref.style)

    def resolve(self, value: Any) -> Any:
        if isinstance(value, Ref):
            return self._ref(value)
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.resolve(v) for v in value)
        return value

    def _put_target(self) -> dict[str, Any]:
        """A document waiting for its bytes in the put space, and its signed URL's parts."""
        if self.pending_put is None:
            size = 64
            response = self.http.post("/uploads", headers=self._auth("writer"), json={
                "filename": "put.md", "contentType": "text/markdown", "size": size,
                "containerTag": self.setup.spaces["put"]})
            assert response.status_code == 201, response.text
            started = response.json()
            url = urlsplit(started["uploadUrl"])
            query = dict(parse_qsl(url.query))
            self.pending_put = {"put_id": started["documentId"], "put_path": url.path,
                                "put_expires": query["expires"], "put_sig": query["sig"],
                                "put_type": "text/markdown", "put_size": size}
            self.last = self.read_counts()
        return self.pending_put

    def _auth(self, auth: str) -> dict[str, str]:
        keys = self.setup.keys
        if auth in ("writer", "reader", "revoked", "owner"):
            return {"Authorization": f"Bearer {keys[auth]}"}
        if auth == "none":
            return {}
        if auth == "bad":
            return {"Authorization": "Bearer mm_0000000000_" + "B" * 43}
        return {"Authorization": auth.replace("{writer}", keys["writer"])}

    def _put_body(self, kind: str) -> bytes:
        size = int(self._put_target()["put_size"])
        return {"exact": b"# put\n" + b"x" * (size - 7) + b"\n", "empty": b"",
                "short": b"x" * (size - 1), "long": b"x" * (size + 1),
                "over_limit": b"x" * (MAX_UPLOAD_BYTES + 1),
                "random": bytes(range(256)) * 3}.get(kind, b"")

    def _problem(self, kind: str, case: Case, request: httpx.Request,
                 response: httpx.Response | None, detail: str) -> Problem:
        headers = {k: ("Bearer <key>" if k.lower() == "authorization" and v.startswith("Bearer mm_")
                       else v) for k, v in request.headers.items()
                   if k.lower() not in ("accept-encoding", "connection", "user-agent",
                                        "content-length")}
        body = (request.content or b"") if not case.chunked else b"<chunked>"
        shown_body = _short(body.decode("utf-8", "backslashreplace"), 600)
        answer = "(none)" if response is None else (
            f"HTTP {response.status_code} {_short(response.text, 700)}")
        return Problem(kind, case.label, detail,
                       f"{request.method} {_short(str(request.url), 300)} headers={headers} "
                       f"body={shown_body}", answer)
