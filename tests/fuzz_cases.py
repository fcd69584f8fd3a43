"""Fuzz cases for every tool and HTTP route, shared by ``tests/test_fuzz.py`` (a seeded slice
under ``make test``) and ``bench/fuzz.py`` (the full count).

Three parts:

* **strategies** (hypothesis): hostile values (wrong types, huge strings, emoji, RTL,
  combining marks, NUL, lone surrogates, numbers at and past every bound, deep nesting, raw JSON
  fragments such as ``NaN``), tool arguments built from each tool's ``inputSchema`` as
  ``tools/list`` publishes it, JSON-RPC envelopes (batches, notifications, malformed JSON, both
  protocol eras), headers, and the ``/uploads``, ``/uploads/local/{id}``, ``/healthz`` and
  unknown routes;
* **setup**: the users, keys and spaces the cases act on (``prepare``), and a snapshot of the
  rows in those spaces read through ``runtime.transaction(system=True)`` (``snapshot``);
* **the harness**: sends each case over real HTTP (raw bytes through ``httpx``, so lone
  surrogates go out as JSON escapes and invalid UTF-8 as bytes) and checks the invariants —
  never an HTTP 5xx, every error a readable message (non-empty, no traceback, SQL, driver
  names or keys, no echo of a huge input), no partial write (the rows of every space change
  exactly as the answer says: a refused call changes nothing, a save adds one row or none), no
  hang, and a healthy server afterwards.

Values that name real things (the fuzzed space, a memory id, a signed upload URL) are written as
``Ref`` placeholders and resolved by the harness when the case is sent, so a case also reaches
the code behind successful lookups.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

import anyio
import httpx
from hypothesis import strategies as st
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.embeddings import Embedder
from memory_mcp.models import Principal
from memory_mcp.services import admin
from memory_mcp.services import memories as memory_service
from memory_mcp.services.keys import authenticate
from memory_mcp.services.runtime import Runtime

#: Every tool ``tools/list`` must publish (a new tool must be added here, and so fuzzed).
TOOLS = ("search_memory", "add_memory", "listDocuments", "getDocument", "deleteDocument",
         "listMemories", "listSpaces", "whoAmI", "select-space", "guided-save", "upload-file",
         "upload-start", "upload-status", "memory-graph")
#: The HTTP routes fuzzed besides the tools (stats labels).
ROUTES = ("POST /mcp", "POST /uploads", "PUT /uploads/local", "GET /healthz", "other routes")

MODERN_VERSION = "2026-07-28"
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ACCEPT = "application/json, text/event-stream"
#: Upload bound the fuzz server runs with (small, so "over the limit" is cheap to send).
MAX_UPLOAD_BYTES = 256 * 1024
#: An error longer than this echoes the input (or a stack): not a message a person reads.
MAX_MESSAGE_CHARS = 4000
ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------------------
# values


@dataclass(frozen=True)
class Raw:
    """A JSON fragment spliced verbatim into the body: deep nesting, ``NaN``, ``1e999``, ..."""

    text: str

    def __repr__(self) -> str:
        return f"Raw({self.text[:40]!r}{'…' if len(self.text) > 40 else ''} len={len(self.text)})"


@dataclass(frozen=True)
class Ref:
    """A placeholder resolved when the case is sent: a real space key, id or upload field.

    ``style`` reshapes the resolved string (``upper``, ``braced``, ``padded``, ``urn``, ...)."""

    name: str
    style: str = ""


class Missing:
    """The ``arguments`` member left out altogether."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()

NASTY_CHARS = ["\x00", "\ud800", "\udbff", "\udc00", "\udfff", "\u202e", "\u200b", "\ufeff",
               "\u0301", "\uffff", "\U0010ffff", "😀", "👩\u200d👩\u200d👧", "\r\n", "\t", "\\",
               '"', "'", "%", "_", "\x7f", "\x1b[31m", "ﷺ", "\u0000\u0000"]
SPECIAL_TEXT = [
    "", " ", "\t\n ", "\x00", "a\x00b", "\ud800", "\udfff", "a\ud800b", "\ud83d\ude00x",
    "😀" * 10, "👩\u200d👩\u200d👧\u200d👦 family", "\u202eevil.md", "مرحبا بالعالم", "שלום עולם",
    "e\u0301\u0301\u0301\u0301\u0301", "Z\u0351\u0352\u0353\u0354\u0355\u0356", "\u200b\u200b",
    "\ufeffbom", "\U0010ffff", "null", "None", "undefined", "true", "0", "-1", "NaN",
    "'; DROP TABLE memories; --", "' OR '1'='1", "%", "_", "\\", "%%__\\\\", "{0}{1}", "%s%n%x",
    "${jndi:ldap://x/a}", "<script>alert(1)</script>", "../../../etc/passwd", "\r\nX-Injected: 1",
    "ui://memory-mcp/select-space.html", "mm_0123456789_" + "A" * 43, "Bearer x",
    "00000000-0000-0000-0000-000000000000", "{12345678-1234-1234-1234-123456789abc}",
    " 12345678123412341234123456789ABC ", "urn:uuid:12345678-1234-1234-1234-123456789abc",
    "12345678-1234-1234-1234-123456789abcd", "g2345678-1234-1234-1234-123456789abc",
]
WORDS = ["we", "deploy", "on", "friday", "the", "team", "prefers", "tabs", "over", "spaces",
         "postgres", "backups", "run", "nightly", "release", "v2.3", "staging", "is", "not",
         "on-call", "rotates", "weekly", "Alice", "owns", "billing", "2024-05-01", "never",
         "always", "use", "ruff", "café", "東京", "😀"]
SEED_FACTS = ["The team deploys to production on Fridays.",
              "Postgres backups run nightly at 02:00 UTC.",
              "Alice owns the billing service.",
              "We prefer tabs over spaces in Makefiles."]


