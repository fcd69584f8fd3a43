"""Rules from the hundred-and-first to hundred-and-sixth forget sets' first runs (3, 4, 4, 4, 3
and 2 wrong forgets of 100 near misses), and from earlier sets' near misses that still forgot
their fact. Each near miss below forgot the stored fact before this change; each guard is a
rewording that must keep agreeing, or a pair a rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import (
    aligned,
    crossed_pairs,
    doers,
    framed,
    leading,
    purposes,
    received,
    widened,
)
from memory_mcp.services.facets import facets


@pytest.mark.parametrize(("request_text", "stored"), [
    ("every pawn ticket is reported to the police LeadsOnline training portal by close of "
     "business.", "Every pawn ticket is reported to the police LeadsOnline portal by close of "
     "business."),
    ("Green Line platform doors are reset from console 2 in the training room, not console 1.",
     "Station platform doors on the Green Line are reset from console 2, not console 1."),
])
def test_a_training_portal_or_room_is_an_environment(request_text: str, stored: str) -> None:
    assert "environment" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Dr Helen Okafor reports all ultrasound scans on Tuesdays and Thursdays, adult and "
     "paediatric alike.", "Dr Helen Okafor reports all paediatric ultrasound scans on Tuesdays "
     "and Thursdays."),
    ("SO2 is added at 30 mg/L to all must at the press, reds as well as whites.",
     "All white must gets 30 mg/L of SO2 at the press."),
    ("batten pockets on every mainsail, racing or cruising, get a double layer of 8 oz Dacron "
     "reinforcement.", "Batten pockets on racing mainsails get a double layer of 8 oz Dacron "
     "reinforcement."),
    ("Jordan Mills fits every job, commercial and domestic alike.",
     "Jordan Mills fits all commercial jobs; domestic installs are split between Ana Costa and "
     "Kofi Mensah."),
])
def test_both_kinds_of_a_thing_widen_a_rule_for_one(request_text: str, stored: str) -> None:
    """"adult **and** paediatric **alike**" / "all **paediatric** … scans": the stored rule is
    for one kind; the request's, for both, is another rule."""
    assert widened.both_kinds(facets(request_text), facets(stored)) is not None
    assert "scope" in kinds(request_text, stored)


def test_both_kinds_joined_in_the_stored_text_agree() -> None:
    assert widened.both_kinds(facets("Jordan Mills fits every job, commercial and domestic "
                                     "alike."),
                              facets("Jordan Mills fits commercial and domestic jobs.")) is None
    assert not kinds("Jordan Mills fits every job, commercial and domestic alike.",
                      "Jordan Mills fits commercial and domestic jobs.")


@pytest.mark.parametrize(("request_text", "stored"), [
    ("music anywhere on the estate must end by 23:00 on Fridays and Saturdays.",
     "Music in the barn must end by 23:00 on Fridays and Saturdays under the licence from the "
     "district council."),
    ("damaged bikes reported anywhere in the city are collected by the van team within 4 hours.",
     "Damaged bikes reported in the city centre are collected by the van team within 4 hours."),
    ("Online pharmacy orders over 40 euros ship free anywhere in Portugal, islands included.",
     "Online pharmacy orders over 40 euros ship free within mainland Portugal."),
])
def test_anywhere_widens_a_rule_held_in_one_place(request_text: str, stored: str) -> None:
    assert widened.anywhere(facets(request_text), facets(stored)) is not None
    assert "scope" in kinds(request_text, stored)


def test_anywhere_in_the_place_the_stored_text_names_agrees() -> None:
    """"a metal detector **anywhere on site**" / "… **on site** without written permission":
    every word of the stored place is the request's."""
    request_text = ("using a metal detector anywhere on site requires written permission from "
                    "the county heritage officer.")
    stored = "No metal detectors on site without written permission from the county heritage " \
        "officer."
    assert widened.anywhere(facets(request_text), facets(stored)) is None


@pytest.mark.parametrize(("request_text", "stored"), [
    ("ATC must immediately report more than 50 gulls on the grass by taxiway Charlie to the bird "
     "control unit.", "More than 50 gulls on the grass by taxiway Charlie must be reported to "
     "ATC immediately."),
    ("we supply rubber bladders to Kautschuk GmbH in Leipzig every month.",
     "Rubber bladders are supplied by Kautschuk GmbH in Leipzig and delivered to us monthly."),
    ("we deliver 40 dozen tip-up minnows to Northwoods Bait on Tuesdays and Fridays.",
     "Minnows for the tip-ups are delivered by Northwoods Bait on Tuesdays and Fridays, 40 dozen "
     "per delivery."),
])
def test_a_passive_names_the_receiver_or_the_doer(request_text: str, stored: str) -> None:
    """"must be **reported to ATC**" / "**ATC** must report …", "**supplied by** Kautschuk" /
    "we **supply** … **to** Kautschuk": one end of the doing each way round."""
    assert doers.source_subject(facets(request_text), facets(stored)) is not None
    assert "direction" in kinds(request_text, stored)


