"""The MCP logging utility: ``logging/setLevel``, and log messages sent to the client.

What reaches a client depends on the protocol era and on the HTTP transport, not on this code:

* **2025-11-25** (``initialize`` handshake): the client sets a level with ``logging/setLevel``.
  The server is stateless — every POST is its own session — so the level is remembered per API
  key, in this process (bounded; hosted, per Lambda instance), and applies to that key's later
  requests. Until a key sets one, ``warning`` and above are sent.
* **2026-07-28** (per-request envelope): ``logging/setLevel`` no longer exists; each request opts
  in with ``_meta["io.modelcontextprotocol/logLevel"]`` and the SDK drops everything below it
  (nothing at all without the opt-in).
* Messages ride the response stream of the request they belong to. ``memory-mcp serve`` and the
  Lambda answer every POST with one JSON body (``json_response=True``), which has no place for
  notifications, so in both eras they are accepted, filtered and then dropped by the transport;
  a transport that answers with ``text/event-stream`` delivers them, in order, before the
  result. docs/conformance.md says the same for clients.

What is sent: one ``debug`` line per tool call (the tool and whether it failed), plus whatever
package code logs to the ``memory_mcp.client`` logger while the request runs — the explicit
channel for messages meant for the caller. Nothing else from the package's logs is forwarded:
those may name upstream URLs or carry exception text, and must never reach a client.
"""

from __future__ import annotations

import logging
import warnings
from collections import OrderedDict
from contextvars import ContextVar
from typing import Any, Final, get_args

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import EmptyResult, LoggingLevel, SetLevelRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from memory_mcp.mcp.request import current_caller

#: Package code logs here what the calling client should see (never secrets or content).
CLIENT_LOGGER: Final = "memory_mcp.client"
#: RFC 5424 order, least severe first (the order of the ``LoggingLevel`` literal).
LEVELS: Final[tuple[LoggingLevel, ...]] = get_args(LoggingLevel)
#: Sent to a handshake-era key that never called ``logging/setLevel``.
DEFAULT_LEVEL: Final[LoggingLevel] = "warning"
#: Keys whose level is remembered; the least recently set is forgotten first.
MAX_REMEMBERED_KEYS: Final = 10_000
#: Longest message text forwarded (a log line, not a document).
MAX_MESSAGE_CHARS: Final = 2_000

_PYTHON_TO_MCP: Final[dict[int, LoggingLevel]] = {
    logging.DEBUG: "debug", logging.INFO: "info", logging.WARNING: "warning",
    logging.ERROR: "error", logging.CRITICAL: "critical"}


def mcp_level(levelno: int) -> LoggingLevel:
    """The MCP level for a Python level (the nearest standard level at or below it)."""
    standard = max((n for n in _PYTHON_TO_MCP if n <= levelno), default=logging.DEBUG)
    return _PYTHON_TO_MCP[standard]


def at_least(level: LoggingLevel, threshold: LoggingLevel) -> bool:
    return LEVELS.index(level) >= LEVELS.index(threshold)


class KeyLevels:
    """The level each API key asked for with ``logging/setLevel`` (handshake era)."""

    def __init__(self, capacity: int = MAX_REMEMBERED_KEYS) -> None:
        self.capacity = capacity
        self._levels: OrderedDict[str, LoggingLevel] = OrderedDict()

    def set(self, key_id: str, level: LoggingLevel) -> None:
        self._levels[key_id] = level
        self._levels.move_to_end(key_id)
        while len(self._levels) > self.capacity:
            self._levels.popitem(last=False)

    def get(self, key_id: str | None) -> LoggingLevel:
        return self._levels.get(key_id or "", DEFAULT_LEVEL)


#: Records logged to ``memory_mcp.client`` during the current request, sent when it ends.
_pending: ContextVar[list[tuple[LoggingLevel, str]] | None] = ContextVar(
    "memory_mcp_client_log", default=None)


class _Collect(logging.Handler):
    """Buffers ``memory_mcp.client`` records of the request in whose context they are logged
    (``logging`` is synchronous; sending is not). The logger itself passes every level — the
    client, not the process's log level, decides — and this handler hands the record on to the
    server's own log only at the level that log is configured for."""

    def emit(self, record: logging.LogRecord) -> None:
        pending = _pending.get()
        if pending is not None:
            pending.append((mcp_level(record.levelno), record.getMessage()[:MAX_MESSAGE_CHARS]))
        parent = logging.getLogger("memory_mcp")
        if parent.isEnabledFor(record.levelno):
            parent.handle(record)


def _key_id() -> str | None:
    caller = current_caller.get()
    return str(caller.principal.key_id) if caller is not None else None


class ClientLog:
    """The ``logging/setLevel`` handler and the middleware that sends a request's messages."""

    def __init__(self) -> None:
        self.levels = KeyLevels()

    async def set_level(self, _ctx: ServerRequestContext[Any, Any],
                        params: SetLevelRequestParams) -> EmptyResult:
        self.levels.set(_key_id() or "", params.level)
        return EmptyResult()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        if ctx.method != "tools/call" or ctx.request_id is None:
            return await call_next(ctx)
        pending: list[tuple[LoggingLevel, str]] = []
        token = _pending.set(pending)
        tool = str((ctx.params or {}).get("name", ""))[:100]
        failed = True
        try:
            result = await call_next(ctx)
            failed = bool(result.get("isError") if isinstance(result, dict)
                          else getattr(result, "is_error", False))
            return result
        finally:
            _pending.reset(token)
            pending.insert(0, ("debug", f"tools/call {tool}: {'error' if failed else 'ok'}"))
            await self._send(ctx, pending)

    async def _send(self, ctx: ServerRequestContext[Any, Any],
                    messages: list[tuple[LoggingLevel, str]]) -> None:
        # The modern era filters by the request's _meta opt-in inside the SDK; the handshake era
        # leaves filtering to the setLevel owner, which is this class.
        threshold = (LEVELS[0] if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
                     else self.levels.get(_key_id()))
        for level, text in messages:
            if not at_least(level, threshold):
                continue
            try:
                await ctx.session.send_log_message(
                    level, text, logger="memory-mcp", related_request_id=ctx.request_id)
            except Exception:  # a lost log line must never fail the call
                logging.getLogger(__name__).debug("log message to the client not sent")


def install(server: MCPServer[Any]) -> ClientLog:
    """Serve ``logging/setLevel`` (which also advertises the ``logging`` capability) and send
    each tool call's messages."""
    # SEP-2577 deprecates the capability but 2025-11-25 clients still use it; say so once here
    # rather than in a warning on every tool call.
    warnings.filterwarnings("ignore", message="The logging capability is deprecated",
                            category=MCPDeprecationWarning)
    client_log = ClientLog()
    lowlevel = server._lowlevel_server  # MCPServer has no public way to add it
    lowlevel.add_request_handler("logging/setLevel", SetLevelRequestParams, client_log.set_level)
    server.middleware.append(client_log)
    collector = logging.getLogger(CLIENT_LOGGER)
    if not any(isinstance(h, _Collect) for h in collector.handlers):
        collector.addHandler(_Collect())
        collector.setLevel(logging.DEBUG)
        collector.propagate = False  # _Collect forwards what the server's log wants
    return client_log
