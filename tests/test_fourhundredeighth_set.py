"""Rules from the four-hundred-and-eighth to four-hundred-and-thirteenth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_UDON = ('Customers with a buckwheat allergy must be told that our udon is cooked in the same'
         ' pot as the soba.')
_BLAST = ('The lower 3 metres of every leg must be blast cleaned to Sa 2.5 before priming, so'
          ' that the zinc primer bonds.')
_FURISODE = ('Akiko Tanaka dresses brides in furisode for Saturday photo shoots; bookings '
             'close 10 days before the event.')
_JUBAN = ('Clients with a wool allergy get the cotton juban, so that their skin never touches'
          ' the wool layers.')
_KERDI = ('For wet rooms we use the Schlüter Kerdi membrane and seal all joints with '
          'Kerdi-Coll before tiling.')
_MILL_FLOOR = ('No one enters the mill floor below the roughing stand while the line is '
               'running unless the lockout permit LP-17 is signed.')
_HIDE_GLUE = ('Tomasz Wrona glues the leather to the boards with hot hide glue at 60°C; the '
              'glue pot is refilled every Monday morning.')
_WINDSOCK = ('The windsock light and perimeter lights must be switched on 15 minutes before '
             'night landings from the control panel in room R4.12.')
_CARCASSES = ('Only carcasses certified lead-free by the Castelo Branco slaughterhouse may be'
              " used, so that birds aren't poisoned by ammunition fragments.")
_PUPPY_DEPOSIT = ('Puppy deposits are £300, refundable only if we cancel; the full price of '
                  '£1,650 is due at collection.')
_GRAVITY_TABLE = ('The gravity table is cleaned down between every lot to avoid '
                  'cross-contamination, taking about 20 minutes.')
_HARPOON = ('The Svend Foyn grenade harpoon cannon in Gallery 2 must be dusted with a soft '
            'brush only, never a cloth, because the 1870s paint is flaking.')
_OFFCUTS = ('Offcuts larger than 300 x 300 mm are labelled with the material grade and kept '
            'on the offcut rack for small jobs.')
_CATERING = ('The catering truck parks behind stage B, not in the main lot.')
_RUN_DIRECTOR = ('Alison Hart sets the Brookside parkrun run director rota on the first of '
                 'each month.')
_DIES = ('Tomasz wipes down the 38 mm and 58 mm dies with isopropyl alcohol every Monday '
         'morning before the first run.')
_LASAGNE = ('Each 40 \u00d7 30 cm lasagne tray is cut into 12 portions after resting for 20 '
            'minutes out of the oven.')
_B1234 = ('Permanent repairs on the B1234 are night work, 20:00 to 06:00, because of daytime '
          'traffic.')
_HAWKS = ('Volunteers need 20 supervised hours before handling hawks on the glove alone; '
          'falcons also need sign-off from a senior handler.')
_ICP = ('Tomás Ferreira runs the Agilent 5110 ICP-OES with ICP Expert 7.6; nobody else uses '
        'it without his sign-off.')
_TICKET_OFFICE = ('The ticket office at Craigendoran pier opens 45 minutes before each '
                  'departure and takes cards on the SumUp terminal.')
_RETROREFLECTIVITY = ('Retroreflectivity is measured quarterly with the LTL-X Mark II; any '
                      'line under 150 mcd is scheduled for repaint.')
_MUIRBURN = ('Heather burning on Hartside Moor is only allowed between 1 October and 15 '
             "April, and each burn is logged on the muirburn map in the keepers' bothy.")
_SEAMS = ('All seams are sewn on the Juki DDL-8700; the Brother machine is for hemming only.')
_SLUICE = ('During the salmon run (September to November) sluice gate 3 is opened 20 cm at '
           '06:00 every day.')
_PLANETARIUM = ('The planetarium show in Dome 2 runs at 10:00 and 14:00 daily, lasting 40 '
                'minutes, for groups of up to 30 children.')
_KNIVES = ('All knives in the prison kitchen are tethered to the benches and counted by the '
           'officer at 06:30 and 18:30.')
_CLINIC = ("Coach Elena Rossi runs the beginners' clinic on court 6 on Wednesdays at 18:00.")
_INVOICES = ('Law firm clients are invoiced on the 1st of each month; individual clients pay '
             'upfront.')
_LETTRA = ('We order Crane Lettra 600 gsm paper from Paperhouse in batches of 500 sheets.')
_BATTERY = ('Battery swaps on quartz watches cost £12, but they are free for customers whose '
            'watch we serviced within the last two years.')
_MORTUARY = ('The mortuary fridge bank holds 36 bodies at 4°C, plus 4 freezer spaces at -20°C'
             ' for long-term storage.')
_RESUS = ('The night shift nursing team runs in-situ resuscitation drills in the suite on '
          'Thursdays from 19:00.')
_CHESSBOARD = ('The Hartley commission (job M-2291) is a 60 x 90 cm chessboard top in walnut '
               'and sycamore, due 14 March.')
_WREATH = ('Each wreath participant gets one 30 cm copper wire ring, a bag of sphagnum moss '
           'and a bundle of Nordmann fir.')
_CASTS = ('Below-knee casts use three rolls of 10 cm Scotchcast fibreglass over stockinette '
          'and two layers of padding, following the 2nd edition of the trust casting guide.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the rule that all customers must be told that our udon is cooked in the same pot'
     ' as the soba.',
     _UDON, 'scope'),
    ('Forget that the lower 3 metres of every leg must be blast cleaned to Sa 3 before '
     'priming, so that the zinc primer bonds.',
     _BLAST, 'number'),
    ('Delete the note that Akiko Tanaka dresses bridesmaids in furisode for Saturday photo '
     'shoots.',
     _FURISODE, 'word'),
    ('Remove the memory that every client gets the cotton juban so that their skin never '
     'touches the wool layers.',
     _JUBAN, 'scope'),
    ('Forget that for outdoor terraces we use the Schlüter Kerdi membrane and seal all joints'
     ' with Kerdi-Coll before tiling.',
     _KERDI, 'environment'),
    ('Forget that no one enters the mill floor below the roughing stand while the line is '
     'stopped unless the lockout permit LP-17 is signed.',
     _MILL_FLOOR, 'opposite'),
    ('Remove the memory that Tomasz Wrona glues the leather to the boards with contact cement'
     ' and the glue pot is refilled every Monday morning.',
     _HIDE_GLUE, 'word'),
    ('Delete the note that the windsock light and perimeter lights must be switched on 15 '
     'minutes before landings in fog from the control panel in room R4.12.',
     _WINDSOCK, 'condition'),
    ('Delete the rule that carcasses no longer need to be certified lead-free by the Castelo '
     'Branco slaughterhouse.',
     _CARCASSES, 'negation'),
    ('Delete the memory that puppy deposits are £300, refundable only if the buyer cancels, '
     'with the full £1,650 due at collection.',
     _PUPPY_DEPOSIT, 'condition'),
    ('Scrap the rule that the gravity table is cleaned down once a day to avoid '
     'cross-contamination, taking about 20 minutes.',
     _GRAVITY_TABLE, 'schedule'),
    ('Remove the memory that the 1870s harpoon rack in Gallery 2 must be dusted with a soft '
     'brush only, never a cloth, because its paint is flaking.',
     _HARPOON, 'word'),
    ('Delete the memory about offcuts larger than 300 x 300 cm being labelled with the '
     'material grade and kept on the offcut rack for small jobs.',
     _OFFCUTS, 'number'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('catering truck goes behind stage B rather than the main lot',
     _CATERING),
    ("Forget that it's Alison Hart who draws up Brookside's run director roster on the 1st of"
     ' every month.',
     _RUN_DIRECTOR),
    ("That's outdated: Tomasz cleaning the 38 and 58 mm dies with IPA on Monday mornings "
     'before the first run.',
     _DIES),
    ('Forget that each 40 by 30 cm lasagne tray rests 20 minutes out of the oven and is then '
     'cut into twelve portions.',
     _LASAGNE),
    ('Forget that B1234 permanent repairs are scheduled overnight, 8 pm to 6 am, because of '
     'the traffic during the day.',
     _B1234),
    ('Delete the note that volunteers need 20 hours under supervision before they can handle '
     'hawks on the glove solo, and that falcons also need a senior handler to sign off.',
     _HAWKS),
    ('That no longer applies: Tomás Ferreira owning the Agilent 5110 ICP-OES on ICP Expert '
     '7.6, with nobody else using it unless he signs off.',
     _ICP),
    ('We changed this, so delete it: the Craigendoran pier ticket office opening '
     'three-quarters of an hour before sailings and taking cards on the SumUp.',
     _TICKET_OFFICE),
    ('Delete the memory that every quarter we check retroreflectivity with the LTL-X Mark II '
     'and schedule a repaint for any line below 150 mcd.',
     _RETROREFLECTIVITY),
    ('Please delete what we have on muirburn at Hartside: burning only from 1 October to 15 '
     "April, with every burn recorded on the map in the keepers' bothy.",
     _MUIRBURN),
    ('Please delete the note that seams are all sewn on the Juki DDL-8700 and the Brother is '
     'only used for hems.',
     _SEAMS),
    ('Remove the memory about opening sluice gate three by 20 centimetres at 6 am daily '
     'through the salmon run, Sept to Nov.',
     _SLUICE),
    ('Forget that the Dome 2 planetarium show is on every day at 10 am and 2 pm for 40 '
     'minutes, with up to 30 kids per group.',
     _PLANETARIUM),
    ('Remove the memory that every prison kitchen knife is tethered to a bench and counted by'
     ' the officer at 6:30 am and 6:30 pm.',
     _KNIVES),
    ("Remove the note that Elena Rossi coaches the Wednesday 6 pm beginners' clinic on court "
     '6.',
     _CLINIC),
    ('Forget that law firms get invoiced on the first of every month while individuals pay in'
     ' advance.',
     _INVOICES),
    ('Forget that we buy Crane Lettra 600 gsm stock from Paperhouse in 500-sheet batches.',
     _LETTRA),
    ('Remove the memory about quartz battery changes costing twelve pounds, free if we '
     'serviced the watch in the past two years.',
     _BATTERY),
    ('Drop what we stored on mortuary capacity: thirty-six places in the fridges at 4 degrees'
     ' and four freezer slots at minus twenty for long stays.',
     _MORTUARY),
    ('Please forget that night shift nurses do their in-situ resus drills in the sim suite on'
     ' Thursdays from 7 p.m.',
     _RESUS),
    ('Remove the memory about job M-2291 for Hartley, the walnut and sycamore chessboard top,'
     ' 60 by 90 cm, due on March 14th.',
     _CHESSBOARD),
    ('Remove the memory about each wreath participant receiving a 30 cm copper wire ring, a '
     'bag of sphagnum moss and a bundle of Nordmann fir.',
     _WREATH),
    ('Forget that below-knee casts take three 10 cm rolls of Scotchcast over stockinette and '
     'two padding layers, per the trust casting guide 2nd edition.',
     _CASTS),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
