"""Rules from the four-hundred-and-twentieth to four-hundred-and-twenty-fifth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_YEAST_TANKERS = ('Cream yeast tankers may only be loaded at bay 2 when the product has '
                  'passed the 48-hour contamination plate count.')
_COUNTERSINK = ('Countersink depth target on can line 2 is 6.35 mm ±0.13 mm; the line is '
                'stopped if two consecutive cans are out of tolerance.')
_DAMAGED_PALLETS = ('Damaged pallets are photographed with the Zebra TC52 and logged in '
                    'ClaimTrack v3 under claim code DMG-X before the driver leaves.')
_DOCK_LEVELLER = ('The dock leveller at door 14 is out of service until the Hörmann engineer '
                  'visits on 14 January.')
_WREATH = ('Each wreath participant gets one 30 cm copper wire ring, a bag of sphagnum moss '
           'and a bundle of Nordmann fir.')
_PENALTY_FARES = ('Penalty fares are £50, reduced to £25 if paid within 21 days.')
_MAN_OVERBOARD = ('The port watch runs the man-overboard drill on day 1 of every voyage, '
                  'before the ship leaves harbour.')
_MARZIPAN_EGGS = ("Easter marzipan eggs use wrapper code ME-22 and must ship to Fortnum's by "
                  '1 March.')
_STAGS = ('Stags go down to the winter block on 1 May and back up to the hill block in '
          'September.')
_SCOUR_LINE = ('The scour line has 6 bowls; bowl 1 runs at 65°C with Lissapol detergent.')
_LEAD_WALL = ('Route setters reset the lead wall every 6 weeks, one section at a time, '
              'starting with Section C.')
_EXTRACTOR_FILTERS = ('Kitchen extractor filters on floors 1\u20134 of Beckett Court are degreased'
                      ' monthly.')
_COACH_SEATS = ('On coach BX-204, seats 1 to 4 behind the driver are kept for passengers with'
                ' motion sickness so that they can see the road ahead.')
_BABY_MASSAGE = ('The five-week in-person baby massage course costs £45 per family, paid by '
                 'SumUp link before week one, and is for babies aged 6 weeks to 6 months.')
_SHORTS_PROGRAMME = ('Shorts programme submissions close on 1 June; late entries are accepted'
                     ' only with a waiver code from Lena Marsh.')
_ROUTE_42 = ('Route 42 timetable version 2025.3 comes into force on 1 September.')
_TROUGHS = ('Meadow Lane troughs are turned on on 1 April and off on 31 October to avoid '
            'frost damage.')
_SUGAR_SYRUP = ('Jamie makes the brown sugar syrup every morning, 2 kg of muscovado per '
                'batch.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Scrap the rule that the first cream yeast tanker each day may only be loaded at bay 2 '
     'when the product has passed the 48-hour contamination plate count.',
     _YEAST_TANKERS, 'quantity'),
    ('Forget that the countersink depth target on every can line is 6.35 mm ±0.13 mm.',
     _COUNTERSINK, 'scope'),
    ('Please forget that only the first damaged pallet on each trailer is photographed with '
     'the Zebra TC52 and logged in ClaimTrack v3 under claim code DMG-X before the driver '
     'leaves.',
     _DAMAGED_PALLETS, 'quantity'),
    ('Please drop the note that the dock leveller at door 14 is out of service until the '
     'Hörmann engineer visits on 21 January.',
     _DOCK_LEVELLER, 'number'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Remove the memory about each wreath participant receiving a 30 cm copper wire ring, a '
     'bag of sphagnum moss and a bundle of Nordmann fir.',
     _WREATH),
    ('Remove the fact about penalty fares being fifty pounds, cut to twenty-five if paid '
     'within 21 days.',
     _PENALTY_FARES),
    ('Drop the memory that the port watch does the man-overboard drill on the first day of '
     'each voyage, before we leave harbour.',
     _MAN_OVERBOARD),
    ("That's no longer true: the Easter marzipan eggs with wrapper code ME-22 have to ship to"
     " Fortnum's by the first of March. Please forget it.",
     _MARZIPAN_EGGS),
    ('Forget the stag moves: down to the winter block on the first of May, back up to the '
     'hill block in September.',
     _STAGS),
    ('Scrap the note on the scour: six bowls, the first at sixty-five degrees using Lissapol.',
     _SCOUR_LINE),
    ('Forget how lead wall resets work: every six weeks, section by section, Section C first.',
     _LEAD_WALL),
    ('Forget that in Beckett Court the kitchen extractor filters on the first four floors get'
     ' degreased once a month.',
     _EXTRACTOR_FILTERS),
    ('Delete the note about the motion sickness seats: on coach BX-204 the first four seats '
     'behind the driver are held for those passengers so they can see the road in front.',
     _COACH_SEATS),
    ('Remove the memory that the 5-week in-person baby massage course is £45 a family, paid '
     'via SumUp before the first week, for babies 6 weeks to 6 months old.',
     _BABY_MASSAGE),
    ('Erase the memory that shorts submissions shut on the first of June and late entries '
     'need a waiver code from Lena Marsh.',
     _SHORTS_PROGRAMME),
    ('We no longer need the memory that version 2025.3 of the route 42 timetable takes effect'
     ' on the first of September.',
     _ROUTE_42),
    ("Drop the one about the Meadow Lane troughs' season: water on from the first of April, "
     "off from the thirty-first of October, so frost doesn't damage them.",
     _TROUGHS),
    ('Please delete the note that Jamie makes brown sugar syrup each morning using two kilos '
     'of muscovado a batch.',
     _SUGAR_SYRUP),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
