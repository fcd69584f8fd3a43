"""The per-transaction settings the row-level security policies read (migrations/0009).

``enter`` switches the transaction to the application role (``SET LOCAL ROLE``: it ends with the
transaction, so nothing leaks to the next user of a pooled connection or pins an RDS Proxy
connection). ``limit`` names the spaces this transaction may read and write; with none named,
the policies show nothing. ``'*'`` (``system=True``) is the explicit "every space" of the paths
that act for no single caller: the extraction worker, the admin CLI, re-embedding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from uuid import UUID

from psycopg import AsyncConnection

Conn = AsyncConnection[dict[str, Any]]

APP_ROLE = "memory_mcp_app"
EVERY_SPACE = "*"


async def enter(conn: Conn, *, system: bool, as_app: bool = True, read: Iterable[UUID] = (),
                write: Iterable[UUID] = (), durable: bool = True,
                settings: Mapping[str, str] | None = None) -> None:
    """Start the transaction's scope: every space (``system``), else the spaces named (none
    yet if none are), and, unless ``as_app`` is off (``MEMORY_MCP_ROW_SECURITY=false``, for
    measuring), the application role. The scope is set either way: search reads through
    ``memories_in_scope``, which applies it. ``durable=False`` commits without waiting for the
    WAL flush (otherwise the server's own ``synchronous_commit`` applies): for transactions
    that write only counters and statistics, which a crash may lose the last few of.
    ``settings``: more transaction-local settings by name (a search's HNSW depth, db/ann.py).

    One statement, whatever is set: it runs at the start of every transaction."""
    if system:
        readable = writable = EVERY_SPACE
    else:
        readable, writable = _lists(read, write)
    extra = dict(settings or {})
    if not durable:
        extra["synchronous_commit"] = "off"
    await conn.execute(
        "SELECT set_config('role', %s, true), set_config('memory_mcp.read_spaces', %s, true),"
        " set_config('memory_mcp.write_spaces', %s, true)"
        + ", set_config(%s, %s, true)" * len(extra),
        (APP_ROLE if as_app else "none", readable, writable,
         *(part for item in extra.items() for part in item)))


def _lists(read: Iterable[UUID], write: Iterable[UUID]) -> tuple[str, str]:
    """The settings' text: write implies read; sorted, so equal scopes read the same."""
    writable = sorted({str(s) for s in write})
    readable = sorted({str(s) for s in read} | set(writable))
    return ",".join(readable), ",".join(writable)


async def limit(conn: Conn, read: Iterable[UUID], write: Iterable[UUID]) -> None:
    """Allow exactly these spaces for the rest of the transaction (write implies read)."""
    readable, writable = _lists(read, write)
    await conn.execute(
        "SELECT set_config('memory_mcp.read_spaces', %s, true),"
        " set_config('memory_mcp.write_spaces', %s, true)",
        (readable, writable))
