"""MCP resources and the ``context`` prompt, all for the caller's active space."""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

from memory_mcp.errors import MemoryMcpError
from memory_mcp.mcp import formatting as fmt
from memory_mcp.mcp.budget import BUDGETS, fit_structured, fit_text
from memory_mcp.mcp.request import caller
from memory_mcp.services import memories, spaces

RECENT_MEMORIES = 20
#: Most spaces the spaces resource lists (past it, ``total`` says how many; listSpaces pages).
RESOURCE_SPACES = 100


def _json(data: dict[str, Any], uri: str) -> str:
    """``data`` as indented JSON within the resource's budget (mcp/budget.py): fitted as
    compact JSON first, then again by what the indentation added."""
    limit = BUDGETS[uri].text
    target = limit
    text = ""
    for _ in range(3):
        text = json.dumps(fit_structured(data, target), indent=1, ensure_ascii=False)
        if len(text) <= limit:
            break
        target -= len(text) - limit
    return text


async def profile_resource() -> str:
    """Stable and recent profile context for the active space (JSON)."""
    c = caller()
    try:
        return _json(await spaces.profile(c.runtime, c.principal), "memory-mcp://profile")
    except MemoryMcpError as exc:
        raise ResourceError(str(exc)) from None


async def spaces_resource() -> str:
    """Accessible spaces, compact, with the active one marked (JSON)."""
    c = caller()
    data = await spaces.list_spaces(c.runtime, c.principal)
    compact = [{"key": s["key"], "name": s["name"], "access": s["access"],
                "active": s["active"]} for s in data["spaces"][:RESOURCE_SPACES]]
    listed: dict[str, Any] = {"activeSpace": data["activeSpace"], "spaces": compact}
    if data["count"] > len(compact):
        listed["total"] = data["count"]  # cut: say how many there are (listSpaces pages)
    return _json(listed, "memory-mcp://spaces")


async def memories_resource() -> str:
    """The most recently created memories in the active space, any status (JSON)."""
    c = caller()
    try:
        data = await memories.list_page(c.runtime, c.principal, 1, RECENT_MEMORIES, None)
    except MemoryMcpError as exc:
        raise ResourceError(str(exc)) from None
    return _json({"space": data["space"], "memories": data["memories"]}, "memory-mcp://memories")


async def context_prompt() -> str:
    """Context for this conversation: the active space's profile plus up to three recently
    active spaces."""
    c = caller()
    data = await spaces.context(c.runtime, c.principal)
    return fit_text(fmt.context, fit_structured(data, BUDGETS["context"].text),
                    BUDGETS["context"].text)


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
