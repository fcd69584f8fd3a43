"""Rules from the three-hundred-and-fiftieth to three-hundred-and-fifty-third forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_FANS = ('Fan kits for the Kildwick K2 draw 1.2 watts and must be fitted with the exhaust pipe '
         'routed upward through the roof to prevent odours.')
_WALK_INS = 'Walk-ins are accepted on weekdays before 4 pm unless all four technicians are booked.'
_TRADE = ('Trade customers get 10% off labour only if their account has at least 5 jobs in the '
          'last 12 months.')
_SIBLINGS = 'A six-week baby sign course costs £54, and siblings get 50% off the second place.'


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # the same number in amperes and in watts
    ('Delete the memory that Kildwick K2 fan kits draw 1.2 amps and must have the exhaust pipe '
     'routed upward through the roof to prevent odours.', _FANS, 'unit'),
    # any one of a counted whole against all of it
    ('Forget that walk-ins are accepted on weekdays before 4 pm unless any of the four '
     'technicians is booked.', _WALK_INS, 'quantity'),
    # the same amount added and taken off
    ('Scrap the rule that trade customers pay 10% extra on labour if their account has at least '
     '5 jobs in the last 12 months.', _TRADE, 'opposite'),
    ('Forget that the six-week baby sign course costs £54 and siblings pay 50% extra for the '
     'second place.', _SIBLINGS, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the memory that Kildwick K2 fan kits draw 1.2 watts and need the exhaust pipe routed '
     'up through the roof to prevent odours.', _FANS),
    ('Forget that walk-ins are taken on weekdays before 4 pm unless all four technicians are '
     'booked.', _WALK_INS),
    ('Scrap the rule that trade customers get 10% off labour only if their account has had at '
     'least 5 jobs in the last 12 months.', _TRADE),
    ('Forget that the six-week baby sign course is £54 and siblings get 50% off the second '
     'place.', _SIBLINGS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
