"""Rules from the three-hundred-and-fourth to three-hundred-and-ninth forget sets' first runs.
Each near miss below forgot the stored fact before its rule; each guard is a rewording of the
earlier sets that a first cut of a rule refused."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another tool after its article, a phrase of the sentence moved around it
    ('Delete the rule giving each player 25 minutes on a phone timer app in club tournaments, '
     'with a 10-point penalty for each minute over time.',
     'In club tournaments each player gets 25 minutes on the chess clock, with a 10-point '
     'penalty for each minute over time.', 'word'),
    # "a" and "the" before the same slot
    ('Remove the memory that Gareth Pryce measures pot leek entries with a tape measure in the '
     'judging tent before 9:30 am.',
     'Pot leek entries must be measured by Gareth Pryce with the steel calliper in the judging '
     'tent before 9:30 am on show Saturday.', 'word'),
    # another thing after a verb's particle
    ('Please drop the note that guides hand out electrolyte sachets at the second stop so that '
     'guests stay hydrated during the temple walk.',
     'Tour guides hand out bottled water at the second stop so that guests stay hydrated '
     'during the temple walk.', 'word'),
    # another place in another part of the sentence
    ('Delete the note that the Thursday evening magic workshop runs from 7 to 9 pm in the '
     'basement and is capped at 8 students.',
     'The Thursday evening magic workshop in the upstairs studio runs from 7 to 9 pm and is '
     'capped at 8 students.', 'word'),
    # "X only" against "X and Y"
    ("Scrap the rule that the Hatters' shellac stiffener, cut 1:3 with methylated spirits, is "
     "brushed inside the crown and the brim.",
     "The sizing stiffener is Hatters' shellac cut 1:3 with methylated spirits, brushed inside "
     "the crown only.", 'scope'),
    # a numbered kind put on the noun
    ('Scrap the rule that a Division 1 player who is more than 15 minutes late forfeits the '
     'match, per section 4 of the rulebook, 3rd edition.',
     'A player who is more than 15 minutes late forfeits the match, as set out in section 4 of '
     'the league rulebook, 3rd edition.', 'scope'),
    # "any" against the noun narrowed by "with"
    ('Scrap the rule that any kendama can be returned within 30 days only if the customer has '
     'the receipt.',
     'Kendamas with cracked paint can be returned within 30 days only if the customer has the '
     'receipt.', 'scope'),
    # "only when" and "only if" open one kind of condition
    ('Scrap the rule that copper oxychloride is sprayed against downy mildew at 2 kg per '
     'hectare only when the leaves are dry.',
     'Copper oxychloride is sprayed against downy mildew at 2 kg per hectare, but only if the '
     'leaves have stayed wet for over 10 hours.', 'condition'),
    # two "if" clauses that share no word
    ('Delete the note that if it is very hot, the canal-side leg is skipped and guests are '
     'taken to the covered market instead.',
     'If it rains heavily, the canal-side leg of the tour is skipped and guests are taken to '
     'the covered market instead.', 'condition'),
    # "all three" against "only the fastest"
    ('Scrap the rule that each driver gets two practice runs and all three of their timed runs '
     'count for the results.',
     'Each driver gets two practice runs, and only the fastest of their three timed runs counts '
     'for the results.', 'quantity'),
    # tonnes against cubic metres
    ('Forget that we burn only kiln-dried oak and Fenwick Logs delivers 2 tonnes every second '
     'Wednesday.',
     'We burn only kiln-dried oak so that the oven runs hot with little smoke, and Fenwick Logs '
     'delivers 2 cubic metres every second Wednesday.', 'unit'),
    # one year said twice against three years and one year
    ('Delete the note that cliff technicians renew their rope rescue qualification every year '
     'and their first aid certificate every 12 months.',
     'Cliff technicians must renew their rope rescue qualification every 3 years and their '
     'first aid certificate every 12 months.', 'duration'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    # a bare "if" and "when" are not one opener: rewordings word their clauses otherwise
    ('Remove the memory that customers get a free return ticket, good for two weeks, when '
     'heavy rain hits during their round.',
     'If it rains heavily during a round, customers get a free return ticket valid for 14 '
     'days.'),
    # "only if" and "only when" with the same threshold, worded otherwise
    ("Please delete: antifouling is applied only if the hull is dry and it's warmer than "
     "10 °C outside.",
     'Antifouling goes on only when the hull is dry and the air temperature is above 10 °C.'),
    # a kind put on the noun that the stored text says elsewhere, in other words
    ("You no longer need to remember that booking the back-room Bernina Q24 longarm on the "
     "sign-up sheet requires two days' notice at minimum.",
     'The Bernina Q24 longarm in the back room must be booked at least 48 hours ahead on the '
     'sign-up sheet.'),
    # "every tub with nuts in it" / "every tub that contains nuts"
    ('Please remove the rule that every tub with nuts in it needs an allergen card displayed '
     'in front.',
     'An allergen card must be displayed in front of every tub that contains nuts.'),
    # "only" against "and nowhere else"
    ('Delete the memory that Pizza Piazza leaflets are delivered in LS6 and LS7 and nowhere '
     'else.',
     'Pizza Piazza leaflets go to postcodes LS6 and LS7 only.'),
    # one word each left after a moved phrase is cut: a synonym
    ('Forget the note that motor windings are tested with the Fluke 1587 while the old Megger '
     'stays in van 2 as a spare.',
     'Use the Fluke 1587 insulation tester for the motor windings; the old Megger is kept as a '
     'backup in van 2.'),
    ('Delete that Margaret Hale pays 40 percent up front before parts are ordered and the rest '
     'at handover.',
     'Margaret Hale (Hollins Lane) pays a 40% deposit before we order parts, and the balance '
     'on handover.'),
    # a time, then what is done at it
    ("That's no longer right: the midnight SQM-L sky-quality reading at the north fence each "
     "night, with anything over 21.5 mag per square arcsecond posted to Discord.",
     'Sky quality is measured every night at midnight with the SQM-L meter at the north fence; '
     'readings above 21.5 mag/arcsec² get posted on the Discord.'),
    # the same volume, one spelling
    ('Forget that the tank holds 20 cubic metres.', 'The tank holds 20 cubic metres.'),
    ('Forget that the room is 20 m².', 'The room is 20 m².'),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
