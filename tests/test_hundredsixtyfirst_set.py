"""Rules from the hundred-and-sixty-first to hundred-and-sixty-sixth forget sets' first runs (9,
1, 0, 2, 4 and 2 wrong forgets of 100 near misses), and from the near misses all earlier sets
still let through. Each near miss below forgot the stored fact before this change; each guard
is a rewording that must keep agreeing, or a pair a rule must leave alone."""

from __future__ import annotations

import pytest

from memory_mcp.services import (
    agreement,
    blocks,
    crossed_clauses,
    received,
    steps,
    widened,
    wording,
)
from memory_mcp.services.facets import facets


def _kinds(request_text: str, stored: str) -> set[str]:
    return {c.kind for c in agreement.conflicts(request_text, stored)}


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    # two stages of one route in the other order
    ("Grand Loop lost-and-found items go to the Fairhollow main office first, then to Midway "
     "ranger station after 14 days.",
     "Lost-and-found items from the Grand Loop trail go to the Midway ranger station first, then "
     "to the main office in Fairhollow after 14 days.", "direction"),
    ("client deliverables go out to the client first through SharePoint, then to the mapping "
     "team for QA.",
     "Client deliverables go to the mapping team first for QA, then out to the client through "
     "the SharePoint portal.", "direction"),
    # opposite words inside hyphenated words, crossed between two people
    ("Jade Okafor covers the south-side maintenance routes and Tomasz the north side.",
     "Maintenance-contract customers get a visit every fortnight; Jade Okafor covers the "
     "north-side routes and Tomasz the south side.", "direction"),
    # a rule widened to every kind there is
    ("Maestro2 OCT scans are offered to every patient, whatever their age, for £25 extra.",
     "Topcon Maestro2 OCT scans are offered to all patients over 40 as part of the enhanced "
     "eye exam, at £25 extra.", "scope"),
    ("Dmitri Volkov from QA signs off every batch of crisps, whatever the flavour, before it "
     "leaves the packing hall.",
     "Dmitri Volkov from QA signs off every batch of salt-and-vinegar crisps before it leaves "
     "the packing hall.", "scope"),
    ("Rachel Dunn has to be on site for every laser show, indoor and outdoor.",
     "Laser safety officer Rachel Dunn must be on site for every outdoor show and signs off the "
     "pre-show beam check.", "scope"),
    ("Neil Ashcroft handles all recall reviews nationally.",
     "Case manager Neil Ashcroft handles all recall reviews for the Northern region.", "scope"),
    # another revision, another thing in the same slot
    ("ink viscosity is checked under QP-14 rev 4.",
     "Offset ink viscosity is measured at 08:00 and 14:00 under procedure QP-14 rev 3 and must "
     "stay between 18 and 22 seconds on the DIN 4 flow cup.", "identifier"),
    ("the Orléans barrels' mother is fed with unpasteurised cider every Thursday.",
     "The vinegar mother in the Orléans barrels is fed with unpasteurised red wine every "
     "Thursday.", "word"),
    # two clauses trading what each is said of
    ("the Hydro-Max hot-water trailer is for timber decks and the cold-water unit is for "
     "driveways.",
     "The hot-water trailer rig (Hydro-Max, 3000 psi) is for driveways; the cold-water unit is "
     "for timber decks.", "roles"),
    ("the Transit tipper does Cheshire and the MX19 KPL lorry covers Manchester.",
     "The 18-tonne tipper lorry (MX19 KPL) does the Cheshire deliveries; the Transit tipper "
     "covers Manchester.", "roles"),
    ("volunteers post call-outs on the WhatsApp group and Hannah Okafor confirms within 30 "
     "minutes.",
     "Crew leader Hannah Okafor posts call-outs on the WhatsApp group, and volunteers confirm "
     "within 30 minutes.", "roles"),
    # taken to someone who, in the stored fact, collects it
    ("we drive the scrap springs from Bay 6 over to Fenwick Metals every Thursday.",
     "Scrap springs go in the yellow bins by Bay 6; Fenwick Metals collects them every "
     "Thursday.", "direction"),
    ("we take the waste cooking oil to Olleco's depot on the Monday morning after the festival.",
     "Olleco collects the waste cooking oil on the Monday morning after the festival; the drums "
     "are kept in compound C until then.", "direction"),
])
def test_near_misses(request_text: str, stored: str, kind: str) -> None:
    assert kind in _kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    # reworded in three or more places of a long enough sentence: no "each says" conflict
    ("over the winter months the Panigale V4 demonstrator lives in the heated garage with an "
     "Optimate keeping its battery topped up.",
     "The Ducati Panigale V4 demo bike is stored in the heated garage over winter, with its "
     "battery on an Optimate charger."),
    ("Priya Natarajan from agronomy approves each fungicide spray and keeps the spray log in "
     "FieldView.",
     "Priya Natarajan in the agronomy team signs off every fungicide spray; the spray log lives "
     "in FieldView."),
    # the same two stages, the same order
    ("Grand Loop lost-and-found items go first to Midway ranger station, then to the Fairhollow "
     "main office after 14 days.",
     "Lost-and-found items from the Grand Loop trail go to the Midway ranger station first, then "
     "to the main office in Fairhollow after 14 days."),
    # two clauses keeping their pairs
    ("Marta Kowalczyk handles all bird mounts and mammal commissions go to Owen Price.",
     "Marta Kowalczyk handles all bird mounts; mammal commissions go to Owen Price."),
    ("Tom handles the online orders and Ruth packs them on Wednesday afternoons for the "
     "Thursday DPD collection.",
     "Tom handles the online orders; Ruth packs them on Wednesday afternoons for the Thursday "
     "DPD collection."),
    # the collector collects in both
    ("Olleco picks up the waste cooking oil the Monday morning after the festival.",
     "Olleco collects the waste cooking oil on the Monday morning after the festival."),
])
def test_rewordings_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_reworded_throughout_counts_runs_in_long_texts() -> None:
    a = facets("over the winter months the Panigale V4 demonstrator lives in the heated garage "
               "with an Optimate keeping its battery topped up.")
    every = wording.words(a)
    spread = [(i, w) for i, w in every if w in ("lives", "garage", "topped")]
    assert blocks.reworded_throughout(every, spread)
    # words next to each other among the content words are one place ("system … set up")
    one_place = [(i, w) for i, w in every if w in ("demonstrator", "lives", "heated")]
    assert not blocks.reworded_throughout(every, one_place)
    short = facets("killing is done by steaming the green vanilla beans.")
    words = wording.words(short)
    assert not blocks.reworded_throughout(words, [words[0], words[2], words[4]])


def test_each_rule_reads_its_own_shape() -> None:
    # one "then" with no "first" before it: no stages
    assert steps.swapped_stages(facets("pallets go to Leeds, then to York."),
                                facets("pallets go to York, then to Leeds.")) is None
    # "whatever" naming a thing, not widening a rule
    assert widened.regardless(
        facets("the kitchen team bins whatever's been on the display chiller over 4 hours."),
        facets("Anything left on the display chiller after 4 hours gets binned.")) is None
    assert widened.regardless(facets("every horse, whatever its age, is checked."),
                              facets("every horse, whatever its age, gets checked.")) is None
    assert crossed_clauses.crossed_clauses("Ann packs; Bo ships.", "Ann packs; Bo ships.") is None
    assert received.taken_or_collected(facets("we take the oil to Olleco."),
                                       facets("Olleco collects the oil.")) is not None
