"""Rules from the four-hundred-and-fifty-sixth to four-hundred-and-sixty-first forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_TURBINE_FLOW = ('Turbine unit 2, a Francis machine, is limited to 1.8 MW whenever river flow'
                 ' drops below 4 cubic metres per second.')
_GATE_ORDERS = ('Gate closure orders come from the Environment Agency duty officer, Rachel '
                'Hughes, by phone and then by confirmation text.')
_PIPE_BENDER = ('Apprentices may not operate the electric bender unless a journeyman is '
                'standing at the controls with them.')
_SOUND_METERS = ('The Cirrus Optimus Green sound level meters are field-calibrated with the '
                 'CR:515 calibrator before and after every measurement.')
_COTTON_INDICATOR = ('Cotton indicator for UL 94 is bought from Sigma in 100 g packs; Rahul '
                     'Mehta from the stores team reorders when two packs are left.')
_SURGICAL_WARDS = ('Second-year students do an 8-week placement on the surgical wards at St '
                   "Anne's.")
_MENTORING_SCHEME = ('The alumni mentoring scheme matches final-year students with alumni '
                     'mentors every October; each mentor takes at most 3 mentees.')
_RACEWAY_SCREENS = ('Raceway screens are pressure-washed every second Thursday to stop algae '
                    'clogging the outflow.')
_SALE_PENS = ('Block C pens are power-washed after every sale by Declan Moss with the Karcher'
              ' HD 9/20.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Forget that turbine unit 2 is limited to 1.8 MW whenever river flow drops below 4 cubic'
     ' metres per minute.',
     _TURBINE_FLOW, 'unit'),
    ('Please drop the note that Rachel Hughes, the Environment Agency duty officer, sends '
     'gate closure orders by text first and then confirms by phone.',
     _GATE_ORDERS, 'direction'),
    ('Remove the rule that first-year apprentices may not use the electric bender unless a '
     'journeyman is at the controls with them.',
     _PIPE_BENDER, 'role'),
    ('Delete the note that the Cirrus Optimus Green sound level meters are lab-calibrated '
     'with the CR:515 calibrator before and after every measurement.',
     _SOUND_METERS, 'scope'),
    ('Forget that Rahul Mehta from the purchasing team reorders the Sigma UL 94 cotton '
     'indicator in 100 g packs when two packs are left.',
     _COTTON_INDICATOR, 'thing'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Take out the memory about year-two students spending eight weeks on the St Anne's "
     'surgical wards.',
     _SURGICAL_WARDS),
    ("That's outdated, please remove it: each October the mentoring scheme pairs final-year "
     'students with alumni mentors, max three mentees per mentor.',
     _MENTORING_SCHEME),
    ('Scrap the bit about jet-washing the raceway screens on alternate Thursdays so algae '
     "doesn't block the outflow.",
     _RACEWAY_SCREENS),
    ('Drop the fact that Declan Moss pressure-washes the pens in block C after each sale '
     'using the Karcher HD 9/20.',
     _SALE_PENS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
