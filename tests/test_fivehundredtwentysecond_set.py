"""Rules from the 522nd-527th forget sets' first runs, and the synonyms counted over all sets'
refused rewordings. Each near miss below forgot the stored fact before its rule; each guard
is the set's own rewording (or a refused one the synonyms let through), which must agree."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_TAMPING = ('After tamping, a 20 mph speed restriction stays in place until the dynamic track '
            'stabiliser has made one pass.')
_SAMPLES = ('Samples are released to researchers only if the access committee has approved the '
            'request, and Grace Oduya packs them on dry ice for courier pickup.')
_SLIDES = ("A senior biomedical scientist rapid-reviews 10% of each screener's negative slides "
           'to pick up missed abnormalities.')
_BOXES = ('Biobank retrieval requests are processed on Tuesdays and Thursdays, and retrieved '
          'boxes are logged out in FreezerPro.')
_PILES = ('Sheet piles for the toe repair are driven with the ABI TM 13/16 rig from the beach '
          'side, working east to west.')
_OFSI = ('OFSI licence applications on humanitarian grounds are drafted by Tom Beckett and '
         'submitted through the OFSI online portal.')
_FTO = ('Freedom-to-operate searches for the German market are limited to granted patents and '
        'applications still pending at the EPO.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Forget that after tamping, the 20 mph speed restriction is lifted straight away, before '
     'the dynamic track stabiliser has made its pass.', _TAMPING, 'opposite'),
    ('Forget that samples are released to researchers even before the access committee has '
     'approved the request, with Grace Oduya packing them on dry ice for courier pickup.',
     _SAMPLES, 'opposite'),
    ("Remove: a senior biomedical scientist rapid-reviews all of each screener's negative "
     'slides to pick up missed abnormalities.', _SLIDES, 'scope'),
    ('Forget that biobank retrieval requests are processed on Tuesdays and Thursdays and '
     'retrieved boxes are logged back in to FreezerPro.', _BOXES, 'opposite'),
    ('Delete the note that the toe-repair sheet piles are driven with the ABI TM 13/16 from '
     'the beach side, working west to east.', _PILES, 'direction'),
    ('Remove the note that humanitarian-ground OFSI licence applications drafted by Tom '
     'Beckett are withdrawn through the OFSI online portal.', _OFSI, 'opposite'),
    ('Erase that freedom-to-operate searches for the German market exclude granted patents and '
     'applications still pending at the EPO.', _FTO, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the rule that samples go out to researchers only if the access committee has '
     'approved the request, and Grace Oduya packs them on dry ice for courier pickup.',
     _SAMPLES),
    ("Forget that a senior biomedical scientist rapid-reviews 10% of each screener's negative "
     'slides to pick up missed abnormalities.', _SLIDES),
    ('Remove the note that biobank retrievals run on Tuesdays and Thursdays with retrieved '
     'boxes logged out in FreezerPro.', _BOXES),
    ('Remove the memory that sheet piles for the toe repair are driven from the beach side with '
     'the ABI TM 13/16 rig, working east to west.', _PILES),
    ('Drop the memory that Tom Beckett drafts humanitarian-ground OFSI licence applications '
     'and submits them via the OFSI online portal.', _OFSI),
    # the synonyms: "shipped" / "sent", "shows" / "reads", "wants" / "asks for"
    ('Delete the note that lube oil gets sampled from all three units the first Monday of '
     'every month and shipped to the Tulsa lab.', 'Lube oil samples are pulled from all three '
     'units on the first Monday of each month and sent to the Tulsa lab.'),
    ('Forget that the boiler gauge shows 1.5 bar when the system is cold.',
     'The boiler gauge reads 1.5 bar when the system is cold.'),
    ('Forget that the client wants the draft by Friday noon.',
     'The client asks for the draft by Friday noon.'),
])
def test_rewordings_of_the_new_sets_agree(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)
