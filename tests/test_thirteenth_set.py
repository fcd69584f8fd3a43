"""The sixteenth session's rules, from the thirteenth forget set's first run (ten wrong forgets of
a hundred near misses) and from near misses earlier sets left: a sender turned receiver
("**labels deliver** mix stems to us" / "mix stems are delivered **to labels**"), another event a
fact follows ("30 days after **the pickup notice**" / "… after **the customer declines the repair
estimate**"), a value in the place of a few words ("**after 22:00**" / "**on bank holidays**"),
"all" of what the other narrows beside another "any", opposite events (placed / removed, issues
/ cancels, refundable / forfeited), a denial of what the other states ("may **not draft**
letters" / "may draft letters **but cannot sign** them"), a plural after a count read as a noun
("max 12 **bicycles**"), and "test" as a check rather than an environment ("we load **test** at
125 %"). Each near miss below forgot the stored fact before this change; each rewording must
keep agreeing."""

from __future__ import annotations

from typing import Any

import pytest
from forget_checks import assert_conflict_both_ways, kept_apart_in_a_new_space

from memory_mcp.services import agreement
from memory_mcp.services.facets import facets
from memory_mcp.services.runtime import Runtime


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("please forget: labels deliver mix stems to us as 24-bit/48 kHz WAV files",
     "Mix stems are delivered to labels as 24-bit/48 kHz WAV files.", "direction"),
    ("forget: the regulator sends us sea lice counts every Friday by 17:00",
     "Sea lice counts must be submitted to the regulator every Friday by 17:00.", "direction"),
    ("Priya, the DIT, hands the camera cards to the camera assistant at the end of each setup",
     "Camera cards are handed to the DIT, Priya, at the end of each setup.", "direction"),
    ("On weekends the Aldridge Transport team transfers removal calls to the on-call director.",
     "On weekends the on-call director transfers removal calls to the Aldridge Transport team.",
     "direction"),
    ("Bikes left more than 30 days after the customer declines the repair estimate are moved "
     "to the back storage room.",
     "Bikes left more than 30 days after the pickup notice are moved to the back storage room.",
     "condition"),
    ("emergency lockouts on bank holidays are charged at £120 flat plus parts",
     "Emergency lockouts after 22:00 are charged at £120 flat plus parts.", "condition"),
    ("Clients under 25 must sign the consent form and show photo ID before any work starts.",
     "Every client must sign the consent form and show photo ID before any work starts, "
     "regardless of age.", "scope"),
    ("Master key systems for all clients, residential included, are cut only at the Northgate "
     "workshop.", "Master key systems for commercial clients are cut only at the Northgate "
     "workshop.", "scope"),
    ("Cremated remains not collected after 90 days are removed from the columbarium storage.",
     "Cremated remains not collected after 90 days are placed in the columbarium storage.",
     "opposite"),
    ("If gusts go over 90 km/h, the observer on duty cancels the amber warning.",
     "If wind gusts exceed 90 km/h, the observer on duty issues an amber warning.", "opposite"),
    ("bookings need a 30% deposit, which is forfeited when the client cancels",
     "Clients pay a 30% deposit when booking, refundable if they cancel", "opposite"),
    ("Volunteer law students may not draft letters.",
     "Volunteer law students may draft letters but cannot sign them.", "negation"),
    ("Max 12 bicycles on the MV Skerry's lower deck.",
     "Max 12 motorcycles on the MV Skerry's lower deck.", "word"),
    ("Unit 12 covers the old town during the day shift.",
     "Unit 12 covers the harbour district during the day shift.", "word"),
])
def test_near_misses_found_by_the_thirteenth_set_conflict(request_text: str, stored: str,
                                                          kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    # the converse verb keeps the fact: the receiver says it receives
    ("labels receive mix stems as WAV files", "Mix stems are delivered to labels as WAV files."),
    # one event, reworded
    ("loaned artworks get photographed when they arrive and again before they go back",
     "Loaned artworks are photographed on arrival and again before return"),
    ("We keep raw sequencing data on the lab NAS for 5 years after a paper is published",
     "Raw sequencing data is kept on the lab NAS for five years after publication."),
    ("the south lift is stopped once wind gusts are above 75 kph",
     "The south chairlift stops running when wind gusts exceed 75 km/h."),
    ("that's outdated: law student volunteers can draft letters, but they can't sign them",
     "Volunteer law students may draft letters but cannot sign them."),
    ("every five years, for the insurance certificate, we load test at 125% of rated capacity",
     "Load tests at 125% of rated capacity are run every five years for the insurance "
     "certificate."),
])
def test_rewordings_found_by_the_thirteenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.parametrize(("text", "prefix"), [
    ("that's outdated: emergency lockouts after 10pm cost £120", "that's outdated: "),
    ("This is obsolete: the NAS keeps five years", "This is obsolete: "),
    ("forget the fact that the NAS keeps five years", "forget the fact that "),
])
def test_a_label_before_the_fact_is_not_part_of_it(text: str, prefix: str) -> None:
    assert agreement.strip_preamble(text) == text[len(prefix):]


