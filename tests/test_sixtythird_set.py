"""Rules from the sixty-third to sixty-eighth forget sets' first runs (7, 2, 5, 4, 8 and 3
wrong forgets of 100 near misses), and from earlier sets' near misses that still forgot their
fact. Each near miss below forgot the stored fact before this change; each guard is a
rewording that must keep agreeing, or a pair a rule must leave alone."""

from __future__ import annotations

import pytest
from forget_checks import kinds

from memory_mcp.services import agreement, aligned, conditioned, leading, ours
from memory_mcp.services.facets import facets
from memory_mcp.services.wrappers import strip_preamble


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the ball return on lane 7 jams about twice a week and gets logged under ticket BWL-2290.",
     "The pinsetter on lane 7 (Brunswick GS-X, serial GSX-48812) jams about twice a week; log "
     "each jam under ticket BWL-2290."),
    ("the card readers on CX-300 docks are replaced every 18 months.",
     "Locking pins on CX-300 docks are replaced every 18 months (part no. LP-7720)."),
])
def test_another_thing_opening_the_same_sentence_is_another_fact(request_text: str,
                                                                  stored: str) -> None:
    """Another part of the same machine before the same "on lane 7": the stored text's extra
    serials and numbers hid it from the word sets."""
    assert "word" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("suspension springs for Hermle 341-020 movements are ordered from Cousins UK.",
     "Mainsprings for Hermle 341-020 movements are ordered from Cousins UK."),
    ("the pinsetter belt on lane 7 jams about twice a week.",
     "The pinsetter on lane 7 jams about twice a week."),
    ("the ball return on lane 7 jams; the pinsetter is fine.",
     "The pinsetter on lane 7 jams; the ball return is fine."),
])
def test_an_opening_thing_sharing_a_word_or_a_compound_is_no_swap(request_text: str,
                                                                  stored: str) -> None:
    """A compound's part ("springs" / "mainsprings"), a shared word, or a thing the other
    text names elsewhere is left to the other rules."""
    assert leading.leading(facets(request_text), facets(stored)) is None


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the Block 7 Nordmann firs are shaped in July with shearing knives to get a dense cone.",
     "Nordmann firs in Block 7 are shaped in July with the Stihl HS 82 hedge trimmer to get a "
     "dense cone."),
    ("the engine room logs fuel consumption every four hours in the paper engine logbook.",
     "The engine room logs fuel consumption every four hours in Kongsberg K-Chief 700, release "
     "9.2."),
    ("brick surfaces are cleaned with the steam cleaner at 80°C to avoid damaging the mortar.",
     "Brick surfaces are cleaned with the Kärcher HDS 8/18 hot-water pressure washer at 80°C to "
     "avoid damaging the mortar."),
    ("lap timing uses MyLaps X2 transponders on firmware 4.2, with Orbits running on the PC in "
     "the pit building.", "Lap timing uses MyLaps X2 transponders on firmware 4.2, with the "
     "Orbits software running on the PC in the race control tower."),
    ("crates from the Tate loan are stored in the first-floor store at 45% relative humidity "
     "until the show closes.", "Crates from the Tate loan are stored in the basement loading "
     "bay at 45% relative humidity until the show closes."),
])
def test_another_tool_or_place_between_the_same_words_is_another_fact(request_text: str,
                                                                       stored: str) -> None:
    """The same words before ("in July with") and after ("to get"), and between them two
    things that share no word: another tool or place in the same slot."""
    assert "word" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Tower supervisors send incident reports to the county parks office within a day.",
     "Incident reports go from the tower supervisor to the county parks office within 24 "
     "hours."),
    ("bread from Crumb & Co. is loaded at Edinburgh Waverley platform 2 at 05:45 every day.",
     "Bread from Crumb & Co. is loaded at Edinburgh Waverley, platform 2, at 05:45 daily."),
    ("Every Sunday night the UAT instance of Endur is refreshed from prod.",
     "The Endur UAT instance is refreshed from production every Sunday night."),
    ("the boathouse unlocks at quarter to six on weekdays and the last crew has to be off the "
     "river by sunset.", "Boathouse opens at 05:45 on weekdays; the last crew must be off the "
     "water by sunset."),
    ("swapping the UV tubes in the fly killers at food premises once a year in March, ahead of "
     "fly season.", "UV tubes in fly-killer units at food premises are replaced every 12 "
     "months, each March before the fly season."),
    ("the HLA lab's crossmatch results come by secure fax to ext. 4471",
     "Crossmatch results from the HLA lab are sent by secure fax to extension 4471."),
])
def test_times_amounts_clauses_and_short_forms_between_the_same_words_are_rewordings(
        request_text: str, stored: str) -> None:
    """"within **a day**" / "within **24 hours**", "**the prod**" / "**the production**",
    "**the fly killers**" / "**fly-killer units**": the value rules and the word pools read
    these; ``between`` compares only things named by nouns."""
    assert aligned.between(facets(request_text), facets(stored)) is None


