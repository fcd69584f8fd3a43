"""Rules from the hundred-and-forty-third to hundred-and-forty-eighth forget sets' first runs
(1, 3, 5, 4, 7 and 4 wrong forgets of 100 near misses), and the general readings the refused
rewordings of all earlier sets asked for most ("ahead of" / "before", "go over" / "exceed",
"65 degrees" / "65°C", "fortnightly Friday" / "every second Friday", "following" / "next").
Each near miss below forgot the stored fact before this change; each rewording was refused
before it; each guard is a pair a reading must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import crossed_pairs, schedules, steps
from memory_mcp.services.facets import facets


@pytest.mark.parametrize(("request_text", "stored"), [
    # "ahead of" is "before"; a verb and "over" before an amount is "exceeds"
    ("washed fruit gets Citrashine 400 wax at a litre per tonne ahead of the sizer.",
     "After washing, fruit is waxed with Citrashine 400 at 1 litre per tonne before it reaches "
     "the sizer."),
    ("the Col chairlift stops when gusts go over 65 km/h on the top station anemometer.",
     "The Col chairlift is stopped when wind gusts exceed 65 km/h at the top station "
     "anemometer."),
    ("we halt the ferry if the wind goes past thirty-five knots.",
     "The ferry stops running when wind speed goes above 35 knots."),
    ("once the diffuser wind speed passes 290 km/h, the fans get shut down.",
     "The fans are shut down if wind speed at the diffuser goes above 290 km/h."),
    # a bare "degrees" is the scale the other text names
    ("Studio 2 gets heated to 38 degrees for hot yoga on Tuesday and Thursday evenings.",
     "Studio 2 is heated to 38°C for hot yoga on Tuesday and Thursday evenings."),
    ("twelve hours at sixty-five degrees in the steam tunnel to pasteurise it.",
     "Substrate is pasteurised at 65°C for 12 hours in the steam tunnel."),
    # "fortnightly" before a weekday is "every other" one
    ("the fortnightly Friday clean of dye vats one through four.",
     "Dye vats 1 to 4 are cleaned every second Friday."),
    # words of every trade
    ("instrument support copies the spectrograph data onto ARC-2 by 9 am the following "
     "morning.",
     "The instrument support team copies spectrograph data to archive server ARC-2 by 09:00 "
     "the next morning."),
    ("the standby diesel generator at Skerry Point does a half-hour load test each Friday at "
     "10 a.m.",
     "The backup diesel generator at Skerry Point runs a 30-minute load test every Friday at "
     "10:00."),
    ("the cricket powder lot code format CP-YYMM-NN (like CP-2611-03).",
     "Cricket powder lot codes use the format CP-YYMM-NN, e.g. CP-2611-03."),
])
def test_rewordings_agree(request_text: str, stored: str) -> None:
    assert not kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # "ahead of schedule" stays the opposite of "behind schedule"
    ("if a Red Line bus is more than 4 minutes ahead of schedule, the controller holds the "
     "following bus at Central Station.",
     "If a Red Line bus is more than 4 minutes behind schedule, the controller holds the "
     "following bus at Central Station.", "opposite"),
    ("the terrace shuts when gusts go over 40 mph.",
     "The terrace shuts when gusts go under 40 mph.", "opposite"),
    ("Studio 2 gets heated to 38 degrees.", "Studio 2 is heated to 36°C.", "number"),
    # clock times joined by a hyphen are two times
    ("kids' judo runs Tuesdays and Thursdays 18:00-19:00 in Dojo 1.",
     "Kids' judo (ages 6-11) runs Tuesdays and Thursdays 17:00-18:00 in Dojo 1.", "number"),
    # "between midnight and" is 00:00
    ("West Midlands Transit buses refuel between midnight and 04:00.",
     "West Midlands Transit buses refuel between 22:00 and 04:00; cars are served 06:00 to "
     "22:00.", "number"),
    # "within" bounds at most
    ("Carol Whitfield takes at least 5 working days to decide deferral requests.",
     "Jury officer Carol Whitfield decides deferral requests within 5 working days.", "bound"),
    # a rate's "per" two words after its number
    ("Friday and Saturday dinner bookings at the dumpling restaurant need a £20 card hold per "
     "table.",
     "Friday and Saturday dinner bookings at the dumpling restaurant need a £20 per person "
     "card hold.", "unit"),
    # "in use" / "out of use", "alone" / "in pairs"
    ("Pump 4 is back in use now the nozzle has been replaced.",
     "Pump 4 is out of use pending a nozzle replacement - part no. ZVA-200-GR, ordered 2 Dec.",
     "opposite"),
    ("staff with the Level 2 handler certificate must always enter the breeding enclosure "
     "alone.",
     "Only staff with the Level 2 handler certificate may enter the breeding enclosure, and "
     "always in pairs.", "opposite"),
    # a plural subject before "go": its noun, not its verb
    ("signed proof copies go in Brodart covers and are shelved in the glass case by the front "
     "window.",
     "Signed first editions go in Brodart covers and are shelved in the glass case by the "
     "front window.", "thing"),
    # a part code's letter after a hyphen
    ("longcase mainsprings are Bergeon part 2580-C, 2 mm wide.",
     "Longcase mainsprings are ordered from Bergeon, part code 2580-B, 2 mm wide.",
     "identifier"),
])
def test_near_misses_conflict(request_text: str, stored: str, kind: str) -> None:
    assert kind in kinds(request_text, stored)


def test_every_nth_weekday() -> None:
    stored = facets("Dye vats are cleaned every third Friday.")
    found = schedules.schedule(facets("the clean of dye vats every other Friday."), stored)
    assert found == ("every other", "every third")
    assert schedules.schedule(facets("the clean of dye vats every third Friday."), stored) is None
    assert schedules.schedule(facets("dye vats get cleaned on alternate Fridays."),
                              facets("Dye vats are cleaned every second Friday.")) is None


def test_readings_leave_other_texts_alone() -> None:
    # a range of ages and a duration are no part codes; the same code is the same
    assert "identifier" not in kinds("kids 6-11 do a 4-hour class.",
                                      "kids 6-12 do a 4-day class.")
    assert "identifier" not in kinds("order part 2580-B, 2 mm wide.",
                                      "Part 2580-B is ordered, 2 mm wide.")
    # a date is not two clock times
    assert facets("the audit on 2026-12-05").tokens[-1] == "2026-12-05"
    # "operations" is not "running": another team
    assert kinds("Thunder Gulch opens at 10:00 once the Operations team has done 3 sandbag "
                  "test runs.",
                  "Thunder Gulch opens at 10:00, only after the Rides Maintenance team has "
                  "completed 3 sandbag test runs.")


def test_a_span_of_amounts_with_a_unit_between() -> None:
    stored = facets("If storage falls below 62% of capacity, compensation flow to the River Lyd "
                    "is cut from 12 Ml/d to 8 Ml/d.")
    raised = facets("compensation flow to the River Lyd is raised from 8 to 12 Ml/d when storage "
                    "falls below 62%.")
    assert schedules.reversed_span(raised, stored) is not None
    assert schedules.reversed_span(facets("flow is cut from 12 to 8 Ml/d."), stored) is None


def test_what_is_taken_from_which_end() -> None:
    stored = facets("The Discogs inventory syncs from the shop POS every 2 hours.")
    assert crossed_pairs.swapped_from(
        facets("the shop POS pulls its inventory from Discogs every 2 hours."), stored) == (
        "from discogs", "from the shop pos")
    assert crossed_pairs.swapped_from(
        facets("the Discogs stock is synced from the POS in the shop every 2 hours."),
        stored) is None


def test_two_steps_in_the_other_order() -> None:
    stored = facets("Gelato base is pasteurised at 85°C in the Carpigiani Pastomaster, then "
                    "aged 12 hours at 4°C.")
    assert steps.swapped_steps(facets("gelato base is aged 12 hours at 4°C before it is "
                                      "pasteurised in the Pastomaster."), stored) is not None
    # the same order, said with "after" or "before"
    assert steps.swapped_steps(facets("gelato base is aged 12 hours at 4°C after it is "
                                      "pasteurised at 85°C."), stored) is None
    assert steps.swapped_steps(facets("gelato base gets pasteurised at 85°C before ageing 12 "
                                      "hours at 4°C."), stored) is None
