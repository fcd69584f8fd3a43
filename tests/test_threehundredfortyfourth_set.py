"""Rules from the three-hundred-and-forty-fourth to three-hundred-and-forty-ninth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_BIKES = ('Bikes not collected within 30 days of the repair being finished are charged £5 per '
          'day storage.')
_GRIPTAPE = ('Griptape is applied free of charge when a customer buys a complete deck from the '
             'shop.')
_CABLE = ('A brake cable replacement on a Xiaomi Pro 2 takes about 45 minutes and is billed at a '
          'flat £35 plus parts.')
_BOLTS = ('Finished bolts of 75 metres are wrapped in brown paper and shipped to the Milan agent '
          'each Friday afternoon.')
_TENTS = ('Custom tent orders require a 30% deposit, and production starts only once the customer '
          'signs the drawing approved by the design team.')
_STRAPS = 'The 25 mm cam buckle straps are stocked only in orange and black.'
_STOCK = ('Oksana Kovalenko of the morning shift makes the borscht stock on Thursdays in the '
          '50-litre pot, and all of it is frozen in dated 2-litre tubs.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # a kind written into the thing's word, at the text's start
    ('Please drop the memory that e-bikes not collected within 30 days of the repair being '
     'finished are charged £5 per day storage.', _BIKES, 'scope'),
    # "costs extra" / "free of charge", "discontinued" / "stocked"
    ('Please drop the note that griptape costs extra when a customer buys a complete deck from '
     'the shop.', _GRIPTAPE, 'opposite'),
    ('Forget that the 25 mm cam buckle straps have been discontinued in orange and black.',
     _STRAPS, 'opposite'),
    # a rate per hour against a flat amount
    ('Forget that a brake cable replacement on a Xiaomi Pro 2 takes about 45 minutes and is '
     'billed at £35 per hour plus parts.', _CABLE, 'unit'),
    # "each Friday" read as "every Friday" against "every second Friday"
    ('We no longer need the note that finished 75-metre bolts are wrapped in brown paper and '
     'shipped to the Milan agent every second Friday afternoon.', _BOLTS, 'schedule'),
    # two "only once" conditions that share no word
    ('Scrap the rule that custom tent orders require a 30% deposit and production starts only '
     'once the deposit has cleared.', _TENTS, 'condition'),
    # half of it against all of it
    ('Remove the memory that Oksana Kovalenko of the morning shift makes the borscht stock on '
     'Thursdays in the 50-litre pot and freezes half of it in dated 2-litre tubs.', _STOCK,
     'quantity'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Please drop the memory that bikes not collected within 30 days of the repair being '
     'finished are charged £5 a day for storage.', _BIKES),
    ('Please drop the note that griptape is put on free when a customer buys a complete deck from '
     'the shop.', _GRIPTAPE),
    ('Forget that a brake cable replacement on a Xiaomi Pro 2 takes about 45 minutes and costs a '
     'flat £35 plus parts.', _CABLE),
    ('We no longer need the note that 75-metre bolts are wrapped in brown paper and shipped to '
     'the Milan agent every Friday afternoon.', _BOLTS),
    ('Scrap the rule that custom tent orders need a 30% deposit and production only starts once '
     'the customer signs the drawing the design team approved.', _TENTS),
    ('Remove the memory that Oksana Kovalenko of the morning shift makes the borscht stock on '
     'Thursdays in the 50-litre pot and freezes all of it in dated 2-litre tubs.', _STOCK),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
