"""Rules from the two-hundred-and-sixty-third to two-hundred-and-sixty-eighth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # a cap on a share the stored text states bare
    ("Delete the note that rush jobs under 48 hours carry a surcharge of up to 50%.",
     "Rush jobs with under 48 hours' turnaround carry a 50% surcharge.", "condition"),
    # two kinds "alike" before their noun
    ("Forget that literal and singable translations alike must match the original syllable "
     "count per line within one syllable.",
     "Singable translations must match the original's syllable count per line within ±1 "
     "syllable.", "scope"),
    # a thing and where it goes, swapped
    ("Forget that Elena Marchetti translates English lyrics into Italian at £0.18 per word.",
     "Elena Marchetti translates Italian to English lyrics at £0.18 per word, £60 minimum.",
     "direction"),
    # a job the stored text never names
    ("Drop the fact that the organist chooses the treble for the 'Once in Royal David's City' "
     "solo at the final rehearsal.",
     "The solo first verse of 'Once in Royal David's City' is sung by a treble chosen by choir "
     "director Mark Pendle at the final rehearsal.", "role"),
    ("Forget that Bethan Lloyd is the troupe's treasurer.",
     "Bethan Lloyd leads the troupe; Callum Reid is deputy.", "role"),
    # first against final
    ("Drop the fact that Mark Pendle chooses the treble for the 'Once in Royal David's City' "
     "solo at the first rehearsal.",
     "The solo first verse of 'Once in Royal David's City' is sung by a treble chosen by choir "
     "director Mark Pendle at the final rehearsal.", "opposite"),
    # a price per half hour against one per hour
    ("Delete the note that call-outs are £85 for the first hour, then £55 per additional half "
     "hour.", "Call-out fee is £85 for the first hour, then £55 per additional hour.", "unit"),
    # on and off by default, lock and release
    ("Forget that curfew mode is switched on by default on new microchip flaps unless the "
     "customer asks otherwise.",
     "Curfew mode is left off by default on new microchip flaps unless the customer asks for "
     "it.", "opposite"),
    ("Delete the note that communal door maglocks must lock on the fire alarm signal.",
     "Communal door maglocks must release on the fire alarm signal; the installing engineer "
     "tests this on every install before handover.", "opposite"),
    # a "whenever" trigger the stored text never names
    ("Remove the memory that the hand control battery is charged for 8 hours whenever the "
     "low-battery light comes on.",
     "Charge the hand control battery for 8 hours before first use.", "condition"),
    # escalated to another team, past the thing escalated
    ("Drop the fact that Marcus Delgado escalates Federal Reserve file rejections to the "
     "compliance team within 30 minutes.",
     "Clearing unit lead Marcus Delgado escalates any Federal Reserve file rejection to IT "
     "operations within 30 minutes.", "word"),
    # who borrows against whom it is borrowed from
    ("Delete the note that St Mary's Church borrows our donkey costume and has to give it back "
     "by 20 December.",
     "The donkey costume is borrowed from St Mary's Church and must go back by 20 December.",
     "direction"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("two paramedics count the controlled drugs whenever shifts hand over",
     "Controlled drugs are counted by two paramedics at every shift handover."),
    ("Forget that Elena Marchetti translates Italian lyrics into English at £0.18 per word.",
     "Elena Marchetti translates Italian to English lyrics at £0.18 per word, £60 minimum."),
    ("Delete the memory that we borrow the donkey costume from St Mary's Church and return it "
     "by 20 December.",
     "The donkey costume is borrowed from St Mary's Church and must go back by 20 December."),
    ("Forget that rush jobs with under 48 hours' turnaround carry a fifty percent surcharge.",
     "Rush jobs with under 48 hours' turnaround carry a 50% surcharge."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []
