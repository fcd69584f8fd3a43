"""Rules from the two-hundred-and-ninety-third to two-hundred-and-ninety-eighth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another state of the same thing in the same condition, though it ends in -ed
    ('Forget that the duck demonstration moves to the practice paddock behind the sheep pens '
     'if the ground is frozen.',
     'If the ground is waterlogged, the demonstration moves to the practice paddock behind the '
     'sheep pens.', 'condition'),
    # doubled against halved
    ('Forget that licensed pickers may harvest up to 25 kg of winkles per day and that the '
     'limit is doubled during September.',
     'Licensed pickers may harvest up to 25 kg of winkles per day; the limit is halved during '
     'September.', 'opposite'),
    # the same people, another "who" clause
    ('Delete the rule that members who have paid the annual subscription can borrow a loaner '
     'drum for a £5 monthly fee.',
     'Members who have attended at least three sessions can borrow a loaner drum for a £5 '
     'monthly fee.', 'condition'),
    ('Delete the note that commercial winkle picking licences (form WL-7) cost £120 per year '
     'and are issued only to applicants who own a registered boat.',
     'Commercial winkle picking licences (form WL-7) cost £120 per year and are issued only to '
     'applicants who have completed the shore safety course.', 'condition'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that members who have paid their subscription can borrow a drum.',
     'Members who paid the annual subscription can borrow a loaner drum.'),
    ('Forget that the duck demonstration moves to the practice paddock if the ground is '
     'waterlogged.',
     'If the ground is waterlogged, the demonstration moves to the practice paddock behind the '
     'sheep pens.'),
    ('Forget that the picking limit is doubled in September.',
     'The picking limit doubles during September.'),
    # a first cut read any -ed state as another one
    ('Forget that the icehouse entrance door is locked whenever the site is shut, with the key '
     'at the estate office.',
     'The icehouse entrance door is kept locked whenever the site is closed, and the key is '
     'held at the estate office.'),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
