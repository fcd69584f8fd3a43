"""Rules from the four-hundred-and-twenty-sixth to four-hundred-and-thirty-first forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_BLASTING = ('Blasting is not used at the pit; under the planning permit the face is worked '
             'only by excavator.')
_REEL_BRACKETS = ('Wall brackets for spring-rewind reels are mounted 1.2 m above the floor '
                  'with the hose outlet facing down, to keep the hose clear of forklift '
                  'traffic.')
_SILO_FUMIGATION = ('Silo fumigation with phosphine is done only by the contractor PestGuard,'
                    ' and the silo stays sealed for 7 days afterwards.')
_BALLOT_BUNDLES = ('Ballot papers are bundled in twenties, rubber-banded, and checked twice '
                   'before going to the tally desk.')
_FIRST_TEN_PARTS = ('The first ten parts after every die change are measured on the Zeiss CMM'
                    ' in the quality lab before the run is released.')
_SUPPORT_STACK = ('Support package stack SPS02 for S/4HANA 2023 goes to DEV first and stays '
                  'there two weeks before moving to QAS.')
_IMPLANTS = ('Implants must self-delete after 30 days so that nothing persists after the '
             'engagement window closes.')
_COMMUTATORS = ('Commutators are skimmed in workshop 2 on the Colchester lathe with a diamond'
                ' tool at 600 rpm.')
_MIDLAND_RAIL = ('Jobs for Midland Rail traction motors take priority and are booked in by '
                 'Sanjay Patel.')
_MUSHROOM_CAPS = ('Mushroom caps must be fitted on all vertical starter bars before the end '
                  'of each shift.')
_BMX_SESSIONS = ('BMX-only sessions run Wednesday evenings from 6 to 8 pm; scooters are not '
                 'allowed during them.')
_NIGHT_CALL_OUTS = ('Night call-outs go to the on-call engineer Kwame Asante first, then to '
                    "the standby fitter if he doesn't answer within 15 minutes.")
_PARKLAND = ('Burns fluid resuscitation follows the Parkland formula from the 2022 regional '
             'guideline, with half the volume given in the first 8 hours from injury.')
_PLAZA_LANE = ('Plaza 14 lane 3 is cash-only on weekends.')
_DARJEELING = ('Chen Wei from the quality team cups every new batch of Darjeeling first flush'
               ' at 10:00 before it is approved for blending.')
_FAIRWAYS = ('The council grounds team mows the fairways every Wednesday from April to '
             'October.')
_HEDGE_STAKES = ('Hedge stakes are cut to 5 ft 6 in and bundled in 25s; binders go in bundles'
                 ' of 50.')
_CYLINDER_CAGE = ('Cylinders must be stored upright in the ventilated cage at the rear of the'
                  ' warehouse, chained in rows of four.')
_TRUNDLE_WHEEL = ('The TW-100 trundle wheel has a 1 m circumference and clicks every metre; '
                  'sold to schools in packs of 10.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Please drop the note that blasting is not used at any of our pits; under the planning '
     'permits the faces are worked only by excavator.',
     _BLASTING, 'scope'),
    ('Please drop the note that wall brackets for spring-rewind reels are mounted 1.2 m above'
     ' the floor with the hose outlet facing up.',
     _REEL_BRACKETS, 'opposite'),
    ('Remove the memory that only PestGuard fumigates silos with phosphine and the silo is '
     'left open for 7 days afterwards.',
     _SILO_FUMIGATION, 'opposite'),
    ('Scrap the rule that ballot papers are bundled in twenty-fives, rubber-banded and '
     'checked twice before going to the tally desk.',
     _BALLOT_BUNDLES, 'number'),
    ('Forget that the first ten parts after every die change on line 4 only are measured on '
     'the Zeiss CMM in the quality lab.',
     _FIRST_TEN_PARTS, 'scope'),
    ('Forget that SPS02 for S/4HANA 2023 goes to QAS first and stays there two weeks before '
     'moving to DEV.',
     _SUPPORT_STACK, 'direction'),
    ('Remove the rule that only implants on mobile devices must self-delete after 30 days so '
     'nothing persists after the engagement window closes.',
     _IMPLANTS, 'scope'),
    ('Forget that on customer sites commutators are skimmed with a diamond tool at 600 rpm.',
     _COMMUTATORS, 'environment'),
    ('Remove the note that jobs for Midland Rail auxiliary generators take priority and are '
     'booked in by Sanjay Patel.',
     _MIDLAND_RAIL, 'thing'),
    ('Forget the rule that mushroom caps must be removed from all vertical starter bars '
     'before the end of each shift.',
     _MUSHROOM_CAPS, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Remove the memory that we don't blast at the pit and the face is worked by excavator "
     'only, per the planning permit.',
     _BLASTING),
    ('Delete the rule that the first 10 parts after each die change are measured on the Zeiss'
     ' CMM in the quality lab before the run is released.',
     _FIRST_TEN_PARTS),
    ('Remove the memory that SPS02 for S/4HANA 2023 is applied to DEV first and left there '
     'for two weeks before it goes to QAS.',
     _SUPPORT_STACK),
    ('Scrap the rule that implants self-delete after 30 days so nothing persists once the '
     'engagement window closes.',
     _IMPLANTS),
    ('Remove the note that commutators are skimmed with a diamond tool at 600 rpm on the '
     'Colchester lathe in workshop 2.',
     _COMMUTATORS),
    ("We don't need the note any more that Midland Rail traction motor jobs get priority and "
     'are booked in by Sanjay Patel.',
     _MIDLAND_RAIL),
    ('Drop the rule that mushroom caps go on every vertical starter bar before each shift '
     'ends.',
     _MUSHROOM_CAPS),
    ('On Wednesdays between six and eight in the evening the park is BMX only and scooters '
     "are barred; that's outdated, forget it.",
     _BMX_SESSIONS),
    ('Delete the note that night call-outs go first to on-call engineer Kwame Asante and then'
     " to the standby fitter if he hasn't answered in 15 minutes.",
     _NIGHT_CALL_OUTS),
    ('Remove the note that our burns fluid resus uses the Parkland formula from the 2022 '
     'regional guideline, giving half the volume in the first eight hours after the injury.',
     _PARKLAND),
    ('Lane 3 at Plaza 14 only takes cash on Saturdays and Sundays.',
     _PLAZA_LANE),
    ('Delete the note that Chen Wei of the quality team cups each new first flush Darjeeling '
     "batch at 10 am before it's approved for blending.",
     _DARJEELING),
    ("That's outdated: from April through October the council's grounds crew cuts the "
     'fairways each Wednesday.',
     _FAIRWAYS),
    ('Delete the note about cutting hedge stakes to five foot six and bundling them in '
     'twenty-fives, with binders in bundles of fifty.',
     _HEDGE_STAKES),
    ('Forget that cylinders have to be kept upright and chained in fours in the ventilated '
     'cage at the back of the warehouse.',
     _CYLINDER_CAGE),
    ('Scrap what we have about the TW-100: one-metre circumference, a click each metre, sold '
     'to schools in tens.',
     _TRUNDLE_WHEEL),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
