"""The per-transaction settings the row-level security policies read (migrations/0009).

``enter`` switches the transaction to the application role (``SET LOCAL ROLE``: it ends with the
transaction, so nothing leaks to the next user of a pooled connection or pins an RDS Proxy
connection). ``limit`` names the spaces this transaction may read and write; with none named,
the policies show nothing. ``'*'`` (``system=True``) is the explicit "every space" of the paths
that act for no single caller: the extraction worker, the admin CLI, re-embedding.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Conn = AsyncConnection[dict[str, Any]]

APP_ROLE = "memory_mcp_app"
EVERY_SPACE = "*"


async def enter(conn: Conn, *, system: bool, as_app: bool = True) -> None:
    """Start the transaction's scope: every space (``system``) or none yet, and, unless
    ``as_app`` is off (``MEMORY_MCP_ROW_SECURITY=false``, for measuring), the application role.
    The scope is set either way: search reads through ``memories_in_scope``, which applies it."""
    spaces = EVERY_SPACE if system else ""
    await conn.execute(
        "SELECT set_config('role', %s, true), set_config('memory_mcp.read_spaces', %s, true),"
        " set_config('memory_mcp.write_spaces', %s, true)",
        (APP_ROLE if as_app else "none", spaces, spaces))


async def limit(conn: Conn, read: Iterable[UUID], write: Iterable[UUID]) -> None:
    """Allow exactly these spaces for the rest of the transaction (write implies read)."""
    writable = sorted({str(s) for s in write})
    readable = sorted({str(s) for s in read} | set(writable))
    await conn.execute(
        "SELECT set_config('memory_mcp.read_spaces', %s, true),"
        " set_config('memory_mcp.write_spaces', %s, true)",
        (",".join(readable), ",".join(writable)))
