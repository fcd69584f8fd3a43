"""Rules from the hundred-and-thirty-first to hundred-and-thirty-sixth forget sets' first runs
(4, 3, 6, 6, 5 and 5 wrong forgets of 100 near misses). Each near miss below forgot the stored
fact before this change; each guard is a rewording that must keep agreeing, or a pair a rule
must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import chosen, crossed_pairs, schedules
from memory_mcp.services.facets import facets
from memory_mcp.services.short_forms import degrees


@pytest.mark.parametrize(("request_text", "stored"), [
    ("irrigation is increased by 50% during shell hardening in June.",
     "Irrigation is cut back to 50% during shell hardening in June."),
    ("the paper bunch covers come off in July.",
     "Paper bunch covers go on in July to keep birds and rain off the ripening fruit."),
    ("paper copies of au pair passports must be kept on file once scanned.",
     "Paper copies of passports must be shredded once scanned."),
])
def test_opposite_acts(request_text: str, stored: str) -> None:
    assert "opposite" in kinds(request_text, stored)


def test_the_same_acts_reworded_agree() -> None:
    assert not kinds("irrigation gets cut back to 50% while the shells harden in June.",
                      "Irrigation is cut back to 50% during shell hardening in June.")
    assert not kinds("paper copies of passports are destroyed once scanned.",
                      "Paper copies of passports must be shredded once scanned.")


def test_a_span_of_amounts_the_other_way_round() -> None:
    stored = "Kettlebells live on the north wall rack, sorted by weight from 8 kg to 32 kg."
    assert schedules.reversed_span(facets("the north wall kettlebells run from 32 kg down to "
                                          "8 kg."), facets(stored)) is not None
    assert schedules.reversed_span(facets("the kettlebells are sorted from 8 kg up to 32 kg."),
                                   facets(stored)) is None


def test_what_is_never_done_where_swapped() -> None:
    stored = "Screens are reclaimed in the washout booth in Room P12, never in the sinks in P10."
    assert chosen.swapped_choice(
        facets("screens are reclaimed in the P10 sinks and never in the P12 washout booth."),
        facets(stored)) is not None
    assert chosen.swapped_choice(
        facets("screens get reclaimed in the P12 washout booth, never in the P10 sinks."),
        facets(stored)) is None
    # "never" before a verb negates it: no choice between two places
    assert not kinds("The on-call engineer never posts status page updates; the shift lead "
                      "does.",
                      "Status page updates are posted by the shift lead, never by the on-call "
                      "engineer.")
    assert not kinds("hot tools over 120 °C are never to be used on synthetic wigs.",
                      "Synthetic wigs must never be styled with hot tools above 120 °C.")


def test_a_doer_and_whom_it_reports_to_swapped() -> None:
    stored = "Instructors report bike faults to head coach Ryan Walsh in the Slack channel."
    assert crossed_pairs.swapped_to(
        facets("Ryan Walsh reports bike faults to the instructors in the Slack channel."),
        facets(stored)) is not None
    assert crossed_pairs.swapped_to(
        facets("instructors report bike faults to Ryan Walsh on Slack."), facets(stored)) is None


def test_exactly_is_not_up_to() -> None:
    stored = "Their interviewers make up to 5 call attempts per number."
    assert "bound" in kinds("interviewers make exactly 5 call attempts per number.", stored)
    assert not kinds("interviewers make at most 5 call attempts per number.", stored)


def test_a_lettered_workshop_is_another_place() -> None:
    assert "identifier" in kinds(
        "the Biesse CNC in Workshop A is serviced every 500 spindle hours.",
        "The Biesse CNC in Workshop B is serviced every 500 spindle hours.")


def test_another_purpose_with_cover() -> None:
    assert "condition" in kinds(
        "Jenny Walsh over-recruits by 2 per group so the client can choose the best-fitting "
        "respondents.",
        "Recruiter Jenny Walsh over-recruits by 2 respondents per group to cover no-shows.")


def test_a_long_run_of_digits_is_read_in_one_pass() -> None:
    """A 100,000-digit text made ``_PERCENT`` try every digit as a number's start (~300 s of
    backtracking in one forget); read from a run's first digit only, it is one pass. With the
    old pattern this test outlives pytest's timeout."""
    digits = "7" * 100_000
    assert degrees(digits + " percent") == digits + "%"
    assert degrees("x" + digits + "x") == "x" + digits + "x"
    assert degrees("a 12.5 per cent rise, 30 percent off") == "a 12.5% rise, 30% off"
    assert "bound" not in kinds(digits, "The payments team deploys on Fridays at 16:00.")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("flooding the dock takes about 4 hours.", "Pumping out the dock takes about 4 hours."),
    ("home semen samples must be kept chilled on the way to the andrology lab.",
     "Semen samples produced at home must reach the andrology lab within 60 minutes and be kept "
     "at body temperature."),
])
def test_more_opposite_acts_and_states(request_text: str, stored: str) -> None:
    assert "opposite" in kinds(request_text, stored)


def test_who_gets_a_signature_from_whom_swapped() -> None:
    stored = ("Driver Gary Mills must get a signature from the client's site contact before "
              "loading any console.")
    assert "direction" in kinds("the client's site contact must get a signature from driver "
                                 "Gary Mills before any console is loaded.", stored)
    assert not kinds("driver Gary Mills has to get a signature from the client's site contact "
                      "before loading any console.", stored)


def test_a_range_of_percentages_is_read_as_numbers() -> None:
    stored = "Bales are only accepted if the Aquaboy meter reads 16-18% moisture."
    assert "number" in kinds("bales are only accepted at 14-16% moisture on the Aquaboy.",
                              stored)
    assert "number" not in kinds("bales are only accepted if the Aquaboy meter reads 16 to 18 "
                                  "percent moisture.", stored)
