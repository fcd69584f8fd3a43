"""Output and runtime helpers shared by the ``memory-mcp`` command modules."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from memory_mcp.config import Settings
from memory_mcp.services.runtime import Runtime


def print_result(result: Any, as_json: bool) -> None:
    """The result on stdout: indented JSON, or one ``k=v`` line per row (a new key flagged)."""
    if as_json:
        print(json.dumps(result, indent=2, default=str))
        return
    rows = result if isinstance(result, list) else [result]
    if not rows:
        print("(none)")
    for row in rows:
        secret = row.get("key") if str(row.get("key", "")).startswith("mm_") else None
        print("  ".join(f"{k}={v}" for k, v in row.items() if secret is None or k != "key"))
        if secret is not None:
            print(f"\nAPI key (shown once, store it now):\n  {secret}")


async def with_runtime(settings: Settings, fn: Callable[[Runtime], Awaitable[Any]]) -> Any:
    from memory_mcp.services.startup import create_runtime

    rt = await create_runtime(settings)
    try:
        return await fn(rt)
    finally:
        await rt.pool.close()