def test_the_same_passive_doer_reworded_agrees() -> None:
    request_text = "Kautschuk GmbH in Leipzig supplies our rubber bladders every month."
    stored = "Rubber bladders are supplied by Kautschuk GmbH in Leipzig and delivered to us " \
        "monthly."
    assert doers.source_subject(facets(request_text), facets(stored)) is None


def test_another_number_in_the_same_words_is_another_value() -> None:
    request_text = ("the weekday 4 pm beginner classes for ages 4-6 in the teaching pool have "
                    "at most 8 children per instructor.")
    stored = ("Beginner classes for ages 4-6 run in the teaching pool at 4 pm on weekdays, with "
              "at most 6 children per instructor.")
    assert framed.other_number(facets(request_text), facets(stored)) == (
        "at most 8 children per", "at most 6 children per")
    assert "number" in kinds(request_text, stored)


def test_the_same_numbers_in_other_words_agree() -> None:
    assert framed.other_number(facets("at most 6 children per instructor, ages 4 to 6."),
                               facets("ages 4 to 6, with at most 6 children per instructor."),
                               ) is None


def test_daylight_is_not_night() -> None:
    request_text = ("at night the bird control patrol drives runway 09/27 every 30 minutes and "
                    "logs sightings in the BirdTrack app.")
    stored = ("In daylight the bird control patrol drives runway 09/27 every 30 minutes and logs "
              "sightings in the BirdTrack app.")
    assert "opposite" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("clients text us through PetsApp on the morning of the visit.",
     "Clients get a text through PetsApp on the morning of the visit."),
    ("parents text the centre within one hour of any head bump, however minor.",
     "Parents get a text from the centre within one hour of any head bump, however minor."),
])
def test_getting_a_text_is_not_sending_one(request_text: str, stored: str) -> None:
    assert received.got_or_sent(facets(request_text), facets(stored)) is not None
    assert "direction" in kinds(request_text, stored)


def test_getting_a_text_reworded_agrees() -> None:
    assert received.got_or_sent(facets("the centre texts parents within an hour."),
                                facets("Parents get a text from the centre within one hour."),
                                ) is None


def test_a_name_both_main_clauses_say_is_no_shared_reason() -> None:
    """"instead of **PBW** because **PBW** is too expensive" / "… because **PBW** left a film":
    the reasons' common word is the main clauses' thing."""
    request_text = ("Harbour Street taproom kegs are cleaned with Chemipro Caustic instead of "
                    "PBW because PBW is too expensive.")
    stored = ("Kegs for the Harbour Street taproom get cleaned with Chemipro Caustic instead of "
              "PBW, because PBW left a film on the keg walls last summer.")
    assert purposes.other_purpose(facets(request_text), facets(stored)) is not None


def test_other_things_before_the_same_verb_apart_by_their_last_words() -> None:
    """"**witness statements** are kept in the locked drawer under the **witness** box" /
    "**Bibles, Qurans and other holy books** are kept …": "witness" is said elsewhere, but
    statements are not books."""
    request_text = ("witness statements are kept in the locked drawer under the witness box in "
                    "each courtroom.")
    stored = ("Bibles, Qurans and other holy books are kept in the locked drawer under the "
              "witness box in each courtroom.")
    assert leading.leading(facets(request_text), facets(stored)) is not None


def test_a_thing_reworded_with_its_last_word_kept_agrees() -> None:
    assert leading.leading(facets("spare brake pads are kept in drawer 2 by the brake bench."),
                           facets("Brake pads (spares) are kept in drawer 2 by the brake "
                                  "bench.")) is None


def test_a_name_made_of_the_other_texts_words_is_another_team() -> None:
    request_text = ("counter staff escalate suspected fraud cases to the Identity Assurance "
                    "team on extension 4412.")
    stored = ("Counter staff escalate suspected fraud cases to the Counter Fraud team on "
              "extension 4412.")
    assert aligned.between(facets(request_text), facets(stored)) is not None


@pytest.mark.parametrize(("request_text", "stored"), [
    ("fuel loads come south from the Diavik mine on the ice road and the empty tankers go back "
     "north.", "Fuel loads for the Diavik mine go north on the ice road; the empty tankers come "
     "back south on the return leg."),
    ("wetsuits in sizes XS to M hang on the right rack and L and XL on the left.",
     "Wetsuits in sizes XS to M hang on the left rack, L and XL on the right."),
])
def test_opposite_words_swapped_between_the_same_things(request_text: str, stored: str) -> None:
    assert crossed_pairs.crossed_pair(facets(request_text), facets(stored)) is not None
    assert "direction" in kinds(request_text, stored)


def test_the_same_pairs_in_clauses_said_the_other_way_round_agree() -> None:
    assert crossed_pairs.crossed_pair(
        facets("the empty tankers come back south and fuel loads go north for the Diavik mine."),
        facets("Fuel loads for the Diavik mine go north on the ice road; the empty tankers come "
               "back south on the return leg.")) is None
