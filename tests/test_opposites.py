"""Opposite words, and the spoken forms and word roles the agreement rules read, found by the
forget hold-out set (bench/data/forget_holdout.json) on its first run: eight forgets of a
statement's opposite removed the stored, still-true statement ("… sign **out** at the front
desk" forgot "… sign **in** at the front desk"), and rewordings were refused for a spoken time
("half past seven" / 7:30) or a frequency ("twice a year" / "every six months")."""

from __future__ import annotations

from typing import Any

import pytest
from forget_checks import stored_then_refused

from memory_mcp.services import agreement, memories
from memory_mcp.services.facets import facets
from memory_mcp.services.runtime import Runtime


def opposite(request: str, stored: str) -> agreement.Conflict | None:
    return next((c for c in agreement.conflicts(request, stored) if c.kind == "opposite"), None)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Two-factor login is disabled for admins", "Two-factor login is enabled for admins"),
    ("Public sign-ups are blocked on the website", "Public sign-ups are allowed on the website"),
    ("Tariq prefers to have meetings after noon", "Tariq prefers to have meetings before noon"),
    ("The report excludes refunds", "The report includes refunds"),
    ("Approval of production access is automatic", "Approval of production access is manual"),
    ("Backups are unencrypted", "Backups are encrypted"),
    ("The token is invalid after logout", "The token is valid after logout"),
    ("Dark mode is turned off for all users", "Dark mode is turned on for all users"),
])
def test_another_state_is_a_value(request_text: str, stored: str) -> None:
    """Another state of the same thing: forget refuses it, a save may record it as the fact's
    next version (as for a negation)."""
    found = opposite(request_text, stored)
    assert found is not None and not found.subject, agreement.conflicts(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Docker images are pulled from the registry after every merge",
     "Docker images are pushed to the registry after every merge"),
    ("Visitors must sign out at the front desk", "Visitors must sign in at the front desk"),
    ("The Munich office closes at 7:30 on weekdays", "The Munich office opens at 7:30 on weekdays"),
    ("The analytics team has write access to the database",
     "The analytics team has read-only access to the database"),
    ("The nightly job exports customers to S3", "The nightly job imports customers to S3"),
    ("Users can unsubscribe from the newsletter", "Users can subscribe to the newsletter"),
    ("Non-production data may be copied to laptops", "Production data may be copied to laptops"),
    # a state in the subject narrows *which* things (refunds over 50 and refunds under 50 are
    # two rules, both true at once): another fact, since the fourth forget set
    ("Refunds under 50 dollars can be issued by any agent",
     "Refunds over 50 dollars can be issued by any agent"),
    # the fifth set: things are handed out in one place and returned in another
    ("Pool towels are returned at the spa reception, not at the front desk.",
     "Pool towels are handed out at the spa reception, not at the front desk."),
    ("Laptops are lent to interns by IT", "Interns give back laptops to IT"),
])
def test_another_direction_or_event_is_another_fact(request_text: str, stored: str) -> None:
    """Both can be true at once (a job that opens and closes, images pushed and pulled): a save
    keeps them apart."""
    found = opposite(request_text, stored)
    assert found is not None and found.subject, agreement.conflicts(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Prices rose, an increase of 5 percent", "Prices increased by 5 percent"),
    ("The office opens at 8 and closes at 6", "The office closes at 6 and opens at 8"),
    ("Finance sends the invoices on Fridays", "Customers receive the invoices from finance on "
     "Fridays"),  # converses are one fact: not in the list
    ("The build passed after the cache was cleared", "The build passed after clearing the cache"),
    ("Towels are given back at reception", "Towels are returned at reception"),
    ("Library books are lent for three weeks", "Books can be borrowed from the library for "
     "three weeks"),  # lend / borrow: converses
])
def test_one_side_or_both_sides_in_each_text_agree(request_text: str, stored: str) -> None:
    assert opposite(request_text, stored) is None


@pytest.mark.parametrize(("request_text", "stored"), [
    ("Admin accounts have their access reviewed twice a year",
     "Access reviews for admin accounts happen every six months."),
    ("On weekdays the Munich office opens at half past seven",
     "The Munich office opens at 7:30 on weekdays."),
    ("The standup starts at quarter to ten", "The standup starts at 9:45"),
    ("First replies are due within half an hour", "First replies are due within 30 minutes"),
    ("We announce the yearly sales targets during the first week of January",
     "Annual sales targets are announced in the first week of January."),
    ("Prod release builds are signed in CI", "Production release builds are signed in CI"),
    ("Mei likes meetings to be after lunch", "Mei prefers to have her meetings after lunch."),
])
def test_spoken_forms_and_synonymous_frequencies_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("The build runs twice a day", "The build runs three times a day", "duration"),
    ("The standup starts at quarter past ten", "The standup starts at 9:45", "number"),
    ("Visitors sign in on the third floor", "Visitors sign in on the ground floor", "thing"),
    ("Nina is the reviewer for budget requests", "Nina is the approver for budget requests",
     "role"),
])
def test_near_misses_found_by_the_holdout_conflict(request_text: str, stored: str,
                                                   kind: str) -> None:
    assert kind in {c.kind for c in agreement.conflicts(request_text, stored)}


def test_spoken_numbers_are_read_once() -> None:
    """"twice a week" is a period of 3.5 days, not also a 2 and a week; "half past 7" a clock
    time, not also a half and a 7."""
    f = facets("We meet twice a week for half an hour at half past 7")
    assert f.durations == (3.5, 0.5 / 24)
    assert f.numbers == frozenset({-(7 * 60 + 30) - 1.0})
    assert facets("The team sits on the third floor").numbers == {3.0}


@pytest.mark.anyio
async def test_the_opposite_state_is_an_update_and_never_forgets_the_fact(
        runtime: Runtime, world: Any) -> None:
    """Through the real save and forget: "… enabled by default" saved over "… disabled by
    default" is that fact's next version (as a negation is); forgetting the opposite of what is
    stored changes nothing and names the stored fact as a candidate."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    stored = await stored_then_refused(
        runtime, m.principal, space, "Push notifications are disabled by default in the Android "
        "app.", "Push notifications are enabled by default in the Android app")
    update = await memories.save(runtime, m.principal, "Push notifications are enabled by "
                                 "default in the Android app.", None, space)
    assert update["action"] == "versioned"
    assert update["supersedes"]["id"] == stored["memory"]["id"]
