"""Rules from the twenty-second and twenty-third forget sets' first runs (both on be1969e's
rules: 6 and 12 wrong forgets of 100 near misses, 52 and 39 of 65 rewordings forgotten): a name
moved into another clause (``clauses.moved_name``), "in front of" / "behind", "once a week" /
"after every night shift", "either … or" / "and", "half of the" spat, one numbered crane
against all cranes, and a trailing phrase the request adds ("… **on soft ground**"). Each near
miss below forgot the stored fact before this change; the guards are rewordings the rules
must still let through."""

from __future__ import annotations

from typing import Any

import pytest
from forget_checks import assert_conflict_both_ways, kept_apart_in_a_new_space

from memory_mcp.services import agreement, clauses
from memory_mcp.services.facets import facets
from memory_mcp.services.runtime import Runtime


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("junior tuners handle pitch raises while Sam Whitaker only does routine tunings",
     "Sam Whitaker handles pitch raises; junior tuners only do routine tunings.", "roles"),
    ("only Marek may open the sterile flow hood room, and the spawn lab team has to ask him "
     "first", "Only the spawn lab team may open the sterile flow hood room; everyone else has "
     "to ask Marek first.", "roles"),
    ("Liam Ortiz rigs the anchors on the Kingsway car park and Aisha Bello checks them before "
     "the first drop", "Anchors on the Kingsway car park are rigged by Aisha Bello; Liam Ortiz "
     "checks them before the first drop.", "roles"),
    ("the quarantine tanks in room Q-104 are in front of the penguin exhibit",
     "The quarantine tanks are in room Q-104 behind the penguin exhibit.", "opposite"),
    ("the pilot launch Kestrel is refuelled at the east quay pontoon once a week",
     "The pilot launch Kestrel is refuelled at the east quay pontoon after every night shift.",
     "schedule"),
    ("either a leather apron or a face shield is mandatory at the forge",
     "Leather aprons and face shields are mandatory at the forge.", "quantity"),
    ("half of the hatchery spat arriving in April goes into the 2 mm mesh bags first",
     "Spat from the hatchery arrives in April and goes into the 2 mm mesh bags first.",
     "quantity"),
    ("Crane 14 stops lifting when wind gusts exceed 9.8 m/s at the jib head",
     "Cranes stop lifting when wind gusts exceed 9.8 m/s at the jib head.", "scope"),
])
def test_near_misses_found_by_the_twentysecond_and_twentythird_sets_conflict(
        request_text: str, stored: str, kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


def test_a_phrase_the_request_adds_at_its_end_is_another_fact() -> None:
    """Only the request's side: a stored fact that says more is the forget's business of other
    rules (a rewording may drop a detail)."""
    found = agreement.conflicts(
        "the LTM 1100 needs its full 31 t counterweight for any lift over 20 m radius on soft "
        "ground", "The Liebherr LTM 1100 needs its full 31 t counterweight for any lift over "
        "20 m radius.")
    assert "words" in {c.kind for c in found}


@pytest.mark.parametrize(("request_text", "stored"), [
    # names in a list stay in one clause
    ("Ravi and Noor moderate the project's Discord server",
     "The project Discord is moderated by Ravi and Noor."),
    ("German and Austrian parish record requests all go to Hannah Schreiber",
     "Hannah Schreiber handles all German and Austrian parish record requests."),
    # a title's period ends no sentence
    ("egg retrievals are done by Dr. Priya Nand every Monday and Thursday",
     "Dr. Priya Nand performs egg retrievals on Mondays and Thursdays."),
    ("changes to the duty roster go via Capt. Idris Okafor and have to be logged in PilotPlan "
     "v3", "Duty roster changes go through Captain Idris Okafor and must be logged in PilotPlan "
     "v3."),
    # a plural before a number is a range or a measure, not one thing
    ("before we open each morning, lanes one through twelve are oiled with the 38-foot house "
     "pattern", "Lanes 1-12 are oiled with the 38-foot house pattern before opening each "
     "morning."),
    ("junction line widths: stop lines 300 mm, give-way lines 200 mm",
     "At junctions, stop lines are 300 mm wide and give-way lines are 200 mm wide."),
    # a value said in other words at the end
    ("wet-end chemistry gets checked by the lab at four-hour intervals",
     "The lab checks wet-end chemistry every four hours."),
    # the fact's opening capital is no name it adds (the twenty-seventh set)
    ("Delete the rule that kids younger than twelve need a parent or guardian in the treatment "
     "room during adjustments.", "Patients under 12 must have a parent or guardian in the "
     "treatment room during adjustments."),
])
def test_rewordings_stay_the_same_fact(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == [], agreement.conflicts(
        request_text, stored)


def test_a_moved_name_needs_a_clause_that_matches_better() -> None:
    """One clause a side, or clauses sharing too few words, are no evidence of a move."""
    one = "Sam Whitaker handles pitch raises and routine tunings."
    two = "Junior tuners handle routine tunings; Sam Whitaker handles pitch raises."
    assert clauses.moved_name(one, two, facets(one), facets(two)) is None
    assert clauses.moved_name(two, two, facets(two), facets(two)) is None


@pytest.mark.anyio
async def test_a_moved_name_is_kept_apart_and_never_forgotten(runtime: Runtime,
                                                            world: Any) -> None:
    """Through the real save and forget: the exchanged anchor rigger forgets nothing and is
    saved beside the fact; a rewording still forgets it."""
    await kept_apart_in_a_new_space(
        runtime, world,
        "Anchors on the Kingsway car park are rigged by Aisha Bello; Liam Ortiz checks them "
        "before the first drop.",
        "Liam Ortiz rigs the anchors on the Kingsway car park and Aisha Bello checks them "
        "before the first drop.",
        "Forget the note that Aisha Bello rigs the Kingsway car park anchors and Liam Ortiz "
        "checks them ahead of the first drop.")