def weighted(*options: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """``one_of`` with integer weights (hypothesis shrinks toward the first option)."""
    slots = [i for i, (w, _) in enumerate(options) for _ in range(w)]
    return st.sampled_from(slots).flatmap(lambda i: options[i][1])


surrogates = st.integers(0xD800, 0xDFFF).map(chr)
sentences = st.lists(st.sampled_from(WORDS), min_size=1, max_size=14).map(" ".join)
mixed_text = st.lists(st.one_of(st.text(max_size=6), st.sampled_from(NASTY_CHARS), surrogates,
                                st.sampled_from(WORDS)), max_size=10).map("".join)


def _repeat(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


#: Strings of 64 characters to 1 MB (cheap to draw: one unit repeated).
huge_text = st.builds(_repeat, st.sampled_from(["a", "word ", "é", "😀", "\u202e", "e\u0301", "\x00",
                                                "\ud800", "ab\x00", " "]),
                      st.sampled_from([64, 65, 256, 4097, 100_000, 100_001, 250_000, 1_000_000]))
hostile_text = weighted((4, st.sampled_from(SPECIAL_TEXT)), (3, mixed_text), (2, st.text(max_size=40)),
                        (1, huge_text))

INTS = [0, 1, -1, 2, 9, 10, 11, 49, 50, 51, 100, 999_999, 1_000_000, 1_000_001, 2**31 - 1, 2**31,
        -(2**31), 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1, 10**30, -(10**30),
        MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES + 1, 26_214_400, 26_214_401]
FLOATS = [0.0, -0.0, 1.0, 1.5, 10.0, 50.0, 50.5, 1e308, -1e308, 1e-308, 2.0**63,
          float("nan"), float("inf"), float("-inf")]
RAW_NUMBERS = ["1e999", "-1e999", "1E2", "-0", "0.0000000000000000000001", "1" * 400,
               "1" * 5000, "10" + "0" * 4400, "NaN", "Infinity", "-Infinity", "0x10", "01",
               "+1", ".5", "1.", "1e", "--1"]
numbers = weighted((4, st.sampled_from(INTS)), (2, st.integers()), (2, st.sampled_from(FLOATS)),
                   (1, st.floats()), (1, st.sampled_from(RAW_NUMBERS).map(Raw)))


def _nested(opening: str, closing: str, depth: int) -> Raw:
    return Raw(opening * depth + closing * depth)


deep = st.one_of(
    st.builds(_nested, st.just("["), st.just("]"),
              st.sampled_from([10, 64, 128, 255, 256, 1000, 5000, 100_000])),
    st.sampled_from([10, 64, 256, 1000, 5000, 100_000]).map(
        lambda n: Raw('{"a":' * n + "1" + "}" * n)),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, hostile_text.filter(lambda s: len(s) < 300))
any_json: st.SearchStrategy[Any] = weighted(
    (9, st.recursive(scalars, lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(SPECIAL_TEXT)), kids,
                        max_size=4)), max_leaves=10)),
    (1, deep))
extra_keys = st.one_of(st.sampled_from(["__proto__", "constructor", "_meta", "id", "extra", "",
                                        "x" * 1000, "\x00", "\ud800", "containerTag ",
                                        "ContainerTag", "CONTENT", "arguments", "$ref"]),
                       st.text(max_size=12))


def refs(*names: str) -> st.SearchStrategy[Ref]:
    styles = st.sampled_from(["", "", "", "", "", "", "upper", "padded", "braced", "urn", "hex",
                              "trailing", "prefix", "double"])
    return st.builds(Ref, st.sampled_from(names), styles)


SPACE_TAGS = weighted(
    (8, st.just(Ref("fuzz"))),
    (3, st.none()),
    (2, st.just(Ref("ro"))),
    (1, st.builds(Ref, st.sampled_from(["foreign", "put", "none"]))),
    (2, st.builds(Ref, st.sampled_from(["fuzz", "ro"]),
                  st.sampled_from(["padded", "upper", "double", "prefix"]))),
    (1, st.sampled_from(["", " ", "nope-space", "x" * 63, "x" * 64, "S-" + "a" * 61])),
    (2, hostile_text),
)
ID_REFS = ("fuzz_mem", "fuzz_doc", "fuzz_mem", "fuzz_doc", "fuzz_mem_old", "fuzz_doc_done",
           "ro_mem", "ro_doc", "foreign_mem", "foreign_doc", "uuid")
CATEGORIES = [None, "decision", "preference", "convention", "Decision ", "a/b:c-d_e.f",
              "x" * 64, "x" * 65, "Not Valid!", "ünïcode", " ", "-lead", "UPPER", "tab\tsep"]
FILENAMES = ["notes.md", "a.pdf", "x.txt", "data.csv", "pic.png", "talk.mp3", "clip.mp4",
             "doc.docx", "noext", ".md", "a.exe", "a" * 252 + ".md", "a" * 253 + ".md",
             "../../x.md", "con.md", "a\\b.md", "ø.md", "a.MD", "a.md.exe", "a b.md"]
CONTENT_TYPES = ["text/markdown", "text/plain", "application/pdf", "image/png", "text/csv",
                 "audio/mpeg", "video/mp4",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                 "application/x-msdownload", "text/markdown; charset=utf-8", "TEXT/MARKDOWN",
                 "", "text/", "*/*", "text/markdown\r\nX: y", "application/octet-stream"]

#: Realistic values for the fields every tool shares, so cases reach the code behind
#: successful validation and lookups too (hostile and wrong-typed values are added to each).
GOOD: dict[str, st.SearchStrategy[Any]] = {
    "content": st.one_of(sentences, st.sampled_from(SEED_FACTS),
                         st.sampled_from(SEED_FACTS).map(lambda s: s.replace(".", " again."))),
    "query": sentences,
    "keyword": st.sampled_from(WORDS),
    "category": weighted((3, st.sampled_from(CATEGORIES[:4])), (1, st.sampled_from(CATEGORIES))),
    "containerTag": SPACE_TAGS,
    "documentId": refs(*ID_REFS),
    "memoryId": weighted((2, refs(*ID_REFS)), (1, st.none())),
    "filename": weighted((2, st.sampled_from(FILENAMES[:8])), (1, st.sampled_from(FILENAMES))),
    "contentType": weighted((2, st.sampled_from(CONTENT_TYPES[:7])),
                            (1, st.sampled_from(CONTENT_TYPES))),
    "size": st.sampled_from([1, 10, 1024, MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES + 1, 0, -1]),
    "page": st.sampled_from([1, 2, 3, 0, -1, 1_000_000, 1_000_001]),
    "limit": st.sampled_from([1, 10, 50, 51, 0, -1, None]),
    "action": weighted((8, st.sampled_from(["save", "forget"])),
                       (1, st.sampled_from(["Forget", "delete", "", "save "]))),
}


def _types(prop: Mapping[str, Any]) -> set[str]:
    found = {prop["type"]} if isinstance(prop.get("type"), str) else set(prop.get("type") or [])
    for alt in prop.get("anyOf", []):
        found |= _types(alt)
    return found


def typed_hostile(types: set[str]) -> st.SearchStrategy[Any]:
    """Values of the right JSON type that are still wrong (bounds, unicode, NUL, size)."""
    options: list[st.SearchStrategy[Any]] = []
    if "string" in types:
        options.append(hostile_text)
    if "integer" in types or "number" in types:
        options.append(numbers)
    if "boolean" in types:
        options.append(st.sampled_from([True, False, "true", "false", 1, 0, "yes", ""]))
    if "null" in types:
        options.append(st.none())
    return st.one_of(options) if options else any_json


def field_value(name: str, prop: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    types = _types(prop)
    good: st.SearchStrategy[Any]
    if name in GOOD:
        good = GOOD[name]
    elif "enum" in prop:
        good = st.sampled_from(list(prop["enum"]))
    elif "boolean" in types:
        good = st.booleans()
    elif "integer" in types:
        good = st.integers(-2, 60)
    else:
        good = sentences
    return weighted((7, good), (2, typed_hostile(types)), (1, any_json))


def good_value(name: str, prop: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    types = _types(prop)
    if name in GOOD:
        return GOOD[name]
    if "enum" in prop:
        return st.sampled_from(list(prop["enum"]))
    if "boolean" in types:
        return st.booleans()
    if "integer" in types:
        return st.integers(1, 50)
    return sentences


def arguments_for(schema: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Arguments for one tool: mostly objects over its own fields (required ones sometimes
    missing, extra ones sometimes added), sometimes not an object at all or absent."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    values = {name: field_value(name, prop) for name, prop in props.items()}
    goods = {name: good_value(name, prop) for name, prop in props.items()}
    plausible = st.fixed_dictionaries({k: v for k, v in goods.items() if k in required},
                                      optional={k: v for k, v in goods.items()
                                                if k not in required})
    complete = st.fixed_dictionaries({k: v for k, v in values.items() if k in required},
                                     optional={k: v for k, v in values.items()
                                               if k not in required})
    partial = st.fixed_dictionaries({}, optional=values)
    extras = st.dictionaries(extra_keys, any_json, min_size=1, max_size=3)
    with_extras = st.builds(lambda a, b: {**b, **a}, st.one_of(complete, partial), extras)
    not_object = st.one_of(st.just(MISSING), st.none(), st.lists(any_json, max_size=3),
                           hostile_text.filter(lambda s: len(s) < 300), numbers, deep)
    return weighted((3, plausible), (4, complete), (1, partial), (1, with_extras), (1, not_object))


# ------------------------------------------------------------------------------------------
# cases


@dataclass
class Case:
    """One HTTP request. ``body`` is JSON (encoded by the harness), raw ``bytes`` or None;
    ``auth`` names a credential (``writer``, ``reader``, ``revoked``, ``none``, ``bad``, ...) or
    is a literal Authorization header value."""

    label: str
    method: str = "POST"
    path: str | Ref = "/mcp"
    params: list[tuple[str, Any]] = field(default_factory=list)
    headers: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    auth: str = "writer"
    ascii_only: bool = True
    chunked: bool = False
    #: For ``tools/call`` cases: the tool called (its answer decides the expected writes).
    tool: str | None = None

    def __repr__(self) -> str:
        """Short enough to read in a failure report (a 1 MB string shows as its length)."""
        shown = ", ".join(f"{f}={_abridged(getattr(self, f))!r}" for f in (
            "label", "method", "path", "params", "headers", "body", "auth", "ascii_only",
            "chunked") if getattr(self, f) not in ([], {}, None))
        return f"Case({shown})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # hypothesis's printer
        printer.text(repr(self))


class _Long:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"{self.text[:60]!r}…<{len(self.text):,} chars>"


def _abridged(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 200:
        return _Long(value)
    if isinstance(value, bytes) and len(value) > 200:
        return _Long(value.decode("latin-1"))
    if isinstance(value, dict):
        return {_abridged(k): _abridged(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_abridged(v) for v in value)
    return value


AUTHS = ["writer", "writer", "writer", "writer", "reader", "revoked", "none", "bad",
         "Bearer", "Bearer  ", "Basic dXNlcjpwYXNz", "bearer {writer}", "Bearer {writer} x",
         "Bearer {writer}\t", "Bearer " + "x" * 9000, "Bearer mm_0123456789_" + "A" * 43,
         "Bearer \u00e9t\u00e9"]


def _meta(version: str = MODERN_VERSION) -> dict[str, Any]:
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {}}


def tool_call(tool: str, arguments: Any, *, request_id: Any = 1, modern: bool = False
              ) -> dict[str, Any]:
    params: dict[str, Any] = {"name": tool}
    if not isinstance(arguments, Missing):
        params["arguments"] = arguments
    if modern:
        params["_meta"] = _meta()
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def modern_headers(method: str = "tools/call", name: str | None = None) -> dict[str, str]:
    headers = {"MCP-Protocol-Version": MODERN_VERSION, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    return headers


@st.composite
def tool_cases(draw: st.DrawFn, tool: str, schema: Mapping[str, Any]) -> Case:
    """A ``tools/call`` of ``tool``: fuzzed arguments, mostly with the writer's key, over the
    2025 (handshake-era) or the 2026 (per-request envelope) wire, ASCII-escaped or raw UTF-8
    (a lone surrogate then goes out as invalid UTF-8)."""
    arguments = draw(arguments_for(schema))
    modern = draw(st.sampled_from([False, False, True]))
    auth = draw(st.sampled_from(["writer"] * 14 + ["reader"] * 4 + ["revoked", "none"]))
    headers = modern_headers("tools/call", tool) if modern else {}
    return Case(label=tool, body=tool_call(tool, arguments, modern=modern), headers=headers,
                auth=auth, ascii_only=draw(st.sampled_from([True] * 7 + [False])), tool=tool)


METHODS = ["tools/call", "tools/list", "resources/list", "resources/read",
           "resources/templates/list", "prompts/list", "prompts/get", "initialize", "ping",
           "notifications/initialized", "completion/complete", "logging/setLevel",
           "server/discover", "subscriptions/listen", "sampling/createMessage", "", "TOOLS/CALL",
           "tools/call/", "rpc.discover", "\x00", "\ud800"]
URIS = ["ui://memory-mcp/select-space.html", "ui://memory-mcp/guided-save.html",
        "ui://memory-mcp/../../etc/passwd", "memory://context", "file:///etc/passwd",
        "ui://memory-mcp/" + "x" * 5000, "", "ui://memory-mcp/\x00.html"]


@st.composite
def rpc_messages(draw: st.DrawFn, tools: Sequence[str]) -> Any:
    """One JSON-RPC message with a fuzzed envelope (id, jsonrpc, method, params)."""
    method = draw(st.sampled_from(METHODS))
    params: Any
    if method == "tools/call":
        params = {"name": draw(st.one_of(st.sampled_from(list(tools)), hostile_text, any_json)),
                  "arguments": draw(st.one_of(st.just({}), any_json))}
    elif method in ("resources/read",):
        params = {"uri": draw(st.one_of(st.sampled_from(URIS), any_json))}
    elif method == "prompts/get":
        params = {"name": draw(st.one_of(st.sampled_from(["context", "nope"]), any_json)),
                  "arguments": draw(st.one_of(st.just({}), any_json))}
    elif method == "initialize":
        params = {"protocolVersion": draw(st.one_of(st.sampled_from(
                      [*HANDSHAKE_VERSIONS, MODERN_VERSION, "1999-01-01"]), any_json)),
                  "capabilities": draw(st.one_of(st.just({}), any_json)),
                  "clientInfo": draw(st.one_of(st.just({"name": "fuzz", "version": "1"}),
                                               any_json))}
    else:
        params = draw(st.one_of(st.just({}), any_json))
    message: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "2.0", "2.0", "1.0", 2.0,
                                                                None])),
                               "method": method}
    request_id: Any = draw(st.one_of(st.integers(-5, 5), st.sampled_from(
        [0, "1", "", "x" * 10_000, 2**63, 2**64, 1.5, True, None, [], {}]), hostile_text))
    if draw(st.booleans()) or draw(st.booleans()):
        message["id"] = request_id
    if draw(st.booleans()):
        message["params"] = params
    elif draw(st.booleans()):
        message["params"] = draw(any_json)
    if draw(st.booleans()) and isinstance(message.get("params"), dict):
        message["params"]["_meta"] = draw(st.one_of(st.just(_meta()), any_json))
    if draw(st.integers(0, 9)) == 0:
        message.pop(draw(st.sampled_from(["jsonrpc", "method"])), None)
    if draw(st.integers(0, 9)) == 0:
        message.update(draw(st.dictionaries(extra_keys, any_json, max_size=2)))
    return message


BROKEN_JSON = [b"", b" ", b"{", b"}", b"[", b"[]", b"{}", b"null", b"0", b'"x"', b"\xff\xfe",
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"',
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}',
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"} trailing',
               b'\xef\xbb\xbf{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
               b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "tools/list"}',
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": "\\ud800"}}',
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": "\xed\xa0\x80"}}',
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": "\\u0000"}}',
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"a": "\x00"}}',
               b'{"jsonrpc": "2.0", "id": 1e999, "method": "tools/list"}',
               b'{"jsonrpc": "2.0", "id": NaN, "method": "tools/list"}',
               b"{'jsonrpc': '2.0'}", b"\x00\x00\x00", b"<xml/>", b"jsonrpc=2.0&id=1",
               b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoAmI", '
               b'"arguments": {"a": "\\ud800\\udc00", "b": "\\udc00\\ud800"}}}']
