"""Rules from the four-hundred-and-fiftieth to four-hundred-and-fifty-fifth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_SILICON_HOLDERS = ('Zero-background silicon holders are used only for samples under 50 '
                    'milligrams, so that the background stays low.')
_PARTICLE_RUNS = ('Every sample is measured five times, and the reported D10, D50 and D90 are'
                  ' the mean of all five runs.')
_LIGHT_CURTAIN = ("After any tool change the shift lead must reset the cell's light curtain "
                  'before the press restarts.')
_TREE_WATERING = ('At customer sites, water each transplanted tree with 20 gallons twice a '
                  'week for the first month after the move.')
_MES_SCREENS = ('Rahul Mehta is the MES key user for the warehouse and must approve any '
                'change to the goods receipt screens.')
_CALIBRATION_WEIGHTS = ('Weights are handled only with lint-free gloves and the '
                        'plastic-tipped tweezers, never with bare hands.')
_TRAY_WATERING = ('Trays are watered from below only, never from the top, to keep mould off '
                  'the stems.')
_PANEL_FAT = ('The FAT for the Brightwater panels is booked for 18 January 2027 at 09:00 in '
              'bay 2.')
_WOUND_GLUE = ('Dermabond Mini wound glue is used only for lacerations shorter than 4 cm that'
               ' are not over a joint.')
_STRING_LOTS = ('First lot pulls out of the Middleham yard at 06:45; second lot goes at '
                '08:30.')
_GROW_ROOM = ('The humidifier in grow room B switches off automatically above 70% RH.')
_SERVICE_LINE = ('Customer service line is open 9am to 5pm, Monday to Saturday.')
_STATUS_PAGE = ('Status page updates are posted by the shift lead, never by the on-call '
                'engineer.')
_REDUCTION_FIRINGS = ('Cone 10 reduction firings happen only in the gas kiln in the back '
                      'yard, never in the indoor electric kilns.')
_RELAY_SETTINGS = ('Relay settings files are pulled from the production settings database, '
                   'version 7.2, never from the copy on the test laptop.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Scrap the rule that zero-background silicon holders are used only for air-sensitive '
     'samples, so that the background stays low.',
     _SILICON_HOLDERS, 'scope'),
    ('Forget that every sample is measured five times and the reported D10, D50 and D90 are '
     'the mean of the best three runs.',
     _PARTICLE_RUNS, 'number'),
    ('Scrap the rule that after any tool change the shift lead must reset the prototype '
     "cell's light curtain before the press restarts.",
     _LIGHT_CURTAIN, 'environment'),
    ('Scrap the rule that in the holding nursery each transplanted tree gets 20 gallons twice'
     ' a week for the first month.',
     _TREE_WATERING, 'word'),
    ('Forget that the warehouse shift supervisor must approve any change to the MES goods '
     'receipt screens.',
     _MES_SCREENS, 'role'),
    ('Scrap the note that weights may be handled with bare hands, without lint-free gloves or'
     ' tweezers.',
     _CALIBRATION_WEIGHTS, 'negation'),
    ('Delete the rule that trays are watered from the top only, never from below, to keep '
     'mould off the stems.',
     _TRAY_WATERING, 'negation'),
    ('Remove the note that the FAT for the Brightwater panels on 18 January 2027 at 09:00 in '
     'bay 2 has been cancelled.',
     _PANEL_FAT, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Scrap the note that Dermabond Mini wound glue is only for cuts under 4 cm that aren't "
     'over a joint.',
     _WOUND_GLUE),
    ('Remove the note that first lot leaves the Middleham yard at 6:45 am and second lot at '
     '8:30.',
     _STRING_LOTS),
    ("Forget that grow room B's humidifier cuts out automatically once relative humidity goes"
     ' over 70%.',
     _GROW_ROOM),
    ('Forget the customer service line hours, 9 to 5, Monday through Saturday.',
     _SERVICE_LINE),
    ('The on-call engineer never posts status page updates; the shift lead does.',
     _STATUS_PAGE),
    ('forget that cone 10 reduction firings are done exclusively in the back-yard gas kiln '
     'and never in the electric kilns indoors',
     _REDUCTION_FIRINGS),
    ('Delete the memory saying relay settings files come from the production settings '
     'database v7.2, never from the test laptop copy.',
     _RELAY_SETTINGS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
