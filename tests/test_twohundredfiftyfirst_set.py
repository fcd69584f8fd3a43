"""Rules from the two-hundred-and-fifty-first to two-hundred-and-fifty-sixth forget sets' first
runs. Each near miss below forgot the stored fact before its rule; each guard is a rewording
or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # lunchtime, a time of day
    ("Remove the memory that drill batteries are charged at lunchtime in the Maidstone "
     "workshop.",
     "Drill batteries are charged overnight in the Maidstone workshop, not in the vans.", "time"),
    # "we" charge against the crew paying
    ("Please delete the note that the gum crew pays the BID £1.20 per square metre.",
     "We charge the BID £1.20 per square metre for gum removal, with a £250 minimum call-out.",
     "direction"),
    # forward and back swapped between the same months
    ("Remove the memory that the clock goes back 1 hour on the last Sunday of March and forward "
     "on the last Sunday of October.",
     "The clock goes forward 1 hour on the last Sunday of March and back 1 hour on the last "
     "Sunday of October.", "direction"),
    # two events on the other sides of one "before"
    ("Forget the note that crew may go on site before the property owner has signed the "
     "location release form.",
     "The property owner must sign the location release form before any crew member sets foot "
     "on site.", "direction"),
    # a condition word for word the same but its last word
    ("Forget that we only add concrete blocks to Heras panels when the site is on tarmac.",
     "Heras fence panels stand in rubber feet, and we only add concrete blocks when the site is "
     "on grass.", "condition"),
    # all vehicles against cars and vans
    ("Remove the memory that Mill Ford is closed to all vehicles when the gauge reads 0.4 m or "
     "more.", "Mill Ford is closed to cars and vans when the gauge reads 0.4 m or more.", "scope"),
    # everyone against children under 14
    ("Forget that life jackets are compulsory for everyone on all boats, adults included.",
     "Life jackets are compulsory for children under 14 on all boats.", "scope"),
    # an "only" narrowing a thing by a word the stored text never says
    ("Delete the note about counting only the ski fleet every Monday after close in RentalPro "
     "5.1.",
     "Full rental fleet inventory count every Monday after close; results are entered into "
     "RentalPro 5.1.", "scope"),
    ("Forget that cash is collected every Friday with two staff present, but only from the "
     "Manchester arcade sites.",
     "Cash is collected from arcade sites every Friday with two staff present so the takings "
     "are counted under dual control.", "scope"),
    # "even without" grants what "not … unless" withholds
    ("Forget that lesson cancellations less than 24 hours before the start are refunded even "
     "without a doctor's note.",
     "Lesson cancellations less than 24 hours before the start are not refunded unless the "
     "client provides a doctor's note.", "negation"),
    # the deed a "rather than" sets aside, the stored text states
    ("Forget that customer artwork files are kept permanently after 60 days rather than "
     "deleted.",
     "Customer artwork files are deleted after 60 days to free up space on the print server.",
     "negation"),
    # another mark written as one word
    ("Forget that cassettes are digitised on the Tascam 122 MkII in the basement lab.",
     "Cassettes are digitised at 96 kHz / 24-bit WAV on the Tascam 122 MkIII deck in the "
     "basement lab.", "identifier"),
    # another team after the same verb
    ("Forget the lost-child rule where the instructor radios lift operations on channel 4 "
     "straight away and then calls the ski school desk.",
     "Lost child: the instructor radios ski patrol on channel 4 straight away, then calls the "
     "ski school desk.", "word"),
    # an instruction's verb read as its verb ("Reorder dried chamomile …")
    ("Forget that we reorder dried calendula from Greenhollow Botanicals when stock falls under "
     "2 kg.",
     "Reorder dried chamomile from Greenhollow Botanicals when stock drops below 2 kg.", "word"),
    # opposite words before the same hyphenated word
    ("Forget that finished verjuice is heat-stabilised in tank T7 for 10 days before bottling.",
     "Finished verjuice is cold-stabilised in tank T7 at 2 °C for 10 days before it goes to "
     "bottling.", "opposite"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that Rosa Klein gets the shortlist packs to the director by 5pm each Friday.",
     "Rosa Klein sends shortlist packs to the director every Friday by 17:00."),
    ("Judy would rather do standups asynchronously in Slack than on video",
     "Judy prefers async standups in Slack over video calls."),
    ("Drop the fact that Heras panels sit in rubber feet and only get concrete blocks on grass "
     "sites.",
     "Heras fence panels stand in rubber feet, and we only add concrete blocks when the site is "
     "on grass."),
    ("Drop the memory that drill batteries get charged overnight at the Maidstone workshop "
     "rather than in the vans.",
     "Drill batteries are charged overnight in the Maidstone workshop, not in the vans."),
    ("Remove the memory that the location release has to be signed by the property owner "
     "before any crew goes on site.",
     "The property owner must sign the location release form before any crew member sets foot "
     "on site."),
    ("Please delete the note that kids under 14 must wear life jackets on every boat.",
     "Life jackets are compulsory for children under 14 on all boats."),
    ("Drop the memory that we replace wall salt bricks when they crack, using spares from the "
     "plant room.", "Cracked wall salt bricks are replaced; spares are kept in the plant room."),
    ("freezer temp has to stay under -18C",
     "Freezer temperatures must stay below minus 18 degrees Celsius."),
    ("Drop the note that we digitise cassettes as 24-bit/96 kHz WAV files using the Tascam 122 "
     "MkIII in the basement lab.",
     "Cassettes are digitised at 96 kHz / 24-bit WAV on the Tascam 122 MkIII deck in the "
     "basement lab."),
    # rewordings the first cut of these rules refused (over all 256 sets), and agree again
    ("Drop the memory about the Brora team checking their Olympus 38DL Plus against the "
     "ten-millimetre step block at the start of each shift.",
     "The Brora crew calibrates the Olympus 38DL Plus thickness gauge on the 10 mm step block "
     "before every shift."),
    ("Please drop the note that crews from Cleckheaton station fuel up at the Shell on Bradford "
     "Road with FC-77 series fuel cards.",
     "Cleckheaton station crews fill up at the Shell on Bradford Road using fuel cards from "
     "series FC-77."),
    ("Forget that Batangas Feeds buys our leftover coconut cake at 18 pesos a kilo and collects "
     "it on Saturdays.",
     "We sell the leftover coconut cake to Batangas Feeds at 18 pesos per kg; they pick it up "
     "every Saturday."),
    ("Forget the mould procedure: strip out all the substrate and use kitchen paper instead of "
     "coir for a fortnight.",
     "If a tank gets mould, remove all the substrate and swap from coir to kitchen paper for 2 "
     "weeks."),
    ("Scrap what we saved about Samira ordering forty bales of lucerne from Greenfold Fodder "
     "every two weeks unless the grazing is good after rain.",
     "Samira Haddad orders 40 bales of lucerne hay from Greenfold Fodder every fortnight, unless "
     "the pasture is good after rain."),
    ("Forget what the treasurer Dawn Ellery is owed for the autumn season: two hundred and "
     "forty pounds per team, due 1 September.",
     "Autumn season team entry is £240, payable to the league treasurer, Dawn Ellery, by 1 "
     "September."),
    ("Forget that Wildcraft Brewing's orders leave Leominster on pallets each Wednesday.",
     "Wildcraft Brewing orders ship on pallets from the Leominster depot on Wednesdays."),
    ("Forget that tandem passengers get weighed at the office and anyone heavier than 110 kilos "
     "is turned away by the pilots.",
     "Tandem pilots weigh passengers at the office and refuse anyone over 110 kg."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_a_day_set_aside_is_left_to_the_day_rule() -> None:
    """"Now on Thursdays **instead of Tuesdays**" corrects "on Tuesdays": a changed day, not a
    denial, so a save can still name the memory it may correct."""
    found = kinds("Production deploys now happen on Thursdays instead of Tuesdays.",
                  "Production deploys happen on Tuesdays at 10:00 UTC.")
    assert "weekday" in found and "negation" not in found
