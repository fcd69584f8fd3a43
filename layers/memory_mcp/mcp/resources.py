"""MCP resources and the ``context`` prompt, all for the caller's active space."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from memory_mcp.errors import MemoryMcpError
from memory_mcp.mcp import formatting as fmt
from memory_mcp.mcp.request import caller
from memory_mcp.services import memories, spaces

RECENT_MEMORIES = 20


async def profile_resource() -> str:
    """Stable and recent profile context for the active space (JSON)."""
    c = caller()
    try:
        return json.dumps(await spaces.profile(c.runtime, c.principal), indent=1)
    except MemoryMcpError as exc:
        raise ResourceError(str(exc)) from None


async def spaces_resource() -> str:
    """Accessible spaces, compact, with the active one marked (JSON)."""
    c = caller()
    data = await spaces.list_spaces(c.runtime, c.principal)
    compact = [{"key": s["key"], "name": s["name"], "access": s["access"],
                "active": s["active"]} for s in data["spaces"]]
    return json.dumps({"activeSpace": data["activeSpace"], "spaces": compact}, indent=1)


async def memories_resource() -> str:
    """The most recently created memories in the active space, any status (JSON)."""
    c = caller()
    try:
        data = await memories.list_page(c.runtime, c.principal, 1, RECENT_MEMORIES, None)
    except MemoryMcpError as exc:
        raise ResourceError(str(exc)) from None
    return json.dumps({"space": data["space"], "memories": data["memories"]}, indent=1)


async def context_prompt() -> str:
    """Context for this conversation: the active space's profile plus up to three recently
    active spaces."""
    c = caller()
    return fmt.context(await spaces.context(c.runtime, c.principal))


#: uri -> (name, function). The one registry of resources; tests list it.
RESOURCES: dict[str, tuple[str, Any]] = {
    "memory-mcp://profile": ("profile", profile_resource),
    "memory-mcp://spaces": ("spaces", spaces_resource),
    "memory-mcp://memories": ("memories", memories_resource),
}
PROMPTS: dict[str, Any] = {"context": context_prompt}


def register(server: MCPServer[Any]) -> None:
    for uri, (name, fn) in RESOURCES.items():
        server.resource(uri, name=name, mime_type="application/json")(fn)
    for name, fn in PROMPTS.items():
        server.prompt(name=name)(fn)
