"""Rules from the three-hundred-and-seventy-second to three-hundred-and-seventy-seventh forget
sets' first runs (and one near miss of the 366th that the same rule caught). Each near miss
below forgot the stored fact before its rule; each guard is a rewording the rule must leave
alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_AED = ('The AED in the tower is a Philips HeartStart FRx; its pads are replaced every 2 '
        'years, next due in May 2027.')
_JUMPS = ('Jumps are put on hold when ground gusts exceed 20 knots on the Davis anemometer by'
          ' the hangar.')
_ICE_TIME = ('Our ice time at Westfield Arena is Wednesdays 19:00-20:30, and the team pays '
             '£160 per session.')
_RING_BOOK = ("Ring stewards hand the judge's book to the secretary's tent as soon as judging"
              ' of each breed has finished.')
_SHOW_RINGS = ('The ring crew sets up the six show rings on the east field by 7:30 am on show'
               ' day, with ring 1 nearest the car park.')
_TATAMI = ('Tatami mats are wiped with diluted Virkon disinfectant after every session and '
           'deep cleaned on the last Sunday of the month.')
_CHILLIES = ('Anyone handling superhot chillies must wear nitrile gloves and goggles, and the'
             ' extractor fan must be on.')
_TUNING = ('Tuning fees are £85 per piano, plus £20 travel for venues more than 15 miles from'
           ' Leeds.')
_CLEANERS = ('Enzyclean Pro (batch EC-22) is what we use on porous surfaces; bleach solution '
             'is for non-porous surfaces only.')
_STYLE_SHEET = ('The Harcourt Lane Press house style sheet is at version 3.2 and lives in our'
                ' shared Notion workspace.')
_WEEVIL = ('The pest team checks the red palm weevil pheromone traps weekly and replaces the '
           'Ferrolure+ lures every 45 days.')
_DORMICE = ('Each dormouse is weighed in a clear plastic bag on a Pesola 50 g spring balance,'
            ' to the nearest 0.5 g, to track fattening before hibernation.')
_BEEHIVES = ('The beehives by the north parapet are checked every second Wednesday by the '
             'beekeeper, Olu Adeyemi.')
_HUT = ('The standard 12 ft hut, built to the rev C drawings, takes about five weeks and '
        'sells from £18,500.')
_LIFT_ALARM = ('An alarm call from the service lift car rings at reception first and diverts '
               'to the Apex Lifts call centre after 90 seconds.')
_HEAD_LAD = ("Head lad Gary Pritchard checks every horse's legs each morning before first lot"
             ' and reports any heat to the trainer.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the memory that the battery of the Philips HeartStart FRx AED in the tower is '
     'replaced every 2 years, next due in May 2027.',
     _AED, 'word'),
    ('Please drop the rule that jumps go ahead when ground gusts exceed 20 knots on the Davis'
     ' anemometer by the hangar.',
     _JUMPS, 'opposite'),
    ('Remove the memory that our ice time on the outdoor rink at Westfield is Wednesdays '
     '19:00-20:30 at £160 per session.',
     _ICE_TIME, 'environment'),
    ("Forget that ring judges hand the judge's book to the secretary's tent as soon as "
     'judging of each breed has finished.',
     _RING_BOOK, 'role'),
    ('Please drop the note that the car park crew sets up the six show rings on the east '
     'field by 7:30 am on show day, with ring 1 nearest the car park.',
     _SHOW_RINGS, 'thing'),
    ("We don't need the note any more that tatami mats are wiped with diluted Virkon "
     'disinfectant once a week and deep cleaned on the last Sunday of the month.',
     _TATAMI, 'schedule'),
    ('Scrap the rule that anyone handling superhot chillies must wear nitrile gloves and a '
     'respirator, with the extractor fan on.',
     _CHILLIES, 'word'),
    ('Please drop the note that tuning fees are £85 per piano for grand pianos only, plus £20'
     ' travel for venues more than 15 miles from Leeds.',
     _TUNING, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the memory that the pads of the Philips HeartStart FRx AED in the tower are '
     'replaced every 2 years, next due in May 2027.',
     _AED),
    ('Please drop the rule that jumps are put on hold whenever ground gusts go over 20 knots '
     'on the Davis anemometer by the hangar.',
     _JUMPS),
    ('Remove the memory that our Wednesday ice time at Westfield Arena, 19:00-20:30, costs '
     'the team £160 per session.',
     _ICE_TIME),
    ("Forget that the ring stewards hand the judge's book to the secretary's tent once "
     'judging of each breed is finished.',
     _RING_BOOK),
    ('Please drop the note that the ring crew sets up the six show rings on the east field by'
     ' 7:30 am on show day, ring 1 nearest the car park.',
     _SHOW_RINGS),
    ("We don't need the note any more that tatami mats get wiped with diluted Virkon after "
     'each session and deep cleaned on the last Sunday of the month.',
     _TATAMI),
    ('Scrap the rule that anyone handling superhot chillies wears nitrile gloves and goggles,'
     ' with the extractor fan on.',
     _CHILLIES),
    ('Please drop the note that tuning fees are £85 per piano, plus £20 travel for venues '
     'over 15 miles from Leeds.',
     _TUNING),
    ('Delete the memory that says porous surfaces get Enzyclean Pro, batch EC-22, and bleach '
     'is kept for non-porous ones only.',
     _CLEANERS),
    ('Delete the note that the Harcourt Lane Press house style sheet is v3.2 and sits in our '
     'shared Notion workspace.',
     _STYLE_SHEET),
    ('Forget the red palm weevil note: the pest team checks the pheromone traps once a week '
     'and swaps the Ferrolure+ lures every 45 days.',
     _WEEVIL),
    ('Please forget the note on weighing each dormouse in a clear plastic bag on the 50 g '
     'Pesola spring balance, to 0.5 g, to track how it fattens up before hibernation.',
     _DORMICE),
    ('Delete the memory that Olu Adeyemi, our beekeeper, checks the hives at the north '
     'parapet every other Wednesday.',
     _BEEHIVES),
    ('Forget that the standard 12-foot hut, built to the rev C drawings, takes around five '
     'weeks and starts at £18,500.',
     _HUT),
    ('Scrap the memory that the service lift car alarm rings reception first and switches '
     'over to the Apex Lifts call centre after a minute and a half.',
     _LIFT_ALARM),
    ("Please drop the memory that Gary Pritchard, our head lad, checks all the horses' legs "
     'every morning ahead of first lot and tells the trainer about any heat.',
     _HEAD_LAD),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
