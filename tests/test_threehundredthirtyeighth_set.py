"""Rules from the three-hundred-and-thirty-eighth to three-hundred-and-forty-third forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_ROLL = ('Shift supervisor Agnieszka Nowak signs off the first roll of each shift after checking '
         'bubble height with a Mitutoyo digital caliper.')
_CHUTNEY = ('Coconut chutney is made fresh twice a day, and any chutney left out for more than 4 '
            'hours is thrown away.')
_SLINGS = ('The hoist team inspects slings on each visit, and any with frayed stitching are '
           'withdrawn from use.')
_PERMIT = 'The stall moves to the Juhu beach spot only when the municipal permit JH-2291 is valid.'
_FLOOR = ('Floor models are discounted by 20% only after they have been on display for at least 6 '
          'months.')
_PAKORAS = ('Paneer pakoras sell at £4.50 for a tray of six, while the spinach pakoras are £3.80 '
            'for six.')
_FEE = 'The call-out fee for stair lift repairs is £85 within 20 miles of the Leeds depot.'


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # opposites the lexicon lacked: signs off / rejects, kept for / thrown away, in use /
    # withdrawn, expired / valid, marked up / discounted
    ('Forget that shift supervisor Agnieszka Nowak rejects the first roll of each shift after '
     'checking bubble height with a Mitutoyo digital caliper.', _ROLL, 'opposite'),
    ('Remove the memory that coconut chutney is made fresh twice a day and any chutney left out '
     'for more than 4 hours is kept for the next service.', _CHUTNEY, 'opposite'),
    ('Delete the note that the hoist team inspects slings on each visit and keeps any with '
     'frayed stitching in use.', _SLINGS, 'opposite'),
    ('Forget that the stall moves to the Juhu beach spot only when municipal permit JH-2291 has '
     'expired.', _PERMIT, 'opposite'),
    ('Scrap the rule that floor models are marked up by 20% after they have been on display for '
     'at least 6 months.', _FLOOR, 'opposite'),
    # a number ending its phrase, the stored number said once more elsewhere in both
    ('Forget that paneer pakoras sell at £4.50 for a tray of eight, while the spinach pakoras '
     'are £3.80 for six.', _PAKORAS, 'number'),
    # everywhere against a distance from a place
    ('Scrap the note that the £85 call-out fee for stair lift repairs applies everywhere, however '
     'far the job is from the Leeds depot.', _FEE, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that Agnieszka Nowak, the shift supervisor, signs off the first roll of each shift '
     'after checking bubble height with a Mitutoyo digital caliper.', _ROLL),
    ('Remove the memory that coconut chutney is made fresh twice a day and any left out for more '
     'than 4 hours is thrown out.', _CHUTNEY),
    ('Delete the note that the hoist team checks slings every visit and withdraws any with '
     'frayed stitching from use.', _SLINGS),
    ('Forget that the stall only moves to the Juhu beach spot while permit JH-2291 is valid.',
     _PERMIT),
    ('Forget that paneer pakoras are £4.50 for a tray of six and spinach pakoras £3.80 for six.',
     _PAKORAS),
    ('Scrap the note that stair lift repairs within 20 miles of the Leeds depot have an £85 '
     'call-out fee.', _FEE),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
