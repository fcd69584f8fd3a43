"""Rules from the two-hundred-and-thirty-third to two-hundred-and-thirty-eighth forget sets'
first runs (1, 1, 3, 4, 2 and 5 wrong forgets of 100 near misses). Each near miss below forgot
the stored fact before its rule; each guard is a rewording or a pair the rule must leave
alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another job before the same verb and object, the stored job named as the object
    ("Remove the memory that at the 22:00 night shift handover the duty supervisor briefs the "
     "incoming operator on logged faults.",
     "Night shift handover is at 22:00 in the control cabin; the outgoing operator briefs the "
     "incoming operator on any logged faults.", "role"),
    # a cap added to a plain count, "driven over" being no limit of the stored number
    ("Remove the memory that the Newquay shop gets no more than 240 pasties each morning.",
     "The Newquay shop gets 240 pasties every morning, driven over from the Truro bakery by "
     "van at 07:00.", "condition"),
    # another place after the same verb of keeping
    ("Delete the memory that retained blend samples are kept for 24 months in the cold room.",
     "Retained samples of every finished blend are kept for 24 months in cabinet R2 of the "
     "sample library.", "word"),
    ("Remove the note that the boat and waders are kept at the Mill Road office.",
     "The inspection team is based at the Mill Road office; the boat and waders are kept at "
     "the Brantford boathouse.", "word"),
    ("Forget that the vinegar pots are topped up from the 5-litre malt vinegar drum kept in "
     "the back of the van.",
     "Vinegar pots on the counter are topped up from the 5-litre malt vinegar drum kept on the "
     "bottom shelf under the counter.", "word"),
    ("Remove the memory that Callum Reid publishes the race officer rota on the clubhouse "
     "noticeboard by the 1st of each month.",
     "Callum Reid sets the race officer rota and publishes it in the club app by the 1st of "
     "each month.", "word"),
    # one list item kept "only" against the list, its commas lost
    ("Delete the memory that gate 7 is reserved for wheelchair users only.",
     "The wide-aisle gate (gate 7) is kept for wheelchair users, cyclists and passengers with "
     "large luggage.", "scope"),
    # a comparative of size with "than" bounds a measure
    ("Drop the note that any replacement sign up to 1.5 m wide needs a two-person lift and "
     "the Hiab.",
     "Any replacement sign wider than 1.5 m needs a two-person lift and the Hiab truck.",
     "bound"),
    # entry and exit swapped between the same counts
    ("Please forget that in the morning peak six gates are set to exit and two to entry.",
     "In the morning peak (07:00-09:30) at least six gates must be set to entry and two to "
     "exit.", "direction"),
    # a second "per" thing
    ("Forget that visiting yachts pay £3.20 per metre per week on the pontoons.",
     "Visiting yachts pay £3.20 per metre per night on the pontoons; the fee doubles during "
     "regatta week.", "unit"),
    # the same two amounts in the other order
    ("Drop the fact that beginner windsurfers start on 5.0 m² sails and move down to 4.0 m² "
     "by their third lesson.",
     "Beginner windsurfers start on Starboard Start boards with 4.0 m² sails and move up to "
     "5.0 m² by their third lesson.", "roles"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that at the 22:00 handover the outgoing operator briefs the incoming operator on "
     "logged faults.",
     "Night shift handover is at 22:00 in the control cabin; the outgoing operator briefs the "
     "incoming operator on any logged faults."),
    ("Remove the memory that the Newquay shop gets 240 pasties each morning by van from "
     "Truro.",
     "The Newquay shop gets 240 pasties every morning, driven over from the Truro bakery by "
     "van at 07:00."),
    ("Delete the memory that retained blend samples stay in cabinet R2 of the sample library "
     "for 24 months.",
     "Retained samples of every finished blend are kept for 24 months in cabinet R2 of the "
     "sample library."),
    ("Remove the note that the boat and waders are kept at the Brantford boathouse.",
     "The inspection team is based at the Mill Road office; the boat and waders are kept at "
     "the Brantford boathouse."),
    ("Delete the memory that gate 7 is kept for wheelchair users, cyclists and passengers "
     "with big luggage.",
     "The wide-aisle gate (gate 7) is kept for wheelchair users, cyclists and passengers with "
     "large luggage."),
    ("Drop the note that any replacement sign over 1.5 m wide needs a two-person lift.",
     "Any replacement sign wider than 1.5 m needs a two-person lift and the Hiab truck."),
    ("Please forget that in the morning peak six gates are set to entry and two to exit.",
     "In the morning peak (07:00-09:30) at least six gates must be set to entry and two to "
     "exit."),
    ("Forget that visiting yachts are charged £3.20 per metre per night on the pontoons.",
     "Visiting yachts pay £3.20 per metre per night on the pontoons; the fee doubles during "
     "regatta week."),
    ("Drop the fact that beginner windsurfers begin on 4.0 m² sails and go up to 5.0 m² by "
     "the third lesson.",
     "Beginner windsurfers start on Starboard Start boards with 4.0 m² sails and move up to "
     "5.0 m² by their third lesson."),
    ("That's outdated: the Blackmoor transects are 100 metres long with a 50 cm square "
     "quadrat every 10 metres.",
     "On the Blackmoor transects, 50 x 50 cm quadrats are placed every 10 m along each 100 m "
     "transect."),
    ("Forget that adopters have to be older than 21.", "The adopter must be over 21."),
    ("Please forget that stations with firmware below 3.1 are marked provisional.",
     "Readings from stations on firmware older than 3.1 are flagged provisional."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []
