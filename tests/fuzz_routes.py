"""Fuzz cases, part two: ``POST /mcp`` envelopes and headers, ``POST /uploads``,
``PUT /uploads/local/{id}``, ``/healthz`` and unknown routes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fuzz_requests import (
    AUTHS,
    Case,
    _meta,
    rpc_messages,
    tool_call,
)
from fuzz_values import (
    ACCEPT,
    CONTENT_TYPES,
    FILENAMES,
    GOOD,
    HANDSHAKE_VERSIONS,
    MODERN_VERSION,
    SPACE_TAGS,
    Ref,
    any_json,
    extra_keys,
    hostile_text,
    numbers,
    refs,
    weighted,
)
from hypothesis import strategies as st

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
