"""Rules from the three-hundred-and-ninetieth to three-hundred-and-ninety-fifth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_REST_ROOM = ('Rest room lights are dimmed to 20% from 22:00 to 06:00 so that crew on night '
              'turnarounds can sleep.')
_DEN_BOX = ('Ecologist Mireille Fontaine leads the den box survey in the second week of '
            'March, before the kits are born, following the 3rd edition of the survey '
            'protocol.')
_UNDER_TWOS = ('Children under 2 are not seen at the unit and must be referred to the '
               "paediatric emergency department at St Anne's.")
_HEDGE = ('A hedge is only classed as species-rich if a 30 m section holds at least five '
          'native woody species, following the 1997 Hedgerow Regulations.')
_TELESCOPE = ("The society's 14-inch Meade LX200 at the Harlow observatory can only be used "
              'by members who have done the induction.')
_WRIST_STRAP = ('Wear an ESD wrist strap at bench 3 whenever a line-replaceable unit has its '
                'covers off, so that static cannot damage the boards.')
_WHEAT = ("Members' wheat is accepted only if moisture is at most 15% on the Perten AM 5200 "
          'tester.')
_CASE_NOTES = ("Case notes are kept in Titanium and deleted seven years after the student's "
               'last contact.')
_BEAR = ('Each 30 cm bear takes 180 g of polyester fibre fill, weighed on the bench scale '
         'before the back seam is closed.')
_CHANCEL = ('Chancel repair searches are ordered only if the client declines chancel '
            'indemnity insurance.')
_DISPENSER = ('Ball dispenser BD-300 jams when the balls are wet; clear it with the blue key '
              'kept in the pro shop.')
_TATTING = ('Finished tatting for the winter fair goes to Ellen Marsh by 20 November so she '
            'can price it.')
_LONG_CHURNS = ('Novices may go into Long Churns only if the Met Office forecast is under 5 '
                'mm of rain for the day.')
_MITAD = ('The second mitad in the front room is used only when daily orders exceed 400 '
          'injera.')
_SOUTH_FIELD = ('The south field is irrigated only when the soil probe reads below 18% '
                "moisture, so that the turnip roots don't split.")
_HASS = ('Crews start picking Hass fruit only once dry matter reaches at least 23 percent, '
         'tested by Tomás Ruiz with the Felix F-750 meter.')
_CHECKLIST = ('Inspection checklist v2.3 replaces v2.2 from 1 April 2026; use it on every '
              'bothy visit.')
_FIGUREHEAD = ("The 'Lady Caroline' figurehead for the Tamar replica is carved from yellow "
               'pine, 2.1 m tall, and is due at Chatham Dockyard on 18 June 2027.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Forget that rest room lights are brightened from 22:00 to 06:00 for crew on night '
     'turnarounds.',
     _REST_ROOM, 'opposite'),
    ('Forget that Mireille Fontaine leads the den box survey in the second week of March, '
     'before the kits are born, following the 2nd edition of the survey protocol.',
     _DEN_BOX, 'number'),
    ('Remove the rule that no children at all are seen at the unit and they must be referred '
     "to the paediatric emergency department at St Anne's.",
     _UNDER_TWOS, 'scope'),
    ('Forget that a hedge is only classed as species-rich if every 30 m section holds at '
     'least five native woody species.',
     _HEDGE, 'quantity'),
    ('Delete the note that the 14-inch Meade LX200 at the Harlow observatory can only be used'
     ' by committee members who have done the induction.',
     _TELESCOPE, 'scope'),
    ('Please drop the rule about wearing an ESD wrist strap at bench 3 only when a '
     'line-replaceable unit is powered up, so static cannot damage the boards.',
     _WRIST_STRAP, 'condition'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that the rest room lights go down to 20% between 10 pm and 6 am so night '
     'turnaround crew can sleep.',
     _REST_ROOM),
    ('Delete the note saying Mireille Fontaine runs the den box survey in the second week of '
     "March, before kits are born, to the survey protocol's third edition.",
     _DEN_BOX),
    ('Remove the memory saying a hedge only counts as species-rich when a 30 m stretch has '
     'five or more native woody species, under the 1997 Hedgerow Regulations.',
     _HEDGE),
    ('Delete the note that only inducted members can use the 14-inch Meade LX200 at the '
     'Harlow observatory.',
     _TELESCOPE),
    ("Remove the memory that we only take members' wheat when the Perten AM 5200 reads 15% "
     'moisture or less.',
     _WHEAT),
    ('Please forget that case notes are held in Titanium and removed seven years after the '
     'student was last in contact.',
     _CASE_NOTES),
    ('Delete the memory about a 30 cm bear needing 180 grams of polyester fill, weighed on '
     'the bench scale before closing the back seam.',
     _BEAR),
    ('Forget the rule where we only order a chancel repair search when the client turns down '
     'chancel indemnity cover.',
     _CHANCEL),
    ('Forget that the BD-300 dispenser jams with wet balls and gets cleared using the blue '
     'key from the pro shop.',
     _DISPENSER),
    ('Forget that finished tatted pieces for the winter fair have to reach Ellen Marsh by '
     '20th November so she can put prices on them.',
     _TATTING),
    ('We changed this, so delete: beginners being allowed in Long Churns just on days when '
     'the Met Office predicts less than five millimetres of rain.',
     _LONG_CHURNS),
    ('Please drop the rule that the front-room second mitad only comes into use when daily '
     'orders go over 400 injera.',
     _MITAD),
    ('Remove the memory that we only water the south field when the soil probe shows moisture'
     ' under 18%, to stop the turnip roots splitting.',
     _SOUTH_FIELD),
    ("Remove the note that Hass picking only begins when Tomás Ruiz's Felix F-750 readings "
     'show dry matter of 23% or more.',
     _HASS),
    ('Delete the note that checklist version 2.3 supersedes 2.2 from 1st April 2026 and is to'
     ' be used on every bothy visit.',
     _CHECKLIST),
    ('Delete the note that the Lady Caroline figurehead for the Tamar replica is yellow pine,'
     ' 2.1 metres tall, and must reach Chatham Dockyard on 18th June 2027.',
     _FIGUREHEAD),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
