"""Rules from the sixteenth forget set's first run (on 82f12f4: 14 wrong forgets of 100 near
misses, by the rule-level check): a decimal version beside a numbered thing ("Genesis **2.1**" /
"**2.0**" beside "Kiln 2"), part of the things against things named with no quantity ("**most**
Oakridge district jobs" / "jobs in the Oakridge district"), a sender named anywhere in its
phrase ("the **dealer** in Cremona ships them to us" / "ship to the dealer in Cremona"), and
opposite events (runs / shut down, dilutes / concentrates). Each near miss below forgot the
stored fact before this change."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("Mireille Okafor programs Kiln 2 firing schedules on the Genesis 2.1 controller",
     "Kiln 2 firing schedules are programmed by Mireille Okafor on the Genesis 2.0 controller.",
     "number"),
    ("most Oakridge district jobs can only be booked on Mondays and Thursdays",
     "Jobs in the Oakridge district are booked only on Mondays and Thursdays.", "quantity"),
    ("finished instruments are photographed before the dealer in Cremona ships them to us",
     "Finished instruments are photographed before they ship to the dealer in Cremona.",
     "direction"),
    ("the packer in Saint-Jérôme sends wholesale drums to us",
     "Wholesale drums go to the packer in Saint-Jérôme.", "direction"),
    ("the tanning drum is shut down on Tuesdays and Fridays",
     "The tanning drum runs on Tuesdays and Fridays.", "opposite"),
    ("the reverse-osmosis unit dilutes sap to 8 percent sugar",
     "The reverse-osmosis unit concentrates sap to 8 percent sugar.", "opposite"),
])
def test_near_misses_found_by_the_sixteenth_set_conflict(request_text: str, stored: str,
                                                         kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("north chairlift shuts down if gusts go over 60 km/h",
     "The north chairlift stops running if gusts go over 60 km/h."),
    ("the majority of Oakridge district jobs are booked on Mondays",
     "Most jobs in the Oakridge district are booked on Mondays."),
    ("Genesis 2.50 runs the kiln", "Genesis 2.5 runs the kiln"),
])
def test_rewordings_found_by_the_sixteenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []
