"""Rules from the 474th-479th forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_INTERPRETER = ('Callers who prefer a language other than English get a LanguageLine '
                'interpreter at no cost to them.')
_WELD_SPEED = ('The FSW cell welds 6082-T6 aluminium at 1200 rpm spindle speed and 400 mm/min'
               ' travel speed.')
_DRAWERS = ('The Hymenoptera drawers are digitised with the Canon EOS R5 rig in room 3.14 at '
            '45 megapixels.')
_SHARPS = ('Sharps containers are closed and swapped when they are three-quarters full or '
           'after 3 months, whichever comes first.')
_LAPTOPS = ('Departing employees under hold must hand their laptops to IT in Room G.07, where'
            ' the drive is imaged with FTK Imager before reuse.')
_SAY_ON_PAY = ('Our policy is to vote against say-on-pay proposals when CEO pay rises more '
               'than 20% while total shareholder return is negative.')
_FLY_TIPPING = ('Fly-tipping reported through the council app is collected within 48 hours '
                'unless it includes asbestos, which goes to the specialist contractor.')
_TRACTOR = ('The launch tractor, a Talus MB-H Mk II, gets its engine serviced every 250 hours'
            ' by the mechanic from Cullen Marine.')
_FEATHERING = ('Feather texturing is done with the Foredom flex-shaft and its Mk II '
               'handpiece, using a 3/32-inch ruby carver bit.')
_SETTINGS = ('Setting changes are only issued to field crews on Tuesdays, so that the team '
             'can plan outages.')
_FACADE = ('Work on the east facade of Meridian House stops if wind speed exceeds 15 m/s at '
           'roof level.')
_TOURS = ('Tours are cancelled if the wind exceeds 15 m/s or visibility drops below 1 km.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the note that callers who prefer a language other than English get a '
     'LanguageLine interpreter and are charged for it.',
     _INTERPRETER, 'opposite'),
    ('Delete the memory that the FSW cell welds 6082-T6 aluminium at 1200 rpm spindle speed '
     'and 400 mm/s travel speed.',
     _WELD_SPEED, 'number'),
    ('Scrap the note that the Hymenoptera drawers are digitised with the Canon EOS R5 Mark II'
     ' rig in room 3.14 at 45 megapixels.',
     _DRAWERS, 'identifier'),
    ('Scrap the rule that sharps containers are swapped when three-quarters full or after 3 '
     'months, whichever comes later.',
     _SHARPS, 'opposite'),
    ('Delete the note that departing employees under hold hand their laptops to HR in Room '
     'G.07, where the drive is imaged with FTK Imager before reuse.',
     _LAPTOPS, 'name'),
    ('Please drop our policy to vote for say-on-pay proposals when CEO pay rises more than '
     '20% while total shareholder return is negative.',
     _SAY_ON_PAY, 'opposite'),
    ('Forget that fly-tipping reported through the council app is collected within 48 hours '
     'unless it includes tyres, which go to the specialist contractor.',
     _FLY_TIPPING, 'condition'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the memory that the friction stir welding cell welds 6082-T6 aluminium with a '
     '1200 rpm spindle speed and a travel speed of 400 mm/min.',
     _WELD_SPEED),
    ("Please drop our policy of voting against say-on-pay where the CEO's pay goes up by over"
     ' 20% while total shareholder return is negative.',
     _SAY_ON_PAY),
    ('Forget that the Mk II Talus MB-H launch tractor has an engine service every 250 hours '
     'from the Cullen Marine mechanic.',
     _TRACTOR),
    ("We don't need the note on feather texturing with the Foredom flex-shaft, Mk II "
     'handpiece and 3/32-inch ruby carver bit any more.',
     _FEATHERING),
    ('Forget that the FSW cell welds 6082-T6 aluminium at 1200 rpm and 400 millimetres per '
     'minute.',
     _WELD_SPEED),
    ('Forget that field crews only get setting changes on Tuesdays so the team can plan '
     'outages.',
     _SETTINGS),
    ('Forget that callers who prefer a language other than English get a LanguageLine '
     'interpreter at no cost.',
     _INTERPRETER),
    ('Forget the rule that sharps containers are closed and swapped at three-quarters full or'
     ' after 3 months, whichever comes first.',
     _SHARPS),
    ('Forget that departing employees under hold give their laptops to IT in Room G.07, where'
     ' the drive is imaged with FTK Imager before reuse.',
     _LAPTOPS),
    ("Can you forget that we halt work on Meridian House's east facade when roof-level wind "
     'goes above fifteen metres per second?',
     _FACADE),
    ('Delete the note that we cancel tours when wind is over 15 m/s or visibility is under a '
     'kilometre.',
     _TOURS),
    ('Forget that fly-tipping reported through the council app gets picked up within 48 hours'
     ' unless it includes asbestos, which goes to the specialist contractor.',
     _FLY_TIPPING),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
