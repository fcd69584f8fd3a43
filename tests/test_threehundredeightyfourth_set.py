"""Rules from the three-hundred-and-eighty-fourth to three-hundred-and-eighty-ninth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_LONE_WORKER = ('Lone-worker app Peoplesafe must be activated before any visit after 20:00 so'
                ' that the coordinator knows where staff are.')
_STOLEN_GOODS = ('The police stolen-goods check on NMPR is run for every serial-numbered item'
                 ' before the end of the business day.')
_UNSOLD_LOTS = ('Unsold lots are returned to vendors within 21 days unless they agree to '
                're-offer them in the next sale.')
_SYRINGE_DRIVERS = ('Syringe driver checks are done every four hours by a registered nurse, '
                    'and healthcare assistants may not change the settings.')
_CLOCK_OUT = ('If a clock is more than 2 minutes out, Rashid Khan corrects it by adjusting '
              'the pendulum bob rather than moving the hands.')
_CONSENT = ('Photographers must get written consent before photographing anyone under 18 for '
            'the paper.')
_WEBSITE = ('The website runs WordPress 6.4 with the Newspack theme, and only the web editor,'
            ' Lucas Moreau, has admin access to the live site.')
_CLOCKS_BACK = ('When the clocks go back in October, the town hall clock is stopped for one '
                'hour rather than having its hands turned back.')
_RENEWALS = ('Membership renewals are due on 1 October: £45 for full members, £25 for '
             'students.')
_GALAXY = ('Warm a Samsung Galaxy S22 with the iOpener heat pad for two minutes before '
           'lifting the back glass.')
_MISSED = ("Missed appointments without 24 hours' notice are charged 40 dollars, except for "
           "the patient's first missed appointment each year.")
_THINKPAD = ('ThinkPad T480 units get a new 256 GB SSD and 16 GB of RAM before resale at '
             '£289.')
_LOOP = ('Beginners swim the inner 400 m loop between the yellow buoys; only members who have'
         ' passed a 1,500 m assessment may swim the outer loop.')
_BOAT = ('The boat is towed to races on the team trailer behind the Toyota Hilux, and tyre '
         'pressures are checked before every trip.')
_INSULATION = ('Loft insulation is laid to a depth of 270 mm with Knauf Earthwool rolls, the '
               'second layer running at right angles to the joists.')
_RADAR = ('Ground-penetrating radar is run in the churchyard only if the ground has been dry '
          'for 3 days, because wet clay distorts the readings.')
_CABLES = ('Cables are labelled with rack and port, e.g. R4-P22, and blue patch leads are '
           'used for the staff network only.')
_PICKING_BINS = ('The cellar team sanitises the picking bins with peracetic acid after every '
                 'load, not just at the end of the day.')
_RFID = ('The RFID gateway pushes garment scan counts to the production billing system every '
         'night at 23:00.')
_BAG_RETURN = ('Head keeper Duncan Reid sends the weekly bag return to the estate office '
               'every Monday by noon.')
_FLATBED = ('Flatbed T3 (the Isuzu with the 5-tonne bed) is the only truck we use for '
            'low-clearance cars and EVs.')
_BATONS = ('Senior majorettes use 28-inch Star Line batons; the junior troupe uses 24-inch.')
_EXAM_VIDEOS = ('Exam videos are kept on the Synology NAS in the back office for 90 days and '
                'then deleted, unless the client has put the case on legal hold.')
_LUCERNE = ('Samira Haddad orders 40 bales of lucerne hay from Greenfold Fodder every '
            'fortnight, unless the pasture is good after rain.')
_SPRINTER = ('Van VH-3321, a Mercedes Sprinter, is off hire until its clutch is replaced.')
_SNOWMAKING = ('We only start snowmaking on Upper Ridgeline when the wet-bulb temperature is '
               'at or below -2.5 °C.')
_WARRANTY = ('Tomasz Nowak in the service team handles all warranty claims and must be copied'
             ' on every email to Stannah support.')
_SPARRING = ('Sparring gloves are 16 oz, and headguards are required in every sparring round.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove the rule that the Peoplesafe lone-worker app must be activated before any visit '
     'to a new patient so the coordinator knows where staff are.',
     _LONE_WORKER, 'scope'),
    ('Drop the note that the NMPR police stolen-goods check is run for every serial-numbered '
     'item before noon.',
     _STOLEN_GOODS, 'schedule'),
    ('Forget that only overseas vendors get their unsold lots back within 21 days unless they'
     ' agree to re-offer them in the next sale.',
     _UNSOLD_LOTS, 'scope'),
    ('Remove the rule that a registered nurse checks syringe drivers every four hours and '
     'student nurses may not change the settings.',
     _SYRINGE_DRIVERS, 'thing'),
    ('Forget that if a clock has stopped, Rashid Khan corrects it by adjusting the pendulum '
     'bob rather than moving the hands.',
     _CLOCK_OUT, 'condition'),
    ('Scrap the rule that photographers must get written consent before photographing anyone '
     'at all for the paper.',
     _CONSENT, 'scope'),
    ('Delete the note that the website runs WordPress 6.4 with the Newspack theme and only '
     'the editor-in-chief has admin access to the live site.',
     _WEBSITE, 'word'),
    ('Forget that when the clocks go forward, the town hall clock is stopped for one hour '
     'rather than having its hands moved on.',
     _CLOCKS_BACK, 'opposite'),
    ('Forget that membership renewals are due on 1 October: £45 for full members, £25 for '
     'students and retired members.',
     _RENEWALS, 'scope'),
    ('Remove the memory about warming a Samsung Galaxy S22 with a heat gun for two minutes '
     'before lifting the back glass.',
     _GALAXY, 'word'),
    ("Delete the note that missed appointments without 24 hours' notice are charged 40 "
     "dollars unless the patient brings a doctor's note.",
     _MISSED, 'condition'),
    ('Forget that every ThinkPad model we refurbish gets a new 256 GB SSD and 16 GB of RAM '
     'before resale at £289.',
     _THINKPAD, 'scope'),
    ('Remove the rule that beginners swim the inner 400-yard loop between the yellow buoys '
     'and only members with a 1,500 m assessment may use the outer loop.',
     _LOOP, 'unit'),
    ('Scrap the note that the boat is towed to races behind the Toyota Hilux and the wheel '
     'bearings are checked before every trip.',
     _BOAT, 'thing'),
    ('Delete the note that loft insulation is laid to 270 mm with Knauf Earthwool rolls, the '
     'second layer running parallel to the joists.',
     _INSULATION, 'opposite'),
    ('Scrap the rule that ground-penetrating radar is run in the churchyard only if the '
     'ground has been frozen for 3 days.',
     _RADAR, 'condition'),
    ('Forget that cables are labelled with rack and port, e.g. R4-P22, and blue patch leads '
     'are used for the staff and student networks.',
     _CABLES, 'scope'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Delete the rule that the Peoplesafe lone-worker app has to be switched on before any '
     'visit after 8 pm so the coordinator knows where staff are.',
     _LONE_WORKER),
    ('Forget that unsold lots go back to vendors within three weeks unless they agree to '
     're-offer them in the next sale.',
     _UNSOLD_LOTS),
    ('Remove the rule that a registered nurse checks syringe drivers four-hourly and HCAs '
     "can't change the settings.",
     _SYRINGE_DRIVERS),
    ('Remove the note that Rashid Khan fixes clocks more than 2 minutes out by adjusting the '
     'pendulum bob, not the hands.',
     _CLOCK_OUT),
    ('Scrap the rule requiring photographers to get written consent before taking pictures of'
     ' under-18s for the paper.',
     _CONSENT),
    ('Forget that our site is on WordPress 6.4 with the Newspack theme and that Lucas Moreau,'
     ' the web editor, is the only admin on the live site.',
     _WEBSITE),
    ('Delete the rule that when the clocks go back in October we stop the town hall clock for'
     ' an hour instead of turning its hands back.',
     _CLOCKS_BACK),
    ('Remove the note that memberships renew on 1 October at £45 for full members and £25 for'
     ' students.',
     _RENEWALS),
    ('Delete the note about heating a Galaxy S22 with the iOpener for 2 minutes before '
     'lifting its back glass.',
     _GALAXY),
    ('Remove the note that T480 ThinkPads are fitted with a 256 GB SSD and 16 GB RAM and '
     'resold for £289.',
     _THINKPAD),
    ('Scrap the note about towing the boat on the team trailer behind the Toyota Hilux and '
     'checking tyre pressures before each trip.',
     _BOAT),
    ('Delete the note that loft insulation goes down 270 mm deep with Knauf Earthwool rolls, '
     'the second layer crossing the joists at right angles.',
     _INSULATION),
    ('Delete the note about labelling cables with rack and port like R4-P22 and keeping blue '
     'patch leads for the staff network only.',
     _CABLES),
    ('Remove the memory saying the cellar team cleans the picking bins with peracetic acid '
     "after each load rather than only at day's end.",
     _PICKING_BINS),
    ('remove the note that each night at 11 pm the RFID gateway sends garment scan counts to '
     'the production billing system',
     _RFID),
    ('Please delete the memory that every Monday before 12:00 Duncan Reid, our head keeper, '
     'submits the weekly bag return to the estate office.',
     _BAG_RETURN),
    ('Remove the memory that T3, our Isuzu flatbed with the 5 t bed, is the only truck used '
     'for EVs and low-clearance cars.',
     _FLATBED),
    ('Forget that the seniors twirl 28" Star Line batons while the juniors use 24" ones.',
     _BATONS),
    ('Scrap the note on retention of exam videos on the back-office Synology: 90 days, then '
     "deletion unless there's a legal hold.",
     _EXAM_VIDEOS),
    ('Scrap what we saved about Samira ordering forty bales of lucerne from Greenfold Fodder '
     'every two weeks unless the grazing is good after rain.',
     _LUCERNE),
    ('Delete the memory that the Sprinter VH-3321 is off hire until it gets a new clutch.',
     _SPRINTER),
    ('Forget the Upper Ridgeline start rule: we only fire up snowmaking once the wet-bulb '
     'reaches minus 2.5 degrees C or colder.',
     _SNOWMAKING),
    ('Delete the note that Tomasz Nowak of the service team deals with all warranty claims '
     "and should be cc'd on every email to Stannah support.",
     _WARRANTY),
    ('Remove the rule that sparring uses 16-ounce gloves and headguards in every sparring '
     'round.',
     _SPARRING),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
