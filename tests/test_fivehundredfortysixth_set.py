"""Rules from the 546th-551st forget sets' first runs. Each near miss below forgot the stored
fact before its rule; each guard is the set's own rewording of that fact (or one written here),
which the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_FILTERS = ('MicroGard II mouthpiece filters are single use and go in the orange clinical waste '
            'bin after each patient.')
_SPRINKLERS = ('Hot smoke tests in the basement car park use 2 kW fuel trays, and the sprinklers '
               'stay live throughout.')
_PRAYER = ('The multi-faith prayer room on level 2 is open 24 hours a day, and Imam Yusuf Darr '
           'leads Friday prayers there at 13:15.')
_BICARB = 'Sodium bicarbonate is added in three portions 30 minutes apart to bring the pH up to 3.8.'
_COPPER = ('Copper lines from removed payphones are disconnected at the street cabinet by '
           'Openreach engineer Gavin Price.')
_NOTES = ('Pre-travel consultation notes for every appointment are entered in TravelVax v4.2, '
          'not on the old paper forms.')
_STROKE = ("Patients go by blue-light ambulance to St Brendan's for thrombectomy only if the "
           'NIHSS score is 6 or higher.')
_REELS = ('Damaged reels are spliced with Kapton tape on the rewind bench, then rewound with the '
          'emulsion side facing in.')
_RPL = ('Route position list RPL rev 7 is the current reference for the Celtic Link project; '
        'earlier revisions are obsolete.')
_GATES = ('Gate operator Dylan Pryce runs the full-travel test of all sluice gates on the first '
          'Tuesday of each month from the live SCADA screen.')
_ROTA = ('NPLQ certificates expire after two years; staff with less than 30 days left are taken '
         'off the rota in the RotaCloud system.')
_CHAMBER = ('Monoplace chamber 1 is pressurised with 100% oxygen, so patients must change into '
            'cotton gowns and remove all hand warmers and devices.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Erase the memory that MicroGard II mouthpiece filters are reusable after cleaning between '
     'patients.', _FILTERS, 'opposite'),
    ('Forget that the sprinklers are isolated throughout the hot smoke tests in the basement car '
     'park with 2 kW trays.', _SPRINKLERS, 'opposite'),
    ('Forget that the multi-faith prayer room on level 2 is locked overnight, with Imam Yusuf '
     'Darr leading Friday prayers there at 13:15.', _PRAYER, 'opposite'),
    ('Erase: sodium bicarbonate is added in three portions 30 minutes apart to bring the pH down '
     'to 3.8.', _BICARB, 'opposite'),
    ('No longer true: copper lines from removed payphones are reconnected at the street cabinet '
     'by Openreach engineer Gavin Price.', _COPPER, 'opposite'),
    ('Delete the note that pre-travel consultation notes for every appointment go on the old '
     'paper forms, not into TravelVax v4.2.', _NOTES, 'scope'),
    ("Forget that patients go by blue-light ambulance to St Brendan's for thrombectomy only if "
     'the NIHSS score is below 6.', _STROKE, 'bound'),
    ('Remove the rule that damaged reels are spliced with Kapton tape on the rewind bench and '
     'then rewound with the emulsion side facing out.', _REELS, 'opposite'),
    ('Remove: RPL rev 7 is the current reference for the Celtic Link project, and earlier '
     'revisions are still valid.', _RPL, 'opposite'),
    ('Remove the note that Dylan Pryce runs the full-travel test on just one of the sluice gates '
     'on the first Tuesday of each month from the live SCADA screen.', _GATES, 'scope'),
    ('Delete the rule that NPLQ certificates expire after two years and staff with less than 30 '
     'days left stay on the rota in RotaCloud.', _ROTA, 'opposite'),
    ('Drop the note that monoplace chamber 1 runs on 100% oxygen, so patients change into cotton '
     'gowns but may keep hand warmers and devices with them.', _CHAMBER, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Erase the note that the level 2 multi-faith prayer room is open round the clock and Imam '
     'Yusuf Darr leads Friday prayers there at 1:15 pm.', _PRAYER),
    ('Remove: Gavin Price from Openreach disconnects the copper lines of removed payphones at the '
     'street cabinet.', _COPPER),
    ("Scrap the rule that thrombectomy patients are blue-lighted to St Brendan's only when their "
     'NIHSS is at least six.', _STROKE),
    ('Erase the rule that damaged reels get a Kapton tape splice at the rewind bench and are '
     'wound back emulsion in.', _REELS),
    ('Remove the memory that Dylan Pryce does the monthly first-Tuesday full-travel test of '
     'every sluice gate from the live SCADA screen.', _GATES),
    ('Forget that pre-travel notes for every appointment go into TravelVax v4.2, not on the old '
     'paper forms.', _NOTES),
    ('Forget that the bicarbonate is added in three portions, 30 minutes apart, to bring the pH '
     'up to 3.8.', _BICARB),
])
def test_rewordings_of_the_new_sets_agree(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)


def test_a_never_the_other_text_lacks_stays_in_the_only_condition() -> None:
    """"only, never into the Bianco": the "only" phrase ends at "never" only where the other
    text says the words after it (the 541st set's bourdon); else a denial of the one thing kept
    would agree with it (the 235th set)."""
    assert agreement.conflicts("Forget that we don't add caramel colour to the Rosso.",
                               'Caramel colour goes into the Rosso only, never into the Bianco.')
