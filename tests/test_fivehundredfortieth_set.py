"""Rules from the 540th-545th forget sets' first runs. Each near miss below forgot the stored
fact before its rule; each guard is the set's own rewording of that fact, which the rule must
leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement

_QUARTZ = ('Quartz worktops longer than 3 m are carried by four fitters, never two, using the '
           'Grabo suction lifters.')
_JOCKEYS = ('Jockeys found guilty of careless riding at Ascot are suspended for 2 days under '
            'rule 55(b).')
_POSSESSION = ('Our possession on the Down Relief runs from 23:30 Saturday to 05:00 Sunday for '
               'the sleeper renewal.')
_PROCESSOR = ('The Leica ASP300S tissue processor runs overnight program P4, which starts at '
              '18:00 on weekdays.')
_LAMP = ('The Skerry Point lamp switches on automatically when the photocell reads below 200 '
         'lux and switches off again at dawn.')
_DONORS = ('Donors are screened for HIV, hepatitis B and C, HTLV and syphilis before their '
           'first donation is accepted.')
_POLES = ('Tom Reilly, the crew supervisor, keeps all six earthing poles in van OL-07 and tests '
          'each one with the insulation tester before every shift.')
_CONSOLE = ('Students can book the basement practice console on Tuesday and Thursday evenings '
            'through the Carillon Guild calendar, for a maximum of 90 minutes per session.')
_BOURDON = ('The bourdon (bell 1, 6.2 tonnes) is swung by hand only for state funerals; the '
            'automatic striker must never be used on it.')
_SAW = ('Van 2 carries the Festool TS 55 track saw, which is used on site for wood and laminate '
        'only, never for quartz.')
_LOAD_BANK = ('Always disconnect the load bank from the generator before removing the cover '
              'panels, never after.')
_EMBRYOS = ('Embryos in the EmbryoScope+ incubators are cultured at 37 °C and 5% oxygen, and each '
            'incubator door is opened no more than twice a day.')
_TIMBER = ('Timber deliveries arrive on Thursdays and are stacked flat in the rack nearest the '
           'roller door.')


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ('Remove: quartz worktops longer than 3 m are carried by three fitters, never two, using '
     'the Grabo suction lifters.', _QUARTZ, 'number'),
    ('Forget that jockeys found guilty of careless riding at Ascot get a 2-day suspension under '
     'rule 55(c).', _JOCKEYS, 'identifier'),
    ('Forget that our possession on the Up Relief runs from 23:30 Saturday to 05:00 Sunday.',
     _POSSESSION, 'opposite'),
    ('Remove: the Leica ASP300S runs overnight program P6 starting at 18:00 on weekdays.',
     _PROCESSOR, 'number'),
    ('Forget that the Skerry Point lamp switches off automatically when the photocell reads '
     'below 200 lux and back on at dawn.', _LAMP, 'opposite'),
    ('Forget that donors are screened only for HIV before their first donation is accepted.',
     _DONORS, 'scope'),
    ('Erase the memory that Tom Reilly, the crew supervisor, keeps all six earthing poles in van '
     'OL-07 and tests just one of them with the insulation tester before every shift.', _POLES,
     'scope'),
    ('Forget that students can book the practice console in the ringing room on Tuesday and '
     'Thursday evenings via the Carillon Guild calendar, 90 minutes max per session.', _CONSOLE,
     'place'),
    ("That's outdated: timber deliveries arrive on Thursdays and are stacked flat in the "
     'mezzanine rack.', _TIMBER, 'place'),
    ('Forget that the bourdon is swung by hand only for royal weddings, never with the '
     'automatic striker.', _BOURDON, 'condition'),
    ('Remove: the Festool TS 55 track saw in Van 2 is used on site for quartz only, never for '
     'wood or laminate.', _SAW, 'scope'),
    ('Remove the rule that the load bank is disconnected from the generator only after the '
     'cover panels are removed.', _LOAD_BANK, 'opposite'),
    ('Remove: embryos in the EmbryoScope+ incubators at our satellite clinic are cultured at '
     '37 °C and 5% oxygen, doors opened no more than twice a day.', _EMBRYOS, 'place'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that quartz tops over three metres need four fitters and the Grabo suction lifters '
     'rather than a two-man carry.', _QUARTZ),
    ('Delete the memory that careless riding at Ascot gets a jockey a two-day suspension under '
     'rule 55(b).', _JOCKEYS),
    ('Erase the note that the Down Relief possession is Saturday 11:30 pm to 5 am Sunday.',
     _POSSESSION),
    ('Scrap the memory that P4 runs overnight on the ASP300S from 6 pm weekdays.', _PROCESSOR),
    ('Erase the note that the lamp at Skerry Point comes on by itself once the photocell drops '
     'below 200 lux and goes off at dawn.', _LAMP),
    ('Delete the note about screening donors for HIV, hep B, hep C, HTLV and syphilis before we '
     'accept their first donation.', _DONORS),
    ('Remove the note that Tom Reilly, our crew supervisor, keeps the six earthing poles in van '
     'OL-07 and insulation-tests each of them before every shift.', _POLES),
    ('No longer true: students reserve the basement practice console on Tuesday/Thursday '
     'evenings in the Carillon Guild calendar, max an hour and a half a session.', _CONSOLE),
    ('No longer applies: timber arrives Thursdays and is stacked flat in the rack by the roller '
     'door.', _TIMBER),
    ('Forget that Van 2 carries the TS 55 track saw, for wood and laminate only and never for '
     'quartz.', _SAW),
    ('Forget that the load bank comes off the generator before the cover panels are removed.',
     _LOAD_BANK),
    ('Forget that germination samples are pulled from seed lots once cleaning is done rather '
     'than beforehand.', 'Seed lots are sampled for germination testing after cleaning, not '
     'before.'),
    # "at the wheel" is an idiom, not a site: only "at our …" adds one
    ('Remove the tachograph rule: four and a half hours at the wheel means a forty-five minute '
     'break for the driver.', 'Drivers must take a 45-minute break after 4.5 hours of driving, '
     'recorded on the tachograph.'),
    # a place word moved into the phrase, and a word cut short, are one place
    ('Forget that students can book the practice console in the basement on Tuesday and '
     'Thursday evenings through the Carillon Guild calendar, 90 minutes at most.', _CONSOLE),
    ('Drop the note that a full meter fit takes about 2.5 hours, including routing the TH-09 '
     'harness behind the dash.', 'A full meter fitting takes about 2.5 hours, including routing '
     'the wiring harness (part TH-09) behind the dashboard.'),
])
def test_rewordings_of_the_new_sets_agree(request_text: str, stored: str) -> None:
    assert not agreement.conflicts(request_text, stored)
