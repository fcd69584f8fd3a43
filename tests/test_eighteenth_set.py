"""Rules from the eighteenth forget set's first run (on 68f9ce1: 10 wrong forgets of 100 near
misses, 37 of 65 rewordings forgotten): "all new patients" against "new tinnitus patients",
weaker / stronger, another reason ("because it has the better lighting"), the IT team, which of
two is done "rather than" the other turned round, "each week" against "each shift", an
instruction's object ("Empty the chaff collector"), the first of two objects as the receiver
("we send clients their documents"), "to noon", arrives / departs. And rewordings it refused
for a reason now read: acronyms of a phrase with a small word ("PIC": pilot in command) or of a
hyphenated word ("QC"), British spellings, "all the multi-state returns", "three quarters of an
hour", "to avoid" as a denial, "Remove this:". Each near miss below forgot the stored fact
before this change."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement
from memory_mcp.services.facets import facets
from memory_mcp.services.stems import american, stem


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("all new patients get a 45-minute first appointment instead of the standard 30 minutes",
     "New tinnitus patients get a 45-minute first appointment instead of the standard 30 "
     "minutes.", "scope"),
    ("clearcoat is sprayed in Booth 2 because it has the weaker extraction fan",
     "Clearcoat is sprayed in Booth 2 because it has the stronger extraction fan.", "opposite"),
    ("clearcoat is sprayed in Booth 2 because it has the better lighting",
     "Clearcoat is sprayed in Booth 2 because it has the stronger extraction fan.", "condition"),
    ("antique frames are re-glued with hide glue, never PVA, because it sets faster",
     "Antique frames are re-glued with hide glue, never PVA, so the repairs stay reversible.",
     "condition"),
    ("the IT team shreds scanned paper files 30 days after the return is accepted",
     "The admin team shreds scanned paper files 30 days after the return is accepted.",
     "thing"),
    ("drone batteries are charged on the aircraft after every two deliveries rather than swapped",
     "Drone batteries are swapped after every two deliveries rather than charged on the "
     "aircraft.", "roles"),
    ("the resin printers are cleaned with isopropyl alcohol at the end of each week",
     "The resin printers are cleaned with isopropyl alcohol at the end of each shift.",
     "condition"),
    ("empty the cooling tray on the Loring S35 after every fourth batch",
     "Empty the chaff collector on the Loring S35 after every fourth batch.", "word"),
    ("we send clients their documents through the SmartVault portal, not by email",
     "Clients upload their documents through the SmartVault portal, not by email.",
     "direction"),
    ("during tax season the office is open Saturdays from 9 am to noon",
     "During tax season the office is open Saturdays from 9 am to 1 pm.", "number"),
    ("The N7 night bus arrives at Central Station at 12:30am and 2am.",
     "Night bus N7 departs from Central Station at 00:30 and 02:00.", "opposite"),
    # guards: the predicate changes of this set must leave these read as before
    ("Each van carries two fire extinguishers and a DC isolator kit",
     "Each van carries two fire blankets and a DC isolator kit.", "word"),
])
def test_near_misses_found_by_the_eighteenth_set_conflict(request_text: str, stored: str,
                                                          kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


def test_grade_a_and_b_still_narrows_grade_a() -> None:
    """"Grade A" is no instruction ("Empty **the** …" is): the request naming grade B too is
    still read as narrower than the stored fact, as before this set's predicate changes."""
    found = agreement.conflicts(
        "Grade A and B particle counts are logged continuously and reviewed every shift by QA.",
        "Grade A particle counts are logged continuously and reviewed every shift by QA.")
    assert "condition" in {c.kind for c in found}


