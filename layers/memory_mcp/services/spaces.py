"""Spaces as the caller sees them: listSpaces, whoAmI, select-space, the context prompt."""

from __future__ import annotations

from typing import Any

from memory_mcp.db import identity
from memory_mcp.errors import InvalidInputError
from memory_mcp.models import Principal, access_label, role_label
from memory_mcp.services import profile as profile_service
from memory_mcp.services import views
from memory_mcp.services.access import default_space, readable_spaces, resolve_space
from memory_mcp.services.keys import display_prefix
from memory_mcp.services.runtime import Runtime

RECENT_SPACES_IN_CONTEXT = 3


async def list_spaces(rt: Runtime, principal: Principal) -> dict[str, Any]:
    async with rt.transaction() as conn:
        spaces = await readable_spaces(conn, principal)
        stats = {row["space_id"]: row
                 for row in await identity.space_stats(conn, [s.space_id for s in spaces])}
    active = default_space(principal, spaces)
    items = [views.space(s, stats.get(s.space_id), active is not None and s.space_id == active.space_id)
             for s in sorted(spaces, key=lambda s: s.key)]
    return {"spaces": items, "count": len(items), "activeSpace": active.key if active else None}


async def who_am_i(rt: Runtime, principal: Principal) -> dict[str, Any]:
    async with rt.transaction() as conn:
        spaces = await readable_spaces(conn, principal)
    active = default_space(principal, spaces)
    explicit = active is not None and active.space_id == principal.active_space_id
    return {
        "user": {
            "id": str(principal.user_id),
            "email": principal.email,
            "displayName": principal.display_name,
            "role": role_label(principal.role),
        },
        "key": {
            "id": str(principal.key_id),
            "label": principal.key_label,
            "prefix": display_prefix(principal.key_prefix),
        },
        "scope": [
            {"space": s.key, "name": s.name, "access": access_label(s.effective),
             "grantedAccess": access_label(s.grant)}
            for s in sorted(spaces, key=lambda s: s.key)
        ],
        "activeSpace": None if active is None else {
            "key": active.key, "name": active.name, "access": access_label(active.effective),
            "source": "selected" if explicit else "default",
        },
    }


async def select_space(rt: Runtime, principal: Principal, container_tag: str) -> dict[str, Any]:
    """Persist the key's active space; any readable space may be selected."""
    if not (container_tag or "").strip():
        raise InvalidInputError("containerTag is required: the key of the space to switch to.")
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, only=True)
        previous = principal.active_space_id
        await identity.set_active_space(conn, principal.key_id, space.space_id)
    return {
        "activeSpace": {"key": space.key, "name": space.name,
                        "access": access_label(space.effective)},
        "changed": previous != space.space_id,
    }


async def profile(rt: Runtime, principal: Principal, container_tag: str | None = None
                  ) -> dict[str, Any]:
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, only=True)
        return await profile_service.build(rt, conn, space)


async def context(rt: Runtime, principal: Principal) -> dict[str, Any]:
    """Profile of the active space plus up to three other recently active readable spaces."""
    async with rt.transaction() as conn:
        spaces = await readable_spaces(conn, principal)
        active = default_space(principal, spaces)
        if active is None:
            return {"active": None, "others": []}
        stats = {row["space_id"]: row
                 for row in await identity.space_stats(conn, [s.space_id for s in spaces])}
        others = sorted(
            (s for s in spaces
             if s.space_id != active.space_id and stats[s.space_id]["last_activity_at"]),
            key=lambda s: (stats[s.space_id]["last_activity_at"], s.key), reverse=True,
        )[:RECENT_SPACES_IN_CONTEXT]
        return {
            "active": await profile_service.build(rt, conn, active),
            "others": [await profile_service.build(rt, conn, s) for s in others],
        }
