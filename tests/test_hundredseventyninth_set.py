"""Rules from the hundred-and-seventy-ninth to hundred-and-ninety-sixth forget sets' near misses
(first runs: 2, 3, 3, 2, 3, 1; 4, 1, 1, 4, 8, 5; 6, 3, 3, 3, 0, 4 wrong forgets of 100), and a
reading that gives back rewordings all sets refused. Each near miss below forgot the stored fact
before this change; each guard is a rewording that must keep agreeing."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement, narrowed
from memory_mcp.services.facets import facets


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # another purpose: "to prevent" (read "to not"), "for" and a noun of an act at the end
    ("Forget that release pen drinkers are cleaned daily for the first three weeks so the "
     "water doesn't attract rats.",
     "Drinkers in the release pen are cleaned daily for the first three weeks after release "
     "to prevent disease.", "condition"),
    ("Forget that the formaldehyde badges go to Lystra Labs monthly for recalibration.",
     "All embalmers wear a formaldehyde monitoring badge during every case; the badges are "
     "posted to Lystra Labs monthly for analysis.", "condition"),
    ("Remove the memory that display pikes were shortened to 16 ft to make them easier to "
     "transport.",
     "Pikes for display are 16 ft, shortened from the original 18 ft for safety.", "condition"),
    # a reason the stored text never gives
    ("Drop the note that secateurs are counted back in after every session so they can be "
     "sharpened.",
     "Secateurs are counted back in at the end of every session; there should be 14 pairs in "
     "the blue toolbox.", "condition"),
    # two triggers: one measured, the other naming no amount
    ("Forget that the wheelie contest is cancelled if it rains, with racing carrying on.",
     "If wind exceeds 40 mph, the wheelie contest is cancelled but racing continues.",
     "condition"),
    # opposite events
    ("Remove the memory that the third pump shuts off automatically when flow exceeds 350 L/s.",
     "When flow exceeds 350 L/s, the third pump starts automatically.", "opposite"),
    ("Forget that harvested larvae are fed for 24 hours before being blanched and "
     "freeze-dried.",
     "At harvest, larvae of 20-25 mm are separated out, fasted for 24 hours, then blanched and "
     "freeze-dried.", "opposite"),
    # the same role held by the other of two people both texts name
    ("Remove the memory that Ingrid Halvorsen is the backup lead for Dev Patel on the snow "
     "survey crew.",
     "Ingrid Halvorsen leads the snow survey crew; Dev Patel is backup lead when Ingrid is tied "
     "up in the field office.", "role"),
    # another job after a name, no article
    ("Forget that Gerald Finch is ring steward for the heaviest pumpkin class.",
     "Gerald Finch is head judge for the heaviest pumpkin class and weighs entries on the "
     "SC-400 platform scale.", "role"),
    # another material after the same "with", the stored text saying more before it
    ("Drop the fact that Sam Carrow tops up the Hollins Wood feeders with maize every Tuesday "
     "and Friday.",
     "Underkeeper Sam Carrow tops up the pheasant feeders on the Hollins Wood drive with wheat "
     "every Tuesday and Friday.", "word"),
    # another tool, thing or place where the request ends and the stored text goes on
    ("Delete the note that Dominic Reyes checks the firewalk coals with a thermocouple probe.",
     "Firewalk instructor Dominic Reyes checks the coals with an infrared thermometer before "
     "anyone walks, aiming for 500-700 °C.", "word"),
    ("Delete the note that each wreath participant gets a bundle of blue spruce with their "
     "30 cm copper wire ring.",
     "Each wreath participant gets one 30 cm copper wire ring, a bag of sphagnum moss and a "
     "bundle of Nordmann fir.", "word"),
    ("Drop the note that lantern-making workshops are held at the library.",
     "Lantern-making workshops run on the three Saturdays before the parade, 10:00-13:00 at "
     "the community centre, with a maximum of 20 children per session.", "word"),
    # another shift before the same group noun
    ("Forget that the day tech crew cleans the bill validators on the IGT S3000 cabinets every "
     "3 days with JCM cards.",
     "Bill validators on the IGT S3000 cabinets are cleaned every 3 days with JCM cleaning "
     "cards by the night tech crew.", "thing"),
    ("Delete the memory that the early team counts the liquor stock at the Pier B store on "
     "Sunday nights after the last departure.",
     "Liquor stock in the Terminal 2 Pier B store is counted by the night team every Sunday "
     "after the last departure (23:40).", "thing"),
    # a place named with its own place ("the loft above the shop")
    ("Drop the note that the alder for clog soles seasons for at least 12 months in the loft "
     "above the shop.",
     "Clog soles are cut from alder that has seasoned for at least 12 months in the drying "
     "shed.", "word"),
    # the "with" rule, written before this set arrived, on the hundred-and-ninety-sixth
    ("Delete the note that the IGT S3000 bill validators are cleaned every 3 days with "
     "isopropyl swabs.",
     "Bill validators on the IGT S3000 cabinets are cleaned every 3 days with JCM cleaning "
     "cards by the night tech crew.", "word"),
    # a rule widened from "only" one kind to that kind and another
    ("Forget that Sam Okafor officiates all first and second XI games until his Level 2 "
     "assessment.",
     "Umpire Sam Okafor officiates only second XI games until his Level 2 assessment in June.",
     "scope"),
    # another measure named in words, no number
    ("Delete the note that longest runner bean entries are measured in inches with a steel "
     "tape.",
     "Longest runner bean entries are measured in centimetres with a steel tape, from stalk "
     "end to tip, following the NVS Judges' Guide 9th edition.", "unit"),
])
def test_near_miss_is_refused(request_text: str, stored: str, kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    # an -ing clause left by "Forget the note about …": its -ing word is the verb
    ("Forget the note about restricting learners to the treble and second until the tower "
     "captain has signed off their handling.",
     "Learners ring only the treble and the second until the tower captain signs off their "
     "bell handling."),
    ("Scrap the memory about seating altos on the conductor's left-hand side, basses at the "
     "rear on the right.",
     "The altos sit to the conductor's left and the basses at the back right."),
    ("Remove the note about stopping crossings once gusts top thirty-five knots.",
     "Crossings are suspended when wind gusts go above 35 knots."),
    # the same trigger, its number in words
    ("Forget that we call off outdoor play when the temperature is below minus ten degrees "
     "Celsius.",
     "Outdoor play is cancelled when it is colder than -10°C."),
    # the same job, said again; the same rule with its "only" moved
    ("Forget that Gerald Finch is head judge of the heaviest pumpkin class.",
     "Gerald Finch is head judge for the heaviest pumpkin class and weighs entries on the "
     "SC-400 platform scale."),
    ("Forget that Sam Okafor umpires second XI games only, until his Level 2 assessment.",
     "Umpire Sam Okafor officiates only second XI games until his Level 2 assessment in June."),
])
def test_rewording_agrees(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_gerund_is_no_narrowing_but_a_modifier_still_is() -> None:
    """"restricting learners" reads as a verb; "Parking permits are issued …" keeps its
    modifier, as it has an auxiliary."""
    assert narrowed.narrowed(facets("restricting learners to the treble"),
                             facets("Learners ring only the treble")) is None
    assert narrowed.narrowed(facets("Parking permits are issued at reception"),
                             facets("Permits are issued at reception")) is not None
