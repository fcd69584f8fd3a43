"""Rules from the three-hundred-and-ninety-sixth to four-hundred-and-first forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_TOTAL_STATION = ("The office's Leica TS16 total station is sent for calibration every "
                  'January to the supplier in Leeds.')
_SILENT_GUESTS = ("Guests on silent retreats eat in the garden room so that they aren't "
                  'disturbed by the workshop groups.')
_EAST_GATE = ('The east gate of the polar bear enclosure must be double-locked by two keepers'
              ' before anyone enters the moat.')
_WILLOW_LANE = ('The dog at 23 Willow Lane is aggressive, so that meter is read only when the'
                ' owner, Mrs Haddad, has shut the dog in the kitchen.')
_COACH_SEATS = ('On coach BX-204, seats 1 to 4 behind the driver are kept for passengers with'
                ' motion sickness so that they can see the road ahead.')
_CALL_BACK = ('Customers on the priority services register get a call back within 2 hours of '
              'reporting a power cut.')
_PHOTOGRAPHY = ('Photography is allowed in the nave but banned in the Lady Chapel during the '
                '12:30 Eucharist.')
_HEALTH_DECLARATIONS = ('Maritime Declarations of Health must be received at least 24 hours '
                        'before arrival for ships coming from outside the UK.')
_WAREHOUSE = ('Data scientists have read access to the warehouse; only the platform team has '
              'write access.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Scrap the note that the Leica TS16 total station is sent to the supplier in Leeds for '
     'calibration twice a year.',
     _TOTAL_STATION, 'schedule'),
    ("Remove the memory that all guests eat in the garden room so that they aren't disturbed "
     'by the workshop groups.',
     _SILENT_GUESTS, 'scope'),
    ('Scrap the rule that the east gate of the polar bear enclosure must be unlocked by two '
     'keepers before anyone enters the moat.',
     _EAST_GATE, 'opposite'),
    ('Remove the memory that the meter at 23 Willow Lane is read only when Mrs Haddad is out '
     'of the house.',
     _WILLOW_LANE, 'condition'),
    ('Scrap the note that on coach BX-204 seats 1 to 4 behind the driver are kept for '
     'passengers with motion sickness so that they can get off first.',
     _COACH_SEATS, 'condition'),
    ('Forget that all customers get a call back within 2 hours of reporting a power cut.',
     _CALL_BACK, 'scope'),
    ('Forget that photography is banned in the nave but allowed in the Lady Chapel during the'
     ' 12:30 Eucharist.',
     _PHOTOGRAPHY, 'direction'),
    ('Remove the rule that Maritime Declarations of Health must be received at least 24 hours'
     ' before arrival for all ships, including UK coastal traffic.',
     _HEALTH_DECLARATIONS, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the note saying our Leica TS16 total station goes to the Leeds supplier each '
     'January for calibration.',
     _TOTAL_STATION),
    ('Scrap the memory that silent-retreat guests have their meals in the garden room so the '
     "workshop groups don't disturb them.",
     _SILENT_GUESTS),
    ('Forget the note that the meter at 23 Willow Lane is only read once Mrs Haddad has shut '
     'her aggressive dog in the kitchen.',
     _WILLOW_LANE),
    ('Delete the note about the motion sickness seats: on coach BX-204 the first four seats '
     'behind the driver are held for those passengers so they can see the road in front.',
     _COACH_SEATS),
    ('Delete the memory that priority services register customers are called back within two '
     'hours of reporting a power cut.',
     _CALL_BACK),
    ("We don't need the note on photos being fine in the nave but not in the Lady Chapel "
     'during the 12:30 Eucharist any more.',
     _PHOTOGRAPHY),
    ('Delete the rule that ships arriving from outside the UK must send their Maritime '
     'Declaration of Health no later than 24 hours before arrival.',
     _HEALTH_DECLARATIONS),
    ('Only the platform team can write to the warehouse, while data scientists have read '
     'access to it.',
     _WAREHOUSE),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
