"""``build_server()``: the MCP server with every tool, resource and prompt registered.

It advertises only what it can deliver. Tool, resource and prompt lists never change while it
runs, and it keeps no connection open (stateless, one JSON body per POST; on Lambda a buffered
response), so it offers no ``subscriptions/listen`` stream: the 2026-07-28 capabilities then
carry ``listChanged: false`` and ``subscribe: false``, as the 2025-11-25 ones always did (no
``resources/subscribe`` handler). The ``logging`` capability is real: see ``client_log``.
"""

from __future__ import annotations

import inspect
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS
from pydantic import ValidationError

from memory_mcp import __version__
from memory_mcp.config import Settings, get_settings
from memory_mcp.mcp import arguments as tool_arguments
from memory_mcp.mcp import client_log, resources, tools, widgets

INSTRUCTIONS = """Memory-MCP stores what agents learn, in spaces shared by a team.
Use search_memory before answering from remembered context; add_memory to save a final fact
(or action=forget to remove an outdated one); listSpaces/whoAmI to see where you can read and
write. Every tool acts on one space: the containerTag you pass, else the active space.
select-space, guided-save, upload-file and memory-graph open interactive views where the client
supports them, and always answer in text too."""


class MemoryServer(MCPServer[Any]):
    """The SDK's server, with arguments that do not fit a tool's schema answered in a
    sentence (``arguments.readable``) instead of pydantic's report."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        arguments = tool_arguments.lenient(name, arguments)
        tool = self._tool_manager.get_tool(name)
        if tool is not None and isinstance(arguments, dict):
            # The SDK's argument models ignore names they do not know, so "space": "secret"
            # (for containerTag) saved into the active space, and "categroy" lost its category
            tool_arguments.refuse_unknown(name, arguments, tool.parameters)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError) and not isinstance(exc, UnexpectedToolError):
                raise ToolError(tool_arguments.readable(name, cause)) from cause
            raise


    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None,
                         context: Context[Any, Any] | None = None) -> Any:
        """An unknown prompt or an argument the prompt does not take is the caller's mistake:
        invalid params (-32602) saying which, not the SDK's "Error rendering prompt" with code
        0 and a traceback in the server's log."""
        fn = resources.PROMPTS.get(name)
        if fn is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {name!r}; this server has: "
                                           f"{', '.join(sorted(resources.PROMPTS))}.")
        accepted = set(inspect.signature(fn).parameters)
        extra = sorted(set(arguments or {}) - accepted)
        if extra:
            takes = ", ".join(sorted(accepted)) if accepted else "no arguments"
            raise MCPError(INVALID_PARAMS, f"The {name} prompt takes {takes}; got "
                                           f"{', '.join(repr(e) for e in extra)}.")
        return await super().get_prompt(name, arguments, context)


def build_server(settings: Settings | None = None) -> MCPServer[Any]:
    """Tools, resources, the prompt and the MCP Apps views (whose upload CSP needs settings)."""
    apps = widgets.build_apps(settings or get_settings())
    server: MCPServer[Any] = MemoryServer(
        name="memory-mcp", title="Memory-MCP", version=__version__, instructions=INSTRUCTIONS,
        extensions=[apps], subscriptions=False,
    )
    client_log.install(server)
    tools.register(server)
    resources.register(server)
    return server
