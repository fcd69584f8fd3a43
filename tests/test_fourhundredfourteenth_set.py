"""Rules from the four-hundred-and-fourteenth to four-hundred-and-nineteenth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_TORQUE_WRENCHES = ('Click-type torque wrenches are calibrated to ISO 6789-2:2017, with five '
                    'readings at 20%, 60% and 100% of their range.')
_TITANIUM = ('Rahul Mehta is the only operator cleared to cut titanium, and only on the day '
             'shift.')
_TEST_PANELS = ('Test panels are placed at 20 degrees from vertical, all facing the same way,'
                " so that runoff doesn't drip from one panel onto another.")
_APRON = ('Nobody goes onto the apron without a lifejacket and a second person on the '
          'promenade with a radio.')
_GRINDING_TRAIN = ('The RGH20C grinding train works the Down Main between Leeds and York on '
                   'Sunday night possessions from 00:30 to 06:00.')
_WHEELSETS = ('Wheelsets from the Class 158 bogies are ultrasonically tested in bay 4 before '
              'they are sent to the wheel lathe.')
_ASULAM = ('Asulam spraying on the Glen Farm hill ground is only done between 1 July and 31 '
           'August, when the fronds are fully unfurled.')
_REGROWTH = ('Regrowth surveys are done twice a year, in May and September, by Owain '
             'Pritchard and two volunteers.')
_PLATEN_PRESS = ('Apprentices may not operate the platen press unless a supervisor is '
                 'standing at the machine.')
_TRACK_CIRCUITS = ('Track circuit tests on the Down Main between Hatfield and Welwyn are done'
                   ' on Sunday nights from 01:30 to 04:30 under possession number P-2217.')
_BLACK_MASS = ('Black mass is shipped to the Hamburg refinery every second Thursday in '
               '1-tonne FIBC bags.')
_ROOF_WIND = ('Crews must not go up on a roof when sustained wind exceeds 25 mph; the foreman'
              ' checks the anemometer at 7:00 each morning.')
_PENALTY_FARES = ('Penalty fares are £50, reduced to £25 if paid within 21 days.')
_FLOW_MACH = ('The Flow Mach 500 runs at 60,000 psi for steel; it is dropped to 40,000 psi '
              "when piercing glass so that the glass doesn't crack.")
_FUNNELS = ('Collection rate in the funnels must be 1.0 to 2.0 ml per hour per 80 cm²; it is '
            'checked every 24 hours at 09:00.')
_TURNTABLE = ('The chamber turntable rotates clockwise in 5° steps for directivity '
              'measurements and takes loads of up to 80 kg.')
_VELOCICALC = ('The TSI VelociCalc 9565 anemometer is sent for calibration every 12 months to'
               ' the lab in Basingstoke.')
_SCREEN_2 = ('Screen 2 at the Harbour Cinema seats 180 and has 7.1 sound.')
_DOCUMENT_J = ('Under Approved Document J (2022 edition), stoves over 5 kW need a permanent '
               'air vent of 550 mm² for every kW above 5 kW, in the same room.')
_AU_PAIRS = ('Au pairs work no more than 30 hours a week and get 2 full days off every week.')
_LAKE_LOOP = ('Sites 40\u201358 on the lake loop have 30-amp electric hookups.')
_HACKNORTH = ('Registration for HackNorth 2026 closes on 14 March at 23:59 UTC.')
_SWAROVSKI = ("The spare Swarovski ATS 80 scope is kept in the verger's cupboard and must be "
              'signed out in the red book.')
_HELMET_LEDS = ('Lena Fischer does the LED wiring for helmets and uses 18650 batteries with a'
                ' 2 A fuse.')
_MEMBERSHIP_EUR = ('Annual membership is €45, paid by the end of January; members over 70 pay'
                   ' €30.')
_MATCHES = ('Matches are two halves of 25 minutes with a 5-minute break, played on the indoor'
            ' 3G pitch at Ashfield Leisure Centre.')
_PERMIT_FEE = ('The permit fee for major works on a traffic-sensitive street is £240, '
               'invoiced monthly by the finance team.')
_RELEASE_FEE = ('The release fee at Riverside Retail Park is £100, paid by card on the '
                'PayPoint terminal in van 2.')
_ROUTE_7 = ('Route 7 picks up at Hollow Lane at 07:42 and must reach Riverside Primary by '
            '08:25.')
_HOUSE_TWEED = ('House tweed is set at 16 ends per inch in 2/8 wool.')
_CHECKLIST = ('Inspection checklist v2.3 replaces v2.2 from 1 April 2026; use it on every '
              'bothy visit.')
_CUTTING_MATS = ('Cutting mats and 30-degree craft knives are provided; students bring their '
                 'own bone folder.')
_MEMBERSHIP_GBP = ('Annual membership is £35 for adults and £15 for juniors under 16; fees '
                   'are due by 31 March.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the memory that click-type torque wrenches are calibrated to the 2003 edition of'
     ' ISO 6789 with five readings at 20%, 60% and 100% of range.',
     _TORQUE_WRENCHES, 'number'),
    ('Delete the note that Rahul Mehta is one of three operators cleared to cut titanium, and'
     ' only on the day shift.',
     _TITANIUM, 'quantity'),
    ('Remove the rule that test panels are placed at 20 degrees from vertical, facing '
     "opposite ways, so that runoff doesn't drip from one onto another.",
     _TEST_PANELS, 'opposite'),
    ("Remove the rule that trainees don't go onto the apron without a lifejacket and a second"
     ' person on the promenade with a radio.',
     _APRON, 'scope'),
    ('Forget that the RGH20C grinding train works the Up Main between Leeds and York on '
     'Sunday night possessions from 00:30 to 06:00.',
     _GRINDING_TRAIN, 'opposite'),
    ('Remove the note that one in every ten wheelsets from the Class 158 bogies is '
     'ultrasonically tested in bay 4 before going to the wheel lathe.',
     _WHEELSETS, 'quantity'),
    ('Forget that asulam spraying on the Glen Farm hill ground is only done between 1 July '
     'and 31 August, before the fronds have unfurled.',
     _ASULAM, 'condition'),
    ('Delete the note that regrowth surveys are done twice a year, in May and September, by '
     'Owain Pritchard and two contractors.',
     _REGROWTH, 'word'),
    ('Scrap the rule that no one at all may operate the platen press unless a supervisor is '
     'standing at the machine.',
     _PLATEN_PRESS, 'scope'),
    ('Forget that track circuit tests on the Up Main between Hatfield and Welwyn are done on '
     'Sunday nights from 01:30 to 04:30 under possession P-2217.',
     _TRACK_CIRCUITS, 'opposite'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('No need to remember the fortnightly Thursday black-mass run to the Hamburg refinery '
     'anymore, the one in one-tonne FIBCs.',
     _BLACK_MASS),
    ('Please remove the note saying nobody goes up on a roof if sustained winds are over 25 '
     'mph, with the foreman reading the anemometer at seven each morning.',
     _ROOF_WIND),
    ('Remove the fact about penalty fares being fifty pounds, cut to twenty-five if paid '
     'within 21 days.',
     _PENALTY_FARES),
    ('Forget that the Flow Mach 500 cuts steel at 60,000 psi and is turned down to 40,000 psi'
     " for piercing glass so it won't crack.",
     _FLOW_MACH),
    ('Delete the note that funnel collection has to be 1.0\u20132.0 ml/hour per 80 cm² and is '
     'checked daily at 9am.',
     _FUNNELS),
    ('Please drop the note that the chamber turntable turns clockwise in 5-degree steps for '
     'directivity work and has an 80 kg load limit.',
     _TURNTABLE),
    ('Delete the note that the TSI VelociCalc 9565 goes to the Basingstoke lab for '
     'calibration once every 12 months.',
     _VELOCICALC),
    ("Forget what we noted about the Harbour Cinema's second screen: 180 seats with 7.1 "
     'audio.',
     _SCREEN_2),
    ('Forget the Approved Document J 2022 rule that stoves above 5 kW need a permanent vent '
     'in the same room, 550 mm² per kW over 5 kW.',
     _DOCUMENT_J),
    ("That's outdated: au pairs work a maximum of 30 hours weekly and have two whole days off"
     ' each week.',
     _AU_PAIRS),
    ("No longer accurate: the lake loop's sites 40 through 58 come with 30 A electrical "
     'hookups.',
     _LAKE_LOOP),
    ('Delete the HackNorth 2026 sign-up deadline: 11:59 pm UTC on March 14th.',
     _HACKNORTH),
    ("Delete the note that the spare Swarovski ATS 80 lives in the verger's cupboard and has "
     'to be signed out in the red book.',
     _SWAROVSKI),
    ('Remove the memory saying Lena Fischer wires the helmet LEDs using 18650 cells and a 2 '
     'amp fuse.',
     _HELMET_LEDS),
    ('Delete the note that yearly membership is €45, due by the end of January, and €30 for '
     'members over seventy.',
     _MEMBERSHIP_EUR),
    ('Forget that matches are 2 x 25 minutes with a five-minute break on the indoor 3G pitch '
     'at Ashfield Leisure Centre.',
     _MATCHES),
    ('Remove the note that the major works permit fee on traffic-sensitive streets is £240, '
     'billed monthly by finance.',
     _PERMIT_FEE),
    ('Delete the note saying the Riverside Retail Park release fee is £100, taken by card on '
     'the PayPoint terminal in van 2.',
     _RELEASE_FEE),
    ('Please forget that route 7 collects at Hollow Lane at 7:42 am and has to be at '
     'Riverside Primary by 8:25.',
     _ROUTE_7),
    ('Drop the note that the house tweed sett is 16 epi in 2/8 wool.',
     _HOUSE_TWEED),
    ('Delete the note that checklist version 2.3 supersedes 2.2 from 1st April 2026 and is to'
     ' be used on every bothy visit.',
     _CHECKLIST),
    ('Please scrap the note that we supply cutting mats and 30° craft knives while students '
     'bring their own bone folders.',
     _CUTTING_MATS),
    ("That's outdated: adult membership £35 a year, juniors under sixteen £15, payable by the"
     ' 31st of March.',
     _MEMBERSHIP_GBP),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
