"""Rules from the nineteenth forget set's first run (on 1cfea93: 6 wrong forgets of 100 near
misses, 39 of 65 rewordings forgotten): westbound / eastbound, "most of the sandwiches" against
"all sandwiches", "when **every** coil drops" against "when **any** coil drops", a placing by
"around" ("dry needling **around the neck**"). And rewordings it refused for a reason now read:
"Can you drop the fact that …?", "Forget this:", "No longer the rule:", "a quarter past seven
in the evening", "two thousand dollars", "1,500 kW" / "1.5 MW", "6.5 cm" / "65 mm",
"Taiwan-bound" / "bound for Taiwan". Each near miss below forgot the stored fact before this
change."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement, turned
from memory_mcp.services.facets import facets


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("lane closures on I-84 westbound for inspections are allowed only between 9 pm and 5 am",
     "Lane closures on I-84 eastbound for inspections are allowed only between 9 pm and 5 am.",
     "opposite"),
    ("if they go above 41 °F for more than 2 hours, most of the sandwiches are discarded",
     "If they go above 41 °F for more than 2 hours, all sandwiches are discarded.", "quantity"),
    ("the telemetry flags a machine for a visit when every coil drops below 20% stock",
     "The telemetry flags a machine for a visit when any coil drops below 20% stock.",
     "quantity"),
    # a guard: "some of the" is still a part of the whole
    ("Readings from some of the rain gauges go to the national centre hourly.",
     "Rain gauge readings are sent to the national centre every hour.", "quantity"),
])
def test_near_misses_found_by_the_nineteenth_set_conflict(request_text: str, stored: str,
                                                          kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


def test_a_request_placed_around_a_part_is_narrower() -> None:
    found = agreement.conflicts(
        "dry needling around the neck may only be performed by physios with level 2",
        "Dry needling may only be performed by physios with level 2.")
    assert "condition" in {c.kind for c in found}


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Can you drop the fact that quiet hours at Pine Hollow run from 11 pm to 7 am?",
     "Quiet hours at Pine Hollow run from 11 pm to 7 am."),
    ("Forget this: the shockwave machine in Room 4 is calibrated by the vendor once a year.",
     "The shockwave machine in Room 4 is calibrated by the vendor once a year."),
    ("No longer the rule: kids under twelve are collected from the front desk.",
     "Kids under twelve are collected from the front desk."),
    ("Studio A hosts Thursday intermediate jazz, starting at a quarter past seven in the "
     "evening.", "Intermediate jazz on Thursdays starts at 7:15 pm in Studio A."),
    ("jewelry worth more than two thousand dollars goes in the back safe overnight",
     "Jewelry over $2,000 goes in the back safe overnight."),
    ("during summer peak hours, Tunnel 2's fan drive is limited to 1,500 kW.",
     "Tunnel 2's fan drive is limited to 1.5 MW during summer peak hours."),
    ("the optical sorter rejects apples under 6.5 cm across",
     "The optical sorter rejects apples under 65 mm across."),
    ("each Taiwan-bound export pallet needs Marisol Vega's sign-off before it gets wrapped.",
     "Marisol Vega signs off on every export pallet bound for Taiwan before it is wrapped."),
])
def test_rewordings_found_by_the_nineteenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_a_question_not_asking_to_forget_keeps_its_question_mark() -> None:
    assert agreement.strip_preamble("Can you tell me when the van leaves?") \
        == "Can you tell me when the van leaves?"


def test_one_channel_inside_another_still_differs() -> None:
    """The parts of a hyphenated name count only as words of their own: "#ops-alerts" is not
    "#ops-alerts-eu"."""
    kinds = {c.kind for c in agreement.conflicts("#ops-alerts gets pages", "#ops-alerts-eu gets pages")}
    assert "name" in kinds


def test_spoken_amounts() -> None:
    assert facets("a quarter past seven in the evening").numbers == facets("at 7:15 pm").numbers
    assert facets("two thousand dollars").numbers == {2000.0}
    assert facets("1.5 MW").numbers == facets("1,500 kW").numbers == {1500.0}


def test_an_exchange_is_read_over_a_bounded_span() -> None:
    """The exchange rule tries every split of the words between the first and the last that
    differ (a cube of the span): two numbers exchanged are read within ``_SPAN_MAX`` words and
    left to the other rules past it, so a long reordered text costs no more than they do."""
    def pair(filler: int) -> tuple[str, str]:
        middle = " ".join(f"w{i}" for i in range(filler))
        return f"run 8 {middle} then 16", f"run 16 {middle} then 8"

    near, far = pair(10), pair(turned._SPAN_MAX)
    assert turned.exchanged(facets(near[0]), facets(near[1])) is not None
    assert turned.exchanged(facets(far[0]), facets(far[1])) is None
