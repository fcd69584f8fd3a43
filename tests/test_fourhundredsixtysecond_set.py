"""Rules from the four-hundred-and-sixty-second to four-hundred-and-sixty-seventh forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_ENGINE_WASH = ('Night shift lead Aisha Bello signs off every engine wash before 05:30 so '
                'that the aircraft can make the first departure.')
_PERFUSION_CASES = ('Dr Elena Petrova leads clinical normothermic heart perfusion cases and '
                    'must be present for cannulation.')
_BOAT_RACKS = ('Eights must be racked on the bottom two racks in the main boathouse, with '
               'riggers facing the wall.')
_PITCH_WATERING = ('Before each match the water-based pitch at Elm Road must be watered for '
                   '10 minutes using the pump in the shed.')
_SWITCH_ON = ('Switch-on appointments for newly implanted adults are booked 4 weeks after '
              'surgery, in Clinic Room 3 at the Harlow Audiology Unit.')
_SPOT_WARMUP = ('Before every show, operators warm up the spots for 10 minutes, check focus '
                'on the centre-stage mark and load cue sheet v5.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the note that night shift lead Aisha Bello signs off the first engine wash of '
     'each night before 05:30 so the aircraft can make the first departure.',
     _ENGINE_WASH, 'quantity'),
    ('Remove the memory that Dr Elena Petrova leads pre-clinical research normothermic heart '
     'perfusion cases and must be present for cannulation.',
     _PERFUSION_CASES, 'opposite'),
    ('Please drop the rule that eights must be racked on the bottom two racks in the main '
     'boathouse, with riggers facing away from the wall.',
     _BOAT_RACKS, 'direction'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Scrap the pre-match routine of running the shed pump for ten minutes to water the Elm '
     'Road water-based pitch.',
     _PITCH_WATERING),
    ('Please delete the note saying newly implanted adults have their switch-on four weeks '
     'post-surgery in Clinic Room 3 at Harlow Audiology.',
     _SWITCH_ON),
    ('Delete the pre-show routine note: operators warm the spots up for ten minutes, check '
     'focus on the centre-stage mark and load cue sheet v5.',
     _SPOT_WARMUP),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
