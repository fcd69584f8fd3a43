"""Rules from the four-hundred-and-thirty-eighth to four-hundred-and-forty-third forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PILING_WIND = ('Piling stops when wind gusts exceed 15 metres per second on the anemometer '
                'at the mast head.')
_CALL_LIST = ('The alarm call list for freezer F-7 starts with the on-call quality manager, '
              'then the bank director Tomás Rivera.')
_BLAST_FREEZER = ('The blast freezer tunnel must hold \u221240 °C; if it rises above \u221235 °C for '
                  'ten minutes, the batch is quarantined.')
_PAD_HARDNESS = ('Pad hardness is 10 Shore A for curved parts and 20 Shore A for flat parts.')
_PRETREATMENT = ('Steel panels go through the alkaline degreaser before the pickling tank and'
                 ' must be sprayed within 2 hours of drying.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Please drop the rule that piling carries on when wind gusts exceed 15 metres per second'
     ' on the mast-head anemometer.',
     _PILING_WIND, 'opposite'),
    ('Scrap the note that the freezer F-7 alarm call list starts with bank director Tomás '
     'Rivera and then the on-call quality manager.',
     _CALL_LIST, 'direction'),
    ('Delete the rule that the blast freezer tunnel must hold \u221240 °C and if it rises above '
     '\u221235 °C for ten minutes the batch is released.',
     _BLAST_FREEZER, 'opposite'),
    ('Scrap the note that pad hardness is 10 Shore A for curved parts and 20 Shore D for flat'
     ' parts.',
     _PAD_HARDNESS, 'unit'),
    ('Forget that steel panels go through the pickling tank before the alkaline degreaser and'
     ' must be sprayed within 2 hours of drying.',
     _PRETREATMENT, 'direction'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('We no longer need the memory about the F-7 freezer alarm call list beginning with the '
     'on-call quality manager and then bank director Tomás Rivera.',
     _CALL_LIST),
    ('Remove the note that we use 10 Shore A pads on curved parts and 20 Shore A pads on flat'
     ' ones.',
     _PAD_HARDNESS),
    ('Forget that steel panels are cleaned in the alkaline degreaser before pickling and have'
     ' to be sprayed within two hours of drying.',
     _PRETREATMENT),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
