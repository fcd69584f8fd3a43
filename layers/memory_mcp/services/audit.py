"""The audit trail: who did what, for operators.

Security-relevant events are appended in the same transaction as the change they record (a
rolled-back change leaves no event), or, for refusals, in their own short transaction (the
refused request rolls back). Events carry ids, kinds and short reasons, never secrets or memory
content. The application may only append; reading and purging are the admin CLI's, which
connects as the database owner — the explicit "see everything" path.
"""

from __future__ import annotations

import getpass
import logging
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import dict_row

from memory_mcp.config import Settings
from memory_mcp.db import audit as db
from memory_mcp.db import identity
from memory_mcp.errors import InvalidInputError, MemoryMcpError
from memory_mcp.models import Principal
from memory_mcp.services.runtime import Conn, Runtime

log = logging.getLogger(__name__)

#: Failed authentications are recorded at most once per key prefix (or per malformed key) a
#: minute, per process: a flood of bad keys cannot flood the table.
FAILED_AUTH_EVERY_S = 60.0
_last_failed: dict[str, float] = {}
_PREFIX = re.compile(r"^mm_([0-9a-f]{10})_")


#: Who runs the admin command being executed (``cli.run``, the admin Lambda): operators have no
#: key, so an event they cause would otherwise name no one. ``None`` outside an admin command.
_operator: ContextVar[str | None] = ContextVar("memory_mcp_operator", default=None)


@contextmanager
def operated_by(operator: str) -> Iterator[None]:
    """Within the block, every event recorded without a key names ``operator`` (an admin
    command); reset after it, so a long-lived process (a warm Lambda, the tests) keeps none."""
    token = _operator.set(operator[:200])
    try:
        yield
    finally:
        _operator.reset(token)


def operating() -> str | None:
    return _operator.get()


def local_operator() -> str:
    """The CLI's operator: the OS account and host that ran it (no secret, enough to ask)."""
    try:
        who = getpass.getuser()
    except (KeyError, OSError):  # an account without a name (containers)
        who = "unknown user"
    return f"cli: {who}@{socket.gethostname()}"


async def record(conn: Conn, kind: str, principal: Principal | None = None, *,
                 space_id: UUID | None = None, target_id: UUID | None = None,
                 **detail: Any) -> None:
    """Append one event in the caller's transaction (an admin command's names its operator)."""
    operator = _operator.get()
    if principal is None and operator is not None:
        detail = {**detail, "operator": operator}
    await db.append(conn, kind, actor_user_id=principal.user_id if principal else None,
                    actor_key_id=principal.key_id if principal else None, space_id=space_id,
                    target_id=target_id, detail=detail)


async def record_alone(rt: Runtime, kind: str, principal: Principal | None = None,
                       **fields: Any) -> None:
    """Append one event in its own transaction; never lets the audit fail the request."""
    try:
        async with rt.transaction() as conn:
            await record(conn, kind, principal, **fields)
    except (psycopg.Error, MemoryMcpError):
        log.warning("could not record audit event %s", kind)


async def failed_authentication(rt: Runtime, presented: str | None) -> None:
    """A refused key, by its public prefix only (never the secret), rate-limited."""
    match = _PREFIX.match(presented or "")
    prefix = match.group(1) if match else "malformed"
    now = time.monotonic()
    if now - _last_failed.get(prefix, -FAILED_AUTH_EVERY_S) < FAILED_AUTH_EVERY_S:
        return
    _last_failed[prefix] = now
    if len(_last_failed) > 10_000:
        _last_failed.clear()
    await record_alone(rt, "auth.failed", None, prefix=prefix)


def parse_since(value: str | None) -> datetime | None:
    """``7d``, ``12h``, ``30m`` or an ISO date/time."""
    if not value:
        return None
    m = re.fullmatch(r"(\d+)([dhm])", value.strip())
    if m:
        unit = {"d": "days", "h": "hours", "m": "minutes"}[m.group(2)]
        return datetime.now(UTC) - timedelta(**{unit: int(m.group(1))})
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInputError(f"--since must be like 7d, 12h or 2026-11-30; got {value[:40]!r}."
                                ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


#: The most events one ``audit`` read prints.
MAX_READ = 10_000


async def read(settings: Settings, rt: Runtime, *, space: str | None, user: str | None,
               since: str | None, limit: int = 200) -> list[dict[str, Any]]:
    """Events, newest first, read as the owner (the application role cannot read them)."""
    from memory_mcp.db.pool import resolve_database_url

    if not 1 <= limit <= MAX_READ:
        raise InvalidInputError(f"--limit must be between 1 and {MAX_READ:,}; got {limit}.")

    async with rt.transaction(system=True) as conn:  # names → ids
        space_id = user_id = None
        if space:
            found = await identity.find_space(conn, space)
            space_id = found["id"] if found else None
        if user:
            who = await identity.find_user(conn, user)
            if who is None:
                raise InvalidInputError(f"No user {user!r}.")
            user_id = who["id"]
    async with await psycopg.AsyncConnection.connect(resolve_database_url(settings),
                                                     row_factory=dict_row) as conn:
        space_ids = None
        if space:  # the space with the key now and every deleted one that had it
            space_ids = [*([space_id] if space_id else []), *await db.deleted_spaces(conn, space)]
            if not space_ids:
                raise InvalidInputError(f"No space {space!r} (nor a deleted one).")
        await purge_old(conn, settings)
        rows = await db.read(conn, space_ids=space_ids, user_id=user_id,
                             since=parse_since(since), limit=limit)
    return [{**r, "at": r["at"].isoformat()} for r in rows]


async def purge_old(conn: Conn, settings: Settings) -> int:
    """Drop events past the retention setting (owner connection)."""
    return await db.purge(conn, settings.audit_retention_days)
