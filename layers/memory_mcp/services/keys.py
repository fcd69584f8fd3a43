"""API key format, hashing and authentication.

A key is ``mm_<prefix>_<secret>``: the prefix (10 lowercase hex chars) is public and indexed so a
key is found without scanning; the secret carries 32 random bytes. Only SHA-256 of the whole key
is stored; a high-entropy random secret needs no slow password hash, and lookups stay O(1).
Comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from memory_mcp.db import identity
from memory_mcp.errors import AuthenticationError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import audit, ratelimit
from memory_mcp.services.runtime import Conn, Runtime

_KEY = re.compile(r"^mm_([0-9a-f]{10})_([A-Za-z0-9_-]{43})$")


def new_key() -> tuple[str, str, bytes]:
    """Return ``(key, prefix, hash)`` for a fresh key. The key itself is shown once, never kept."""
    prefix = secrets.token_hex(5)
    key = f"mm_{prefix}_{secrets.token_urlsafe(32)}"
    return key, prefix, hash_key(key)


def hash_key(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def parse_bearer(header: str | None) -> str:
    """The key from an ``Authorization: Bearer`` header, or AuthenticationError."""
    if not header:
        raise AuthenticationError()
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AuthenticationError()
    return token.strip()


async def authenticate_header(rt: Runtime, header: str | None) -> Principal:
    """The principal behind an ``Authorization`` header (any failure: AuthenticationError)."""
    try:
        key = parse_bearer(header)
        # One statement in its own transaction, one round trip: the lookup, the key's last use
        # and the request count; committed without waiting for the WAL flush (lazy_commit). A
        # refused request stays counted: a budget of attempts, as writes are (ratelimit.py).
        async with rt.statement() as conn:
            principal, window = await _lookup(
                conn, key, request_limit=rt.settings.rate_limit_requests_per_minute,
                lazy_commit=True)
        ratelimit.check(rt.settings, principal, "requests", window)
        return principal
    except AuthenticationError:
        await audit.failed_authentication(rt, _presented(header))
        raise


def _presented(header: str | None) -> str | None:
    """What the client sent as its key (only its public prefix is ever recorded)."""
    try:
        return parse_bearer(header)
    except AuthenticationError:
        return None


async def authenticate(conn: Conn, key: str) -> Principal:
    """Load the principal behind a key. Unknown, malformed, revoked or deactivated: same error."""
    principal, _ = await _lookup(conn, key, request_limit=None)
    return principal


async def _lookup(conn: Conn, key: str, *, request_limit: int | None, lazy_commit: bool = False
                  ) -> tuple[Principal, ratelimit.Window | None]:
    """``authenticate``, and with ``request_limit`` the request counted in the same statement
    (``identity.principal_by_key``): its rate window, or None when nothing was counted."""
    match = _KEY.match(key)
    digest = hash_key(key)
    row = (await identity.principal_by_key(conn, match.group(1), digest,
                                           request_limit=request_limit,
                                           lazy_commit=lazy_commit) if match else None)
    # The lookup matched the hash already; comparing again in constant time costs nothing.
    if row is None or not hmac.compare_digest(bytes(row["key_hash"]), digest):
        raise AuthenticationError()
    window = (None if row.get("used") is None
              else ratelimit.Window(int(row["used"]), int(row["seconds_left"])))
    role = row["role"]
    grants = zip(row["grant_space_ids"] or (), row["grant_keys"] or (), row["grant_names"] or (),
                 row["grant_descriptions"] or (), row["grant_access"] or (),
                 row["grant_created_at"] or (), strict=True)
    return Principal(
        key_id=row["key_id"],
        key_label=row["key_label"],
        key_prefix=row["key_prefix"],
        user_id=row["user_id"],
        email=row["email"],
        display_name=row["display_name"],
        role=role,
        active_space_id=row["active_space_id"],
        requests_per_minute=row["requests_per_minute"],
        writes_per_minute=row["writes_per_minute"],
        spaces=tuple(SpaceAccess.granted(role, *grant) for grant in grants),
    ), window


def display_prefix(prefix: str) -> str:
    """How a key is shown in lists: enough to recognise it, nothing to use it."""
    return f"mm_{prefix}_…"

