"""Rules from the twenty-first forget set's first run (on 319cc92: 9 wrong forgets of 100 near
misses, 46 of 65 rewordings forgotten; the session's start forgot 9 too): a route's two ends
exchanged around the same verb with a particle in one text ("drives them **back** to base
camp"), things placed on a plan or on a named machine ("clients **on the premium plan**",
"felts **on PM3**"), and an instruction opened by "never" ("**Never put** opals …": the verb is
"put", so "opals" / "pearls" is its object swapped). Each near miss below forgot the stored
fact before this change."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("the shuttle van picks up rafters at base camp and drives them to the Eagle Rock take-out",
     "The shuttle van picks up rafters at the Eagle Rock take-out and drives them back to base "
     "camp.", "roles"),
    ("never put pearls or emeralds in the ultrasonic cleaner",
     "Never put opals or emeralds in the ultrasonic cleaner.", "word"),
])
def test_near_misses_found_by_the_twentyfirst_set_conflict(request_text: str, stored: str,
                                                           kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the press section felts on PM3 are replaced every 45 days",
     "Press section felts are replaced every 45 days."),
    ("clients on the premium plan get a progress report every 30 days",
     "Clients get a progress report every 30 days."),
])
def test_things_on_a_plan_or_a_machine_are_narrower(request_text: str, stored: str) -> None:
    assert "condition" in {c.kind for c in agreement.conflicts(request_text, stored)}


def test_deploys_on_a_day_are_not_placed() -> None:
    """"on" before a time or a day gives when, and narrows nothing."""
    found = agreement.conflicts("deploys on Thursdays need a second approver",
                                "Deploys need a second approver on Thursdays.")
    assert "condition" not in {c.kind for c in found}