CONTENT_TYPE_HEADERS = ["application/json", "application/json", "application/json; charset=utf-8",
                        "APPLICATION/JSON", "text/plain", "application/x-www-form-urlencoded",
                        "multipart/form-data; boundary=x", "", "application/json; charset=latin-1",
                        "application/jsonx", "*/*", None]
ACCEPT_HEADERS = [ACCEPT, ACCEPT, "application/json", "text/event-stream", "text/html", "*/*",
                  "", "application/*", "application/json;q=0", None]
VERSION_HEADERS = [None, None, *HANDSHAKE_VERSIONS, MODERN_VERSION, MODERN_VERSION, "2099-01-01",
                   "", "garbage", "2025-06-18, 2026-07-28", "\u00e9"]


@st.composite
def mcp_route_cases(draw: st.DrawFn, tools: Sequence[str]) -> Case:
    """``POST /mcp`` itself: envelopes, batches, broken JSON, oversized bodies and headers."""
    kind = draw(st.sampled_from(["message", "message", "message", "batch", "broken", "huge"]))
    body: Any
    if kind == "message":
        body = draw(rpc_messages(tools))
    elif kind == "batch":
        body = draw(st.lists(st.one_of(rpc_messages(tools), st.builds(
            tool_call, st.sampled_from(["whoAmI", "listSpaces", "add_memory"]),
            st.just({"content": "batched fact about fridays"}))), max_size=6))
    elif kind == "broken":
        body = draw(st.sampled_from(BROKEN_JSON))
    else:
        size = draw(st.sampled_from([1_000_000, 3_000_000, 8_000_000]))
        body = tool_call("whoAmI", {"pad": "x" * size})
    headers: dict[str, Any] = {"Content-Type": draw(st.sampled_from(CONTENT_TYPE_HEADERS)),
                               "Accept": draw(st.sampled_from(ACCEPT_HEADERS)),
                               "MCP-Protocol-Version": draw(st.sampled_from(VERSION_HEADERS))}
    if headers["MCP-Protocol-Version"] == MODERN_VERSION and draw(st.booleans()):
        headers["Mcp-Method"] = draw(st.sampled_from(["tools/call", "tools/list", "x", ""]))
    if kind == "message" and isinstance(body, dict) and draw(st.integers(0, 2)) == 0:
        # A well-formed 2026 envelope around the fuzzed message, so it reaches the handlers.
        headers.update({"MCP-Protocol-Version": MODERN_VERSION, "Content-Type": "application/json",
                        "Accept": ACCEPT})
        if isinstance(body.get("method"), str):
            headers["Mcp-Method"] = body["method"]
        params = body.get("params")
        if isinstance(params, dict):
            params["_meta"] = _meta()
            name = params.get("name", params.get("uri"))
            if isinstance(name, str):
                headers["Mcp-Name"] = name
    if draw(st.integers(0, 5)) == 0:
        headers.update(draw(st.sampled_from([
            {"Origin": "https://evil.example"}, {"Mcp-Session-Id": "nope"},
            {"Mcp-Session-Id": "\x7f"}, {"Last-Event-ID": "1"}, {"X-Forwarded-Host": "evil"},
            {"Host": "evil.example"}, {"Host": ""}, {"Transfer-Encoding": "gzip"},
            {"Content-Encoding": "gzip"}, {"X-Big": "y" * 20_000}])))
    query: list[tuple[str, Any]] = []
    if draw(st.integers(0, 7)) == 0:
        query = [(draw(st.sampled_from(["api_key", "token", "key", "sig", "x"])), Ref("writer_key"))]
    return Case(label="POST /mcp", body=body, headers=headers,
                auth=draw(CREDENTIALS), params=query,
                ascii_only=draw(st.booleans()))


