"""Rules from the four-hundred-and-thirty-second to four-hundred-and-thirty-seventh forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PREPUPAE = ('Prepupae are harvested on day 14, when they self-migrate up the ramps into the '
             'collection buckets.')
_REWIND_QUOTES = ('Armature rewind quotes start at €85 and add €12 for each additional hour '
                  'of labour.')
_STEAM_BOX = ('The old steam box in workshop A is only used for the thin 2 mm binding cane, '
              'and only when the workshop B box is booked.')
_REPORT_REVIEW = ('Reports for planning applications are reviewed by senior consultant Marcus'
                  ' Oyelaran before they are issued.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the memory saying prepupae are harvested on day 14, when they migrate down the '
     'ramps into the collection buckets.',
     _PREPUPAE, 'direction'),
    ('Drop the note that armature rewind quotes start at €85 and add €12 for each additional '
     'day of labour.',
     _REWIND_QUOTES, 'schedule'),
    ('Delete the memory that the old steam box in workshop A is only used for the 2 mm '
     'binding cane when the workshop B box is broken.',
     _STEAM_BOX, 'condition'),
    ('Delete the note that all reports are reviewed by senior consultant Marcus Oyelaran '
     'before they are issued.',
     _REPORT_REVIEW, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the memory that the old workshop A steam box is used only for thin 2 mm binding '
     "cane and only when workshop B's box is booked.",
     _STEAM_BOX),
    ('Please drop the memory that Marcus Oyelaran, senior consultant, reviews planning '
     'application reports before issue.',
     _REPORT_REVIEW),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
