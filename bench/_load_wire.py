"""One agent's connection in ``bench/load.py``: the MCP session and how a failure is classified.

The agents and the final verification both open sessions the same way (bearer key, the
per-call timeout, a hook recording the last HTTP status and Retry-After), and the report
groups errors by the kinds named here, so the wire-level code is one module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

#: A call taking longer than this is abandoned and counted as a timeout (a hang).
CALL_TIMEOUT_S = 60.0


class Wire:
    """The HTTP status and Retry-After of the last response on one agent's connection."""

    def __init__(self) -> None:
        self.status: int | None = None
        self.retry_after: str | None = None
        self.responses = 0

    async def hook(self, response: httpx2.Response) -> None:
        self.status = response.status_code
        self.retry_after = response.headers.get("retry-after")
        self.responses += 1


@asynccontextmanager
async def session(url: str, key: str, wire: Wire) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=CALL_TIMEOUT_S,
                              trust_env=False, event_hooks={"response": [wire.hook]})
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        yield client


def classify_tool_error(text: str) -> str:
    low = text.lower()
    if "unavailable" in low:
        return "tool error: store unavailable"
    if "read-only" in low:
        return "tool error: write denied (read-only)"
    if "in the last minute" in low:
        return "tool error: rate limited"
    if "concurrently" in low or "changed while" in low or "disappeared while" in low:
        return "tool error: conflict, retry"
    if "no memory with id" in low:
        return "tool error: memory not found"
    return "tool error: " + " ".join(text.split())[:70]


def classify_exception(exc: BaseException, wire: Wire) -> str:
    if isinstance(exc, TimeoutError):
        return f"timeout > {CALL_TIMEOUT_S:.0f} s"
    if isinstance(exc, MCPError) and wire.status is not None and wire.status >= 400:
        return f"HTTP {wire.status}" + (" + Retry-After" if wire.retry_after else "")
    if isinstance(exc, MCPError):
        return f"MCP error: {' '.join(str(exc).split())[:60]}"
    return f"{type(exc).__name__}: {' '.join(str(exc).split())[:60]}"


def retryable(kind: str) -> bool:
    return kind.startswith(("HTTP 503", "timeout", "tool error: store unavailable",
                            "tool error: conflict"))

