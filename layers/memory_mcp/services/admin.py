"""Operator use cases behind the ``memory-mcp`` CLI (and the admin Lambda): users, spaces,
keys and grants. No MCP caller can reach these."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from psycopg import errors as pg_errors

from memory_mcp.db import identity, limits
from memory_mcp.errors import ConflictError, InvalidInputError, NotFoundError
from memory_mcp.services import audit, keys
from memory_mcp.services.runtime import Conn, Runtime

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
_SPACE_KEY = re.compile(r"^[a-z0-9][a-z0-9._-]{0,62}$")
ROLES = ("writer", "reader")
ACCESS = ("read", "readwrite")


def _clean(row: dict[str, Any]) -> dict[str, Any]:
    """JSON-friendly copy of a row (ids and timestamps as strings, no hashes)."""
    out: dict[str, Any] = {}
    for name, value in row.items():
        if name == "key_hash":
            continue
        out[name] = value if value is None or isinstance(value, bool | int | str | list) else str(value)
    return out


async def _user(conn: Conn, ident: str) -> dict[str, Any]:
    row = await identity.find_user(conn, ident.strip())
    if row is None:
        raise NotFoundError(f"No user with id or email {ident!r}.")
    return row


async def _space(conn: Conn, key: str) -> dict[str, Any]:
    row = await identity.find_space(conn, key.strip())
    if row is None:
        raise NotFoundError(f"No space with key {key!r}.")
    return row


def _key_id(value: str) -> UUID:
    try:
        return UUID(value.strip())
    except ValueError:
        raise InvalidInputError(f"Not a key id (see `keys list`): {value!r}.") from None


async def create_user(rt: Runtime, email: str, name: str, role: str) -> dict[str, Any]:
    if not _EMAIL.match(email.strip()):
        raise InvalidInputError(f"Not an email address: {email!r}.")
    if role.lower() not in ROLES:
        raise InvalidInputError("role must be writer or reader.")
    if not name.strip():
        raise InvalidInputError("name must not be empty.")
    try:
        async with rt.transaction(system=True) as conn:
            row = await identity.insert_user(conn, email.strip(), name.strip(), role.lower())
            await audit.record(conn, "user.created", target_id=row["id"], role=role.lower())
    except pg_errors.UniqueViolation:
        raise ConflictError(f"A user with email {email!r} already exists.") from None
    return _clean(row)


async def list_users(rt: Runtime) -> list[dict[str, Any]]:
    async with rt.transaction(system=True) as conn:
        return [_clean(row) for row in await identity.list_users(conn)]


async def update_user(rt: Runtime, ident: str, **fields: Any) -> dict[str, Any]:
    if "role" in fields:
        fields["role"] = str(fields["role"]).lower()
        if fields["role"] not in ROLES:
            raise InvalidInputError("role must be writer or reader.")
    async with rt.transaction(system=True) as conn:
        user = await _user(conn, ident)
        row = await identity.update_user(conn, user["id"], **fields)
        if "active" in fields and bool(fields["active"]) != bool(user["active"]):
            await audit.record(conn, "user.deactivated" if not fields["active"] else
                               "user.reactivated", target_id=user["id"])
        if "role" in fields and fields["role"] != user["role"]:
            await audit.record(conn, "user.role_changed", target_id=user["id"],
                               before=user["role"], after=fields["role"])
    assert row is not None
    return _clean(row)


async def create_space(rt: Runtime, key: str, name: str, description: str = "") -> dict[str, Any]:
    key = key.strip()
    if not _SPACE_KEY.match(key):
        raise InvalidInputError(
            "space key must be 1-63 lowercase letters, digits, '.', '_' or '-', "
            f"starting with a letter or digit; got {key!r}."
        )
    try:
        async with rt.transaction(system=True) as conn:
            row = await identity.insert_space(conn, key, (name or "").strip() or key,
                                              description.strip())
            await audit.record(conn, "space.created", space_id=row["id"], space_key=key)
    except pg_errors.UniqueViolation:
        raise ConflictError(f"A space with key {key!r} already exists.") from None
    return _clean(row)


async def list_spaces(rt: Runtime) -> list[dict[str, Any]]:
    async with rt.transaction(system=True) as conn:
        return [_clean(row) for row in await identity.list_spaces(conn)]


async def create_key(rt: Runtime, user: str, label: str) -> dict[str, Any]:
    """Create a key; the only time its secret exists outside the caller's hands."""
    if not label.strip():
        raise InvalidInputError("label must not be empty (e.g. 'laptop', 'ci').")
    key, prefix, digest = keys.new_key()
    async with rt.transaction(system=True) as conn:
        owner = await _user(conn, user)
        if not owner["active"]:  # the key would be refused on every request
            raise InvalidInputError(f"User {owner['email']} is deactivated; reactivate them "
                                    f"first (memory-mcp users reactivate {owner['email']}).")
        row = await identity.insert_key(conn, owner["id"], label.strip(), prefix, digest)
        await audit.record(conn, "key.created", target_id=row["id"], user_id=str(owner["id"]),
                           prefix=prefix)
    return {**_clean(row), "prefix": keys.display_prefix(row["prefix"]), "email": owner["email"],
            "key": key}


