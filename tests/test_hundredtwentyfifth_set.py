"""Rules from the hundred-and-twenty-fifth to hundred-and-thirtieth forget sets' first runs (6,
4, 2, 6, 5 and 4 wrong forgets of 100 near misses). Each near miss below forgot the stored fact
before this change; each guard is a rewording that must keep agreeing, or a pair a rule must
leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import chosen, counted, crossed_pairs, framed, purposes
from memory_mcp.services.facets import facets
from memory_mcp.services.wrappers import strip_preamble


@pytest.mark.parametrize(("request_text", "stored", "rates"), [
    ("stain guard is charged at £2.50 per square foot when the customer pays for it.",
     "Stain guard is applied only if the customer pays for it, at £2.50 per square metre.",
     ("2.5 per foot", "2.5 per metre")),
    ("dried willow is soaked for 1 day per metre of rod length.",
     "Dried willow is soaked in the big trough for 1 day per foot of rod length before weaving.",
     ("1 per metre", "1 per foot")),
])
def test_a_rate_per_another_measure_is_another_unit(request_text: str, stored: str,
                                                     rates: tuple[str, str]) -> None:
    assert counted.other_rate(facets(request_text), facets(stored)) == rates
    assert "unit" in kinds(request_text, stored)


def test_a_rate_said_with_a_or_per_agrees() -> None:
    assert not kinds("willow is soaked for 1 day per foot of rod.",
                      "Willow is soaked 1 day a foot of rod.")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("if a time-lock safe fails to open within 10 minutes, the crew stays on site and reports "
     "to Priya Nandra.",
     "If a time-lock safe fails to open within 10 minutes, the crew leaves the site and reports "
     "to the duty supervisor, Priya Nandra."),
    ("new trader applications need a unanimous vote at the March AGM.",
     "New trader applications are voted on at the AGM in March; a two-thirds majority is needed "
     "to admit them."),
    ("portable earths are removed from both sides of the work point before anyone touches the "
     "conductor.",
     "Portable earths are applied on both sides of the work point before anyone touches the "
     "conductor."),
    ("agents switch their Reveal D5 body-worn cameras off before knocking.",
     "Agents switch on their Reveal D5 body-worn camera before knocking and keep it recording "
     "until they leave the property."),
    ("Becky Lund gets back to the kennels at 09:30 after the Tuesday town-centre route.",
     "Trainer Becky Lund takes the advanced dogs on the Tuesday town-centre route, leaving the "
     "kennels at 09:30."),
    ("the VFS courier drops sealed passport bags off at the Level 2 back entrance every Tuesday.",
     "The VFS courier collects sealed passport bags from the back entrance on Level 2 every "
     "Tuesday."),
])
def test_opposite_acts_and_states(request_text: str, stored: str) -> None:
    assert "opposite" in kinds(request_text, stored)


def test_a_trip_from_one_place_for_another_reversed() -> None:
    stored = ("Unpaid work groups meet at the Harbour Road depot at 08:00 on Saturdays; the "
              "minibus leaves the office for the depot at 07:30.")
    assert "direction" in kinds("the minibus leaves the Harbour Road depot for the office at "
                                 "07:30 on Saturdays.", stored)
    # a member who leaves is no trip from the next noun
    assert not kinds("When a staff member leaves, their server room badge access is removed "
                      "within 24h",
                      "Badge access to the server room is revoked within 24 hours of a staff "
                      "member leaving.")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the Harlow control room has to radio crew leader Dwayne Okafor before he opens the rear "
     "door of a van.",
     "Crew leader Dwayne Okafor must radio the Harlow control room before opening the rear door "
     "of any van."),
    ("the dispatch office radios each field ranger every 2 hours on channel 4.",
     "Field rangers radio in to the dispatch office every 2 hours on channel 4."),
])
def test_the_same_two_ends_of_one_verb_the_other_way_round(request_text: str,
                                                           stored: str) -> None:
    assert crossed_pairs.swapped_ends(facets(request_text), facets(stored)) is not None


def test_the_same_ends_the_same_way_agree() -> None:
    assert crossed_pairs.swapped_ends(
        facets("crew leader Dwayne Okafor has to radio the Harlow control room first."),
        facets("Crew leader Dwayne Okafor must radio the Harlow control room first.")) is None


def test_what_is_chosen_and_what_is_passed_over_swapped() -> None:
    request_text = ("render jobs over 200 frames are submitted during the day rather than "
                    "queued overnight.")
    stored = ("Render jobs over 200 frames are queued overnight through Deadline 10 rather than "
              "submitted during the day.")
    assert chosen.swapped_choice(facets(request_text), facets(stored)) is not None
    assert chosen.swapped_choice(
        facets("render jobs over 200 frames go in the overnight queue rather than being "
               "submitted during the day."), facets(stored)) is None


def test_shares_to_two_parties_swapped() -> None:
    stored = "Proc fees are split 60% to the adviser and 40% to the firm."
    assert framed.swapped_shares(
        facets("proc fees are split 60% to the firm and 40% to the adviser."), facets(stored))
    assert not kinds("proc fees: 60% to the adviser, 40% to the firm.", stored)


def test_another_roman_edition_and_a_senior_role() -> None:
    assert framed.other_edition(
        facets("colour matching uses the PPG PaintManager X database."),
        facets("Colour matching uses the PPG PaintManager XI database.")) == (
            "paintmanager x", "paintmanager xi")
    assert "role" in kinds(
        "switching at Fenwick 132 kV may be carried out by an Authorised Person.",
        "Switching at Fenwick 132 kV substation may only be carried out by a Senior Authorised "
        "Person.")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("stains found at intake get a red ticket so they can be pre-treated before washing.",
     "Stains spotted at intake get a red ticket so the customer is told before washing."),
    ("Shed 1 worm bins are harvested every 10 weeks because Shed 1 has more worms.",
     "Worm bins in Shed 2 are harvested every 12 weeks, bins in Shed 1 every 10 weeks because "
     "Shed 1 runs warmer."),
    ("crickets are frozen at -18°C for 48 hours to kill bacteria before roasting.",
     "Crickets are harvested at 6 weeks and frozen at -18°C for 48 hours to euthanise them "
     "humanely before roasting and milling."),
])
def test_another_reason(request_text: str, stored: str) -> None:
    assert purposes.other_purpose(facets(request_text), facets(stored)) is not None


def test_a_reason_reworded_before_the_same_time_agrees() -> None:
    assert not kinds("every Thursday we reorder batteries from VoltParts so they land before "
                      "the weekend rush.",
                      "Batteries are reordered from VoltParts every Thursday so stock arrives "
                      "before the weekend rush.")


@pytest.mark.parametrize(("request_text", "bare"), [
    ("Scrap what we saved about capping reading speed at 13 cps.",
     "capping reading speed at 13 cps."),
    ("Erase what we have on the Hollow Ridge radar's scan speeds.",
     "the Hollow Ridge radar's scan speeds."),
    ("Clear out the note that case files are kept in CaseBridge 5.",
     "case files are kept in CaseBridge 5."),
    ("Can you remove that Odyssey e-filing is down on Sundays?", "Odyssey e-filing is down on "
                                                                 "Sundays"),
    ("That memory is obsolete: meat bison go to slaughter at 30 months.",
     "meat bison go to slaughter at 30 months."),
    ("Please delete the stocking rates: two hives an acre.", "stocking rates two hives an acre."),
    # a clock time's colon is no topic's end
    ("Please forget the Tuesday 10:00 booking of Studio B.",
     "the Tuesday 10:00 booking of Studio B."),
    ("Forget the line 2 dust extraction note \u2014 filters swapped every 6 weeks.",
     "line 2 dust extraction filters swapped every 6 weeks."),
    ("Delete the loan rule: puzzles go out for 4 weeks.", "loan puzzles go out for 4 weeks."),
    ("Remove the rule: never put pearls in the ultrasonic cleaner.",
     "never put pearls in the ultrasonic cleaner."),
])
def test_what_a_request_calls_the_note_is_no_part_of_it(request_text: str, bare: str) -> None:
    assert strip_preamble(request_text) == bare


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Farid Khan, Head of Market Ops, has to sign off trade cancellations.",
     "Trade cancellations need sign-off from Farid Khan, Head of Market Operations."),
    ("Fenwick's battery bank floats at 110 volts DC.", "The Fenwick battery bank floats at 110 V "
                                                       "DC."),
    ("only a Senior Authorised Person may switch at Fenwick 132kV.",
     "Only a Senior Authorised Person may switch at Fenwick 132 kV."),
])
def test_short_forms_read_as_their_words(request_text: str, stored: str) -> None:
    assert not kinds(request_text, stored)


def test_volts_written_short_are_still_numbers() -> None:
    assert "number" in kinds("the 12 volt standby battery is swapped at each service.",
                              "Engineers swap the 24V standby battery at each service.")


def test_a_bound_beside_the_same_range_agrees() -> None:
    assert "bound" not in kinds(
        "grading line two does the 35 to 55 millimetre seed, with oversize going to the ware bin.",
        "Grading line 2 runs 35-55 mm seed; anything over 55 mm goes to the ware bin.")
    assert "bound" in kinds("meat bison go to processing at a minimum of 30 months old.",
                             "Meat bison go to processing at 24 to 30 months old.")
