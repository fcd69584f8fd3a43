"""Rules from the three-hundred-and-sixteenth to three-hundred-and-twenty-first forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording of the earlier sets that a first cut of a rule refused."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # the request alone holds it online
    ('Delete the note that the Victorian school room runs online sessions for school groups on '
     'Tuesdays and Thursdays from 10:00 to 12:30.',
     'The Victorian school room opens to school groups on Tuesdays and Thursdays from 10:00 to '
     '12:30, with a maximum of 32 pupils per session.', 'environment'),
    # "half the" band against the band
    ('Delete the note that half the band stands facing south on the war memorial steps during '
     'the Last Post.',
     'The band stands facing south on the war memorial steps during the Last Post.',
     'quantity'),
    # an amount per another thing
    ("Scrap the rule that power is limited to 600 W per row of seats so that the sports hall's "
     "32 A circuits do not trip.",
     "Power per seat is limited to 600 W so that the sports hall's 32 A circuits do not trip.",
     'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    # "half the" said in both
    ("Please drop the note that cancelling a lesson with under 24 hours' notice costs half the "
     "fee, £75.",
     "Lessons cancelled with less than 24 hours' notice are charged at half the lesson fee "
     "(£75)."),
    # "per" a thing in other words: a longer word, a count written into it, a unit
    ('Delete the note on our on-site cob recipe: 3 parts subsoil, 1 part sharp sand and roughly '
     'two kilos of barley straw per barrow.',
     'On site our cob mix is three parts subsoil to one part sharp sand, with about 2 kg of '
     'barley straw per wheelbarrow.'),
    ('Delete the memory about the 12-hour endurance race entry fee: £180 per three-driver team, '
     'paid to treasurer Grace Okafor by June 1st.',
     'Entry for the 12-hour endurance race costs £180 per team of three drivers, payable to '
     'treasurer Grace Okafor by 1 June.'),
    ('Forget that C32/40 takes 380 kilograms of cement per m³.',
     'The C32/40 mix uses 380 kg of cement per cubic metre.'),
    # online said in both
    ('Forget that the school room runs online sessions on Tuesdays.',
     'The school room runs its sessions online on Tuesdays.'),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