async def list_keys(rt: Runtime, user: str | None = None) -> list[dict[str, Any]]:
    if user is not None and not user.strip():
        raise InvalidInputError("--user must name a user (id or email); leave it out for all.")
    async with rt.transaction(system=True) as conn:
        user_id = (await _user(conn, user))["id"] if user else None
        rows = await identity.list_keys(conn, user_id)
    return [{**_clean(row), "prefix": keys.display_prefix(row["prefix"])} for row in rows]


async def revoke_key(rt: Runtime, key_id: str) -> dict[str, Any]:
    async with rt.transaction(system=True) as conn:
        row = await identity.revoke_key(conn, _key_id(key_id))
        if row is not None:
            await audit.record(conn, "key.revoked", target_id=row["id"], prefix=row["prefix"])
    if row is None:
        raise NotFoundError(f"No key with id {key_id!r}.")
    return {**_clean(row), "prefix": keys.display_prefix(row["prefix"])}


#: The largest per-minute budget a key may be given (the column is an integer).
MAX_KEY_LIMIT = 1_000_000


async def set_key_limits(rt: Runtime, key_id: str, requests: str | None, writes: str | None
                         ) -> dict[str, Any]:
    """A key's own per-minute budgets: a number (0 = unlimited) or "default" (the setting); a
    budget not given stays as it is, so with neither this only shows them."""
    def parse(value: str, what: str) -> int | None:
        if value.strip().lower() == "default":
            return None
        if not (value.strip().isascii() and value.strip().isdigit()) or int(value) > MAX_KEY_LIMIT:
            raise InvalidInputError(f"--{what} must be a whole number from 0 (unlimited) to "
                                    f"{MAX_KEY_LIMIT:,}, or 'default'; got {value[:20]!r}.")
        return int(value)

    changes = {column: parse(value, what) for column, value, what in (
        ("requests_per_minute", requests, "requests"), ("writes_per_minute", writes, "writes"))
        if value is not None}
    async with rt.transaction(system=True) as conn:
        row = await limits.set_key_limits(conn, _key_id(key_id), changes)
        if row is not None and changes:
            details: dict[str, Any] = dict(changes)
            await audit.record(conn, "key.limits_set", target_id=row["id"], **details)
    if row is None:
        raise NotFoundError(f"No key with id {key_id!r}.")
    return {**_clean(row), "prefix": keys.display_prefix(row["prefix"]),
            "requests_per_minute": row["requests_per_minute"]
            if row["requests_per_minute"] is not None else
            f"default ({rt.settings.rate_limit_requests_per_minute})",
            "writes_per_minute": row["writes_per_minute"]
            if row["writes_per_minute"] is not None else
            f"default ({rt.settings.rate_limit_writes_per_minute})"}


async def set_grant(rt: Runtime, key_id: str, space: str, access: str) -> dict[str, Any]:
    access = access.lower()
    if access not in ACCESS:
        raise InvalidInputError("access must be read or readwrite.")
    kid = _key_id(key_id)
    async with rt.transaction(system=True) as conn:
        target = await _space(conn, space)
        found = await identity.find_key(conn, kid)
        if found is None:
            raise NotFoundError(f"No key with id {key_id!r}.")
        if found["revoked_at"] is not None:  # it could never use the grant
            raise InvalidInputError(f"Key {key_id} is revoked; create a new key and grant that.")
        row = await identity.upsert_grant(conn, kid, target["id"], access)
        await audit.record(conn, "grant.set", space_id=target["id"], target_id=kid,
                           access=access)
    return {**_clean(row), "space": target["key"]}


async def revoke_grant(rt: Runtime, key_id: str, space: str) -> dict[str, Any]:
    kid = _key_id(key_id)
    async with rt.transaction(system=True) as conn:
        target = await _space(conn, space)
        removed = await identity.delete_grant(conn, kid, target["id"])
        if removed:
            await audit.record(conn, "grant.revoked", space_id=target["id"], target_id=kid)
    if not removed:
        raise NotFoundError(f"Key {key_id} holds no grant on space {space!r}.")
    return {"key_id": str(kid), "space": target["key"], "revoked": True}
