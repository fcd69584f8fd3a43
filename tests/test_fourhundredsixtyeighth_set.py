"""Rules from the four-hundred-and-sixty-eighth to four-hundred-and-seventy-third forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_LANYARD_STORAGE = ('Lanyards are stored hanging on the pegs in the harness room, away from '
                    'direct sunlight.')
_GAS_CYLINDERS = ('The crew van (reg. KX71 ROF) carries 3 gas cylinders; all of them must be '
                  'unloaded every evening and locked in the yard cage at Depot North.')
_FIRST_ARTICLE = ('First article inspection is done on the first board of every batch with '
                  'the AOI, and the line leader signs it before production continues.')
_RELEASE_TAGS = ('Ana tags the releases on the first Monday of each month.')
_COBRA_ENCLOSURE = ('The king cobra enclosure is opened only with two keepers present, one of'
                    ' them holding the snake hook.')
_STRING_REELS = ('The 200 m reels of Luxilon ALU Power are kept in drawer C3, out of direct '
                 'sunlight.')
_RADIO_CALLS = ('Drivers radio control on channel 4 as they leave the terminal stop.')
_SALT_SPRAY = ('Salt spray test panels go to the lab every Friday, and all of them must reach'
               ' 720 hours without red rust.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the note that lanyards are stored hanging on the pegs in the harness room, in '
     'direct sunlight.',
     _LANYARD_STORAGE, 'direction'),
    ('Scrap the rule that the crew van (reg. KX71 ROF) carries 3 gas cylinders and only one '
     'of them must be unloaded every evening and locked in the yard cage at Depot North.',
     _GAS_CYLINDERS, 'quantity'),
    ('Remove the memory that first article inspection is done on every board of every batch '
     'with the AOI, and the line leader signs it before production continues.',
     _FIRST_ARTICLE, 'quantity'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Releases are tagged by Ana on the first Monday of every month',
     _RELEASE_TAGS),
    ('Please forget that the king cobra enclosure only gets opened with two keepers there, '
     'one of them holding the snake hook.',
     _COBRA_ENCLOSURE),
    ('Please forget that we keep the 200-metre reels of Luxilon ALU Power in drawer C3, away '
     'from direct sun.',
     _STRING_REELS),
    ('Scrap the note that drivers call control on radio channel 4 when they pull away from '
     'the terminal stop.',
     _RADIO_CALLS),
    ('Forget that salt spray panels go to the lab on Fridays and every one of them has to '
     'reach 720 hours with no red rust.',
     _SALT_SPRAY),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
