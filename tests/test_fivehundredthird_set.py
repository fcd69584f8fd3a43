"""Rules from the 498th-503rd forget sets' first runs. Each near miss below forgot the stored
fact before its rule; each guard is a rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_STEPS = ('Before any steps are removed, the team locks out the main isolator and hangs a tag '
          'signed by shift lead Kwame Mensah.')
_CAGE_B = ('Only Priya Nair, the vault supervisor, may open the dual-control door of cage B '
           'after 18:00, and only with a second keyholder present.')
_DIVOTS = ('After each race the divot team fills the divots on the back straight with a 70:30 '
           'sand and seed mix.')
_VARROA = ('Varroa counts use an alcohol wash of 300 bees per hive in August; treat with '
           'oxalic acid if the count exceeds 9 mites.')
_ICE = ('Ice arrives from Clearwater Ice on Thursday and Saturday mornings as 50 kg blocks, '
        'which are hand-cut behind the bar.')
_BLANKETS = ('Tyre blankets for the rear slicks are set to 90°C and left on for 45 minutes '
             'before the car leaves the garage.')
_IRRIGATION = ('The drip irrigation on the saffron beds is switched off from May to August '
               'while the corms are dormant.')
_WEEDING = 'The seasonal crew weeds the saffron rows by hand twice a month from March to May.'
_SEABIRDS = ('Oiled seabirds are washed in the wash room with Fairy liquid in 42°C water, then '
             'moved to the drying pens for 24 hours.')
_FOX_CUBS = ('Rescued fox cubs are bottle-fed puppy milk replacer every 4 hours until they are '
             'three weeks old, then weaned onto soaked kibble.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the note that before any steps are refitted, the team locks out the main '
     'isolator and hangs a tag signed by shift lead Kwame Mensah.',
     _STEPS, 'opposite'),
    ("Remove the rule that only Priya Nair, the vault supervisor, may open cage B's "
     'dual-control door after 18:00, even without a second keyholder present.',
     _CAGE_B, 'condition'),
    ('Remove: after each race the divot team fills a few of the back-straight divots with a '
     '70:30 sand and seed mix.',
     _DIVOTS, 'quantity'),
    ('Delete the August varroa rule: alcohol wash 300 bees per hive and treat with oxalic acid '
     'unless the count exceeds 9 mites.',
     _VARROA, 'condition'),
    ('Erase the note that Clearwater Ice brings 50 kg blocks on Thursday and Saturday mornings '
     'and only some of them are hand-cut behind the bar.',
     _ICE, 'quantity'),
    ('Remove: the tyre blankets for all four slicks are set to 90°C and left on for 45 '
     'minutes before the car leaves the garage.',
     _BLANKETS, 'scope'),
    ('Erase the note that drip irrigation is switched off from May to August on the north '
     'saffron beds only, while the corms are dormant.',
     _IRRIGATION, 'scope'),
    ('Scrap the note that the permanent farm staff hand-weed the saffron rows twice a month '
     'from March to May.',
     _WEEDING, 'opposite'),
    ('Remove: oiled seabirds spend 24 hours in the drying pens first and are then washed in the '
     'wash room with Fairy liquid at 42°C.',
     _SEABIRDS, 'direction'),
    ('No longer true: rescued fox cubs are syringe-fed puppy milk replacer every 4 hours until '
     'three weeks old, then weaned onto soaked kibble.',
     _FOX_CUBS, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that the team locks out the main isolator and tags it, signed by shift lead Kwame '
     'Mensah, before taking any steps out.',
     _STEPS),
    ('Remove the rule that after 6 pm only vault supervisor Priya Nair may open the '
     "dual-control door of cage B, and only with a second keyholder present.",
     _CAGE_B),
    ('Forget that after each race the divot team fills the back-straight divots with a 70:30 '
     'sand and seed mix.',
     _DIVOTS),
    ('Forget the August varroa rule: alcohol wash of 300 bees per hive, and treat with oxalic '
     'acid if the count exceeds 9 mites.',
     _VARROA),
    ('Forget that Clearwater Ice brings 50 kg blocks on Thursday and Saturday mornings and '
     'they are hand-cut behind the bar.',
     _ICE),
    ('Forget that the tyre blankets for all the rear slicks are set to 90°C for 45 minutes '
     'before the car leaves the garage.',
     _BLANKETS),
    ('Forget that drip irrigation on the saffron beds is switched off from May to August while '
     'the corms are dormant.',
     _IRRIGATION),
    ('Forget that the seasonal crew hand-weeds the saffron rows twice a month from March to '
     'May.',
     _WEEDING),
    ('Forget that oiled seabirds get washed first in the wash room with Fairy liquid in 42°C '
     'water, then moved to the drying pens for 24 hours.',
     _SEABIRDS),
    ('Forget that rescued fox cubs are bottle-fed puppy milk replacer every four hours until '
     'three weeks old and then weaned onto soaked kibble.',
     _FOX_CUBS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
