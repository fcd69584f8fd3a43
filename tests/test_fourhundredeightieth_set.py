"""Rules from the 480th-491st forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_MISSING_CHILDREN = ('Children missing from care homes are flagged to the safeguarding hub on'
                     ' Queen Street by 09:00 the next morning.')
_BANK_DETAILS = ('Changes to vendor bank details are verified by calling the vendor back on '
                 'the number from the original contract, never the number on the change '
                 'request.')
_OXYCODONE = ('Oxycodone oral solution 5 mg/5 ml balances are checked by measuring the volume'
              ' with a 10 ml oral syringe, not by estimating from the bottle.')
_BONDED_STORE = ('The bonded store keys are held by the warehouse keeper, Svetlana Petrova, '
                 'and the door is alarmed from 18:00.')
_LOW_VISIBILITY = ('During low-visibility procedures, apron controllers hand aircraft over to'
                   ' ground at holding point Alpha 3 instead of Alpha 5.')
_URINE = ('Urine samples are screened by immunoassay on the Siemens Viva-E first; only '
          'positives go on to mass spec confirmation.')
_DETAINEES = ('Detainees flagged as high risk are checked every 30 minutes and roused every '
              'hour, with each visit logged in NICHE.')
_ROUTE_9 = ('The Route 9 coach picks up at the Manor Park stop at 8:05 am and drops off at St'
            " Anne's Primary by 8:40 am.")
_SYNONYMS = ('Synonym list changes are reviewed by Hana Suzuki and deployed to staging on '
             'Tuesdays, then to production on Thursdays.')
_ATO_207 = ('Rule ATO-207 flags logins from a new country when the account has a payee change'
            ' in the previous 48 hours.')
_PORTERS = ('Porters must use the padded trolleys for any lot marked fragile, and move items '
            'from the loading bay to the saleroom via the east lift.')
_SAFETY_MESSAGE = ('The safety message about standing behind the yellow line plays on the '
                   'open-air platforms every 15 minutes between 6am and midnight.')
_FLAGS = ('Flags older than 90 days must be removed from the codebase unless they are marked '
          'as permanent kill switches.')
_POWER_HAMMER = ('Apprentices may not use the power hammer unless Marta Silva is in the shop.')
_HOME_MATCHES = ('Senior team home matches are played on the outdoor rink at Hale Park unless'
                 ' it rains, in which case they move to Riverside Sports Hall.')
_DRY_POWDERS = ('Dry powders run through the Aero S unit at 2 bar air pressure, unless the '
                'material is friable, in which case 0.5 bar is used.')
_CHILLER = ("The St Anne's hospital chiller (R-134a, serial CH-40917) must not be shut down "
            "without the estates manager's approval.")
_BOULDERS = ('The limestone boulders by the pond must not be moved without permission from '
             'the head gardener, Tomás Ruiz.')
_STUDS = ('Every newly fitted stud is photographed on the site tablet so that the council '
          'inspector can sign off the section without a site visit.')
_ENGRAVING = ('Engraving files are kept in AstroCAD 5.1; do not open them in 6.0 because the '
              'star positions shift.')
_CASE_NOTES = ("Case notes are kept in Titanium and deleted seven years after the student's "
               'last contact.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Forget that all missing children are flagged to the safeguarding hub on Queen Street by'
     ' 09:00 the next morning.',
     _MISSING_CHILDREN, 'scope'),
    ('Delete the rule that vendor bank detail changes are verified by calling the number on '
     'the change request, never the number from the original contract.',
     _BANK_DETAILS, 'negation'),
    ('Please drop the note that oxycodone 5 mg/5 ml balances are estimated from the bottle '
     'without measuring the volume.',
     _OXYCODONE, 'negation'),
    ('Delete the note that the bonded store keys are held by the warehouse keeper, Svetlana '
     'Petrova, and the door is disarmed from 18:00.',
     _BONDED_STORE, 'opposite'),
    ('Scrap the note that during runway works, apron controllers hand aircraft over to ground'
     ' at holding point Alpha 3 instead of Alpha 5.',
     _LOW_VISIBILITY, 'condition'),
    ('Forget that urine samples are screened by immunoassay on the Siemens Viva-E first and '
     'only negatives go on to mass spec confirmation.',
     _URINE, 'opposite'),
    ('Scrap the rule that all detainees are checked every 30 minutes and roused every hour, '
     'with each visit logged in NICHE.',
     _DETAINEES, 'scope'),
    ("Forget that the Route 9 coach picks up at St Anne's Primary at 8:05 am and drops off at"
     ' the Manor Park stop by 8:40 am.',
     _ROUTE_9, 'direction'),
    ('Forget that synonym list changes reviewed by Hana Suzuki are deployed to production on '
     'Tuesdays, then to staging on Thursdays.',
     _SYNONYMS, 'direction'),
    ('Delete the note that rule ATO-207 flags logins from a new country unless the account '
     'has a payee change in the previous 48 hours.',
     _ATO_207, 'condition'),
    ('Delete the rule that porters must use the padded trolleys for every lot, moving items '
     'from the loading bay to the saleroom via the east lift.',
     _PORTERS, 'scope'),
    ('Please drop the note that the yellow line safety message plays on the open-air '
     'platforms every 15 minutes between 6am and 10pm.',
     _SAFETY_MESSAGE, 'number'),
    ('Scrap the rule that flags older than 90 days must be kept in the codebase unless they '
     'are marked as permanent kill switches.',
     _FLAGS, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Please remove the rule that apprentices can only use the power hammer when Marta Silva '
     'is in the shop.',
     _POWER_HAMMER),
    ("Remove the note that senior home games are on Hale Park's outdoor rink, moving to "
     'Riverside Sports Hall if it rains.',
     _HOME_MATCHES),
    ('Delete the rule that dry powders go through the Aero S at 2 bar, or at 0.5 bar if the '
     'material is friable.',
     _DRY_POWDERS),
    ("Scrap the note that the R-134a chiller at St Anne's hospital, serial CH-40917, can't be"
     ' switched off without approval from the estates manager.',
     _CHILLER),
    ('We no longer need the rule that nobody moves the limestone boulders by the pond without'
     " head gardener Tomás Ruiz's permission.",
     _BOULDERS),
    ('Forget that each newly fitted stud gets photographed on the site tablet so the council '
     'inspector can sign off the section without visiting.',
     _STUDS),
    ("Remove the warning that AstroCAD 5.1 engraving files mustn't be opened in version 6.0 "
     'since the star positions move.',
     _ENGRAVING),
    ('Please forget that case notes are held in Titanium and removed seven years after the '
     'student was last in contact.',
     _CASE_NOTES),
    ('Forget that synonym list changes, reviewed by Hana Suzuki, are deployed to staging on '
     'Tuesdays and to production on Thursdays.',
     _SYNONYMS),
    ('Forget that the Route 9 coach picks up at the Manor Park stop at 8:05 am, then drops '
     "off at St Anne's Primary by 8:40 am.",
     _ROUTE_9),
    ('Forget that during low-visibility procedures apron controllers hand aircraft to ground '
     'at holding point Alpha 3, not Alpha 5.',
     _LOW_VISIBILITY),
    ('Forget that all detainees flagged as high risk are checked every 30 minutes and roused '
     'hourly, each visit logged in NICHE.',
     _DETAINEES),
    ('Forget that the yellow line safety message plays on the open-air platforms every 15 '
     'minutes from 6am until midnight.',
     _SAFETY_MESSAGE),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
