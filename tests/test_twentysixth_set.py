"""Rules from the twenty-sixth forget set's first run (on d2dedd6: 10 wrong forgets of 100 near
misses by the rule-level check, 49 of 65 rewordings forgotten): "**ahead of** schedule" /
"**behind** schedule", a request held on some days the stored fact names no day for ("tandem
kayaks rent for $45 for two hours **on weekdays**"), and the same participle done by someone
in one text and to them in the other ("sent **to** the treasurer" / "sent **by** the
treasurer"). Each near miss below forgot the stored fact before this change; the guards are
rewordings that must still agree."""

from __future__ import annotations

import pytest
from forget_checks import assert_conflict_both_ways

from memory_mcp.services import agreement


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("if a Red Line bus is more than 4 minutes ahead of schedule, the controller holds the "
     "following bus at Central Station", "If a Red Line bus is more than 4 minutes behind "
     "schedule, the controller holds the following bus at Central Station.", "opposite"),
    ("the club's ECF rating submissions are sent to the treasurer at the end of each month",
     "The club's ECF rating submissions are sent by the treasurer at the end of each month.",
     "direction"),
])
def test_near_misses_found_by_the_twentysixth_set_conflict(request_text: str, stored: str,
                                                           kind: str) -> None:
    assert_conflict_both_ways(request_text, stored, kind)


def test_a_request_held_on_some_days_is_narrower() -> None:
    """Read from the request's side: the stored fact names no day and no schedule."""
    found = agreement.conflicts("tandem kayaks rent for $45 for two hours on weekdays",
                                "Tandem kayaks rent for $45 for two hours.")
    assert "condition" in {c.kind for c in found}


@pytest.mark.parametrize(("request_text", "stored"), [
    # a weekday in a short form the facets leave unread ("Sun" is also a word)
    ("The staging database is refreshed on Sundays at 2 am UTC.",
     "Staging DB refresh: Sun 02:00 UTC."),
    # a passive with both its doer and its receiver, against the active
    ("invoices are sent to customers by finance", "Finance sends the invoices to customers."),
    ("reports are emailed by the lab to the client", "The lab emails reports to the client."),
])
def test_rewordings_stay_the_same_fact(request_text: str, stored: str) -> None:
    found = agreement.conflicts(request_text, stored)
    assert found == [], found
