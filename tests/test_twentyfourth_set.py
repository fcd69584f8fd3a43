"""Rules from the twenty-fourth forget set's first run (on b04ba43: 12 wrong forgets of 100
near misses, 40 of 65 rewordings forgotten): a count read as the hour of the other text's clock
time ("**5 kg** of oats … at 17:00" as "5 pm"), "gets" as a clause's verb, "the red flag **is
up**" / "**is down**", "**one of the** sand filters", "**all our** pools" / "the **main**
pool", and a condition clause read up to the next clause ("unless a guide is with them,
**because** …"). Each near miss below forgot the stored fact before this change; the guards
are rewordings of the forget sets that must still be forgotten."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("Silver Comet gets 5 kg of oats at 06:00 and 3 kg at 17:00",
     "Silver Comet gets 4 kg of oats at 06:00 and 3 kg at 17:00.", "number"),
    ("Silver Comet gets 4 kg of barley at 06:00 and 3 kg at 17:00",
     "Silver Comet gets 4 kg of oats at 06:00 and 3 kg at 17:00.", "word"),
    ("shooting at the 70 m line is only allowed when the red flag is up",
     "Shooting at the 70 m line is only allowed when the red flag is down.", "opposite"),
    ("we backwash one of the sand filters on Sunday evening after closing",
     "Backwash the sand filters on Sunday evening after closing.", "quantity"),
    ("the pH in all our pools must be kept between 7.2 and 7.6, testing every 2 hours",
     "The main pool's pH must be kept between 7.2 and 7.6; test it every 2 hours.", "scope"),
    ("visitors may not enter the Alpine Rockery after 16:00 in winter unless a guide is with "
     "them, because the paths ice over", "Visitors may not enter the Alpine Rockery after "
     "16:00 in winter because the paths ice over.", "condition"),
])
def test_near_misses_found_by_the_twentyfourth_set_conflict(request_text: str, stored: str,
                                                            kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    # an hour is still an hour: "ten a.m." / "10:00", "at 6" / "18:00"
    ("Remove the note that snow pit obs go into InfoEx by ten a.m. daily.",
     "Snow pit observations are entered into InfoEx by 10:00 each day."),
    ("the shop closes at 6 on Fridays", "The shop closes at 18:00 on Fridays."),
    # "gets" before no amount stays a stop word
    ("flour gets delivered to the Oak Street shop every Tuesday and Friday",
     "The Oak Street branch gets flour deliveries on Tuesdays and Fridays."),
    # a number in digits before "of the" is a version or a share, not a part of the things
    ("For Siemens jobs, use client style guide v3.",
     "Siemens jobs must follow version 3 of the client style guide."),
    ("Forget that version 3.1 of the Qubica BES X scoring software is what runs on the lane "
     "PCs.", "The lane PCs run Qubica BES X scoring version 3.1."),
    # "since" inside a condition is time, not the next clause
    ("Forget that customer STLs get removed from the production file server once 90 days have "
     "passed since shipping.", "Customer STL files are deleted from the production file "
     "server 90 days after the order ships."),
])
def test_rewordings_stay_the_same_fact(request_text: str, stored: str) -> None:
    found = agreement.conflicts(request_text, stored)
    assert found == [], found
