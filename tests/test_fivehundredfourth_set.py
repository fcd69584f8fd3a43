"""Rules from the 504th-515th forget sets' first runs. Each near miss below forgot the stored
fact before its rule; each guard is a rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_SPEED = ('Emergency speed restrictions of 20 mph are imposed on the down relief line whenever '
          'rail temperature exceeds 46 °C.')
_PAPERS = ('Client money audit working papers are stored in the CaseWare 2024 file under folder '
           'CASS-7 and become read-only after sign-off.')
_GLOVES = 'All fixers must wear level 5 cut-resistant gloves when unpacking slate crates in the yard.'
_LEAVERS = ('Good leavers keep their unvested options only if HR confirms leaver code GL2 in '
            'Workday.')
_CHAIRS = ('Repairs to tilt-in-space chairs are done by the in-house technicians at the Northgate '
           'workshop; anything under warranty goes back to Sunrise Medical.')
_MAPPING = ('Cushion pressure mapping with the ForeSite PT system is done twice a year for every '
            'client with a history of pressure ulcers.')
_RENAMING = ('Renaming an existing street requires consent from at least two-thirds of the '
             'ratepayers on that street before it goes to the planning committee.')
_VAPOUR = ('Vapour monitoring in the Block C basement runs continuously while any of the '
           'dewatering pumps is running.')
_COVERS = ('Vacuum box covers are inspected with a borescope at each fabric change to check for '
           'ceramic chipping.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the note that emergency 20 mph speed restrictions on the down relief line are '
     'lifted whenever rail temperature exceeds 46 °C.', _SPEED, 'opposite'),
    ('Forget that client money audit working papers in the CaseWare 2024 file under folder '
     'CASS-7 stay editable after sign-off.', _PAPERS, 'opposite'),
    ('Remove the rule that fixers must take off their level 5 cut-resistant gloves when '
     'unpacking slate crates in the yard.', _GLOVES, 'opposite'),
    ('Forget that good leavers forfeit their unvested options once HR confirms leaver code GL2 '
     'in Workday.', _LEAVERS, 'opposite'),
    ('Scrap the note that tilt-in-space chair repairs are done by the in-house technicians at '
     'the Northgate workshop, and anything out of warranty goes back to Sunrise Medical.',
     _CHAIRS, 'opposite'),
    ('Forget that cushion pressure mapping with the ForeSite PT system is done twice a year for '
     'every client.', _MAPPING, 'scope'),
    ('Scrap the rule that renaming an existing street requires consent from all of the '
     'ratepayers on that street before it goes to the planning committee.', _RENAMING, 'scope'),
    ('Remove the note that Block C basement vapour monitoring runs continuously only while all '
     'of the dewatering pumps are running.', _VAPOUR, 'scope'),
    ('Scrap the rule that only one vacuum box cover is inspected with the borescope at each '
     'fabric change for ceramic chipping.', _COVERS, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that emergency speed restrictions of 20 mph are imposed on the down relief line '
     'whenever the rail temperature exceeds 46 °C.', _SPEED),
    ('Forget that client money audit working papers are kept in the CaseWare 2024 file under '
     'folder CASS-7 and become read-only after sign-off.', _PAPERS),
    ('Forget that all fixers have to wear level 5 cut-resistant gloves when unpacking slate '
     'crates in the yard.', _GLOVES),
    ('Forget that good leavers keep their unvested options only if HR confirms the GL2 leaver '
     'code in Workday.', _LEAVERS),
    ('Forget that tilt-in-space chair repairs are done by the in-house technicians at the '
     'Northgate workshop and anything under warranty goes back to Sunrise Medical.', _CHAIRS),
    ('Forget that ForeSite PT cushion pressure mapping is done twice a year for every client '
     'with a history of pressure ulcers.', _MAPPING),
    ('Forget that renaming an existing street needs consent from at least two-thirds of the '
     'ratepayers on that street before it goes to the planning committee.', _RENAMING),
    ('Forget that vapour monitoring in the Block C basement runs continuously while any of the '
     'dewatering pumps is running.', _VAPOUR),
    ('Forget that the vacuum box covers are inspected with a borescope at each fabric change '
     'to check for ceramic chipping.', _COVERS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
