"""Rules from the three-hundred-and-thirty-second to three-hundred-and-thirty-seventh forget
sets' first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_BASS = ("The club's minimum size for sea bass is 42 cm, stricter than the legal limit, so that "
         "more fish spawn at least once.")
_BASIL = ('Basil from our Liguria greenhouse is picked before 9 am so that the leaves stay cool '
          "and don't blacken in the blender.")
_STRIPS = ('Silverside is cut into 2 cm strips along the grain and marinated in vinegar and '
           'coriander for 12 hours.')
_SAIL = ('We only sail when the wind is under force 6, since dredging in heavier seas risks '
         'snapping the warps.')
_RAVIOLI = ('The Ima Pasta RS-20 ravioli machine on Line 2 runs at 90 pieces per minute and is '
            'cleaned with food-grade alcohol at shift change.')
_TRAYS = ('Seedling trays of the Snowball Y variety go from the greenhouse to the open field at 6 '
          'weeks old, never before April 10.')
_PHAAL = ('Chilli heat on the menu is marked with 1 to 5 peppers, and the phaal is served only to '
          'guests who sign the heat waiver.')
_BARRELS = ('Barrels are filled at 125 proof and each gets a serial stencil like RC-18-04411 on '
            'the head.')
_AUBERGINES = ('Black Beauty aubergines are picked when the skin is glossy and sold at €2.20 per '
               'kg to the Saturday market.')
_ORDERS = 'Delivery orders via Deliveroo are paused when the queue exceeds 20 minutes.'
_BEANS = 'Pinch out the tops of the broad bean plants once the first pods set, to deter blackfly.'


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # opposite words the lexicon lacked: lenient / strict, across / along, resumed / paused
    ("Scrap the note that the club's minimum size for sea bass is 42 cm, more lenient than the "
     'legal limit.', _BASS, 'opposite'),
    ('Remove the memory that silverside is cut into 2 cm strips across the grain before '
     'marinating for 12 hours.', _STRIPS, 'opposite'),
    ('Please forget the rule that Deliveroo delivery orders are resumed when the queue exceeds '
     '20 minutes.', _ORDERS, 'opposite'),
    # outdoors against a greenhouse
    ('Delete the note that basil from our outdoor beds in Liguria is picked before 9 am so the '
     "leaves stay cool and don't blacken in the blender.", _BASIL, 'environment'),
    # the same number on another scale
    ('Scrap the rule that we only sail when the wind is under 6 knots.', _SAIL, 'unit'),
    # a setting before a thing the other text numbers
    ('Delete the note that the Ima Pasta RS-20 ravioli machine on the pilot line runs at 90 '
     'pieces per minute and is cleaned with food-grade alcohol at shift change.', _RAVIOLI,
     'scope'),
    # "into" read as "to" before another place
    ('Scrap the rule that Snowball Y seedling trays go from the greenhouse into the polytunnel at '
     '6 weeks old, never before April 10.', _TRAYS, 'word'),
    # a "who" clause of one word against one of three, a word of it said elsewhere
    ('Please drop the note that chilli heat is marked with 1 to 5 peppers and the phaal is served '
     'only to guests who have eaten it here before.', _PHAAL, 'condition'),
    # every nth thing against each
    ('Forget that barrels are filled at 125 proof and every tenth one gets a serial stencil like '
     'RC-18-04411 on the head.', _BARRELS, 'quantity'),
    # a price each against a price per kilogram
    ('Forget that Black Beauty aubergines are picked when the skin is glossy and sold at €2.20 '
     'each to the Saturday market.', _AUBERGINES, 'unit'),
    # before an event against once it has come
    ('Scrap the tip to pinch out the tops of the broad bean plants before the first pods set, to '
     'deter blackfly.', _BEANS, 'direction'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Scrap the note that the club's minimum size for sea bass is 42 cm, stricter than the legal "
     'limit.', _BASS),
    ('Delete the note that basil from our Liguria greenhouse is picked before 9 am so the leaves '
     "stay cool and don't blacken in the blender.", _BASIL),
    ('Scrap the rule that we only sail when the wind is below force 6.', _SAIL),
    ('Delete the note that the Ima Pasta RS-20 ravioli machine on Line 2 runs at 90 pieces a '
     'minute and is cleaned with food-grade alcohol at shift change.', _RAVIOLI),
    ('Scrap the rule that Snowball Y seedling trays go from the greenhouse into the open field at '
     '6 weeks old, never before April 10.', _TRAYS),
    ('Please drop the note that the phaal is served only to guests who sign the heat waiver.',
     _PHAAL),
    ('Forget that barrels are filled at 125 proof and every one gets a serial stencil like '
     'RC-18-04411 on the head.', _BARRELS),
    ('Forget that Black Beauty aubergines are sold at €2.20 a kilo to the Saturday market.',
     _AUBERGINES),
    ('Scrap the tip to pinch out the tops of the broad bean plants once the first pods set.',
     _BEANS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
