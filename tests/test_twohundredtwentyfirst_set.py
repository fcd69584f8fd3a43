"""Rules from the two-hundred-and-twenty-first to two-hundred-and-twenty-sixth forget sets'
first runs (2, 9, 3, 3, 5 and 7 wrong forgets of 100 near misses; the previous batch's rules
had fixed none of them). Each near miss below forgot the stored fact before its rule; each
guard is a rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another ordinal before the same noun, the request's number a count elsewhere in the fact
    ("Drop the note that tying competition entries are judged against the 3rd edition of the "
     "pattern standards booklet.",
     "Tying competition entries are scored by three judges against the 2nd edition of the club "
     "pattern standards booklet; entries close at 20:30 on competition night.", "identifier"),
    # areas in other units
    ("Remove the note that the sunflower field is 4 hectares of Giant Russian and Velvet Queen.",
     "The sunflower field is 4 acres of Giant Russian and Velvet Queen, sown on 12 May.", "unit"),
    # weekends against every day
    ("Forget that the hay bale maze is open 10:00 to 16:30 on weekends only during October "
     "half-term.",
     "The hay bale maze opens at 10:00 and closes at 16:30 daily during October half-term.",
     "schedule"),
    # moved to another place
    ("Drop the note that the sack race moves to the sports hall if the field is waterlogged.",
     "If the field is waterlogged, the sack race moves to the playground with gym mats at the "
     "finish.", "word"),
    # another place "by" the same thing
    ("Please delete the note that the quail shed manure goes to the compost bay by the farm "
     "gate every Monday.",
     "Manure from the quail sheds is moved to the compost bay behind Shed C every Monday.",
     "word"),
    # a state said with "be on" before a condition, and which way up a thing lies
    ("Remove the note that the extraction fan at stations 1 to 3 is switched off whenever "
     "acrylic liquid is open.",
     "The extraction fan at stations 1 to 3 must be on whenever acrylic liquid is open.",
     "opposite"),
    ("Drop the note that hatching eggs are stored pointed end up in the cool room.",
     "Hatching eggs are stored pointed end down at 13°C in the cool room for no more than 7 "
     "days before setting.", "opposite"),
    # another means after the same verb, wherever the rest of the texts stands
    ("Forget that the treasurer sends the raffle proceeds to the Budgie Rescue Trust by cheque.",
     "The show raffle raises money for the Budgie Rescue Trust in Leeds; the treasurer sends "
     "the proceeds by bank transfer within 14 days.", "word"),
    ("Delete the note that the water temperature is taken with the floating thermometer before "
     "each session.",
     "Before each session the water temperature is taken with the digital probe at 1 m depth "
     "and posted in the members' WhatsApp group.", "word"),
    ("Remove the memory that Luc Bernard checks every batch with the hydrometer before it goes "
     "into barrels.",
     "Luc Bernard checks every batch with the refractometer; syrup must read 66.5 °Brix before "
     "it goes into barrels.", "word"),
    # a number of another clause, the request saying none of its own clause's
    ("Forget that the café till runs TixPoint 5.4.",
     "The entrance ticket scanners run TixPoint 5.4; the café till stays on TixPoint 5.1 until "
     "its card reader is replaced.", "roles"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that entries are judged against the second edition of the booklet.",
     "Entries are scored by three judges against the 2nd edition of the booklet."),
    ("Forget that the lift is on the third floor.", "The lift is on the 3rd floor."),
    ("Forget that the 3rd May delivery comes from Leeds.",
     "The delivery on 3rd May comes from Leeds."),
    ("Forget that the field is 4 ha.", "The field is 4 hectares."),
    ("Forget that the maze is open every day during half-term.",
     "The hay bale maze opens daily during October half-term."),
    ("Forget that the sack race goes to the playground if the field is waterlogged.",
     "If the field is waterlogged, the sack race moves to the playground with gym mats at the "
     "finish."),
    ("Forget that the manure goes to the compost bay behind Shed C on Mondays.",
     "Manure from the quail sheds is moved to the compost bay behind Shed C every Monday."),
    ("Forget that the fan at stations 1 to 3 is kept running whenever acrylic liquid is open.",
     "The extraction fan at stations 1 to 3 must be on whenever acrylic liquid is open."),
    ("Forget that eggs are stored pointed end down in the cool room.",
     "Hatching eggs are stored pointed end down at 13°C in the cool room."),
    ("Forget that leather is pared to 0.6 mm with the Schärf-Fix before covering.",
     "Leather for quarter-bound books is pared to 0.6 mm with the Schärf-Fix before covering."),
    ("Forget that units with a TNC under 9 x 10^8 aren't banked for public use.",
     "Units with a total nucleated cell count below 9 \u00d7 10^8 are not banked for public use."),
    ("Forget that the team approves quota increases above 50 TB through HPC-STOR.",
     "The team approves project quota increases above 50 TB through ticket queue HPC-STOR."),
    ("Forget that second place gets £50 and third gets £25.",
     "The winner keeps the cheese; second and third place get £50 and £25."),
    ("Forget that the café till stays on TixPoint 5.1 until its card reader is replaced.",
     "The entrance ticket scanners run TixPoint 5.4; the café till stays on TixPoint 5.1 until "
     "its card reader is replaced."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []
