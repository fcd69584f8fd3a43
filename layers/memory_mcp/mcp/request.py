"""The authenticated caller of the current MCP request.

The HTTP layer authenticates the bearer key before the MCP transport sees the request and sets
this context variable; anyio copies it into the tasks that run tools, resources and prompts.
Static MCP resources cannot receive a ``Context`` argument, so one mechanism serves all three.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from memory_mcp.errors import AuthenticationError
from memory_mcp.models import Principal
from memory_mcp.services.runtime import Runtime


@dataclass(frozen=True)
class Caller:
    runtime: Runtime
    principal: Principal
    #: The server's own base URL as the client reached it: the local upload URL points there.
    base_url: str = ""


current_caller: ContextVar[Caller | None] = ContextVar("memory_mcp_caller", default=None)


def caller() -> Caller:
    found = current_caller.get()
    if found is None:  # only reachable if the server is mounted without the auth layer
        raise AuthenticationError()
    return found
