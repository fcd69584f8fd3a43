"""The fifteenth session's rules, from near misses earlier sets left: a word of the fact reused in
another word's place ("**credit** limits … by the **risk** committee" / "… by the **credit**
committee"), a purpose or place changed beside a reworded verb ("shut on Mondays **for
filming**" / "closed on Mondays **for cleaning**"), and power and volume units ("8 kilowatts"
/ "8 kW"). Each near miss below forgot the stored fact before this change; each rewording was
refused or is kept agreeing."""

from __future__ import annotations

from typing import Any

import pytest
from forget_checks import kept_apart_then_forgotten

from memory_mcp.services import agreement
from memory_mcp.services.runtime import Runtime


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("Counterparty credit limits are reviewed quarterly by the risk committee.",
     "Counterparty credit limits are reviewed quarterly by the credit committee.", "word"),
    ("Junior architects must have their details checked by the project director before issue.",
     "Junior architects must have their details checked by a project architect before issue.",
     "word"),
    ("the Egyptian gallery is shut on Mondays for filming",
     "The Egyptian gallery is closed on Mondays for cleaning.", "word"),
    ("Rack B12 is capped at 8 kW", "Rack B12 is capped at 8 litres", "unit"),
])
def test_near_misses_found_by_the_tenth_set_conflict(request_text: str, stored: str,
                                                     kind: str) -> None:
    for x, y in ((request_text, stored), (stored, request_text)):
        found = {c.kind for c in agreement.conflicts(x, y)}
        assert kind in found, (x, found)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Power draw for rack B12 in hall three is capped at 8 kilowatts.",
     "Rack B12 in hall 3 is limited to 8 kW of power draw."),
    ("The tank holds 500 L", "The tank holds 500 litres"),
    # a word used twice, once where the other text has it: no word in another's place
    ("every ski instructor has to renew first aid certification every 2 years",
     "All ski instructors must renew their first-aid certification every two years"),
    ("Credit limits are reviewed by the credit committee",
     "The credit committee reviews credit limits"),
    # the verb reworded, its argument kept
    ("The gallery is shut on Mondays for cleaning", "The gallery closes on Mondays for cleaning"),
])
def test_rewordings_found_by_the_tenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.anyio
async def test_another_committee_is_kept_apart_and_never_forgotten(runtime: Runtime,
                                                                   world: Any) -> None:
    """The risk committee's review forgets nothing and is saved beside the credit
    committee's; the fact itself is still forgotten by a rewording."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    await kept_apart_then_forgotten(
        runtime, m.principal, space,
        "Counterparty credit limits are reviewed quarterly by the credit committee.",
        "Counterparty credit limits are reviewed quarterly by the risk committee.",
        "forget: the credit committee reviews counterparty credit limits every quarter")
