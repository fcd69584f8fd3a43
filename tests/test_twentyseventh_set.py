"""Rules from the twenty-seventh forget set's first run (on 4d37765: 7 wrong forgets of 100 near
misses, 43 of 65 rewordings forgotten): another model number or mark after the same name
("iTero Element **2**" / "… Element **5D**", "Alpha Mk **III**" / "… Mk **II**"), and "do" as the
verb itself before a quantified noun phrase ("Dr. Patel **does all** orthodontic
consultations", so the words after "all" are the things compared: "orthodontic" / "clear
aligner").
Each near miss below forgot the stored fact before this change; the guards are rewordings of
the forget sets that must still agree."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("intraoral scans are taken with the iTero Element 2 scanner in Operatory 2",
     "Intraoral scans are taken with the iTero Element 5D scanner in Operatory 2.", "number"),
    ("Press 3, the Toolex Alpha Mk III, is reserved for 180-gram pressings",
     "Press 3, the Toolex Alpha Mk II, is reserved for 180-gram pressings.", "number"),
    ("Dr. Patel does all orthodontic consultations on Wednesday afternoons",
     "Dr. Patel does all clear aligner consultations on Wednesday afternoons.", "thing"),
])
def test_near_misses_found_by_the_twentyseventh_set_conflict(request_text: str, stored: str,
                                                             kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


@pytest.mark.parametrize(("request_text", "stored"), [
    # "does the …" keeps its reading: the screenings are the thing, reworded
    ("Please remove the note saying Dr. Imani Okafor does the children's hearing screenings on "
     "Thursday mornings.", "Dr. Imani Okafor runs the paediatric hearing screenings on Thursday "
     "mornings."),
    ("Remove the note that Truck 17 lacks a liftgate and has a sixteen-foot box.",
     "Truck 17 has a 16-foot box and no liftgate."),
    # the same model under its own name
    ("we run Windows 11 on the lab PCs", "The lab PCs run Windows 11."),
])
def test_rewordings_stay_the_same_fact(request_text: str, stored: str) -> None:
    found = agreement.conflicts(request_text, stored)
    assert found == [], found