@pytest.mark.parametrize(("request_text", "rest"), [
    ("Scrap the billing note that boarding yards invoice us monthly.",
     "boarding yards invoice us monthly."),
    ("Drop the old rule that visitors sign in at reception.", "visitors sign in at reception."),
    ("Remove the note that the gate shuts at 6.", "the gate shuts at 6."),
    ("Wipe the note that wheelchair spaces are in row K.", "wheelchair spaces are in row K."),
    ("Clear the memory that production runs Zeno 2.8.", "production runs Zeno 2.8."),
    ("Please unlearn that gritters are loaded at 03:00.", "gritters are loaded at 03:00."),
    ("Stop remembering that the showroom closes at 10.", "the showroom closes at 10."),
    ("Remove this one: the basking spot is held at 40 °C.", "the basking spot is held at 40 °C."),
    ("Delete the restriction that the unit runs at night.", "the unit runs at night."),
    ("Get rid of the rain bonus memory: four euros a drop.", "rain bonus four euros a drop."),
    ("Erase the seating note \u2014 altos on the left.", "seating altos on the left."),
    ("Clear the drains every Monday.", "Clear the drains every Monday."),
])
def test_a_note_named_with_its_topic_is_the_requests_wrapper(request_text: str,
                                                             rest: str) -> None:
    """"Scrap the **billing** note that …": a word naming the note is not part of the fact
    (read as part of it, the fact's words were hidden, and "invoice us" / "we invoice"
    passed)."""
    assert strip_preamble(request_text) == rest


def test_who_invoices_whom_turned_round_is_another_fact_behind_a_named_note() -> None:
    request_text = ("Scrap the billing note that boarding yards invoice us monthly, while "
                    "private owners pay on the day by card or cash.")
    stored = "We invoice boarding yards monthly; private owners pay on the day by card or cash."
    assert "roles" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("gazebos wider than 4 m must be weighted with at least 15 kg per leg whenever rain is "
     "forecast.", "Gazebos wider than 4 m must be weighted with at least 15 kg per leg whenever "
     "the forecast wind speed is above 25 mph."),
    ("gritters are loaded with rock salt at 03:00 whenever snow is forecast.",
     "Gritters are loaded with rock salt at 03:00 whenever the forecast road surface "
     "temperature drops below 1 °C."),
    ("if the main stage Shure SM58 sounds muffled, swap in the backup from the green room "
     "locker.", "If the main stage Shure SM58 cuts out, swap in the backup from the green room "
     "locker."),
    ("all jumps are suspended when the east pylon anemometer reads wind over 40 km/h and it is "
     "also raining.", "All jumps are suspended when the anemometer on the east pylon reads wind "
     "over 40 km/h."),
])
def test_another_condition_after_the_same_word_is_another_fact(request_text: str,
                                                               stored: str) -> None:
    """Rain and wind are two triggers of one rule: "whenever **rain** is forecast" /
    "whenever the forecast **wind speed** is above 25 mph", and "… **and it is raining**" adds
    a state the stored condition does not hold under."""
    assert "condition" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("if the morning-before forecast shows over 60% chance of rain, outdoor ceremonies go into "
     "the marquee", "Outdoor ceremonies move to the marquee if rain probability is above 60% "
     "the morning before."),
    ("when the tide is under one metre, boat crews launch off the north ramp.",
     "Boat crews launch from the north ramp when the tide is below 1 m."),
    ("unless a customer requests two, cruising mainsails are given three reef points.",
     "Cruising mainsails get three reef points unless the customer asks for two."),
    ("we call the backup nurse if there's no ack within three minutes",
     "If there's no acknowledgement within 3 minutes, the backup nurse is called."),
    ("twenty grams of salt per square metre whenever the surface temperature is under minus "
     "five Celsius.", "Route 12 spreader setting: 20 g/m² of salt when the road surface is "
     "below -5 °C."),
])
def test_a_reworded_condition_is_no_other_condition(request_text: str, stored: str) -> None:
    """Units, verbs, short forms and a single word on each side ("**chance**" /
    "**probability**", "surface **temperature**" / "**road** surface") are rewordings as often
    as other triggers: at least three things, between the two clauses, must be missing from
    the other text."""
    assert conditioned.other_clause(request_text, stored) is None


