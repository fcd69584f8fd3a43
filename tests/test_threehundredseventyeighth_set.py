"""Rules from the three-hundred-and-seventy-eighth to three-hundred-and-eighty-third forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_DIVERS = ('Divers may only go down if the swell is under 1.5 m and the skipper has logged '
           'the dive plan in the bridge book.')
_RINKS = ('Rinks 1 to 3 are reserved for the Thursday evening league from 6 pm to 9 pm '
          'between May and August.')
_SPRINKLERS = ("The green's sprinklers run for 20 minutes at 5 am, but only when no rain has "
               'fallen for three days.')
_SCHOOL_GROUPS = ('School groups of up to 30 pupils are booked through Helen Okafor and pay '
                  '£4.50 per child; accompanying teachers go in free.')
_SCOREBOARD = ("The scoreboard's LED panels are switched off between innings to save power, "
               'unless the match is being streamed.')
_SPRING_WATER = ('Water is pumped from the spring and boiled for 3 minutes before drinking '
                 'because the filter was removed in June.')
_COASTAL_ROUTE = ('Van driver Kwame Boateng does the coastal route clockwise starting at Gull'
                  ' Cottage, leaving the depot at 8:15 am.')
_OPEN_WATER = ('Open-water sessions are cancelled when the forecast gusts exceed 25 knots at '
               'the harbour weather station.')
_CONTAINERS = ('Storage containers are held free for 30 days, then billed monthly.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Forget that divers may only go down if the swell is under 1.5 m and the tide is slack.',
     _DIVERS, 'condition'),
    ('Forget that rinks 1 to 3 on the indoor green are reserved for the Thursday evening '
     'league from 6 pm to 9 pm between May and August.',
     _RINKS, 'environment'),
    ("Forget that the green's sprinklers run for 20 minutes at 5 am, but only when no rain is"
     ' forecast for the next three days.',
     _SPRINKLERS, 'opposite'),
    ('Forget that school groups of up to 30 pupils pay £4.50 per child and only the first two'
     ' teachers go in free.',
     _SCHOOL_GROUPS, 'quantity'),
    ("Remove the memory that the scoreboard's LED panels are left on between innings unless "
     'the match is being streamed.',
     _SCOREBOARD, 'opposite'),
    ('Remove the memory that spring water is boiled for 3 minutes before drinking because the'
     ' filter was installed in June.',
     _SPRING_WATER, 'opposite'),
    ('Forget that Kwame Boateng drives the coastal route anticlockwise from Gull Cottage, '
     'leaving the depot at 8:15 am.',
     _COASTAL_ROUTE, 'opposite'),
    ('Delete the rule that open-water sessions are cancelled when the gusts measured at the '
     'harbour weather station exceed 25 knots.',
     _OPEN_WATER, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that divers may go down only if the swell is under 1.5 m and the skipper has '
     'logged the dive plan in the bridge book.',
     _DIVERS),
    ('Forget that rinks 1 to 3 are kept for the Thursday evening league, 6 pm to 9 pm, from '
     'May to August.',
     _RINKS),
    ("Forget that the green's sprinklers run 20 minutes at 5 am, but only if no rain has "
     'fallen in three days.',
     _SPRINKLERS),
    ('Forget that school groups of up to 30 pupils pay £4.50 a child, booked through Helen '
     'Okafor, and accompanying teachers go in free.',
     _SCHOOL_GROUPS),
    ("Remove the memory that the scoreboard's LED panels are switched off between innings to "
     'save power unless the match is streamed.',
     _SCOREBOARD),
    ('Remove the memory that spring water is pumped and boiled for 3 minutes before drinking '
     'because the filter was removed in June.',
     _SPRING_WATER),
    ('Forget that van driver Kwame Boateng drives the coastal route clockwise from Gull '
     'Cottage, leaving the depot at 8:15 am.',
     _COASTAL_ROUTE),
    ('Delete the rule that open-water sessions are cancelled whenever the forecast gusts at '
     'the harbour weather station exceed 25 knots.',
     _OPEN_WATER),
    ('No longer valid: storage containers are free for the first thirty days and billed month'
     ' by month after that.',
     _CONTAINERS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
