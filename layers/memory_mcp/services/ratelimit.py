"""Per-key rate limits: a request budget checked with authentication, and a lower write budget
checked before saves, forgets, deletes and uploads.

Counted in the database (``db/limits.py``), so the limit holds across processes and Lambda
instances; API Gateway's throttling stays the outer guard. A refused request is told how long
to wait (HTTP 429 with ``Retry-After``, or a tool error saying the same).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from memory_mcp.config import Settings
from memory_mcp.db import limits
from memory_mcp.errors import RateLimitedError
from memory_mcp.models import Principal
from memory_mcp.services.runtime import Conn, Runtime

Budget = Literal["requests", "writes"]


def limit_for(settings: Settings, principal: Principal, budget: Budget) -> int:
    own = principal.requests_per_minute if budget == "requests" else principal.writes_per_minute
    if own is not None:
        return own
    if budget == "requests":
        return settings.rate_limit_requests_per_minute
    return settings.rate_limit_writes_per_minute


class Window(NamedTuple):
    """A key's count in its current one-minute window (after this use) and the seconds left."""

    used: int
    seconds_left: int


async def take(conn: Conn, settings: Settings, principal: Principal, budget: Budget) -> None:
    """Count one use; RateLimitedError once this minute's budget is spent (0: unlimited)."""
    if limit_for(settings, principal, budget) <= 0:
        return
    row = await limits.take(conn, principal.key_id, budget)
    check(settings, principal, budget, Window(int(row["used"]), int(row["seconds_left"])))


def check(settings: Settings, principal: Principal, budget: Budget, window: Window | None) -> None:
    """RateLimitedError if ``window`` (this use already counted) is over the budget. None: the
    use was not counted, which the counting statement does only when the budget is 0
    (unlimited)."""
    allowed = limit_for(settings, principal, budget)
    if allowed <= 0 or window is None:
        return
    if window.used > allowed:
        what = "requests" if budget == "requests" else "writes (saves, forgets, deletes, uploads)"
        raise RateLimitedError(f"This key has made more than {allowed} {what} in the last "
                               f"minute; retry in {max(1, window.seconds_left)} s.",
                               window.seconds_left)


async def take_write(rt: Runtime, principal: Principal) -> None:
    """The write budget, in its own short transaction (the count stands even if the write
    then fails: it is a budget of attempts)."""
    if limit_for(rt.settings, principal, "writes") <= 0:
        return
    async with rt.transaction(durable=False) as conn:  # a counter is all it writes
        await take(conn, rt.settings, principal, "writes")
