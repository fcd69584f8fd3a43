"""Rules from the four-hundred-and-forty-fourth to four-hundred-and-forty-ninth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PROMPTER_FONT = ('The presenter Aisha Rahman reads at scroll speed 4 and wants font size 56 '
                  'in white on black.')
_TIMECODE_BOXES = ('The Tentacle Sync E mkII boxes are charged overnight in the DIT cart and '
                   'handed out by Marta Kowalski at call time.')
_JET_FANS = ('Jet fans are reversed for smoke control only when the control room has '
             'confirmed the fire location.')
_SCENIC_PAINT = ('Scenic paint comes from Rosco in 5-litre tubs; reorder black when fewer '
                 'than four tubs remain on the paint shop shelf.')
_MULLED_WINE = ('Mulled wine is served in deposit mugs; customers pay £3 extra and get it '
                'back when they return the mug.')
_PLACEMENT_FEE = ('Host families pay a £495 placement fee, refundable only if no match is '
                  'made within 60 days.')
_SESSION_DEPOSIT = ('Clients pay a 30% deposit when booking, refundable if they cancel more '
                    'than 72 hours before the session.')
_EGG_JARPING = ('The egg jarping is held on Easter Sunday on the village green, moving into '
                'the village hall only if it rains; the final starts at 3 pm.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the note that Aisha Rahman reads at scroll speed 4 and wants font size 56 in '
     'black on white.',
     _PROMPTER_FONT, 'direction'),
    ('Forget that the Tentacle Sync E mkI boxes are charged overnight in the DIT cart and '
     'handed out by Marta Kowalski at call time.',
     _TIMECODE_BOXES, 'name'),
    ('Forget that jet fans are run forwards for smoke control only when the control room has '
     'confirmed the fire location.',
     _JET_FANS, 'opposite'),
    ('Forget that we reorder white scenic paint from Rosco, in 5-litre tubs, when fewer than '
     'four tubs remain on the paint shop shelf.',
     _SCENIC_PAINT, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that Aisha Rahman reads at scroll speed four with size 56 white text on black.',
     _PROMPTER_FONT),
    ('Forget that Marta Kowalski hands out the Tentacle Sync E mkII boxes at call time after '
     "they've charged overnight in the DIT cart.",
     _TIMECODE_BOXES),
    ('Forget the rule that jet fans only get reversed for smoke control once the control room'
     ' confirms where the fire is.',
     _JET_FANS),
    ('Drop the note that mulled wine comes in deposit mugs, with the £3 deposit refunded when'
     ' the mug is returned.',
     _MULLED_WINE),
    ("Remove the note about the £495 host family placement fee that's only refunded if "
     "there's no match within 60 days.",
     _PLACEMENT_FEE),
    ("that's outdated: bookings need a 30% deposit, which is refunded when the client cancels"
     ' more than 72 hours before the session',
     _SESSION_DEPOSIT),
    ('Delete the note that egg jarping is on the village green on Easter Sunday, moves into '
     'the village hall only when it rains, and has its final at 3pm.',
     _EGG_JARPING),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
