"""Rules from the 516th-521st forget sets' first runs. Each near miss below forgot the stored
fact before its rule; each guard is the set's own rewording, which the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PERMIT = ('Any live work on the 11 kV switchboard needs a permit-to-work issued by the senior '
           'authorised person, Mark Doyle.')
_CRM = ('Certified reference material CRM-204 (lead in water) is stored in the 4 °C fridge in '
        'Room 2.11, not the freezer.')
_BLADES = ('Blades with cracks in the root fitting are scrapped, not repaired, and the serial '
           'number is reported to the manufacturer within 48 hours.')
_DOORS = ('Specimen doors are conditioned in the humidity room at 23 °C and 50% RH for 28 days '
          'before a test.')
_AUDIT = ("The fire door audit covers all 48 doors in the hospital's east wing and is completed "
          'every March by the contractor FireSafe Ltd.')
_CHECKS = ('Returned checks from the lockbox are logged in the NSF tracker by Kevin Marsh, and '
           "the customer's account is put on credit hold.")
_OIL = ('Lube oil samples are pulled from all three units on the first Monday of each month and '
        'sent to the Tulsa lab.')
_DWP = ('The tenancy fraud team shares data with the DWP through the NFI portal only after the '
        'data protection officer approves each request.')
_PIT = ('At shift end the vac truck empties the exit pit into the spoils tank, and the full tank '
        'goes to the Millbrook disposal site on Fridays.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the note that any work on the de-energised 11 kV switchboard needs a '
     'permit-to-work issued by Mark Doyle, the senior authorised person.', _PERMIT, 'opposite'),
    ('Remove: CRM-204 (lead in water) is stored in the freezer in Room 2.11, not the 4 °C '
     'fridge.', _CRM, 'negation'),
    ("Delete the note that blades with cracks in the root fitting don't have to be scrapped "
     'and can be repaired.', _BLADES, 'negation'),
    ('Remove: one specimen door from each batch is conditioned in the humidity room at 23 °C '
     'and 50% RH for 28 days before a test.', _DOORS, 'scope'),
    ('Forget that the fire door audit covers only a sample of the 48 doors in the '
     "hospital's east wing and is completed each March by FireSafe Ltd.", _AUDIT, 'scope'),
    ('Remove the note that returned checks from the lockbox are logged in the NSF tracker by '
     "Kevin Marsh and the customer's account is released from credit hold.", _CHECKS,
     'opposite'),
    ('Erase the note that lube oil samples are pulled from one of the three units on the first '
     'Monday of each month and sent to the Tulsa lab.', _OIL, 'scope'),
    ('Remove: the tenancy fraud team receives data from the DWP through the NFI portal only '
     'after the data protection officer approves each request.', _DWP, 'direction'),
    ('Forget that at shift end the vac truck empties the spoils tank into the exit pit, and '
     'the tank goes to Millbrook disposal on Fridays.', _PIT, 'direction'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Remove: live work on the 11 kV switchboard requires a permit-to-work from Mark Doyle, '
     'the SAP.', _PERMIT),
    ('Forget that CRM-204, the lead-in-water reference material, lives in the 4 degree fridge '
     'in Room 2.11 rather than the freezer.', _CRM),
    ('Delete the note that blades with root fitting cracks get scrapped rather than repaired, '
     'with the serial number reported to the manufacturer within two days.', _BLADES),
    ('Drop the memory that specimen doors sit in the humidity room at 23 degrees and 50 percent '
     'relative humidity for four weeks before testing.', _DOORS),
    ("That's outdated: FireSafe Ltd does the fire door audit of all 48 east wing doors at the "
     'hospital each March.', _AUDIT),
    ('Erase the rule that Kevin Marsh logs returned lockbox checks in the NSF tracker and the '
     'customer account goes on credit hold.', _CHECKS),
    ('Delete the note that lube oil gets sampled from all three units the first Monday of '
     'every month and sent to the Tulsa lab.', _OIL),
    ('Forget that we only share data with DWP via the NFI portal once the DPO has signed off '
     'each request.', _DWP),
    ('Forget that the vac truck pumps the exit pit into the spoils tank at end of shift and the '
     'tank goes to Millbrook disposal every Friday.', _PIT),
    ('Relay settings files come from the production settings database v7.2, never from the '
     'test laptop copy.', 'Relay settings files are pulled from the production settings '
     'database, version 7.2, never from the copy on the test laptop.'),
])
def test_rewordings_of_the_new_sets_agree(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)
