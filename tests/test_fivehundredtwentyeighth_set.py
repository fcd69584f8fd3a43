"""Rules from the 528th-533rd forget sets' first runs. Each near miss below forgot the stored
fact before its rule; each guard is a rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PREMIUMS = ('Reinstatement premiums are accrued only for layers that have been eroded by a loss '
             'event.')
_CLAIMS = ('Claims rejected by the Rotterdam customs office are resubmitted within 30 days with '
           'the corrected commodity code.')
_TRACES = ('OTDR traces are shot from the exchange end toward the cabinet at both 1310 nm and '
           '1550 nm.')
_ELEVATIONS = 'Spot elevations on all en-route charts are shown in feet above mean sea level.'
_ACID = ('Nitric acid 70% goes in the acid cabinet on the lower shelf, kept separate from organic '
         'acids such as acetic acid.')
_RECIPE = ('Line 2 camera recipe version 3.4 is approved for 10 mL vials only; 2 mL vials still '
           'run on recipe 3.1.')
_DRIVERS = 'Only drivers holding a D1 licence plus a MiDAS certificate may drive MB-03.'


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Delete the rule that reinstatement premiums are reversed for layers that have been eroded '
     'by a loss event.', _PREMIUMS, 'opposite'),
    ('Forget that claims rejected by the Rotterdam customs office are withdrawn within 30 days.',
     _CLAIMS, 'opposite'),
    ("That's outdated: OTDR traces are shot from the exchange end toward the cabinet at 1550 nm "
     'only.', _TRACES, 'scope'),
    ('Remove the note that spot elevations are omitted from all en-route charts.', _ELEVATIONS,
     'opposite'),
    ('Forget that nitric acid 70% is stored in the acid cabinet on the lower shelf together with '
     'the organic acids such as acetic acid.', _ACID, 'opposite'),
    ('Forget that Line 2 camera recipe version 3.4 is approved for both 10 mL and 2 mL vials.',
     _RECIPE, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Scrap the note that reinstatement premiums are accrued only on layers that a loss event '
     'has eroded.', _PREMIUMS),
    ('Remove the note that claims the Rotterdam customs office rejected are resubmitted within '
     '30 days with the corrected commodity code.', _CLAIMS),
    ("That's outdated: OTDR traces are shot from the exchange end toward the cabinet at 1310 nm "
     'and 1550 nm.', _TRACES),
    ('Forget that all en-route charts show spot elevations in feet above mean sea level.',
     _ELEVATIONS),
    ('Forget that 70% nitric acid is kept on the lower shelf of the acid cabinet, separate from '
     'organic acids such as acetic acid.', _ACID),
    ('No longer true: Line 2 camera recipe version 3.4 is approved for 10 mL vials only, and '
     '2 mL vials still run on recipe 3.1.', _RECIPE),
    # "both" the things held, "only" who holds them (the 49th set): no scope apart
    ('Remove the note that you need both a D1 licence and a MiDAS certificate to drive MB-03.',
     _DRIVERS),
])
def test_rewordings_of_the_new_sets_agree(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)
