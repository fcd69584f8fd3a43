"""Rules from the three-hundred-and-sixty-sixth to three-hundred-and-seventy-first forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_PERMIT = ('Confined-space entries into storm drains need a three-person team: an entrant, a '
           'top person and a supervisor who holds the permit.')
_CABLE = ('A main cable is replaced when an inspection finds more than 10% of its strands '
          'broken in any 1 metre length.')
_SHEETS = ('Finished sheets are rinsed, hung on the back-room drying lines for 12 hours and '
           'then flattened in the book press.')
_SKIPPERS = ('Skippers must switch off their engines and hold the boat on centre lines while '
             'the caisson is moving.')
_GALLOP = ('Anyone riding out on the all-weather gallop must wear a body protector, including'
           ' work riders on loan from other yards.')
_GRAFFITI = ('Graffiti on shelters is reported to Bongani Dlamini, the supervisor, within 24 '
             'hours with a photo.')
_NET_PANEL = ('The square-mesh panel on the Ocean Harvest net is 90 mm and sits 3 metres '
              'ahead of the cod-end, as the fisheries licence requires.')
_CABINET = ('The display cabinet is held at -14°C so that the ice cream stays soft enough to '
            'scoop.')
_TRACKS = ('Priya Nand sweeps the outdoor carpet track with the Kärcher KM 70/30 every '
           'Saturday evening; the indoor clay track is watered on Friday night.')
_CORKAGE = ('Corkage is £12 per bottle of wine brought in by the client; spirits are not '
            'permitted.')
_LABELS = ('The Zebra ZD421 label printer uses label template v3.2 since we switched to the '
           'new best-before format (packing date + 14 days).')
_CAPTAIN = ('After every incident the captain reports to the Mine Manager, Gwen Rees: '
            'verbally within 1 hour and in writing within 24 hours.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the note that confined-space entries into storm drains need a three-person team,'
     ' with the entrant holding the permit.',
     _PERMIT, 'direction'),
    ('Delete the note that a main cable is replaced only when two inspections in a row find '
     'more than 10% of its strands broken in any 1 metre length.',
     _CABLE, 'number'),
    ('Delete the note that finished sheets are flattened in the book press first and then '
     'hung on the back-room drying lines for 12 hours.',
     _SHEETS, 'direction'),
    ('Forget that skippers of hire boats must switch off their engines and hold on centre '
     'lines while the caisson moves.',
     _SKIPPERS, 'condition'),
    ('Drop the rule that only our own work riders must wear a body protector when riding out '
     'on the all-weather gallop.',
     _GALLOP, 'scope'),
    ("Drop the note that graffiti on shelters is reported to the council's graffiti team "
     'within 24 hours with a photo.',
     _GRAFFITI, 'word'),
    ('Forget that the 90 mm square-mesh panel on the Ocean Harvest net sits 3 metres behind '
     'the cod-end, as the fisheries licence requires.',
     _NET_PANEL, 'opposite'),
    ('Forget that the display cabinet is held at -14°C so that the colours of the ice cream '
     'stay bright.',
     _CABINET, 'condition'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the note that a main cable gets replaced when one inspection finds over 10% of '
     'its strands broken in any 1 metre length.',
     _CABLE),
    ('Forget that the 90 mm square-mesh panel sits 3 metres ahead of the cod-end on the Ocean'
     ' Harvest net, as the fisheries licence requires.',
     _NET_PANEL),
    ('Delete the note that finished sheets are rinsed, hung on the back-room drying lines for'
     ' 12 hours, and then flattened in the book press.',
     _SHEETS),
    ('Remove the note that storm drain confined-space entries need a three-person team of '
     'entrant, top person and a supervisor holding the permit.',
     _PERMIT),
    ('Forget that skippers must switch off their engines and hold the boat on the centre '
     'lines while the caisson moves.',
     _SKIPPERS),
    ('Forget that the display cabinet is kept at -14°C so the ice cream stays soft enough to '
     'scoop.',
     _CABINET),
    ('Drop the note that graffiti on shelters gets reported within 24 hours, with a photo, to'
     ' Bongani Dlamini, the supervisor.',
     _GRAFFITI),
    ('Drop the rule that anyone riding out on the all-weather gallop, work riders on loan '
     'from other yards included, must wear a body protector.',
     _GALLOP),
    ("That's no longer right: Priya sweeps the outdoor carpet with the Kärcher KM 70/30 on "
     'Saturday evenings and the indoor clay gets watered Friday nights.',
     _TRACKS),
    ("That's outdated: corkage of twelve pounds a bottle on client-supplied wine, with no "
     'spirits allowed.',
     _CORKAGE),
    ('Forget that the Zebra ZD421 prints with label template version 3.2 ever since the '
     'best-before changed to packing date plus fourteen days.',
     _LABELS),
    ('Forget that the captain briefs Mine Manager Gwen Rees after each incident, by word of '
     'mouth within an hour and in writing within a day.',
     _CAPTAIN),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
