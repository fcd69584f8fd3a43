"""Which space a request acts on, and what the caller may do there.

Resolution rule (one space per request): the ``containerTag`` named in the request; else the
key's active space (set with ``select-space``) while the key still holds a grant on it; else the
key's default space, its oldest grant. A space the key holds no grant on is reported with exactly
the same words as a space that does not exist.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_mcp.db import identity, scope
from memory_mcp.errors import (
    AccessDeniedError,
    GrantLostError,
    InvalidInputError,
    MemoryMcpError,
    NotFoundError,
)
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services.runtime import Conn, Runtime
from memory_mcp.services.validation import check_text

#: Longest space key (admin.create_space enforces the same 63).
MAX_TAG_CHARS = 63


def checked_tag(container_tag: str) -> str:
    """The trimmed tag; refused when longer than any space key can be, so a huge tag is never
    echoed back (a tag that cannot exist gets no lookup either)."""
    tag = container_tag.strip()
    if len(tag) <= MAX_TAG_CHARS:
        check_text(tag, "containerTag")  # a lone surrogate is never echoed back
    if len(tag) > MAX_TAG_CHARS:
        raise InvalidInputError(f"containerTag is {len(tag):,} characters; a space key has at "
                                f"most {MAX_TAG_CHARS}. Call listSpaces to see the keys.")
    return tag


def space_not_found(tag: str) -> NotFoundError:
    return NotFoundError(
        f'Space "{tag}" was not found. Call listSpaces to see the spaces this key can use.'
    )


async def readable_spaces(conn: Conn, principal: Principal, *, open_all: bool = True
                          ) -> list[SpaceAccess]:
    """Every space the key holds a grant on, oldest grant first.

    Also tells the row-level security policies which spaces this transaction may read and
    write (db/scope.py), so a later query that forgets its space filter still sees only these;
    ``open_all=False`` leaves that to the caller (``resolve_space(only=True)``).
    """
    rows = await identity.grants_for_key(conn, principal.key_id)
    spaces = [SpaceAccess.granted(row["role"], row["space_id"], row["key"], row["name"],
                                  row["description"], row["access"], row["created_at"])
              for row in rows]
    if open_all:
        await scope.limit(conn, [s.space_id for s in spaces],
                          [s.space_id for s in spaces if s.writable])
    return spaces


async def narrow(conn: Conn, space: SpaceAccess, *, write: bool = False) -> None:
    """From here on this transaction sees ``space`` only (writes there too if ``write``), not
    every space ``readable_spaces`` opened: a query that forgets its filter reads nothing else."""
    await scope.limit(conn, [space.space_id], [space.space_id] if write else [])


def default_space(principal: Principal, spaces: list[SpaceAccess]) -> SpaceAccess | None:
    """Active space if still granted, else the oldest grant, else None."""
    for space in spaces:
        if space.space_id == principal.active_space_id:
            return space
    return spaces[0] if spaces else None


def granted(principal: Principal, spaces: Sequence[SpaceAccess], container_tag: str | None, *,
            write: bool = False) -> SpaceAccess:
    """Apply the resolution rule to ``spaces`` (the key's grants); enforce effective ReadWrite
    when ``write``."""
    if container_tag is not None and container_tag.strip():
        tag = checked_tag(container_tag)
        space = next((s for s in spaces if s.key == tag.lower()), None)  # keys are lower case
        if space is None:
            raise space_not_found(tag)
    else:
        found = default_space(principal, list(spaces))
        if found is None:
            raise NotFoundError(
                "This API key has no spaces (none granted yet, or access was withdrawn). "
                "Ask an operator to grant one (memory-mcp grants set --key "
                f"{principal.key_id} --space <space> --access readwrite)."
            )
        space = found
    if write:
        require_write(principal, space)
    return space


def checked_at_key_check(principal: Principal, container_tag: str | None, *,
                         write: bool = False) -> SpaceAccess:
    """The space a read acts on, from the grants the request's key check read
    (``Principal.spaces``): no statement, so the read's transaction can open on that space
    alone. The grant may be lost after the key check, so that transaction must check it again
    in its first statement (``Runtime.transaction(holder=...)``), as search_memory does; a
    writing transaction checks there that the key may still write (migration 0016).
    ``write``: refuse a caller who could not write there at the key check (a save or a forget,
    before any statement or embedding)."""
    return granted(principal, principal.spaces, container_tag, write=write)


async def resolve_space(
    conn: Conn, principal: Principal, container_tag: str | None, *, write: bool = False,
    only: bool = False,
) -> SpaceAccess:
    """Apply the resolution rule to the key's grants as they are now; enforce effective
    ReadWrite when ``write``. With ``only`` the transaction sees the resolved space alone from
    here on (as ``narrow`` after it would, one statement fewer), and nothing at all if
    resolution fails."""
    spaces = await readable_spaces(conn, principal, open_all=not only)
    space = granted(principal, spaces, container_tag, write=write)
    if only:
        await narrow(conn, space, write=write)
    return space


def require_write(principal: Principal, space: SpaceAccess) -> None:
    """Refuse a write where the effective access is Read, saying why."""
    if space.writable:
        return
    # from the access as read now (a role lowered since the key check reads as Reader)
    reason = "your role is Reader" if space.grant == "readwrite" else "this key's grant there is Read"
    raise AccessDeniedError(
        f'You are read-only in space "{space.key}" ({reason}); nothing was written.',
        space.space_id)


async def write_refusal(rt: Runtime, principal: Principal, space: SpaceAccess) -> MemoryMcpError:
    """Why a save's writing transaction found its space no longer writable (the first
    statement's check, migration 0016), asked again in a transaction of its own: the key no
    longer reaches the space at all (grant revoked, key revoked, user deactivated: the same
    words as a space never granted), or it may only read there now (grant or role changed).
    Nothing was written either way."""
    try:
        async with rt.transaction(read=[space.space_id], holder=principal.key_id):
            pass
    except GrantLostError:
        return space_not_found(space.key)
    return AccessDeniedError(f'You are read-only in space "{space.key}" now (this key\'s grant or '
                             "your role changed while the request ran); nothing was written.",
                             space.space_id)