@pytest.mark.parametrize(("request_text", "stored", "words"), [
    ("Priya Nair switches the fog machine on for birthday parties with kids under 8.",
     "The arena fog machine runs at 30% output, but Priya Nair switches it off for birthday "
     "parties with kids under 8.", ("switch on", "switch off")),
    ("pedestrian green at the Elm Lane school crossing is shortened to 12 seconds on term-time "
     "mornings.", "Pedestrian green at the Elm Lane school crossing is extended to 12 seconds "
     "on term-time mornings.", ("shortened", "extended")),
])
def test_switched_on_off_with_a_pronoun_and_shortened_extended_are_opposites(
        request_text: str, stored: str, words: tuple[str, str]) -> None:
    found = [c for c in agreement.conflicts(request_text, stored) if c.kind == "opposite"]
    assert found and all(w in found[0].detail for w in words)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Dan Holloway, Riverside's treasurer, invoices us monthly for team restrings.",
     "Riverside Tennis Club's team restrings are invoiced monthly to their treasurer, Dan "
     "Holloway."),
    ("Bywell Clays order pallets of 7,200 clays from us every three weeks.",
     "Clays are ordered from Bywell Clays in pallets of 7,200 every three weeks."),
    ("Laukhuff orders tracker square rails from us, part 4-2213.",
     "Tracker square rails: order from Laukhuff, part 4-2213."),
])
def test_a_thing_dealing_with_us_that_the_note_names_as_source_or_target_is_turned_round(
        request_text: str, stored: str) -> None:
    """"Bywell Clays order … **from us**" / "Clays are ordered **from Bywell Clays**": the
    goods go the other way."""
    assert "direction" in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("the university data centre mirrors the station's raw archive and returns processed "
     "climatologies to us", "The station's raw archive is mirrored to the university data "
     "centre, which sends back processed climatologies."),
    ("we order clays from Bywell Clays in pallets of 7,200 every three weeks",
     "Clays are ordered from Bywell Clays in pallets of 7,200 every three weeks."),
    ("Halo Talent books festivals for us", "Festival bookings go through our agent, Halo "
     "Talent."),
])
def test_us_in_a_later_clause_or_a_note_with_its_own_we_is_left_to_the_order_rules(
        request_text: str, stored: str) -> None:
    assert ours.us_turned(facets(request_text), facets(stored)) is None


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("customer returns go to the finishing bench first, then on to the quality team.",
     "Customer returns go to the quality team first, then on to the finishing bench.", "roles"),
    ("Gondola 14 is out of service until its cracked floor panel is replaced.",
     "Gondola 14 is out of service until its cracked window is replaced (ticket FW-2231).",
     "word"),
    ("the bottle washer in Bay 2 gets descaled every Friday after the last shift.",
     "The 200-litre steam kettle in Bay 2 gets descaled every Friday after the last shift.",
     "word"),
    ("anyone on the factory tour must wear sealed goggles in the bottling hall.",
     "Anyone on the factory tour must wear sealed goggles in the grinding room, because "
     "capsaicin dust gets into eyes.", "word"),
    ("any chandelier over 40 kg is lifted with the scissor lift.",
     "Any chandelier over 40 kg is lifted with the two-tonne chain hoist, never the manual "
     "winch.", "word"),
])
def test_steps_in_another_order_and_things_after_a_modifier_or_before_a_clause_differ(
        request_text: str, stored: str, kind: str) -> None:
    """Two steps in the other order ("… first, **then** …"); another thing after the same
    "its cracked", opening with a measure ("the 200-litre steam kettle"), or where one text
    ends and the other goes on ("… in the grinding room, **because** …")."""
    assert kind in kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("PA12 nylon jobs run on the HP MJF 5200.",
     "PA12 nylon jobs are printed on the HP Multi Jet Fusion 5200."),
    ("the skatepark lights go off at 9 pm due to the noise agreement",
     "The skatepark floodlights switch off at 9 pm because of the noise agreement."),
    ("we keep worming records in EquiLog instead of on the whiteboard in the tack room",
     "Worming records are kept in the EquiLog app, not on the tack-room whiteboard."),
])
def test_initials_verbs_and_hyphenated_words_are_no_other_thing(request_text: str,
                                                               stored: str) -> None:
    assert aligned.between(facets(request_text), facets(stored)) is None


def test_between_leaves_long_texts_to_the_long_text_rules() -> None:
    """A long near copy's every common pair of words ("of the") tried against every other took
    seconds a comparison: ``between`` is a short fact's rule."""
    filler = " ".join(["the crew logs the reading of the gauge"] * 60)
    request_text = f"{filler} with shearing knives to get a dense cone."
    stored = f"{filler} with the Stihl HS 82 hedge trimmer to get a dense cone."
    assert aligned.between(facets(request_text), facets(stored)) is None
    assert aligned.between(facets(request_text[-50:]), facets(stored[-70:])) is not None