def _mutations(draw: st.DrawFn, names: Sequence[str]) -> set[str]:
    """Which parts of an otherwise valid request a case breaks: none in about one case of
    five (a valid request, whose writes the model then checks), else one to three."""
    if draw(st.integers(0, 4)) == 0:
        return set()
    return set(draw(st.lists(st.sampled_from(list(names)), min_size=1, max_size=3)))


CREDENTIALS = weighted((6, st.just("writer")), (1, st.just("reader")),
                       (2, st.sampled_from(AUTHS[5:])))
HOSTS = ["evil.example", "", "127.0.0.1:1", "[::1]", "a" * 300, "127.0.0.1", "localhost"]


@st.composite
def upload_cases(draw: st.DrawFn) -> Case:
    """``POST /uploads``: a valid start-upload body with some of its parts broken — each of the
    four fields (wrong type, hostile text, out of bounds, missing), extra fields, a body that is
    not an object or not JSON, lone surrogates (escaped or raw), Content-Type, credentials and
    Host."""
    broken = _mutations(draw, ["filename", "contentType", "size", "containerTag", "extra",
                               "missing", "body", "content-type", "auth", "host", "raw"])
    body: Any = {"filename": draw(st.sampled_from(FILENAMES[:8])),
                 "contentType": "text/markdown", "size": draw(st.integers(1, 4096)),
                 "containerTag": draw(weighted((3, st.just(Ref("fuzz"))), (1, st.none())))}
    if body["filename"].endswith(".pdf"):
        body["contentType"] = "application/pdf"
    elif not body["filename"].endswith(".md"):
        body["filename"] = "notes.md"
    hostile = {"filename": st.one_of(st.sampled_from(FILENAMES), hostile_text, any_json),
               "contentType": st.one_of(st.sampled_from(CONTENT_TYPES), hostile_text, any_json),
               "size": st.one_of(GOOD["size"], numbers, any_json),
               "containerTag": st.one_of(SPACE_TAGS, any_json)}
    for name, strategy in hostile.items():
        if name in broken:
            body[name] = draw(strategy)
    if "missing" in broken:
        body.pop(draw(st.sampled_from(sorted(body))), None)
    if "extra" in broken:
        body.update(draw(st.dictionaries(extra_keys, any_json, min_size=1, max_size=3)))
    if "body" in broken:
        body = draw(st.one_of(any_json, st.sampled_from(BROKEN_JSON)))
    headers: dict[str, Any] = {}
    if "content-type" in broken:
        headers["Content-Type"] = draw(st.sampled_from(CONTENT_TYPE_HEADERS))
    if "host" in broken:
        headers["Host"] = draw(st.sampled_from(HOSTS))
    return Case(label="POST /uploads", path="/uploads", body=body, headers=headers,
                auth=draw(CREDENTIALS) if "auth" in broken else "writer",
                ascii_only="raw" not in broken)


PUT_BODIES = ["empty", "short", "long", "over_limit", "random"]


@st.composite
def put_cases(draw: st.DrawFn) -> Case:
    """``PUT /uploads/local/{id}``: a fresh signed URL from the harness, then some of its parts
    broken — the id, ``expires``, ``sig``, extra query parameters, Content-Type, the body
    (empty, a byte short or long, over the limit, chunked), the method and Host."""
    broken = _mutations(draw, ["id", "expires", "sig", "no-expires", "no-sig", "query",
                               "content-type", "body", "chunked", "method", "host", "origin"])
    short = hostile_text.filter(lambda s: 0 < len(s) < 2000)
    doc: Any = Ref("put_id")
    if "id" in broken:
        doc = draw(st.one_of(refs("put_id", "fuzz_doc", "ro_doc", "uuid"), short))
    params: list[tuple[str, Any]] = []
    if "no-expires" not in broken:
        params.append(("expires", draw(st.one_of(numbers, short)) if "expires" in broken
                       else Ref("put_expires")))
    if "no-sig" not in broken:
        params.append(("sig", draw(st.one_of(
            st.builds(Ref, st.just("put_sig"), st.sampled_from(["upper", "trailing", "prefix",
                                                                "double", "padded"])),
            st.sampled_from(["", "0" * 64, "x" * 129, "x" * 10_000]), short))
            if "sig" in broken else Ref("put_sig")))
    if "query" in broken:
        params += draw(st.lists(st.tuples(st.sampled_from(["sig", "expires", "api_key", "x", ""]),
                                          st.one_of(short, st.just(Ref("put_sig")))),
                                min_size=1, max_size=3))
    headers: dict[str, Any] = {"Content-Type": Ref("put_type")}
    if "content-type" in broken:
        headers["Content-Type"] = draw(st.one_of(
            st.just(Ref("put_type", "upper")), st.sampled_from(CONTENT_TYPES), st.none(),
            hostile_text.filter(lambda s: len(s) < 500)))
    if "host" in broken:
        headers["Host"] = draw(st.sampled_from(HOSTS))
    if "origin" in broken:
        headers["Origin"] = draw(st.sampled_from(["null", "https://evil.example"]))
    method = "PUT"
    if "method" in broken:
        method = draw(st.sampled_from(["POST", "GET", "DELETE", "OPTIONS", "PATCH", "HEAD"]))
    return Case(label="PUT /uploads/local", method=method, path=doc, params=params,
                headers=headers, auth="none", chunked="chunked" in broken,
                body=Ref(draw(st.sampled_from(PUT_BODIES)) if "body" in broken else "exact"))


