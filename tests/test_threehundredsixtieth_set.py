"""Rules from the three-hundred-and-sixtieth to three-hundred-and-sixty-fifth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_GENERATOR = ('The generator is a Honda EU22i; refuel it only when the truck is parked with '
              'the engine off, and keep the spare jerry can under the passenger seat.')
_SWARMS = ('Jonas Weber handles swarm call-outs on weekends; callers are charged £60 per '
           'collection within the ring road.')
_HAPPY_HOUR = ('Happy hour runs from 5 to 7 pm on weekdays with €2 off every glass of house '
               'rioja.')
_CLIPPERS = ('The Andis AGC2 clippers are disinfected with Clipper Cide spray between every '
             'dog.')
_OXYGEN = ('Dissolved oxygen is tested on the first 3 cans of every run and must be below 50 '
           'ppb.')
_STAIRS = ('Stair carries above the second floor are charged an extra £60 per floor.')
_FIRING = ('Only licensed shot-firers (currently Ewan MacLeod and Priya Nair) may connect the'
           ' Cobra 18M firing modules.')
_TYRES = ('The yard team checks tyre pressures before each hire and sets them to 65 psi when '
          'the trailer will carry two horses.')
_SCREEN = ('The hammer mill screen is swapped from 0.5 mm to 1 mm whenever we grind coarse '
           'black pepper.')
_MARSHAL = ('Kwame Mensah is fire marshal for the Saturday late shift; he does the walk-round'
            ' at 22:30 and locks the east doors.')
_PRESS = ('The Kensol K-30 hot-foil press runs at 110°C for gold leaf titles; set it to 95°C '
          'when stamping on cloth.')
_CAN_ENDS = ('Can ends (Crown B64, lot codes starting 202-B) are stored in the dry store next'
             ' to the cold room.')
_TRADERS = ('Only traders with a 5-star hygiene rating may use the shared prep kitchen behind'
            ' unit 3.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Forget that the generator is only refuelled when the truck is parked with the engine '
     'running.',
     _GENERATOR, 'opposite'),
    ('Please drop the note that Jonas Weber handles weekend swarm call-outs at £60 per '
     'collection outside the ring road.',
     _SWARMS, 'opposite'),
    ('Scrap the note that happy hour from 5 to 7 pm on weekdays adds €2 to every glass of '
     'house rioja.',
     _HAPPY_HOUR, 'opposite'),
    ('Scrap the rule that the Andis AGC2 clippers are disinfected with Clipper Cide spray '
     'once a day.',
     _CLIPPERS, 'schedule'),
    ('Delete the note that dissolved oxygen is tested on every can of every run and must be '
     'below 50 ppb.',
     _OXYGEN, 'quantity'),
    ('Forget that stair carries above the second floor get a £60 discount per floor.',
     _STAIRS, 'opposite'),
    ('Delete the memory that only licensed safety officers, currently Ewan MacLeod and Priya '
     'Nair, may connect the Cobra 18M firing modules.',
     _FIRING, 'role'),
    ('Forget that the yard team checks tyre pressures before each hire and sets them to 65 '
     'psi when the trailer will carry a single horse.',
     _TYRES, 'number'),
    ('Scrap the note that the hammer mill screen is swapped from 0.5 mm to 1 mm unless we are'
     ' grinding coarse black pepper.',
     _SCREEN, 'opposite'),
    ('Remove the note that Kwame Mensah is first aider for the Saturday late shift, does the '
     'walk-round at 22:30 and locks the east doors.',
     _MARSHAL, 'role'),
    ('Please drop the note that the Kensol K-30 hot-foil press is set to 95°C when stamping '
     'on paper.',
     _PRESS, 'condition'),
    ('Scrap the note that Crown B64 can ends with 202-B lot codes are stored in the cold '
     'room.',
     _CAN_ENDS, 'word'),
    ('Please drop the note that traders with a 4- or 5-star hygiene rating may use the shared'
     ' prep kitchen behind unit 3.',
     _TRADERS, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that the generator should only be refuelled while the truck is parked with the '
     'engine off.',
     _GENERATOR),
    ('Please drop the note that Jonas Weber takes weekend swarm call-outs, charging £60 per '
     'collection inside the ring road.',
     _SWARMS),
    ('Scrap the note that weekday happy hour, 5 to 7 pm, takes €2 off every glass of house '
     'rioja.',
     _HAPPY_HOUR),
    ('Scrap the rule that the Andis AGC2 clippers get Clipper Cide spray between each dog.',
     _CLIPPERS),
    ('Delete the note that dissolved oxygen is tested on the first three cans of every run '
     'and must stay below 50 ppb.',
     _OXYGEN),
    ('Forget that stair carries above the second floor cost an extra £60 per floor.',
     _STAIRS),
    ('Delete the memory that only the licensed shot-firers, currently Ewan MacLeod and Priya '
     'Nair, may connect the Cobra 18M firing modules.',
     _FIRING),
    ('Forget that the yard team checks tyre pressures before each hire and sets them to 65 '
     'psi if the trailer is carrying two horses.',
     _TYRES),
    ('Scrap the note that we swap the hammer mill screen from 0.5 mm to 1 mm whenever coarse '
     'black pepper is ground.',
     _SCREEN),
    ('Remove the note that Kwame Mensah is the fire marshal on the Saturday late shift, walks'
     ' round at 22:30 and locks the east doors.',
     _MARSHAL),
    ('Please drop the note that the Kensol K-30 hot-foil press goes to 95°C when stamping on '
     'cloth.',
     _PRESS),
    ('Scrap the note that can ends (Crown B64, lot codes starting 202-B) are kept in the dry '
     'store next to the cold room.',
     _CAN_ENDS),
    ('Please drop the note that only traders rated 5-star for hygiene may use the shared prep'
     ' kitchen behind unit 3.',
     _TRADERS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
