"""Fuzz cases, part one: ``Case``, JSON-RPC tool calls and headers of both protocol eras, and
the tool and JSON-RPC message strategies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fuzz_values import (
    HANDSHAKE_VERSIONS,
    MODERN_VERSION,
    Missing,
    Ref,
    any_json,
    arguments_for,
    extra_keys,
    hostile_text,
)
from hypothesis import strategies as st

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
