"""Rules from the four-hundred-and-second to four-hundred-and-seventh forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_BRCA = ('New BRCA referrals are booked for a 60-minute first appointment with Dr Amara '
         'Okafor in Clinic Room 3 on Tuesday mornings.')
_AUCTION = ('Viewing is Friday 10:00 to 18:00; the live saleroom auction starts Saturday at '
            '11 am, with automobilia sold before the cars.')
_MATCH_VIDEOS = ('Match videos are shown in the clubhouse every Sunday.')
_BRCA_VIDEO = ('New BRCA referrals get a 60-minute first appointment by video call on Tuesday'
               ' mornings.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the memory that new BRCA referrals get a 60-minute first appointment with Dr '
     'Amara Okafor by video call on Tuesday mornings.',
     _BRCA, 'environment'),
    ('Delete the note that viewing is Friday 10:00 to 18:00 and the online-only auction '
     'starts Saturday at 11 am, with automobilia before the cars.',
     _AUCTION, 'environment'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that new BRCA referrals get a one-hour first appointment with Dr Amara Okafor in'
     ' Clinic Room 3 on Tuesday mornings.',
     _BRCA),
    ('Delete the note that the video of each match is shown in the clubhouse on Sundays.',
     _MATCH_VIDEOS),
    ('Forget that BRCA referrals get their first appointment by video call on Tuesday '
     'mornings.',
     _BRCA_VIDEO),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