def test_test_is_a_check_or_an_environment_by_its_place() -> None:
    assert not facets("we load test at 125% of rated capacity").environments
    assert not facets("a gas test every 30 minutes").environments
    for text in ("the test PACS archive is backed up nightly", "deployed to test first",
                 "readings go over the SYNOP test feed"):
        assert facets(text).environments == {"test"}, text


@pytest.mark.anyio
async def test_a_sender_turned_receiver_is_kept_apart_and_never_forgotten(runtime: Runtime,
                                                                          world: Any) -> None:
    """The regulator sending the counts forgets nothing and is saved beside the counts sent to
    it; the fact itself is still forgotten by a rewording."""
    await kept_apart_in_a_new_space(
        runtime, world,
        "Sea lice counts must be submitted to the regulator every Friday by 17:00.",
        "the regulator sends us sea lice counts every Friday by 17:00",
        "forget: sea lice counts go to the regulator every Friday, no later than 17:00")


# The fourteenth set's first run (on f09d739: 6 wrong forgets of 100)
@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("patients over 70 are charged for a retinal photo with every sight test",
     "Patients over 70 get a free retinal photo with every sight test.", "opposite"),
    ("the dive instructor has to analyse and sign any nitrox fill above 32% oxygen",
     "Nitrox fills above 32% oxygen must be analysed and signed by the fill-station tech.",
     "role"),
    ("the east wing dosing pumps are calibrated each quarter by our in-house maintenance team",
     "Dosing pumps for the east wing are calibrated by Ecolab each quarter.", "role"),
    ("Phishing reports from staff are triaged by the incident response team within 30 minutes.",
     "Phishing reports from staff are triaged by tier-1 analysts within 30 minutes.", "role"),
    ("rigging ropes are kept in service after five years or any shock load",
     "Rigging ropes retired after five years or any shock load.", "opposite"),
    ("Crew A covers emergency storm callouts on weekends.",
     "Crew B covers emergency storm callouts on weekends.", "identifier"),
    ("production of the ordering app runs 3.4.1 while staging stays on 3.3.9",
     "Staging of the ordering app runs version 3.4.1 while production stays on 3.3.9.",
     "environment"),
    ("line 2 bandsaw blades get changed every 5 hours",
     "Bandsaw blades on Line 2 are swapped every 4 operating hours.", "number"),
])
def test_near_misses_found_by_the_fourteenth_set_conflict(request_text: str, stored: str,
                                                          kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("invoices are approved by Alice", "Alice approves invoices"),
    ("Invoices must be paid by Friday", "Invoices are paid by the end of the week"),
    ("line 2 bandsaw blades get changed after every four hours of operation",
     "Bandsaw blades on Line 2 are swapped every 4 operating hours."),
    ("greenmech services the chipper every 200 hours of engine time - forget",
     "The chipper is serviced by Greenmech every 200 engine hours."),
])
def test_rewordings_found_by_the_fourteenth_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


# Near misses earlier sets left, found by the rules above once their blocks are read
@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("The Denver subrogation team handles all auto claims for Colorado and Utah.",
     "The Denver claims team handles all auto claims for Colorado and Utah.", "thing"),  # the
    # teams rule's since the hundred-and-fifty-second set
    ("pipe bursts in the north district get reported to the zone 2 leak detection team",
     "Pipe bursts in the north district are reported to the Zone 2 repair crew.", "thing"),  # the
    # teams rule's since the hundred-and-ninety-ninth set read "crew" and "team" as one kind of group
    ("Hydrofluoric acid work requires a face shield and a second person present",
     "Hydrofluoric acid work requires calcium gluconate gel on the bench and a second person "
     "present.", "word"),
])
def test_a_block_in_another_words_place_conflicts(request_text: str, stored: str,
                                                  kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


def test_a_request_adding_a_condition_block_conflicts_one_way() -> None:
    """Read from the request's side: it adds three words in one place to the fact."""
    request = ("Tenants at Riverside Towers may keep cats with written approval from "
               "management, but not dogs.")
    stored = "Tenants at Riverside Towers may keep cats but not dogs."
    assert "words" in {c.kind for c in agreement.conflicts(request, stored)}
    # two added words are not enough: a rewording adds as many ("a twelve-hour fast")
    assert agreement.conflicts("Tenants at Riverside Towers may keep cats, but never dogs.",
                               stored) == []


@pytest.mark.anyio
async def test_a_narrower_request_forgets_nothing_and_is_saved_apart(runtime: Runtime,
                                                                    world: Any) -> None:
    await kept_apart_in_a_new_space(
        runtime, world,
        "Tenants at Riverside Towers may keep cats but not dogs.",
        "Tenants at Riverside Towers may keep cats with written approval from management, "
        "but not dogs.",
        "forget: at Riverside Towers tenants can have cats, but dogs are not allowed")
