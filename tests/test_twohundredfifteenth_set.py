"""Rules from the two-hundred-and-fifteenth to two-hundred-and-twentieth forget sets' first
runs (2, 1, 3, 2, 4 and 7 wrong forgets of 100 near misses). Each near miss below forgot the
stored fact before its rule (or is the shape of one an earlier set left); each guard is a
rewording or a pair the rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # the same subject, acting in one text and acted on in the other (the fifty-ninth set)
    ("Please forget that sellers pay us by BACS within 5 working days of the sale.",
     "Sellers are paid by BACS within 5 working days of the sale.", "direction"),
    # another rate: a period longer than a day against another, a period against minutes
    ("Scrap the note that Snowy Owl places badge orders with the Girlguiding shop every month.",
     "Badge orders go to the Girlguiding shop once a term, placed by Snowy Owl; badges are "
     "handed out at the last meeting of term.", "schedule"),
    ("Delete the note that drivers log the cabin temperature every hour on trips over 1 hour.",
     "On trips over 1 hour, drivers log the cabin temperature every 30 minutes.", "schedule"),
    ("Forget that the fridge is checked every week.", "The fridge is checked every month.",
     "schedule"),
    # a clause after "and <verb> any": the request restates the first clause with another thing
    ("Delete the note that the kit team checks the leads for wear every Monday.",
     "The kit team checks harnesses for wear every Monday and replaces any with frayed "
     "stitching.", "word"),
    # an aside in brackets the request leaves out hid the one word that differs
    ("Drop the fact that Tobias Fenn has to approve any discount over £20 at the pie shop.",
     "Tobias Fenn (assistant manager) has to approve any refund over £20 at the pie shop.",
     "word"),
    # two clauses, each "each ..." trading amounts
    ("Forget that the caller gets £180 per gig and each musician gets £220.",
     "Each musician gets £180 per gig by bank transfer within 7 days; the caller gets £220.",
     "roles"),
    # "no" before a count after a participle or "only" denies it
    ("Remove the memory that 40 MHz sets are allowed at Sunday sailing on Willow Lake.",
     "Sunday club sailing at Willow Lake runs 09:00-12:00; radios must be 2.4 GHz only, no "
     "40 MHz sets.", "negation"),
    # another number after the same noun, the request's number among the stored ones
    ("Drop the note that spare 5-litre sanitiser refills are on shelf 5 in the store room.",
     "Hand sanitiser dispensers at the lounge entrance are refilled daily; spare 5-litre "
     "refills are on shelf 3 in the store room.", "identifier"),
    # one kept to itself with "only", the other joined with a new thing
    ("Forget that the 4 m bell tents are used for kids' sleepovers and weddings.",
     "Canvas & Co has 18 five-metre bell tents and 6 four-metre ones; the 4 m tents are for "
     "kids' sleepovers only.", "scope"),
    # who gets in touch with whom, the sender a name of two words or a verb after "and"
    ("Forget that traders on the waiting list email Owen when a pitch frees up.",
     "Market manager Owen Thackeray allocates pitches and emails traders on the waiting list "
     "when a pitch frees up.", "direction"),
])
def test_near_misses_of_the_new_sets_are_other_facts(request_text: str, stored: str,
                                                    kind: str) -> None:
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Forget that we pay sellers by BACS within 5 working days of the sale.",
     "Sellers are paid by BACS within 5 working days of the sale."),
    ("Forget that the guillotine blade is sharpened by Keller Blades every 6 weeks.",
     "Keller Blades sharpens the guillotine blade every six weeks."),
    ("Forget that the Makita batteries charge overnight in the van.",
     "Makita batteries are charged overnight in the van."),
    ("Forget that the book drop bins get emptied twice daily.",
     "Book drop bins are emptied twice a day."),
    ("Forget that the dashboard refreshes every quarter of an hour.",
     "The dashboard refreshes every 15 minutes."),
    ("Forget that hoppers get refilled every three quarters of an hour.",
     "Hoppers are topped up every 45 minutes."),
    ("Forget that the filters are changed every six months.",
     "The filters are changed twice a year."),
    ("Forget that the pens are cleaned every two weeks.", "The pens are cleaned fortnightly."),
    ("Forget that drills are run two times each season.", "Drills are run twice per season."),
    ("Forget that mill number two grinds the mustard seed at 40 rpm.",
     "Stone mill No. 2 grinds mustard seed at 40 rpm."),
    ("Forget that Sunday sailing is 9am to noon and only 2.4 GHz radios are allowed, no 40 MHz.",
     "Sunday club sailing runs 09:00-12:00; radios must be 2.4 GHz only, no 40 MHz sets."),
    ("Forget that Tobias Fenn has to approve any refund over £20 at the pie shop.",
     "Tobias Fenn (assistant manager) has to approve any refund over £20 at the pie shop."),
    ("Forget the lesson fee note: cancelling with under 24 hours' notice costs half, £75.",
     "Lessons cancelled with less than 24 hours' notice are charged half the fee (£75)."),
    ("Forget that the kit team checks harnesses for wear on Mondays.",
     "The kit team checks harnesses for wear every Monday and replaces any with frayed "
     "stitching."),
    ("Forget that the 4 m tents are only for kids' sleepovers.",
     "The 4 m tents are for kids' sleepovers only."),
    ("Forget that leaflets go to LS6 and LS7 and nowhere else.",
     "Leaflets go to postcodes LS6 and LS7 only."),
    ("Forget that Owen emails the traders on the waiting list when a pitch frees up.",
     "Market manager Owen Thackeray allocates pitches and emails traders on the waiting list "
     "when a pitch frees up."),
    ("Forget that spare refills are on the third shelf in the store room.",
     "Spare 5-litre refills are on shelf 3 in the store room."),
    ("Forget that the second screen at the Harbour Cinema has 180 seats.",
     "Screen 2 at the Harbour Cinema seats 180."),
    ("Forget that the tatting class works in size 20 and size 40 thread is for edging.",
     "Tatting class uses size 20 thread; size 40 is only for edging."),
])
def test_rewordings_still_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []
