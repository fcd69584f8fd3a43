"""Rules from the three-hundred-and-twenty-second to three-hundred-and-twenty-fifth forget sets'
first runs. Each near miss below forgot the stored fact before its rule; each guard is a
rewording the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # "all" / "every" against the noun narrowed by "with", a verb after the phrase
    ('Forget that all members are given the sugar-free dessert listed on the blue card at the '
     'serving hatch.',
     'Members with diabetes are given the sugar-free dessert, listed on the blue card at the '
     'serving hatch.', 'scope'),
    ('Delete the rule that every child must hand an EpiPen labelled with their name to Bronagh '
     'Keane on arrival.',
     'Children with allergies must hand an EpiPen labelled with their name to the first-aid '
     'lead, Bronagh Keane, on arrival.', 'scope'),
    # the same doer in both reasons, then another thing done
    ('Scrap the note that the sensory room is closed on Wednesday afternoons so that the '
     'caretaker, Olu Adeyemi, can deep clean the ball pool.',
     'The sensory room is closed on Wednesday afternoons so that the caretaker, Olu Adeyemi, '
     'can check the electrics.', 'condition'),
    # another thing in the slot, the clause's "and" after it
    ('Remove the rule that participants may communicate only by writing on sticky notes, and '
     'speaking even once loses them half their sponsorship.',
     'Participants may communicate only by writing on mini whiteboards; speaking even once '
     'means they lose half their sponsorship.', 'word'),
    # outdoors against a hall, indoors against a car park
    ('Forget that puppy class is held every other Saturday at 10 am outdoors on the field behind '
     'the church hall on Mill Lane.',
     'Puppy class is held every other Saturday at 10 am in the church hall on Mill Lane.',
     'environment'),
    ('Forget that the plant sale is held indoors at the allotments on the Sunday of the May bank '
     'holiday weekend, 9 am to 12 noon.',
     'The plant sale is held on the Sunday of the May bank holiday weekend, 9 am to 12 noon, on '
     'the allotment car park.', 'environment'),
    # the request alone holds it "only when"
    ('Delete the memory that scooter hire costs £4 per day for registered members and manual '
     'wheelchairs are lent free only when a scooter is hired too.',
     'Scooter hire costs £4 per day for registered members, and manual wheelchairs are lent '
     'free of charge.', 'condition'),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ('Forget that members with diabetes get the sugar-free dessert.',
     'Members with diabetes are given the sugar-free dessert.'),
    ('Scrap the note that the room is closed on Wednesdays so that the caretaker, Olu Adeyemi, '
     'can check the electrics.',
     'The room is closed on Wednesday afternoons so the caretaker Olu Adeyemi can check the '
     'electrics.'),
    ('Forget that puppy class is held outdoors on the field on Saturdays.',
     'Puppy class is held on the field behind the hall on Saturdays, outdoors.'),
    # "outside" is no setting: "outside office hours"
    ('Forget that calls outside office hours go to the on-call phone in the workshop.',
     'Calls outside office hours go to the on-call phone in the workshop.'),
    ('Forget that wheelchairs are lent free only when a scooter is hired.',
     'Wheelchairs are lent free if a scooter is hired.'),
    # rewordings of the earlier sets that first cuts of these rules refused: a condition in
    # other words ("without", "after")
    ("forget that juniors can ride Storm only if there's an instructor in the arena",
     'Juniors may not ride Storm without an instructor in the arena.'),
    ('Remove the note that battens are cut to length only once the sail is up on the boat, '
     'never beforehand.',
     'Battens are trimmed to length after the sail is hoisted on the boat, never before.'),
    # a thing and its state in both reasons, not a doer
    ('Please delete the note about exporting the payroll muster rolls from PlantWise into '
     'Excel on the twenty-fifth of every month so the bank file is done by the twenty-eighth.',
     'Payroll muster rolls are exported from PlantWise to Excel on the 25th of each month so '
     'that the bank file is ready by the 28th.'),
    ('Delete the note that samples go to our sales reps rather than straight to prospects so '
     'the reps can follow up face to face.',
     'Samples are posted to our sales reps, not directly to prospects, so the rep can follow up '
     'in person.'),
    # "<day> only" against "<day> and <a verb>": a clause, no second thing (the 325th set;
    # the 304th-309th sets' rule refused it)
    ('Forget that Olumide Adeyemi from the restoration team only does antique dummy repairs on '
     'Thursdays and sends a written quote within five working days.',
     'Repairs to antique dummies are handled by Olumide Adeyemi of the restoration team on '
     'Thursdays only, and the customer gets a written quote within 5 working days.'),
    # one word left after the clause's "and": a verb reworded
    ('Drop the note that if nobody answers the door at a scheduled visit, the volunteer rings '
     'the office before going and the office then calls the next of kin.',
     'If a befriendee does not answer the door for a scheduled visit, the volunteer calls the '
     'office before leaving, and the office phones the next of kin.'),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(agreement.strip_preamble(request_text), stored) == []
