"""Rules from the three-hundred-and-fifty-fourth to three-hundred-and-fifty-ninth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_SHACKLES = ('Rigging shackles are Crosby G-2130 bow shackles, 3/4 inch, and any with a bent pin are '
             'binned immediately.')
_FLIGHTS = ('Flights are cancelled if surface wind exceeds 10 knots or if rain is forecast within 2 '
            'hours of launch.')
_VAN = ('The shop van carries the Lishi 2-in-1 pick for Ford vehicles and is restocked every '
        'Friday afternoon.')
_HARNESS = ('The electrical team does a full wiring harness inspection every Friday afternoon.')
_GUIDELINE = ('The Blue Sink guideline is laid from the permanent tie-off at the cavern entrance and '
              'turns left at the T-junction at 120 m.')
_QUARANTINE = ('Quarantine room staff enter through the rear corridor door and leave through the foot '
               "bath, so that pathogens don't spread to the main hall.")
_BUS = ('Bus 14 runs the Riverside route, leaving the depot at 7:05 am and arriving at Hillcrest '
        'Primary by 8:10 am.')
_BATS = ('Only volunteers with a current rabies vaccination may handle bats bare-handed; everyone '
         'else must wear Kevlar gloves.')
_DIGITISATION = ('Digitisation volunteers work on Tuesday and Thursday afternoons and are supervised by '
                 'the conservator, Olusegun Adeyemi.')
_QUADRATS = ('Sphagnum cover quadrats are 1 m by 1 m and are photographed from the south-east corner '
             'before any sampling.')
_MIRRORS = ('Finished mirrors are sent to Orion Coatings in Leeds for aluminising; the club pays for '
            "each member's first coating.")
_SIGNS = ('Finished signs are burned in for 24 hours on the back rack in the dispatch room to catch'
          ' leaks before delivery.')
_GENERATORS = ('Generators are banned at the market; vendors plug into the council power posts, drawing '
               'up to 10 amps per stall.')

_KEETS = ('Keets are kept under heat lamps at 35°C for their first week, then the temperature is '
          'lowered by 3°C each week.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Please drop the note that rigging shackles are Crosby G-2130 bow shackles, 3/4 inch, and'
     ' any with a bent pin are kept in service.',
     _SHACKLES, 'opposite'),
    ('Scrap the note that flights go ahead if surface wind exceeds 10 knots or if rain is '
     'forecast within 2 hours of launch.',
     _FLIGHTS, 'opposite'),
    ('Drop the memory that the shop van carries the Lishi 2-in-1 pick for Ford vehicles and is'
     ' restocked once a month on a Friday afternoon.',
     _VAN, 'schedule'),
    ('Scrap the rule that the electrical team does a full wiring harness inspection once a '
     'month on a Friday afternoon.',
     _HARNESS, 'schedule'),
    ('Please drop the note that the Blue Sink guideline turns right at the T-junction at 120 '
     'm, laid from the permanent tie-off at the cavern entrance.',
     _GUIDELINE, 'opposite'),
    ('Remove the memory that quarantine room staff enter through the foot bath and leave '
     "through the rear corridor door, so pathogens don't spread to the main hall.",
     _QUARANTINE, 'direction'),
    ('Drop the note that Bus 14 runs the Riverside route, leaving Hillcrest Primary at 7:05 am'
     ' and arriving at the depot by 8:10 am.',
     _BUS, 'direction'),
    ('Forget that only volunteers who have done the handling course may handle bats '
     'bare-handed; everyone else must wear Kevlar gloves.',
     _BATS, 'condition'),
    ("We don't need the note that digitisation volunteers work Tuesday and Thursday afternoons"
     ' under the supervision of the archivist any more.',
     _DIGITISATION, 'role'),
    ('Please drop the note that sphagnum cover quadrats are 1 m by 1 m and only every second '
     'quadrat is photographed from the south-east corner before any sampling.',
     _QUADRATS, 'quantity'),
    ('Delete the memory that finished mirrors go to Orion Coatings in Leeds for aluminising '
     'and the club pays for every coating a member has done.',
     _MIRRORS, 'quantity'),
    ('Forget that finished signs are burned in for 24 hours on the back rack in the dispatch '
     'room so that the colour can be checked before delivery.',
     _SIGNS, 'condition'),
    ('Scrap the rule that generators are banned at the indoor winter market, where vendors '
     'plug into the council power posts, up to 10 amps per stall.',
     _GENERATORS, 'environment'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that Crosby G-2130 3/4 inch bow shackles are used for rigging and any with a bent'
     ' pin are binned at once.',
     _SHACKLES),
    ('Scrap the note that flights are called off if surface wind is over 10 knots or rain is '
     'forecast within 2 hours of launch.',
     _FLIGHTS),
    ('Drop the memory that the shop van carries the Lishi 2-in-1 pick for Ford vehicles and is'
     ' restocked on Friday afternoons.',
     _VAN),
    ('Forget that the Blue Sink guideline from the permanent tie-off at the cavern entrance '
     'turns left at the T-junction at 120 m.',
     _GUIDELINE),
    ('Remove the memory that quarantine room staff leave through the foot bath and enter '
     "through the rear corridor door, so pathogens don't spread to the main hall.",
     _QUARANTINE),
    ('Drop the note that Bus 14 on the Riverside route is arriving at Hillcrest Primary by '
     '8:10 am after leaving the depot at 7:05 am.',
     _BUS),
    ('Forget that only volunteers who have a current rabies vaccination may handle bats '
     'bare-handed; everyone else must wear Kevlar gloves.',
     _BATS),
    ("We don't need the note that digitisation volunteers work Tuesday and Thursday afternoons"
     ' supervised by the conservator, Olusegun Adeyemi, any more.',
     _DIGITISATION),
    ('Please drop the note that sphagnum cover quadrats of 1 m by 1 m are photographed from '
     'the south-east corner before any sampling.',
     _QUADRATS),
    ('Delete the memory that the club pays for the first coating of each member; finished '
     'mirrors go to Orion Coatings in Leeds for aluminising.',
     _MIRRORS),
    ('Forget that finished signs burn in for 24 hours on the back rack in the dispatch room to'
     ' catch any leaks before delivery.',
     _SIGNS),
    ('Scrap the rule that generators are banned at the market, where vendors plug into the '
     'council power posts for up to 10 amps per stall.',
     _GENERATORS),
    # "every week" is how often, not every one of the weeks the other text counts from the first
    ('Remove the memory that keets start at 35°C under heat lamps in week one, dropping 3 '
     'degrees every week after.', _KEETS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
