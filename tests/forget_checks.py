"""A check several rule tests share: through the real save and forget, a near miss of a stored
fact forgets nothing and names that fact first among its candidates (so the caller can forget
it by id if that was meant)."""

from __future__ import annotations

from typing import Any

from memory_mcp.models import Principal
from memory_mcp.services import agreement, memories
from memory_mcp.services.runtime import Runtime


async def stored_then_refused(runtime: Runtime, principal: Principal, space: str, stored: str,
                              request: str) -> dict[str, Any]:
    """Save ``stored``, then forget ``request``; returns the save's answer."""
    saved = await memories.save(runtime, principal, stored, None, space)
    refused = await memories.forget(runtime, principal, request, None, space)
    assert refused["action"] == "nothing_matched", refused.get("memory")
    assert refused["candidates"][0]["id"] == saved["memory"]["id"]
    return saved


async def kept_apart_then_forgotten(runtime: Runtime, principal: Principal, space: str,
                                    stored: str, near: str, rewording: str) -> None:
    """Through the real save and forget: ``near`` forgets nothing, is saved beside ``stored``
    (both can be true) rather than as its next version, and ``rewording`` still forgets
    ``stored``."""
    saved = await stored_then_refused(runtime, principal, space, stored, near)
    other = await memories.save(runtime, principal, near, None, space)
    assert other["action"] == "saved", other.get("supersedes")
    forgotten = await memories.forget(runtime, principal, rewording, None, space)
    assert forgotten["action"] == "forgotten", forgotten
    assert forgotten["memory"]["id"] == saved["memory"]["id"]


async def kept_apart_in_a_new_space(runtime: Runtime, world: Any, stored: str, near: str,
                                    rewording: str) -> None:
    """``kept_apart_then_forgotten`` in a fresh space, by a member who may write there."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    await kept_apart_then_forgotten(runtime, m.principal, space, stored, near, rewording)


def assert_conflict_both_ways(request: str, stored: str, kind: str) -> None:
    """The rules find a conflict of ``kind`` read either way round (a near miss is another
    fact whichever text is stored)."""
    for x, y in ((request, stored), (stored, request)):
        found = {c.kind for c in agreement.conflicts(x, y)}
        assert kind in found, (x, found)


def kinds(request_text: str, stored: str) -> set[str]:
    """The kinds of the conflicts the rules find between a request and a stored fact: the
    near-miss tests assert the one they expect is among them."""
    return {c.kind for c in agreement.conflicts(request_text, stored)}
