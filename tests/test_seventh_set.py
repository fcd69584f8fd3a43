"""What the seventh forget set (bench/data/forget_seventh.json, written by a helper that read no
code, docs, tests or earlier set) found on its first run: 10 wrong forgets of 100 near misses —
another rank of a job (3), "all" against things a modifier narrows (2), another season, a
condition with an amount against one without, another hall letter, "not in X" read as a denial
— and rewordings refused for "v29", "Mon-Fri", "max", "final", "each morning" and "except".
Each near miss below forgot the stored fact before this change; each rewording was refused."""

from __future__ import annotations

from typing import Any

import pytest
from forget_checks import stored_then_refused

from memory_mcp.services import agreement, memories
from memory_mcp.services.facets import facets, tokens
from memory_mcp.services.runtime import Runtime


@pytest.mark.parametrize(("request_text", "stored", "kind"), [
    ("Application fee waivers are approved by the director of admissions.",
     "Application fee waivers are approved by the associate director of admissions.", "role"),
    ("Dangerous-goods containers must be inspected by the deputy harbour master before "
     "unloading", "Dangerous-goods containers must be inspected by the harbour master before "
     "unloading.", "role"),
    ("Boil-water notices are issued by the communications officer.",
     "Boil-water notices are issued by the public health liaison, Dana Okafor.", "role"),
    ("Meter readings for all customers are taken every quarter.",
     "Meter readings for residential customers are taken every quarter.", "scope"),
    ("Overdue fines are waived for all books only during the summer reading program.",
     "Overdue fines are waived for children's books only during the summer reading program.",
     "scope"),
    ("Overdue fines are waived for children's books only during the winter holidays.",
     "Overdue fines are waived for children's books only during the summer reading program.",
     "time"),
    ("signatures on delivery are needed only when the parcel goes to a business address",
     "A signature on delivery is required only for parcels valued above £500.", "currency"),
    ("full orchestra rehearses Wednesdays 7 to 10pm in Hall C",
     "Full-orchestra rehearsals take place on Wednesdays from 19:00 to 22:00 in Hall A.",
     "identifier"),
    ("we don't keep brewing logs in Brewfather",
     "Brewing logs are kept in Brewfather, not in the shared spreadsheet.", "negation"),
    # the fifth set's, by the same rules: who is excluded, and a contrast stated
    ("The shift lead never posts status page updates; the on-call engineer does.",
     "Status page updates are posted by the shift lead, never by the on-call engineer.",
     "negation"),
    ("Status page updates are posted by the shift lead, and occasionally by the on-call "
     "engineer.", "Status page updates are posted by the shift lead, never by the on-call "
     "engineer.", "negation"),
    ("The lions are fed daily except Sundays", "The lions are fed daily", "negation"),
    # its saves: a numbered berth or tank is one thing of many, not a value
    ("Berth 6 at the container port handles only reefer container ships.",
     "Berth 4 at the container port handles only reefer container ships.", "identifier"),
    ("The IPA ferments for 14 days in tank 7 before dry hopping.",
     "The IPA ferments for 14 days in tank 3 before dry hopping.", "identifier"),
])
def test_near_misses_found_by_the_seventh_set_conflict(request_text: str, stored: str,
                                                       kind: str) -> None:
    for x, y in ((request_text, stored), (stored, request_text)):
        found = {c.kind for c in agreement.conflicts(x, y)}
        assert kind in found, (x, found)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("if a delivery fails we retry the next working day, max three attempts",
     "Failed deliveries are attempted again the next working day, up to 3 times."),
    ("we submit every client's tax filings via the HMRC RTI gateway with Sage Payroll v29",
     "Tax filings for all clients are submitted through the HMRC RTI gateway using Sage "
     "Payroll version 29."),
    ("grooming report goes up on the resort app by 7am daily",
     "Grooming reports are posted to the resort app by 7:00 each morning."),
    ("Outdated: east branch opens 11am Mon-Fri",
     "The east branch of the library opens at 11:00 on weekdays."),
    ("we pay contractor invoices on the final working day of the month",
     "Contractor invoices are paid on the last working day of each month."),
    ("lions get fed daily at 2pm, but not on Sundays (fast day)",
     "The lions are fed at 14:00 daily except Sundays, which are fast days."),
    ("Only instructors can use Moodle grade exports; TAs can't.",
     "Moodle grade exports are only available to instructors, not to teaching assistants."),
    ("Cyclists don't deliver parcels heavier than 30 kg; the freight van team does.",
     "Parcels over 30 kg are delivered by the freight van team, not by cyclists."),
    ("The on-call engineer never posts status page updates; the shift lead does.",
     "Status page updates are posted by the shift lead, never by the on-call engineer."),
    ("Judy would rather do standups asynchronously in Slack than on video",
     "Judy prefers async standups in Slack over video calls."),
    ("Meter readings for every customer are taken quarterly",
     "Meter readings for all customers are taken every quarter."),
    ("The director of admissions approves fee waivers",
     "Application fee waivers are approved by the director of admissions."),
])
def test_rewordings_found_by_the_seventh_set_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_the_new_readings_stay_narrow() -> None:
    """A letter names a hall only where no word follows an "a"; "not" after a verb, or with
    no phrase before it to mirror, still denies; "max" and "v2" are spelled out only as
    written whole."""
    assert agreement.conflicts("Rehearsals are in Hall A on Fridays",
                               "Rehearsals are in Hall B on Fridays") != []
    assert facets("Bob is not in the office on Fridays").negations == 1
    assert facets("Bob not on call this week").negations == 1
    assert facets("Logs are kept in Datadog, not in Splunk").negations == 0
    assert tokens("API v2 and Mon-Fri")[1] == ["api", "version", "2", "and", "weekdays"]
    assert facets("Backups run each night").times == frozenset({"night", "daily"})
    assert facets("Backups run every Monday night").times == frozenset({"night"})


@pytest.mark.anyio
async def test_a_deputy_is_kept_apart_and_never_forgotten(runtime: Runtime, world: Any) -> None:
    """Through the real save and forget: the deputy's rule forgets nothing and is saved beside
    the harbour master's (both can be true), not as its next version; the fact itself is still
    forgotten by a rewording."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    stored = await stored_then_refused(
        runtime, m.principal, space, "Dangerous-goods containers must be inspected by the "
        "harbour master before unloading.", "Dangerous-goods containers must be inspected by the "
        "deputy harbour master before unloading")
    other = await memories.save(runtime, m.principal, "Dangerous-goods containers must be "
                                "inspected by the deputy harbour master before unloading.",
                                None, space)
    assert other["action"] == "saved", other.get("supersedes")
    forgotten = await memories.forget(runtime, m.principal, "Outdated: the harbour master "
                                      "inspects dangerous-goods containers before unloading",
                                      None, space)
    assert forgotten["action"] == "forgotten", forgotten
    assert forgotten["memory"]["id"] == stored["memory"]["id"]
