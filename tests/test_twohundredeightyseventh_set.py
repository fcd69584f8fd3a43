"""Rules from the two-hundred-and-eighty-seventh to two-hundred-and-ninety-second forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another condition after "only if", the condition's verb and the main clause read past
    ('Delete the note that the Easter Sunday egg jarping moves from the village green into the '
     'village hall only if it is windy, with the final at 3 pm.',
     'The egg jarping is held on Easter Sunday on the village green, moving into the village '
     'hall only if it rains; the final starts at 3 pm.', 'condition'),
    # once a quarter against once a month
    ('Forget that seconds with glaze faults are sold at half price in the yard sale on the last '
     'Saturday of each quarter.',
     'Seconds with glaze faults are sold at half price in the yard sale on the last Saturday of '
     'the month.', 'schedule'),
    # some against each
    ('Remove the memory that only some of the 12 rush maidens carry a garland of rushes and '
     'flowers.',
     'Each of the 12 rush maidens carries a garland of rushes and flowers, and the maidens must '
     'be aged 8 to 14.', 'opposite'),
    # every other sheet against each sheet
    ('Remove the note that finished prints dry flat for 7 days in the drying rack and are '
     'packed with glassine between every other sheet.',
     'Finished prints dry flat for 7 days in the drying rack before they are packed with '
     'glassine between each sheet.', 'opposite'),
    # dropped off against collected
    ("Forget that the winners' trophies must be dropped off at Kettering Engravers' shop by the "
     "Thursday before the championship.",
     "The winners' trophies, engraved by Kettering Engravers, must be collected from their "
     "shop by the Thursday before the championship.", 'opposite'),
    # a model's generation said as a word against its number (the 287th and 299th sets)
    ('Forget that the guide, Ingrid Solberg, carries a first aid kit and a first-generation '
     'Garmin inReach Mini on every walk.',
     'The guide, Ingrid Solberg, carries a first aid kit and a Garmin inReach Mini 2 on every '
     'walk.', 'words'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that the club meets on the first Monday of every month.',
     'The club meets on the first Monday of the month.'),
    ('Forget that we pick cherry only once 90% or more of a lot is ripe, paying pickers 18,000 '
     'pesos a lata.',
     'Cherry is picked only when at least 90% of a lot is ripe red; pickers are paid 18,000 '
     'pesos per lata.'),
    ('Forget that crepe batter is mixed fresh each morning in five-litre batches and rests in '
     'the cooler for an hour minimum before we use it.',
     'Crepe batter is made fresh every morning in 5-litre batches and rested for at least 1 '
     'hour in the cooler before use.'),
    ('Drop the fact that the crush cars arrive from Hartley Salvage Thursday morning and are '
     'picked up by them Monday.',
     'Hartley Salvage delivers the crush cars on Thursday morning and collects them on Monday.'),
    ('Forget that each crate holds six bottles.', 'Every crate holds six bottles.'),
    ('Forget that the guide carries a second-gen Kindle.',
     'The guide carries a Kindle (2nd generation).'),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
