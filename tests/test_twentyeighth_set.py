"""Rules from the twenty-eighth and twenty-ninth forget sets' first runs (both on cc11bf2: 7 and
10 wrong forgets of 100 near misses, 41 and 44 of 65 rewordings forgotten): an exception the
stored rule does not make even by one word ("… **unless the supplier kiln-dried them**"), one
thing added to a list of one ("stray dogs **and cats**", "a tattoo **or a piercing**"), and
"lying flat" / "upright". Each near miss below forgot the stored fact before this change; the
guards are rewordings that must still agree."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("pernambuco sticks are seasoned in the upper drying rack of the back workshop for at least "
     "two years before carving, unless the supplier kiln-dried them", "Pernambuco sticks are "
     "seasoned in the upper drying rack of the back workshop for at least two years before "
     "carving.", "condition"),
    ("stray dogs and cats are held for 5 days before becoming eligible for adoption",
     "Stray dogs are held for 5 days before becoming eligible for adoption.", "words"),
    ("donors who got a tattoo or a piercing in the last 3 months are deferred",
     "Donors who got a tattoo in the last 3 months are deferred.", "words"),
])
def test_what_the_request_adds_is_another_fact(request_text: str, stored: str,
                                               kind: str) -> None:
    """Read from the request's side, as every narrowing or widening is."""
    assert kind in {c.kind for c in agreement.conflicts(request_text, stored)}


def test_lying_flat_is_not_upright() -> None:
    assert_conflict_both_ways(
        "helium cylinders are kept lying flat along the north wall of the filling shed",
        "Helium cylinders are chained upright along the north wall of the filling shed.",
        "opposite")


@pytest.mark.parametrize(("request_text", "stored"), [
    # "without written consent" is the same exception as "unless … has given written consent"
    ("no recording of rehearsals unless the musicians' union has given written consent",
     "Recording of rehearsals is forbidden without written consent from the musicians' union."),
    # a list both texts hold, in another order
    ("cats and dogs are held for 5 days", "Dogs and cats are held for 5 days."),
])
def test_rewordings_stay_the_same_fact(request_text: str, stored: str) -> None:
    found = agreement.conflicts(request_text, stored)
    assert found == [], found
