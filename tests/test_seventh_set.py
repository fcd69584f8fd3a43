"""What the seventh forget set (bench/data/forget_seventh.json, written by a helper that read no
code, docs, tests or earlier set) found on its first run: 10 wrong forgets of 100 near misses —
another rank of a job (3), "all" against things a modifier narrows (2), another season, a
condition with an amount against one without, another hall letter, "not in X" read as a denial
— and rewordings refused for "v29", "Mon-Fri", "max", "final", "each morning" and "except".
Each near miss below forgot the stored fact before this change; each rewording was refused."""

from __future__ import annotations

from typing import Any

import pytest
from forget_checks import kept_apart_in_a_new_space

from memory_mcp.services import agreement
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
    # the eighth set's first run: "X, not Y" against "Y, not X"
    ("Contaminated paper bales are resold, not sent to landfill.",
     "Contaminated paper bales are sent to landfill, not resold.", "negation"),
    ("Move-out inspections are the cleaning crew's job, not the leasing agent's",
     "Move-out inspections are done by the leasing agent, not the cleaning crew.", "negation"),
    ("street fundraisers don't have to work in pairs",
     "Street fundraisers always work in pairs, never alone.", "negation"),
    ("Fee waivers are available only for applicants on income support.",
     "Fee waivers are available only for registered charities.", "condition"),
    ("volunteers under 18 need a signed parental consent form, but only for overnight events",
     "Volunteers under 18 need a signed parental consent form.", "condition"),
    ("contrast orders over 100 ml have to be signed off by the consultant radiologist",
     "Contrast agent orders above 100 ml need sign-off from the charge radiographer.", "role"),
    ("deck work stops once the wind is over 35 km/h",
     "Deck work on the ship stops when wind exceeds 35 knots.", "unit"),
    ("Popcorn machines are cleaned by the closing staff every week.",
     "Popcorn machines are cleaned by the closing staff every night.", "schedule"),
    # the ninth set's first run
    ("Repeat orders over 500 copies get a 10 percent discount.",
     "Orders over 500 copies get a 10 percent discount.", "condition"),
    ("The duty manager checks all fire exits before every ticketed event.",
     "The duty manager checks all fire exits before every event.", "condition"),
    ("T14 blades get a drone inspection every autumn.",
     "The blades of turbine T14 are inspected by drone every spring.", "time"),
    # a review of these rules
    ("Brewing logs are kept in a spreadsheet",
     "Brewing logs are kept in Brewfather, not in the shared spreadsheet.", "negation"),
    ("Food is allowed in the lounge, not in the lab, during lunch breaks",
     "Food is allowed in the lab, not in the lounge, during lunch breaks", "negation"),
    ("The shop closes early in fall", "The shop closes early in winter", "time"),
    ("PRs need min 2 approvals", "PRs need max 2 approvals", "bound"),
    ("Refunds are approved by Max", "Refunds are approved by the manager", "word"),
    ("Towels are given out at reception", "Towels are given back at reception", "opposite"),
    ("Homework is handed out on Mondays", "Homework is handed in on Mondays", "opposite"),
    ("Refunds over 200 AUD need approval", "Refunds over $200 need approval", "currency"),
    ("Only orders above \u20b95,000 ship free", "Orders ship free", "currency"),
    # a second review
    ("Spare keys are kept in the blue cabinet, not the red cabinet",
     "Spare keys are kept in the red cabinet, not the blue cabinet", "negation"),
    ("The vice-chair signs the minutes", "The chair signs the minutes", "role"),
    ("Logs are purged every night", "Logs are purged every other week", "schedule"),
    ("Staff meet every weekend", "Staff meet daily", "schedule"),
    # its saves: a numbered berth or tank is one thing of many, not a value
    ("Berth 6 at the container port handles only reefer container ships.",
     "Berth 4 at the container port handles only reefer container ships.", "identifier"),
    ("The IPA ferments for 14 days in tank 7 before dry hopping.",
     "The IPA ferments for 14 days in tank 3 before dry hopping.", "identifier"),
])
def test_near_misses_found_by_the_seventh_set_conflict(request_text: str, stored: str,
                                                       kind: str) -> None:
    pairs = [(request_text, stored)]
    if (request_text, stored) not in NARROWER_REQUESTS:  # read one way only
        pairs.append((stored, request_text))
    for x, y in pairs:
        found = {c.kind for c in agreement.conflicts(x, y)}
        assert kind in found, (x, found)


#: A request narrower than the fact ("**Repeat** orders …" / "Orders …") conflicts; the other
#: way round is a rewording that drops a modifier far more often ("the taproom" / "the brewery
#: taproom"), so the rule reads the request's side only.
NARROWER_REQUESTS = {
    ("Repeat orders over 500 copies get a 10 percent discount.",
     "Orders over 500 copies get a 10 percent discount."),
    ("The duty manager checks all fire exits before every ticketed event.",
     "The duty manager checks all fire exits before every event."),
}


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
    # a review of these rules
    ("the leasing agent, not the cleaners, does move-out inspections",
     "Move-out inspections are done by the leasing agent, not the cleaning crew."),
    ("Finance pays all invoices within 30 days", "Finance settles invoices within 30 days"),
    ("Interviews take place in a quiet environment", "Interviews are held somewhere quiet"),
    ("The Opera training environment resets nightly",
     "The Opera environment for training resets nightly"),
    ("The vice-chair runs the meeting when the chair is away",
     "The vice chair runs the meeting when the chair is away"),
    ("The mobile app's minimum supported iOS version is iOS 16.",
     "The oldest iOS version the mobile app supports is iOS 16."),
    # an "only" kept where a rewording moves it, or says it another way
    ("Only admins can delete projects", "Project deletion is restricted to administrators"),
    ("Deploys happen only on Tuesdays", "We deploy on Tuesdays only"),
    ("Only the on-call engineer may restart prod",
     "Restarting production is reserved for whoever is on call"),
    ("Trains are limited to 40 km/h", "Trains have a 40 kph limit"),
    ("Refunds over 150 bucks need approval", "Refunds over $150 need approval"),
    ("on Sundays the taproom stops serving beer at 10 pm",
     "The brewery taproom stops serving beer at 22:00 on Sundays."),
    ("We keep raw sequencing data on the lab NAS for 5 years after a paper is published",
     "Raw sequencing data is kept on the lab NAS for five years after publication."),
    ("please remove: Frankfurt site remote hands requests are raised in ServiceNow",
     "Remote hands requests for the Frankfurt site are raised in ServiceNow."),
    ("Towels are given out at reception", "Towels are handed out at reception"),
    # a second review: a contrast's phrase ends at its comma
    ("Alice, not Bob, approves invoices", "Alice approves invoices"),
    ("Facilities, not IT, handles broken chairs", "Broken chairs are handled by facilities"),
    ("Bob doesn't approve invoices; Alice does", "Alice, not Bob, approves invoices"),
    ("Trains run at 20 mph", "Trains run at 20 miles per hour"),
    ("Trains run at 40 km/hr", "Trains run at 40 kilometres per hour"),
    ("Daily standup notes are archived monthly", "Daily standup notes are archived every month"),
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
    """The deputy's rule forgets nothing and is saved beside the harbour master's; the fact
    itself is still forgotten by a rewording."""
    await kept_apart_in_a_new_space(
        runtime, world,
        "Dangerous-goods containers must be inspected by the harbour master before unloading.",
        "Dangerous-goods containers must be inspected by the deputy harbour master before "
        "unloading.",
        "Outdated: the harbour master inspects dangerous-goods containers before unloading")