@pytest.mark.parametrize(("request_text", "stored"), [
    ("on the night shift Chen Wei is the remote PIC.",
     "Chen Wei is the remote pilot in command for the night shift."),
    ("QC cupping is held at 10:30", "quality-control cupping is held at 10:30"),
    ("the co-op buys fertiliser in 600 kg bags", "The co-op buys fertilizer in 600 kg bags."),
    ("the recycling centre sorts coloured glass", "The recycling center sorts colored glass."),
    ("every multi-state return for the Boston office is prepared by Grace.",
     "Grace prepares all the multi-state returns for the Boston office."),
    ("we only roast decaf on Mondays so it doesn't cross-contaminate the regular batches",
     "Decaf is roasted on Mondays only, to avoid cross-contamination with regular batches."),
    ("Remove this: produce from the Saturday market goes to the Eastside pantry.",
     "Produce from the Saturday market goes to the Eastside pantry."),
])
def test_rewordings_found_by_the_eighteenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_three_quarters_of_an_hour_is_forty_five_minutes() -> None:
    minutes = 1 / (24 * 60)
    for text in ("booked for three quarters of an hour", "three-quarters of an hour"):
        assert facets(text).durations == pytest.approx((45 * minutes,)), text
    assert facets("a 45-minute appointment").durations == pytest.approx((45 * minutes,))
    assert facets("3 quarters").durations == pytest.approx((273.93,))  # a quarter of a year


def test_to_avoid_denies_but_a_plain_avoid_does_not() -> None:
    assert facets("switched off to avoid wasting gas").negations == 1
    assert facets("so team lunches avoid them").negations == 0


def test_british_and_american_spellings_stem_alike() -> None:
    pairs = [("fertiliser", "fertilizer"), ("colour", "color"), ("metres", "meters"),
             ("analysed", "analyzed"), ("catalogue", "catalog"), ("organisation", "organization"),
             ("harbour", "harbor"), ("licence", "license"), ("grey", "gray")]
    for british, us in pairs:
        assert stem(british) == stem(us), british
    for word in ("hour", "four", "flour", "genre", "acre", "rise", "metric"):  # no spelling
        assert american(word) == word


# A review's 200 pairs aimed at this session's rules (written by a helper that read no code):
# the rewordings and near misses it found the rules reading wrongly, and the guards the fixes
# must keep.
@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("We use quaternary cleaner rather than bleach on the bathroom floors.",
     "We use bleach rather than quaternary cleaner on the bathroom floors.", "roles"),
    ("The freelancers pay the agency within 30 days.",
     "The agency pays the freelancers within 30 days.", "roles"),
    ("Trial shifts at the restaurant last three weeks.",
     "Trial shifts at the restaurant last a fortnight.", "duration"),
    ("Sofia, our registrar, checks in loan objects before they're unpacked",
     "Loan objects are checked in by the registrar, Hannah, before unpacking.", "name"),
])
def test_near_misses_found_by_the_review_conflict(request_text: str, stored: str,
                                                  kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("For the record, Lena is the one who handles all warranty claims for the bike shop.",
     "Lena is the one who handles all warranty claims for the bike shop."),
    ("Quick note: samples go to the lab in the blue cooler.",
     "Samples go to the lab in the blue cooler."),
    ("Apex Hire rents scaffolding to us.", "We rent scaffolding from Apex Hire."),
    ("Switch off the kiln before the lid is opened.", "Turn off the kiln before the lid is opened."),
    ("Any time you step away from the till, lock the cash drawer.",
     "Lock the cash drawer whenever you step away from the till."),
    ("Brewery tours take 75 minutes.", "Brewery tours take an hour and fifteen minutes."),
    ("we pick up rescued groceries from the Elm Street Kroger every day but Sunday",
     "Grocery rescue pickups from the Elm Street Kroger run daily except Sundays."),
    ("any hot-fire test on Stand B needs an exclusion zone of 1,500 metres",
     "Hot-fire tests on Stand B need a 1.5 km exclusion zone."),
    ("dogs aren't allowed in the Dublin office", "The Dublin office does not allow dogs."),
    ("In Leeds, backups run nightly", "Backups run nightly in Leeds"),
])
def test_rewordings_found_by_the_review_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_kilometres_and_metres_are_one_length_and_miles_another() -> None:
    assert facets("a 1.5 km zone").numbers == facets("a 1,500 metre zone").numbers == {1500.0}
    kinds = {c.kind for c in agreement.conflicts("the zone is 1.5 km", "the zone is 1.5 miles")}
    assert "unit" in kinds