PATHS = ["/", "/mcp/", "/MCP", "/mcp/x", "/uploads/", "/uploads/local", "/uploads/local/",
         "/healthz/", "/healthz/x", "/docs", "/openapi.json", "/redoc", "/.env", "/admin",
         "/static/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%00", "/%ff%fe",
         "/%ed%a0%80", "/" + "a" * 8000, "/ui://memory-mcp", "//mcp", "/mcp;x", "/mcp%20",
         "/uploads/local/%00", "/uploads/local/a/b", "/favicon.ico", "/robots.txt",
         "/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource",
         "/mcp?x=1", "/healthz?api_key=mm_0123456789_" + "A" * 43]
HTTP_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "CONNECT",
                "FOO", "get", "PROPFIND"]


@st.composite
def other_route_cases(draw: st.DrawFn, label: str | None = None) -> Case:
    """``/healthz`` with every method, query and header (``label="GET /healthz"``), and
    unknown routes (``label="other routes"``); either when no label is given."""
    label = label or draw(st.sampled_from(["GET /healthz", "other routes"]))
    if label == "GET /healthz":
        path = "/healthz"
        method = draw(st.sampled_from(["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE",
                                       "OPTIONS", "FOO"]))
    else:
        path = draw(st.one_of(st.sampled_from(PATHS), hostile_text.filter(lambda s: len(s) < 3000)
                              .map(lambda s: "/" + s)))
        method = draw(st.sampled_from(HTTP_METHODS))
        if path in ("/mcp", "/uploads", "/healthz"):
            path += "/x"
    params = draw(st.lists(st.tuples(st.sampled_from(["x", "api_key", "token", "sig", "page", ""]),
                                     st.one_of(hostile_text.filter(lambda s: len(s) < 500),
                                               st.just(Ref("writer_key")))), max_size=3))
    headers: dict[str, Any] = {}
    if draw(st.booleans()):
        headers["Host"] = draw(st.sampled_from(["evil.example", "", "127.0.0.1:1", "[::1]",
                                                "a" * 300]))
    if draw(st.booleans()):
        headers["Content-Type"] = draw(st.sampled_from(CONTENT_TYPE_HEADERS))
    body = draw(st.one_of(st.none(), any_json, st.sampled_from(BROKEN_JSON)))
    return Case(label=label, method=method, path=path, params=params, headers=headers,
                body=None if method in ("GET", "HEAD", "get") else body,
                auth=draw(st.sampled_from(["none", "none", "writer", "bad"])))


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


