"""Rules from the 492nd-497th forget sets' first runs (and the 490th's near miss of the same
shape). Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_MISTING_NOZZLES = ('Nadia Petrova checks the misting cannon nozzles every Friday and '
                    'replaces any blocked ones from the spares box in the site cabin.')
_WIRE_ROPE = ('Wire rope on the Liebherr 150 EC-B crane is discarded when more than 6 broken '
              'wires are found in one lay length.')
_MUFFLE_FURNACE = ('The muffle furnace runs at 550 °C for loss-on-ignition and is switched '
                   'off overnight unless a run is in progress.')
_MOISTURE = ('Moisture readings are taken with the Tramex CME5 meter 28 days after the pour, '
             'before any flooring goes down.')
_JET_NOZZLES = ('Dimitri Petrov, crew leader of B shift, checks the jet nozzles before every '
                'shift and replaces any worn ones.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the note that Nadia Petrova checks the misting cannon nozzles every Friday and '
     'replaces all of them from the spares box in the site cabin.',
     _MISTING_NOZZLES, 'scope'),
    ('Scrap the rule that wire rope on the Liebherr 150 EC-B crane is kept in service when '
     'more than 6 broken wires are found in one lay length.',
     _WIRE_ROPE, 'opposite'),
    ('Scrap the note that the muffle furnace runs at 550 °C for loss-on-ignition and is left '
     'on overnight unless a run is in progress.',
     _MUFFLE_FURNACE, 'opposite'),
    ('Scrap the note that moisture readings are taken with the Tramex CME5 meter 28 days '
     'after the pour, once the flooring has gone down.',
     _MOISTURE, 'direction'),
    ('Forget that Dimitri Petrov checks the jet nozzles before every shift and replaces all '
     'of them.',
     _JET_NOZZLES, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that Nadia Petrova checks the misting cannon nozzles on Fridays and swaps '
     'blocked ones from the spares box in the site cabin.',
     _MISTING_NOZZLES),
    ('Forget that wire rope on the Liebherr 150 EC-B crane is taken out of service when more '
     'than 6 broken wires are found in one lay length.',
     _WIRE_ROPE),
    ('Forget that the muffle furnace runs at 550 °C for loss-on-ignition and is turned off '
     'overnight unless a run is in progress.',
     _MUFFLE_FURNACE),
    ("We don't need the note on taking Tramex CME5 moisture readings 28 days after the pour "
     'before flooring goes down any more.',
     _MOISTURE),
    ('Forget that B shift crew leader Dimitri Petrov checks the jet nozzles before each shift'
     ' and swaps out any worn ones.',
     _JET_NOZZLES),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
