"""Rules from the twentieth forget set's first run (on 62642f8: 9 wrong forgets of 100 near
misses, 40 of 65 rewordings forgotten): a condition the request adds after "only" even when
some of its words stand elsewhere ("extracted **only while** the buffers are running" /
"extracted continuously"), a bound the request adds to the subject ("mainsails **over 40
feet**"), a route's two ends exchanged around "for" ("leaves the launch for the landing field"),
a sample against every one ("**a sample of** casings" / "**every** casing"). Each near miss
below forgot the stored fact before this change; the rewordings are the guards the fixes keep
(each was refused by a first form of them)."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("the shuttle van leaves the Kapellenberg launch for the landing field at 09:00",
     "The shuttle van leaves the landing field for the Kapellenberg launch at 09:00.", "roles"),
    ("a sample of casings from each batch is inspected on machine SG-04 before buffing",
     "Every casing is inspected on machine SG-04 before buffing.", "quantity"),
])
def test_near_misses_found_by_the_twentieth_set_conflict(request_text: str, stored: str,
                                                         kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("buffing dust is extracted only while the buffers are running, to reduce the fire risk",
     "Buffing dust is extracted continuously to reduce the fire risk."),
    ("cruising mainsails over 40 feet get three reef points unless the customer asks for two",
     "Cruising mainsails get three reef points unless the customer asks for two."),
])
def test_a_narrower_request_of_the_twentieth_set_is_another_fact(request_text: str,
                                                                  stored: str) -> None:
    """Read from the request's side: forgetting the narrower rule must not remove the
    broader one."""
    assert "condition" in {c.kind for c in agreement.conflicts(request_text, stored)}


@pytest.mark.parametrize(("request_text", "stored"), [
    ("P1 tickets need a first reply in under half an hour",
     "P1 tickets must get a first reply within 30 minutes."),
    ("wood stoves over 10 years old must get a camera inspection",
     "Wood stoves older than 10 years must get a camera inspection."),
    ("bypassing the interlock is allowed only for the shift lead, and only when a second person "
     "is there too", "Only the shift lead may bypass the interlock, with a second person present."),
    ("In Leeds, backups run nightly", "Backups run nightly in Leeds"),
])
def test_rewordings_the_twentieth_set_rules_keep(request_text: str, stored: str) -> None:
    kinds = {c.kind for c in agreement.conflicts(request_text, stored)}
    assert "condition" not in kinds and "roles" not in kinds, kinds


def test_another_named_doer_of_the_same_active_verb_is_another_fact() -> None:
    assert_conflict_both_ways(
        "our in-house maintenance team sharpens the guillotine blade every six weeks",
        "Keller Blades sharpens the guillotine blade every six weeks.", "role")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("poker dealers on the night shift rotate tables every 30 minutes",
     "Poker dealers rotate tables every 30 minutes."),
    ("stability samples of alcohol-based fragrances are held at 40 °C for 12 weeks",
     "Stability samples are held at 40 °C for 12 weeks."),
])
def test_things_placed_on_a_shift_or_of_a_kind_are_narrower(request_text: str,
                                                            stored: str) -> None:
    assert "condition" in {c.kind for c in agreement.conflicts(request_text, stored)}


def test_an_amount_of_something_is_no_narrower_thing() -> None:
    """"fifteen days **of** holiday": the "of" after an amount names what is counted."""
    found = agreement.conflicts("Interns receive fifteen days of holiday each year",
                                "Interns get 15 days of holiday a year.")
    assert "condition" not in {c.kind for c in found}


def test_a_name_ending_in_s_is_not_the_verb() -> None:
    """"Keller **Blades** sharpens": the predicate is "sharpens", so the subject is the whole
    name."""
    from memory_mcp.services.facets import facets
    from memory_mcp.services.grammar import predicates

    text = facets("Keller Blades sharpens the guillotine blade every six weeks.")
    assert predicates(text) == {text.tokens.index("sharpens")}