class Harness:
    """Sends cases to the live server and checks every invariant; counts what it saw.

    ``snapshot`` reads the row counts (``snapshot()`` above through the caller's event loop).
    ``strict``: raise AssertionError at the first problem (tests, so hypothesis shrinks it);
    otherwise count and keep going (the bench)."""

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

    # --- sending

    def _encode(self, body: Any, ascii_only: bool) -> bytes:
        if isinstance(body, bytes):
            return body
        raws: list[str] = []
        token = uuid.uuid4().hex

        def swap(value: Any) -> Any:
            if isinstance(value, Raw):
                raws.append(value.text)
                return f"@@{token}-{len(raws) - 1}@@"
            if isinstance(value, dict):
                return {str(k): swap(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [swap(v) for v in value]
            return value

        text = json.dumps(swap(body), ensure_ascii=ascii_only)
        for i, raw in enumerate(raws):
            text = text.replace(f'"@@{token}-{i}@@"', raw, 1)
        return text.encode("utf-8", "surrogatepass")

    def build(self, case: Case) -> httpx.Request:
        headers: dict[str, str] = {"Content-Type": "application/json", "Accept": ACCEPT}
        headers.update(self._auth(case.auth))
        for name, value in self.resolve(case.headers).items():
            if value is None:
                headers.pop(name, None)
                headers.pop(name.title(), None)
            else:
                headers[name] = value
        content: bytes | None
        if case.label == "PUT /uploads/local":
            headers.pop("Accept", None)
            assert isinstance(case.body, Ref)
            content = self._put_body(case.body.name)
        else:
            content = None if case.body is None else self._encode(self.resolve(case.body),
                                                                  case.ascii_only)
        path = self.resolve(case.path)
        if case.label == "PUT /uploads/local":
            path = "/uploads/local/" + str(path)
        query = "&".join(f"{_quote(str(k))}={_quote(_param(self.resolve(v)))}"
                         for k, v in case.params)
        # Header values must be latin-1 for the wire: what cannot be encoded goes out as UTF-8
        # bytes (what a hostile client would send).
        raw_headers = [(k.encode("latin-1", "replace"),
                        v.encode("utf-8", "surrogatepass").replace(b"\r", b"").replace(b"\n", b""))
                       for k, v in headers.items()]
        url = httpx.URL(self.setup.base_url + _quote_path(path) + (f"?{query}" if query else ""))
        return self.http.build_request(case.method, url, headers=raw_headers, content=content)

    def send(self, case: Case) -> list[Problem]:
        """Send one case and check it; count it; raise in strict mode if anything is wrong."""
        if case.label == "PUT /uploads/local":
            self._put_target()
        try:
            request = self.build(case)
        except (httpx.InvalidURL, UnicodeEncodeError, ValueError) as exc:
            # Not sendable over HTTP at all (the client refuses it): nothing reached the server.
            self.stats.outcomes[(case.label, f"unsendable ({type(exc).__name__})")] += 1
            return []
        sent = (request.content or b"").decode("utf-8", "replace") + " " + str(request.url)
        if case.chunked and request.content:
            data = request.content
            request = self.http.build_request(
                request.method, request.url,
                headers=[(k, v) for k, v in request.headers.raw if k.lower() != b"content-length"],
                content=_chunks(data))
        started = time.perf_counter()
        problems: list[Problem] = []
        response: httpx.Response | None = None
        try:
            response = self.http.send(request)
        except httpx.LocalProtocolError as exc:
            # The client library refuses to put this on the wire (e.g. an empty Host): nothing
            # reached the server.
            self.stats.outcomes[(case.label, f"unsendable ({type(exc).__name__})")] += 1
            return []
        except httpx.TimeoutException:
            problems.append(self._problem("hang", case, request, None, "no answer within the "
                                          "timeout"))
        except httpx.TransportError as exc:
            # The server closed the connection (uvicorn refusing a malformed request line or
            # oversized header does this): not a 5xx, but it must stay healthy (checked below).
            self.stats.outcomes[(case.label, f"connection closed ({type(exc).__name__})")] += 1
        self.stats.seconds[case.label] += time.perf_counter() - started
        self.stats.cases[case.label] += 1
        expected: dict[str, Counter[str]] = defaultdict(Counter)
        if response is not None:
            problems += self._check_answer(case, request, response, sent, expected)
        now = self.read_counts()
        problems += self._check_writes(case, request, response, expected, now)
        self.last = now
        if self.stats.cases[case.label] % self.health_every == 0 or problems or response is None:
            problems += self._check_health(case)
        for p in problems:
            self.stats.record(p)
        if problems and self.strict:
            raise AssertionError("\n".join(str(p) for p in problems))
        return problems

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

    # --- invariants

    def _check_answer(self, case: Case, request: httpx.Request, response: httpx.Response,
                      sent: str, expected: dict[str, Counter[str]]) -> list[Problem]:
        problems: list[Problem] = []
        status = response.status_code
        if status >= 500:
            problems.append(self._problem("5xx", case, request, response, f"HTTP {status}"))
        try:
            data: Any = response.json() if response.content else None
        except ValueError:
            data = None
        outcome = "ok"
        messages: list[Any] = []
        if case.label in ("POST /mcp", *TOOLS) and response.status_code < 300 and data is not None:
            outcome = self._rpc_outcome(case, data, messages, expected)
        elif status >= 400:
            outcome = f"HTTP {status}"
            if request.method != "HEAD":
                messages.append(_http_message(data, response))
        elif case.label == "POST /uploads" and status == 201 and isinstance(data, dict):
            expected[str(data.get("space"))]["documents"] += 1
        elif case.label == "PUT /uploads/local" and request.method == "PUT" and status == 200:
            expected[self.setup.spaces["put"]]["uploaded"] += 1
            self.pending_put = None
        elif case.label in ("POST /mcp", *TOOLS) and status == 202:
            outcome = "accepted (notification)"
        self.stats.outcomes[(case.label, outcome)] += 1
        self.stats.samples.setdefault((case.label, outcome), _short(response.text, 300))
        for message in messages:
            reason = unreadable(message, sent, self.secrets)
            if reason is not None:
                problems.append(self._problem("unreadable", case, request, response, reason))
        if not problems and _has_surrogate(data.get("result") if isinstance(data, dict) and
                                           "jsonrpc" in data else data):
            problems.append(self._problem(
                "unreadable", case, request, response, "the answer contains an unpaired "
                "surrogate: not valid Unicode, so a strict JSON parser refuses it"))
        return problems

    def _rpc_outcome(self, case: Case, data: Any, messages: list[Any],
                     expected: dict[str, Counter[str]]) -> str:
        replies = data if isinstance(data, list) else [data]
        outcomes = []
        for reply in replies:
            if not isinstance(reply, dict):
                messages.append(None)
                outcomes.append("non-object reply")
                continue
            if "error" in reply:
                error = reply["error"]
                messages.append(error.get("message") if isinstance(error, dict) else None)
                outcomes.append("JSON-RPC error")
                continue
            result = reply.get("result")
            if isinstance(result, dict) and result.get("isError"):
                content = result.get("content") or [{}]
                messages.append(content[0].get("text") if isinstance(content[0], dict) else None)
                outcomes.append("tool error")
                continue
            action = (result.get("structuredContent") or {}).get("action") if isinstance(
                result, dict) else None
            outcomes.append(f"success ({action})" if isinstance(action, str) else "success")
            tool = self._called_tool(case, reply)
            if tool and isinstance(result, dict):
                self._expect(tool, result.get("structuredContent") or {}, expected)
        return "+".join(sorted(set(outcomes))) or "empty"

    def _called_tool(self, case: Case, reply: dict[str, Any]) -> str | None:
        """Which tool a successful reply answers (batches: matched by id)."""
        body = case.body
        messages = body if isinstance(body, list) else [body]
        for message in messages:
            if (isinstance(message, dict) and message.get("method") == "tools/call"
                    and message.get("id") == reply.get("id")
                    and isinstance(message.get("params"), dict)):
                name = message["params"].get("name")
                return name if isinstance(name, str) else None
        return case.tool

    def _expect(self, tool: str, result: dict[str, Any], expected: dict[str, Counter[str]]) -> None:
        """The rows a successful call changes, from what it answered."""
        space = str(result.get("space"))
        action = result.get("action")
        memory = result.get("memory") if isinstance(result.get("memory"), dict) else None
        if tool == "add_memory":
            if action == "saved":
                expected[space]["memories"] += 1
                expected[space]["live"] += 1
            elif action == "versioned":
                expected[space]["memories"] += 1
            elif action == "forgotten":
                expected[space]["live"] -= 1
                expected[space]["forgotten"] += 1
            if memory and action in ("saved", "versioned") and space == self.setup.spaces["fuzz"]:
                self.setup.ids.setdefault("fuzz_mem", []).append(str(memory["id"]))
        elif tool == "deleteDocument":
            for ids in self.setup.ids.values():
                if str(result.get("documentId")) in ids and len(ids) > 1:
                    ids.remove(str(result.get("documentId")))
            n = int(result.get("forgottenMemories") or 0)
            expected[space]["deleted"] += 1
            expected[space]["live"] -= n
            expected[space]["forgotten"] += n
        elif tool == "upload-start":
            expected[space]["documents"] += 1
            if space == self.setup.spaces["fuzz"] and result.get("documentId"):
                self.setup.ids.setdefault("fuzz_doc", []).append(str(result["documentId"]))

    def _check_writes(self, case: Case, request: httpx.Request, response: httpx.Response | None,
                      expected: Mapping[str, Counter[str]], now: Snapshot) -> list[Problem]:
        wrong = []
        for space, counts in now.items():
            want = Counter(expected.get(space, Counter()))
            if space == self.setup.spaces["put"]:  # its memories are not modelled (snapshot)
                for f in ("memories", "live", "forgotten"):
                    want[f] = 0
            for f in FIELDS:
                delta = counts[f] - self.last.get(space, {}).get(f, 0)
                if delta != want[f]:
                    wrong.append(f"{space}.{f} changed by {delta:+d}, expected {want[f]:+d}")
        unknown = set(expected) - set(now)
        for space in unknown:
            if any(expected[space].values()):
                wrong.append(f"the answer names space {space!r}, which is not a fuzzed space")
        if not wrong:
            return []
        return [self._problem("partial_write", case, request, response, "; ".join(wrong))]

    def _check_health(self, case: Case) -> list[Problem]:
        try:
            health = self.http.get("/healthz", timeout=15)
            if health.status_code == 200 and health.json().get("status") == "ok":
                return []
            detail = f"/healthz answered {health.status_code} {health.text[:200]}"
        except httpx.HTTPError as exc:
            detail = f"/healthz failed: {type(exc).__name__}"
        return [Problem("unhealthy", case.label, detail, "GET /healthz", "")]

    def tool_schemas(self) -> dict[str, dict[str, Any]]:
        response = self.http.post("/mcp", headers={**self._auth("writer"), "Accept": ACCEPT},
                                  json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        response.raise_for_status()
        return {t["name"]: t["inputSchema"] for t in response.json()["result"]["tools"]}


def _has_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds a lone surrogate anywhere (keys included)."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def _http_message(data: Any, response: httpx.Response) -> Any:
    """The message of an HTTP error answer: ``message``/``detail``/JSON-RPC ``error.message``,
    else a non-JSON body's text."""
    if isinstance(data, dict):
        if isinstance(data.get("error"), dict):
            return data["error"].get("message")
        for k in ("message", "detail"):
            if isinstance(data.get(k), str):
                return data[k]
        return None
    if data is None and response.content:
        return response.text
    return None


def _param(value: Any) -> str:
    return value.text if isinstance(value, Raw) else str(value)


def _quote_path(path: str) -> str:
    """Percent-encode what a URL path cannot carry raw (keeps ``%xx`` the case wrote)."""
    return quote(path.encode("utf-8", "surrogatepass"), safe="/%;:@!$&'()*+,=-._~")


def _quote(value: str) -> str:
    """A query component, percent-encoded from its UTF-8 bytes (a lone surrogate becomes the
    invalid UTF-8 a hostile client would send)."""
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _chunks(data: bytes, size: int = 65536) -> Iterator[bytes]:
    for i in range(0, len(data), size):
        yield data[i:i + size]


def summary(stats: Stats, labels: Sequence[str]) -> list[str]:
    """Lines: cases per tool and route, with problems per kind (all must be 0)."""
    lines = [f"{'tool / route':<22}{'cases':>7}{'5xx':>6}{'unreadable':>12}{'partial':>9}"
             f"{'hang':>6}{'unhealthy':>11}{'s/case':>8}"]
    for label in labels:
        n = stats.cases[label]
        lines.append(
            f"{label:<22}{n:>7}{stats.count('5xx', label):>6}{stats.count('unreadable', label):>12}"
            f"{stats.count('partial_write', label):>9}{stats.count('hang', label):>6}"
            f"{stats.count('unhealthy', label):>11}{(stats.seconds[label] / n if n else 0):>8.3f}")
    return lines


# ------------------------------------------------------------------------------------------
# the server under fuzz


def fuzz_settings(database_url: str, port: int, data_dir: Path) -> Settings:
    """The product's settings, with a Host allow-list (so the Host guard is fuzzed too), a small
    upload bound (cheap to exceed) and no rate limits (thousands of calls a minute from one key
    are the point here; the limits have their own tests)."""
    return Settings(database_url=SecretStr(database_url), auto_migrate=True,
                    migrations_dir=ROOT / "migrations", pool_min_size=1, pool_max_size=6,
                    allowed_hosts=[f"127.0.0.1:{port}"], port=port, data_dir=data_dir,
                    max_upload_bytes=MAX_UPLOAD_BYTES, rate_limit_requests_per_minute=0,
                    rate_limit_writes_per_minute=0)


@contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """The real app under uvicorn on ``settings.port`` in a thread; yields its base URL."""
    import threading

    import uvicorn

    from memory_mcp.http.app import create_app

    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1",
                                           port=settings.port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the fuzz server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{settings.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fuzzing(database_url: str, data_dir: Path, *, strict: bool,
            embedder: Embedder | None = None) -> Iterator[Harness]:
    """Server, event loop (a blocking portal: hypothesis drives cases synchronously), a runtime
    for the snapshots and the seed rows (``embedder``: an already loaded model to reuse), the
    setup, and the harness around them."""
    from anyio.from_thread import start_blocking_portal

    from memory_mcp.db.pool import open_pool
    from memory_mcp.embeddings import build_embedder
    from memory_mcp.services.startup import check_model

    settings = fuzz_settings(database_url, free_port(), data_dir)
    with serve(settings) as base_url, start_blocking_portal() as portal:

        async def open_runtime() -> Runtime:
            pool = await open_pool(settings, database_url)
            rt = Runtime(settings=settings, pool=pool,
                         embedder=embedder or build_embedder(settings))
            async with rt.transaction(system=True) as conn:
                await check_model(conn, rt.embedder)
            return rt

        rt = portal.call(open_runtime)
        try:
            setup = portal.call(prepare, rt, base_url)
            harness = Harness(setup, lambda: portal.call(snapshot, rt, setup), strict=strict)
            try:
                yield harness
            finally:
                harness.close()
        finally:
            portal.call(rt.pool.close)
