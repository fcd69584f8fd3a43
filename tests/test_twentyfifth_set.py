"""Rules from the twenty-fifth forget set's first run (on ac72ecb: 15 wrong forgets of 100 near
misses, 37 of 65 rewordings forgotten): a percentage against the same number as money or
before a unit ("**10%** off" / "**£10** off", "**50%**" / "**50 Hz**"), "throttled **up**" /
"**down**", the verb that ends a reason ("so it doesn't **crack**" / "… **sweat**"), an
exception the other text does not make ("… **unless they hold a belay card** from another
gym"), and a count per thing ("**one auto-belay per wall**" / "the auto-belays"). Also "30
percent" read as "30%". Each near miss below forgot the stored fact before this change; the
guards are rewordings the rules must still let through."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("Riverside Model Railway Club members get £10 off track, but not off rolling stock",
     "Riverside Model Railway Club members get 10% off track, but not off rolling stock.",
     "unit"),
    ("pump P-304 is throttled down to 50% at night so the noise complaints from the flats stop",
     "Pump P-304 is throttled down to 50 Hz at night so that the noise complaints from the "
     "flats stop.", "unit"),
    ("pump P-304 is throttled up to 50 Hz at night so the noise complaints from the flats stop",
     "Pump P-304 is throttled down to 50 Hz at night so that the noise complaints from the "
     "flats stop.", "opposite"),
    ("fondant covering is done the day before delivery, never earlier, so it doesn't crack",
     "Fondant covering is done the day before delivery, never earlier, so it doesn't sweat.",
     "word"),
    ("the duty manager inspects one auto-belay per wall every morning before opening",
     "The duty manager inspects the auto-belays every morning before opening.", "quantity"),
])
def test_near_misses_found_by_the_twentyfifth_set_conflict(request_text: str, stored: str,
                                                           kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


def test_an_exception_the_fact_does_not_make_is_another_fact() -> None:
    """Read from the request's side: the stored rule has no "unless" at all."""
    found = agreement.conflicts(
        "new members must pass a belay test with Sanne or Kofi before using the top-rope walls "
        "unless they hold a belay card from another gym",
        "New members must pass a belay test with Sanne or Kofi before using the top-rope walls.")
    assert "condition" in {c.kind for c in found}


@pytest.mark.parametrize(("request_text", "stored"), [
    ("a 30 percent deposit is required within seven days",
     "A 30% deposit is required within 7 days."),
    ("the deposit is 30 percent of the total", "The deposit is 30% of the total."),
    ("we buy hay from pennock farm, 300 bales per load",
     "Hay is bought from Pennock Farm in 300-bale loads."),
    ("fondant covering is done the day before delivery so it doesn't crack",
     "Fondant is put on the day before delivery, never earlier, so it doesn't crack."),
])
def test_rewordings_stay_the_same_fact(request_text: str, stored: str) -> None:
    found = agreement.conflicts(request_text, stored)
    assert found == [], found
