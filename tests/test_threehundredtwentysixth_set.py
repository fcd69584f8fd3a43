"""Rules from the three-hundred-and-twenty-sixth to three-hundred-and-thirty-first forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PIGS = ('Visitors must shower in and wear farm overalls, and must not have been near other '
         'pigs in the last 72 hours.')
_POND = ('The wallow pond in the east field is topped up in summer so the herd can cool off '
         'when it is above 28 °C.')
_BRICK = 'Brick sessions on Wednesdays are 90 minutes on the Wattbike followed by a 5 km run.'
_LENSES = ('The Greefa sorting machine on Line 1 gets its camera lenses cleaned every Monday '
           'morning before the first run.')
_RECORD = 'Group members may only record sessions if everyone present agrees at the start.'
_GAMES = ('Open division games are played on Tuesday nights at the Eastside Rec Center gym, '
          'with the first match at 7 pm.')
_MELONS = 'Melons are harvested when the stem slips easily, usually 38 to 42 days after pollination.'
_SCORES = ('Scores are entered into the Scoreholio app by the winning team straight after each '
           'match.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # the other particle after a bare verb
    ('Delete the biosecurity rule that visitors must shower out and wear farm overalls, and must '
     'not have been near other pigs in the last 72 hours.', _PIGS, 'opposite'),
    # another thing joined before the stored subject
    ('Delete the biosecurity rule that all staff and visitors must shower in, wear farm overalls '
     'and not have been near other pigs in the last 72 hours.', _PIGS, 'scope'),
    # the same doer before "can", then another purpose; the reason ends at "when"
    ('Remove the note that the wallow pond in the east field is topped up in summer so the herd '
     'can keep flies off when it is above 28 °C.', _POND, 'condition'),
    # the two parts of a session either side of "followed by", the other way round
    ('Delete the note that Wednesday brick sessions are a 5 km run followed by 90 minutes on the '
     'Wattbike.', _BRICK, 'direction'),
    # a capitalised label before a list of numbers
    ('Drop the note that the Greefa sorting machines on Lines 1 and 2 get their camera lenses '
     'cleaned every Monday morning before the first run.', _LENSES, 'scope'),
    # part of the people against everyone
    ('Scrap the rule that group members may only record sessions if most of those present '
     'agree at the start.', _RECORD, 'quantity'),
    # outdoors against a gym
    ('Delete the note that open division games are played on Tuesday nights on the outdoor '
     'courts at Eastside Rec Center, first match at 7 pm.', _GAMES, 'environment'),
    # where a crop is grown, at the text's start
    ('Remove the note that field-grown melons are harvested when the stem slips easily, usually '
     '38 to 42 days after pollination.', _MELONS, 'scope'),
    # another doer, once active and once after the passive's "by"
    ('Delete the note that the league commissioner enters scores into the Scoreholio app '
     'straight after each match.', _SCORES, 'role'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget the biosecurity rule that visitors must shower in and put on farm overalls, and '
     'must not have been near other pigs in the last 72 hours.', _PIGS),
    ('Remove the note that the wallow pond in the east field gets topped up in summer so the '
     'herd can cool off when it is above 28 °C.', _POND),
    ('Delete the note that Wednesday brick sessions are 90 minutes on the Wattbike followed by '
     'a 5 km run.', _BRICK),
    ('Drop the note that the Greefa sorting machine on Line 1 has its camera lenses cleaned '
     'every Monday morning before the first run.', _LENSES),
    ('Scrap the rule that group members may only record sessions if everyone present agrees at '
     'the start.', _RECORD),
    ('Delete the note that open division games are on Tuesday nights at the Eastside Rec Center '
     'gym, first match at 7 pm.', _GAMES),
    ('Remove the note that melons are picked when the stem slips easily, usually 38 to 42 days '
     'after pollination.', _MELONS),
    ('Delete the note that the winning team enters scores into the Scoreholio app straight '
     'after each match.', _SCORES),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
