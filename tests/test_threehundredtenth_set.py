"""Rules from the three-hundred-and-tenth to three-hundred-and-fifteenth forget sets' first
runs. Each near miss below forgot the stored fact before its rule; each guard is a rewording of
the earlier sets that a first cut of a rule refused, or one the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # "kicks in" is switching on
    ('Forget that the Daikin FTXM35 in the chinchilla breeding room switches off automatically '
     'at 22 °C.',
     'Chinchillas in the breeding room are kept between 16 and 20 °C; the Daikin FTXM35 air '
     'conditioner kicks in automatically at 22 °C.', 'opposite'),
    # "by" a date is before it
    ('Forget that orders from the Hereford cider festival must be posted after 1 September '
     'using Royal Mail Tracked 48.',
     'Orders from the Hereford cider festival must be posted by 1 September using Royal Mail '
     'Tracked 48.', 'opposite'),
    # "dis-" before a listed base, "off-" before a listed base
    ('Forget that LiPo batteries may only be discharged in the fireproof charging bay in Hall B, '
     'never in the pits.',
     'LiPo batteries may only be charged in the fireproof charging bay in Hall B, never in the '
     'pits.', 'opposite'),
    ("Delete the rule that sighted pilots must complete the club's pilot course before "
     "captaining a visually impaired stoker on off-road rides.",
     "Sighted pilots must complete the club's pilot course before captaining a visually "
     "impaired stoker on road rides.", 'opposite'),
    # "for members only" that the stored text never limits
    ('Scrap the note that tea dance entry is £5 for members only, including a pot of tea and a '
     'slice of cake.',
     'Tea dance entry is £5, which includes a pot of tea and one slice of cake; extra cake costs '
     '£1.50.', 'scope'),
    # a setting put before the shared noun
    ('Forget that the sand pit is on the east side of the practice course, after the barriers '
     'and before the flyover.',
     'The sand pit is on the east side of the course, after the barriers and before the '
     'flyover.', 'scope'),
    # "<name> is a <role>" against the same name doing a leading job's verb
    ('Forget that Yuki Tanaka is a barista on the late shift on Fridays and Saturdays, when the '
     'cafe stays open until 23:00.',
     'Yuki Tanaka manages the late shift on Fridays and Saturdays, when the cafe stays open '
     'until 23:00.', 'role'),
    ('Please forget that Tomasz Nowak is back marker on the Friday walks and Aiyana Brooks leads '
     'the Saturday walks from mid-June to the end of July.',
     'Tomasz Nowak leads the Friday walks and Aiyana Brooks leads the Saturday walks from '
     'mid-June to the end of July.', 'role'),
    # another object after the same modal and verb
    ('Scrap the rule that clients must take their pets out of the flat before treatment, and '
     'the crew lead checks this at the door.',
     'Clients must take aerosols, candles and houseplants out of the flat before treatment, and '
     'the crew lead checks this at the door.', 'word'),
    # another thing after the same preposition and hyphenated word
    ('Delete the note that buns are steamed in two-tier stainless steel steamers, 30 cm wide, '
     'for 12 minutes per batch on high heat.',
     'Buns are steamed in two-tier bamboo baskets, 30 cm wide; each batch steams for 12 minutes '
     'on high heat.', 'word'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    # "off-spec" is not read: "fail spec" rewords it
    ("That's no longer how it works: batches that fail spec are reworked into the grey primer "
     "line instead of being scrapped.",
     'Off-spec batches are reworked into the grey primer line rather than scrapped.'),
    # the role the verb names, and no role at all
    ("That's no longer true, forget it: Tomasz Wójcik being the day-shift supervisor of the "
     "stripping machines.",
     'Tomasz Wójcik supervises the stripping machines on day shift.'),
    ('Forget that the farmers market is held on the second Saturday of each month from 8am to '
     '1pm in Market Square.',
     'The farmers market runs on the second Saturday of every month, 8:00-13:00, in Market '
     'Square.'),
    # a phrase of the request's slot that the stored text says in its own slot is no moved
    # phrase (a first cut of the 304th-309th sets' rule refused it)
    ('Remove the memory that allergen sheet v3 at the hatch flags almonds in the mole, and staff '
     'must tell nut-allergy customers before they pay.',
     'Allergen sheet v3 by the serving hatch lists almonds in the mole sauce, and staff must '
     'point it out to nut-allergy customers before payment.'),
    # one side of a switch in other words, one deadline in other words
    ('Forget that the Daikin air conditioner switches on automatically at 22 °C.',
     'The Daikin air conditioner kicks in automatically at 22 °C.'),
    ('Forget that orders must be posted before 1 September.',
     'Orders must be posted by 1 September.'),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
