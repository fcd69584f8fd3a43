"""Rules from the two-hundred-and-fifty-seventh to two-hundred-and-sixty-second forget sets'
first runs (and three near misses of the first batch the first rules left). Each near miss
below forgot the stored fact before its rule; each guard is a rewording or a pair the rule
must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # a make and model in brackets the request leaves out
    ("Please delete the note that sweeper SW-07 needs a new suction hose every 400 engine "
     "hours.", "Sweeper SW-07 (Johnston CX202) needs new brushes every 400 engine hours.", "word"),
    # a place after a time after "held"
    ("Remove the memory that Foundation licence exams are held in the church hall on the first "
     "Thursday of each month.",
     "Foundation licence exams are held on the first Thursday of every month in Room 3 of the "
     "Scout hut, maximum 6 candidates per session.", "word"),
    # a system the stored text never names
    ("Scrap the note that message texts on the backup server are kept for 90 days and then "
     "deleted.",
     "Customer message texts are kept for 90 days and then deleted, to comply with GDPR.",
     "environment"),
    # "even when" against a condition
    ("Remove the note that Olivia signs off a door even when the manufacturer's certification "
     "label is missing.",
     "Olivia only signs off a door if the manufacturer's certification label is still on it.",
     "negation"),
    ("Drop the rule that verification goes ahead even when the lab is outside 18-25°C.",
     "Lab temperature must be 18-25°C during testing; if it's outside that range, postpone "
     "verification.", "negation"),
    # a list of places
    ("Please delete the note that Raj fits Aico Ei3016 optical alarms in bedrooms on council "
     "jobs.",
     "Smoke alarm fitter Raj Patel fits Aico Ei3016 optical alarms in hallways and landings on "
     "council jobs.", "word"),
    # two things before the same place
    ("Forget that the alarm code at Kelsey Street must be changed within 24 hours whenever a "
     "keyholder leaves.",
     "The combination on the back-office safe at Kelsey Street must be changed within 24 hours "
     "whenever a keyholder leaves the company.", "word"),
    ("Scrap the note that bollard plates for Harrowgate Council are 600 x 200 mm aluminium, "
     "3 mm thick, with Class 1 reflective film.",
     "Street nameplates for Harrowgate Council are 600 x 200 mm aluminium, 3 mm thick, faced "
     "with Class 1 reflective film.", "word"),
    ("Forget that balloon columns for outdoor venues are built with double-stuffed 12-inch "
     "latex balloons.",
     "Arches for outdoor venues are built with double-stuffed 12-inch latex balloons so they "
     "hold their colour in sunlight.", "word"),
    # doers swapped around the same verb
    ("Please delete the note that Tom covers relief watchman Ben Sykes's shifts when Ben is on "
     "holiday.",
     "Relief watchman Ben Sykes covers Tom's shifts when Tom is on holiday, same 22:00 start.",
     "roles"),
    # the doers of two steps swapped
    ("Forget that breakages are recorded on the return sheet by Gemma Price and then checked by "
     "the client.",
     "Breakages are recorded on the return sheet by the client and checked by the warehouse "
     "supervisor, Gemma Price.", "direction"),
    # every one of a thing against those sold to some
    ("Delete the note that BK-7 breakaway clips are mandatory on every lanyard we sell.",
     "BK-7 safety breakaway clips are mandatory on all lanyards sold to hospitals and schools.",
     "scope"),
    ("Forget that all nameplate proofs must be approved by the council's highways officer.",
     "Nameplate proofs containing apostrophes or accented letters must be approved by the "
     "council's highways officer.", "scope"),
    # opposite events and states
    ("Forget that blue HH-420 shells were brought back in March 2026.",
     "The HH-420 shell is now sold in white, yellow and orange only; blue shells were "
     "discontinued in March 2026.", "opposite"),
    ("Forget that lost-pet scan requests from the dog warden are answered within 2 hours "
     "outside opening hours.",
     "Lost-pet scan requests from the council dog warden are answered within 2 hours during "
     "opening hours.", "opposite"),
    # a place said right after the copula
    ("Forget that the Harbourview Tower machine room is in the basement, with the key held at "
     "the front desk.",
     "Machine room at Harbourview Tower is on the roof (level 14); the key is held by security "
     "at the front desk.", "word"),
    # "4th and 5th" is a list, not a clause
    ("Forget that Hartwell Bellhangers re-bushed the 4th and 5th pulleys in August 2025.",
     "Hartwell Bellhangers re-bushed the 4th and 5th clappers in August 2025.", "word"),
    # a contrast about the polish, not about the polishing
    ("Forget that silver-plated cutlery is not polished with Hagerty Silver Foam.",
     "Silver-plated cutlery is polished with Hagerty Silver Foam, not the general steel polish.",
     "negation"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("From December to February the gritting crew starts at 4 am.",
     "In winter (Dec-Feb) the gritting crew starts at 4 am."),
    ("Get rid of the rule that anyone on warfarin must have an INR no older than three days "
     "before we do deep scaling.",
     "Patients on warfarin need an INR result from within the last 72 hours before any deep "
     "scaling."),
    ("Can you forget that Green Line platform doors get reset from console two rather than "
     "console one?",
     "Station platform doors on the Green Line are reset from console 2, not console 1."),
    ("The standup host on Friday is Lena.", "The standup host on Monday is Lena."),
    ("Delete the memory that SW-07, the Johnston CX202, gets its brushes replaced every 400 "
     "engine hours.", "Sweeper SW-07 (Johnston CX202) needs new brushes every 400 engine hours."),
    ("Erase the note that the Portland stone names panel at Eastbrook is cleaned with the DOFF "
     "steam unit at 150 degrees C and never pressure washed.",
     "The Eastbrook war memorial names panel is Portland stone; clean it with the DOFF steam "
     "system at 150°C, never a pressure washer."),
    ("Scrap the note that Tom's shifts are covered by relief watchman Ben Sykes when Tom is on "
     "holiday.",
     "Relief watchman Ben Sykes covers Tom's shifts when Tom is on holiday, same 22:00 start."),
    # rewordings a first cut of these rules refused over all 268 sets, and that agree again
    ("GitHub Actions runs our CI", "The CI pipeline runs on GitHub Actions."),
    ("Please remove the note that the Skutt's Bartlett Genesis controller went to firmware 2.4 "
     "in January after the thermocouple errors, must not be rolled back, and that Hannah is "
     "asked before anything newer goes on.",
     "The Bartlett Genesis controller on the Skutt was updated to firmware 2.4 in January after "
     "the thermocouple errors; do not roll it back, and ask Hannah before installing anything "
     "newer."),
    ("Forget that the pilot boat's AIS transponder has to be left on permanently, even when "
     "we're alongside.",
     "The pilot boat's AIS transponder must stay on at all times, including when alongside."),
    ("That's outdated: from April through October the council's grounds crew cuts the fairways "
     "each Wednesday.",
     "The council grounds team mows the fairways every Wednesday from April to October."),
    ("That's outdated: production label printers run LabelPro 7.3 and 8.0 is only on the test "
     "PC.",
     "LabelPro is on version 7.3 on the production label printers; version 8.0 is only "
     "installed on the test PC."),
    ("Please delete the note saying reception rents out Bullpadel Hack 03 demo rackets at £5 a "
     "session.", "Bullpadel Hack 03 demo rackets can be rented from reception for £5 per session."),
    ("VOD reviews by coach Dana happen in Insights.gg rather than OBS replays; forget it",
     "Coach Dana reviews VODs in Insights.gg, not in OBS replays."),
    ("Delete the memory that every quarter we check retroreflectivity with the LTL-X Mark II and "
     "schedule a repaint for any line below 150 mcd.",
     "Retroreflectivity is measured quarterly with the LTL-X Mark II; any line under 150 mcd is "
     "scheduled for repaint."),
    ("Drop the memory that finished boards go to the Newquay shop every Friday in our own van and "
     "never by courier because couriers kept dinging the rails.",
     "Finished boards go to the Newquay shop every Friday in our own van, never by courier, "
     "because couriers kept dinging the rails."),
])
def test_rewordings_and_entries_are_left_alone(request_text: str, stored: str) -> None:
    assert not {"word", "roles", "negation", "direction"} & kinds(request_text, stored)
