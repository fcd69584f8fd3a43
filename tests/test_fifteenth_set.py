"""Rules from the fifteenth forget set's first run (on 53a35be: 9 wrong forgets of 100 near
misses): a number written into a word ("a **35-tonne** limit"), "both" of what the other narrows,
a sender named inside the other's "to" phrase, another purpose after "for", a season only one
text keeps, one numbered thing against all of them ("the **18th** green" / "greens"), a
schedule set by events against one by the calendar; and spoken durations read whole ("an hour
and a half"). Each near miss below forgot the stored fact before this change."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement
from memory_mcp.services.facets import facets


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("the travel hoist has a 35-tonne limit and only Rafael operates it",
     "The travel hoist is limited to 25 tonnes and is operated only by Rafael.", "number"),
    ("The ice resurfacer runs on both rinks after every public skating session.",
     "The ice resurfacer runs on the main rink after every public skating session.", "scope"),
    ("the council's environment team sends course manager Hamish the weekly sprayer log",
     "Course manager Hamish sends the weekly sprayer log to the council's environment team.",
     "direction"),
    ("once the wind is above 50 km/h, the hill party sends base a weather update every half "
     "hour", "Base sends weather updates to the hill party every 30 minutes once the wind "
     "exceeds 50 km/h.", "direction"),
    ("Frost Refrigeration Ltd tests the plant room ammonia leak alarm every quarter for the "
     "council licence renewal", "The ammonia leak alarm in the plant room is tested quarterly "
     "by Frost Refrigeration Ltd for the insurance certificate.", "condition"),
    ("the fuel dock shuts at 6 pm all year round", "Fuel dock closes at 18:00 from October to "
     "March.", "month"),
    ("The 18th green is mowed at 3.2 mm during the club championship.",
     "Greens are mowed at 3.2 mm during the club championship.", "scope"),
    ("Propane cylinders are refilled at the Malton depot once a week.",
     "Propane cylinders are refilled at the Malton depot after each flight day.", "schedule"),
])
def test_near_misses_found_by_the_fifteenth_set_conflict(request_text: str, stored: str,
                                                         kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("switching lines for allergens takes an hour and a half",
     "Switching lines for allergens takes 90 minutes."),
    ("switching lines for allergens takes one and a half hours",
     "Switching lines for allergens takes 90 minutes."),
    ("G-BXRT's annual inspection is due on 14 April",
     "The annual inspection of balloon G-BXRT is due on 14 April."),
    ("Forget the rule that the east spoil heap gets tarped before anybody goes into Trench 2",
     "The east spoil heap gets tarped before anybody goes into Trench 2."),
    ("The 5th grade trip is in May", "The trip for grade 5 is in May"),
    ("the resurfacer runs on the main rink after every public session",
     "The ice resurfacer runs on the main rink after every public skating session."),
])
def test_rewordings_found_by_the_fifteenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_spoken_durations_are_read_whole() -> None:
    for text in ("an hour and a half", "one and a half hours", "90 minutes"):
        assert facets(f"it takes {text}").durations == (0.0625,), text
    assert facets("it takes 2 and a half days").durations == (2.5,)


# A review's pairs (written apart from the rules) against this session's rules
@pytest.mark.parametrize(("request_text", "stored"), [
    ("From December to February the gritting crew starts at 4 am.",
     "In winter (Dec-Feb) the gritting crew starts at 4 am."),
    ("From June through August the ferry runs an hourly timetable.",
     "The ferry runs an hourly timetable in summer (June-August)."),
    ("The two kitchens each close at 10 pm.", "Both kitchens close at 10 pm."),
    ("The deposit is a tenth of the order value.", "The deposit is 10% of the order value."),
    ("Scrap the note saying the shuttle bus leaves the main gate every 20 minutes.",
     "The shuttle bus leaves the main gate every 20 minutes."),
])
def test_rewordings_found_by_the_review_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_a_doer_named_with_a_word_of_time_is_still_a_doer() -> None:
    found = agreement.conflicts("The security guard locks the loading dock at 10 pm.",
                                "The loading dock is locked at 10 pm by the night supervisor.")
    assert "role" in {c.kind for c in found}
    # a deadline is no doer
    assert agreement.conflicts("Invoices must be paid by Friday morning",
                               "Invoices are paid by Friday morning") == []


def test_months_written_together_are_months() -> None:
    assert facets("in winter (Dec-Feb)").months == {"dec", "feb"}
    assert facets("mid-Nov to late Feb").months == {"nov", "feb"}
