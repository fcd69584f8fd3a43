"""Rules from the 534th-539th forget sets' first runs (and the 520th set's working days, seen a
second time). Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_AUDIT = ('Audit walk-throughs on rural routes must be done by at least two auditors wearing '
          'Class 3 hi-vis, never by one person alone.')
_LOGS = ('Site signature logs for study AZR-2231 are filed in eTMF zone 05 within 5 working days '
         'of receipt.')
_ABSENT = ('Any sponsored worker absent for more than 10 consecutive working days without '
           'permission must be reported to the Home Office within 10 working days.')
_RESULTS = ('Inspection results are uploaded to the client portal PaintTrack by 17:00 on the day '
            'of inspection.')
_COPIES = ("Every copy of a document handed to an inspector is stamped 'Copy provided', and a "
           'duplicate is kept in the back room file.')
_AREAS = 'Temporary danger areas for the drone trials at Llanbedr are published from surface to 4000 ft.'


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Drop the rule that rural route audit walk-throughs must be done by at least three '
     'auditors wearing Class 3 hi-vis.', _AUDIT, 'number'),
    ("That's outdated: site signature logs for study AZR-2231 are filed in eTMF zone 05 within "
     '5 weeks of receipt.', _LOGS, 'unit'),
    ('Delete the rule that any sponsored worker absent for more than 10 consecutive weeks '
     'without permission must be reported to the Home Office within 10 working days.', _ABSENT,
     'unit'),
    ('Forget that inspection results are uploaded to the client portal PaintTrack by 17:00 on '
     'the day after inspection.', _RESULTS, 'opposite'),
    ("Erase the rule that every copy handed to an inspector is stamped 'Copy provided' and the "
     'back room duplicate is shredded.', _COPIES, 'opposite'),
    ('Drop the memory that the temporary danger areas for the drone trials at Llanbedr, surface '
     'to 4000 ft, have been withdrawn.', _AREAS, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that rural route audit walk-throughs must be done by at least two auditors in '
     'Class 3 hi-vis, never by one person alone.', _AUDIT),
    ('Forget that AZR-2231 site signature logs must go into eTMF zone 05 within five working '
     'days of arriving.', _LOGS),
    ('Remove the rule that a sponsored worker absent for over 10 consecutive working days '
     'without permission is reported to the Home Office within 10 working days.', _ABSENT),
    ('Forget that inspection results go up on the client portal PaintTrack by 17:00 on the day '
     'of inspection.', _RESULTS),
    ('Remove: the Llanbedr drone trial TDAs are published surface to 4,000 feet.', _AREAS),
])
def test_rewordings_of_the_new_sets_agree(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)
