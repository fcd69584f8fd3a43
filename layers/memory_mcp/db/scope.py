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


#: Settings the scope itself owns; ``enter``'s extra ``settings`` may not name them.
_OWN = ("role", "session_authorization")
_OWN_PREFIX = "memory_mcp."

#: The read list limited to the spaces a key still holds a live grant on (the key not revoked,
#: its user active), as ``_lists`` writes it: sorted ids, comma-separated (migrations/0014).
_STILL_GRANTED = "memory_mcp_still_granted(%s, %s::uuid[])"
#: The write list limited to the spaces the key may still write (migrations/0016), same form.
_STILL_WRITABLE = "memory_mcp_still_writable(%s, %s::uuid[])"
#: A space's save lock, taken shared (``lock``); ``db.saves.lock_exclusively`` takes the same lock
#: (the same key: the space id's text, hashed) exclusively.
SAVE_LOCK_SHARED = "pg_advisory_xact_lock_shared(hashtextextended(%s::text, 0))"


async def enter(conn: Conn, *, system: bool, as_app: bool = True, read: Iterable[UUID] = (),
                write: Iterable[UUID] = (), durable: bool = True,
                settings: Mapping[str, str] | None = None, holder: UUID | None = None,
                lock: UUID | None = None) -> bool:
    """Start the transaction's scope: every space (``system``), else the spaces named (none
    yet if none are), and, unless ``as_app`` is off (``MEMORY_MCP_ROW_SECURITY=false``, for
    measuring), the application role. The scope is set either way: search reads through
    ``memories_in_scope``, which applies it. ``durable=False`` commits without waiting for the
    WAL flush (otherwise the server's own ``synchronous_commit`` applies): for transactions
    that write only counters and statistics, which a crash may lose the last few of.
    ``settings``: more transaction-local settings by name (a search's HNSW depth, db/ann.py).

    ``holder``: a key id whose grants the request read earlier (at its key check); the read
    spaces are then only those the key *still* holds a live grant on, and the write spaces
    only those it may *still* write (grant ReadWrite, user a Writer: migration 0016), checked
    in this same statement. The result says whether every one was kept (False: the caller must
    not go on as if it could read or write them; the transaction sees only what was kept).

    ``lock``: a space whose save lock (``SAVE_LOCK_SHARED``) the transaction takes shared, for
    a save (``services.memories.save``), instead of in a statement of its own.

    One statement, whatever is set: it runs at the start of every transaction."""
    extra = dict(settings or {})
    if any(name in _OWN or name.startswith(_OWN_PREFIX) for name in extra):
        raise ValueError("settings may not replace the transaction's role or spaces")
    if system:
        readable = writable = EVERY_SPACE
    else:
        readable, writable = _lists(read, write)
    if holder is not None and system:
        raise ValueError("holder checks named spaces, not every space")
    if not durable:
        extra["synchronous_commit"] = "off"
    read_params: tuple[object, ...]
    write_params: tuple[object, ...]
    read_sql, read_params = "%s", (readable,)
    write_sql, write_params = "%s", (writable,)
    if holder is not None:
        read_sql, read_params = _STILL_GRANTED, (holder, _ids(readable))
        if writable:
            write_sql, write_params = _STILL_WRITABLE, (holder, _ids(writable))
    cur = await conn.execute(
        "SELECT set_config('role', %s, true),"
        f" set_config('memory_mcp.read_spaces', {read_sql}, true) AS read_spaces,"
        f" set_config('memory_mcp.write_spaces', {write_sql}, true) AS write_spaces"
        + ", set_config(%s, %s, true)" * len(extra)
        + ("" if lock is None else ", " + SAVE_LOCK_SHARED),
        (APP_ROLE if as_app else "none", *read_params, *write_params,
         *(part for item in extra.items() for part in item), *(() if lock is None else (lock,))))
    if holder is None:
        return True
    row = await cur.fetchone()
    return row is not None and (row["read_spaces"], row["write_spaces"]) == (readable, writable)


def _ids(listed: str) -> list[str]:
    return listed.split(",") if listed else []


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
