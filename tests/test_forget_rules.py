"""Forget the fact a person means, never a wrong one; a near miss never versions the wrong fact.

The rules alone (``agreement``), then the labelled set bench/data/forget_set.json through the
real ``memories.forget`` / ``memories.save`` on PostgreSQL with the real local model.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memory_mcp.services import agreement, matching, memories, versions
from memory_mcp.services.runtime import Runtime

DATA = Path(__file__).resolve().parents[1] / "bench" / "data"
SET = json.loads((DATA / "forget_set.json").read_text())
#: Written apart from the rules; their first runs found opposites, spoken times, quantities,
#: roles and units, fixed since (docs/pgvector-halfvec-search.md, "Agreement rules").
HOLDOUT = json.loads((DATA / "forget_holdout.json").read_text())
PROBE = json.loads((DATA / "forget_probe.json").read_text())
#: The fourth, in new domains and with direction, version and identifier near misses; its first
#: run found 11 wrong forgets (direction 5, quantifier 3, role, identifier, opposite).
BLIND = json.loads((DATA / "forget_blind.json").read_text())
SETS = {"dev": SET, "holdout": HOLDOUT, "probe": PROBE, "blind": BLIND}
#: Rewordings each set must see forgotten in one call: the issue's 80 %.
PARAPHRASE_FLOOR = {"dev": 0.8, "holdout": 0.8, "probe": 0.8, "blind": 0.8}
NEAR_MISS_CLASSES = {
    "dev": {"person", "number", "date", "negation", "product", "environment", "team", "object",
            "roles", "lowercase", "identifier", "long"},
    "holdout": {"person", "number", "date", "negation", "opposite", "environment", "team",
                "product", "object", "location", "unit", "role"},
    "probe": {"person", "number", "time", "negation", "opposite", "environment", "team", "tool",
              "object", "place", "unit", "role", "condition", "quantifier"},
    "blind": {"person", "number", "time", "negation", "opposite", "environment", "team", "tool",
              "object", "place", "unit", "role", "condition", "quantifier", "direction",
              "version", "identifier"},
}


def kinds(request: str, stored: str) -> set[str]:
    return {c.kind for c in agreement.conflicts(request, stored)}


@pytest.mark.parametrize(("request_text", "stored", "expected"), [
    ("Bob prefers dark mode in his editor", "Alice prefers dark mode in her editor", {"name"}),
    ("The API rate limit is 1000 requests per minute", "The API rate limit is 600 requests per "
     "minute", {"number"}),
    ("Encryption keys are rotated every 30 days", "Encryption keys are rotated every 90 days",
     {"duration"}),
    ("Deploys happen every Thursday", "Deploys happen every Tuesday", {"weekday"}),
    ("The planning meeting is in March", "The planning meeting is in April", {"month"}),
    ("We deploy every Friday morning", "We deploy every Friday afternoon", {"time"}),
    ("Reports go out monthly", "Reports go out weekly", {"time"}),
    ("Logs are not shipped to Datadog", "Logs are shipped to Datadog", {"negation"}),
    ("The backups are not encrypted and not tested", "The backups are encrypted and tested",
     {"negation"}),  # two negations are not an even "no negation"
    ("The mobile app is written in Swift", "The mobile app is written in Kotlin", {"name"}),
    ("The search service runs on three replicas in staging",
     "The search service runs on three replicas in production", {"environment"}),
    ("The platform team owns the billing service", "The payments team owns the billing service",
     {"thing"}),
    # another value or thing in the same place, with no name, number or date to tell them apart
    ("Frank is allergic to shellfish", "Frank is allergic to peanuts", {"word"}),
    ("my manager is dave and he approves my expense reports",
     "my manager is carol and she approves my expense reports", {"word"}),
    ("The frontend is written in TypeScript", "The backend is written in TypeScript", {"word"}),
    ("Frank is severely allergic to shellfish", "Frank is allergic to peanuts", {"word"}),
    ("We drink coffee at the standup", "We drink tea at the standup", {"word"}),
    # the same names in other roles; a number that names one thing of many
    ("Iris is the manager of Henry", "Henry is the manager of Iris", {"roles"}),
    ("PagerDuty alerts are forwarded to Slack", "Slack alerts are forwarded to PagerDuty",
     {"roles"}),
    ("Invoice 1002 from Acme was paid on March 3", "Invoice 1001 from Acme was paid on March 3",
     {"identifier"}),
    ("User 43 has admin rights on the billing console",
     "User 42 has admin rights on the billing console", {"identifier"}),
])
def test_each_near_miss_class_is_a_conflict(request_text: str, stored: str,
                                            expected: set[str]) -> None:
    assert expected <= kinds(request_text, stored)


@pytest.mark.parametrize(("request_text", "stored"), [
    ("VPN certificates are valid for twelve months", "The VPN certificate expires after one year"),
    ("We ship to prod on Tuesdays at 2pm UTC", "Production deploys happen every Tuesday at 14:00 UTC"),
    ("Postmortems must be written within 5 business days", "Postmortems are due within five "
     "business days"),
    ("Production DB backups are retained for a month", "Backups of the production database are "
     "kept for 30 days"),
    ("The orders DB runs on Postgres 16", "We use PostgreSQL 16 for the orders database"),
    ("Frank cannot see the finance dashboard", "Frank does not have access to the finance "
     "dashboard"),
    ("forget that the marketing site is on Netlify", "The marketing site is hosted on Netlify."),
    ("Snowflake is our analytics data warehouse", "The analytics warehouse is Snowflake"),
    # a reworded verb is a rewording, not another fact; so is the passive of the same roles
    ("Logs go to Datadog", "Logs are shipped to Datadog"),
    ("Heidi is based in the Berlin office", "Heidi works from the Berlin office"),
    ("Erin is in charge of the design system", "Erin manages the design system"),
    ("Design reviews are held every Wednesday", "The design review happens on Wednesdays"),
    ("priya is my manager and approves my travel requests",
     "my manager is priya and she signs off my travel requests"),
    ("Quentin likes climbing at the weekend", "Quentin enjoys climbing on weekends"),
    ("Iris is managed by Henry", "Henry is the manager of Iris"),
    ("The website's frontend uses React", "The web frontend is built with React"),
])
def test_rewordings_agree(request_text: str, stored: str) -> None:
    assert agreement.conflicts(request_text, stored) == []


def test_long_texts_differing_past_their_opening_are_other_facts() -> None:
    """The local model reads a text's first 256 tokens: two notes with the same long opening
    score cosine 1.00 whatever their endings say, so long texts are compared word by word."""
    head = ("Retro notes for the platform group. " * 20).strip()
    a, b = head + " Outcome: reviews go round-robin.", head + " Outcome: clean the build cache."
    assert "long" in kinds(a, b) and all(c.subject for c in agreement.conflicts(a, b))
    assert agreement.conflicts(a, a) == []
    assert kinds(head + " Outcome: reviews go round-robin!", a) == set()  # punctuation only
    assert "long" in kinds("forget the retro notes", a)  # a short request never matches one


def test_a_numbered_value_is_an_update_a_numbered_subject_another_thing() -> None:
    """"Invoice 1001 was paid" / "Invoice 1002 ..." are two invoices (kept apart on save);
    "pinned to release 2.3" / "... 2.4" is the same fact's new value (a version). A numbered
    place or piece of kit is another one wherever it stands ("in tank 7" / "in tank 3": both
    tanks may be in use), so a save naming another is kept beside the fact: the safe side,
    since a wrong version hides a fact that is still true, and the save's
    ``keptSeparateFrom`` names the old one with its id, to forget when it was a move."""
    def subject(a: str, b: str) -> bool:
        return next(c.subject for c in agreement.conflicts(a, b) if c.kind == "identifier")
    assert subject("Invoice 1002 from Acme was paid", "Invoice 1001 from Acme was paid")
    assert subject("Server 18 hosts the FTP service", "Server 17 hosts the FTP service")
    assert not subject("The SDK is pinned to release 2.4", "The SDK is pinned to release 2.3")
    assert subject("The team sits on floor 4", "The team sits on floor 3")
    assert subject("The IPA ferments for 14 days in tank 7", "The IPA ferments for 14 days in "
                                                             "tank 3")
    assert subject("The PRM desk is at ext. 4421", "The PRM desk is at ext. 4412")


def test_decomposed_unicode_is_the_same_text() -> None:
    """macOS sends "Zoë" decomposed: the same text to a reader, other characters to a regex."""
    import unicodedata

    from memory_mcp.services import validation

    composed = "Zoë prefers the Malmö office"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    assert agreement.conflicts(decomposed, composed) == []
    assert validation.content_hash(decomposed) == validation.content_hash(composed)
    assert validation.content(decomposed, 100) == composed


def test_words_that_float_reads_are_not_numbers() -> None:
    """'nan' and 'inf' parse as floats, but in a sentence they are words: a NaN among a text's
    numbers never equals itself, so the same text conflicted with itself."""
    from memory_mcp.services.facets import facets

    text = "Nan from the Infinity team owns the inf-1 cluster"
    assert facets(text).numbers == frozenset()
    assert agreement.conflicts(text, text) == []
    assert facets("The cache holds 1500 keys for 2.5 days at 3pm").numbers == {1500.0, -901.0}


def test_subject_and_value_conflicts_are_told_apart() -> None:
    """Save versions on a value change, never across subjects."""
    by_kind = {c.kind: c.subject for c in
               agreement.conflicts("Bob deploys staging on Fridays", "Alice deploys production "
                                   "on Mondays")}
    assert by_kind["name"] and by_kind["environment"] and not by_kind["weekday"]


def test_thresholds_belong_to_the_model() -> None:
    local = matching.thresholds_for("local:all-MiniLM-L6-v2-int8")
    hosted = matching.thresholds_for("bedrock:amazon.nova-2-multimodal-embeddings-v1:0")
    assert hosted == matching.UNCALIBRATED
    assert hosted.forget > local.forget and hosted.version > local.version
    assert matching.thresholds_for("openai:x", forget=0.99).forget == 0.99


def test_refusal_when_two_agreeing_memories_are_equally_close() -> None:
    t = matching.Thresholds(version=0.9, forget=0.7, margin=0.05, weak=0.2, strong=0.5)
    both = [("The staging database resets nightly", 0.82), ("Staging database resets each night",
                                                            0.80)]
    assert matching.choose_forget("the staging database resets every night", both, t).index is None
    clear = [both[0], ("Lunch is at noon", 0.30)]
    assert matching.choose_forget("the staging database resets every night", clear, t).index == 0


def test_nothing_close_is_the_reason_whatever_the_words_differ_in() -> None:
    """A request far from every memory is refused for that, not for a "difference" (a negation
    word, a number) that unrelated texts always have."""
    t = matching.Thresholds(version=0.9, forget=0.7, margin=0.05, weak=0.2, strong=0.5)
    far = [("ok cat2", 0.12), ("The staging database resets nightly", 0.10)]
    decision = matching.choose_forget("no giraffes live in the savanna", far, t)
    assert decision.index is None
    assert decision.reason == "no memory is close enough (best 0.12, needs 0.70)"
    near = [("Bob prefers dark mode", 0.86)]
    decision = matching.choose_forget("Alice prefers dark mode", near, t)
    assert decision.index is None and decision.reason.startswith("the closest memory is a "
                                                                 "different fact")


@pytest.mark.anyio
@pytest.mark.parametrize("name", sorted(SETS))
async def test_forget_set_no_wrong_forget(runtime: Runtime, world: Any, name: str) -> None:
    data = SETS[name]
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    ids: dict[str, str] = {}
    for fid, text in data["facts"].items():  # distinct facts: saving them versions none
        saved = await memories.save(runtime, m.principal, text, None, space)
        assert saved["action"] == "saved", (fid, saved.get("supersedes"))
        ids[saved["memory"]["id"]] = fid
    near = [c for c in data["cases"] if c["expect"] is None]
    para = [c for c in data["cases"] if c["expect"] is not None]
    refused: Counter[str] = Counter()
    for case in near:  # first, while every fact is there: each must change nothing
        res = await memories.forget(runtime, m.principal, case["request"], None, space)
        assert res["action"] == "nothing_matched", (case, res.get("memory"))
        assert res["candidates"] and all("id" in c and "similarity" in c
                                          for c in res["candidates"])
        refused[case["class"]] += 1
    assert set(refused) == NEAR_MISS_CLASSES[name]
    right = 0
    for case in para:
        res = await memories.forget(runtime, m.principal, case["request"], None, space)
        if res["action"] == "forgotten":
            assert ids[res["memory"]["id"]] == case["expect"], case  # never a wrong one
            right += 1
    print(f"{name}: {right}/{len(para)} rewordings forgotten")  # shown with -s
    assert right >= PARAPHRASE_FLOOR[name] * len(para), f"{right}/{len(para)} forgotten"


@pytest.mark.anyio
async def test_near_miss_save_is_kept_separate(runtime: Runtime, world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    original = await memories.save(runtime, m.principal, "The search service runs on three "
                                   "replicas in production", None, space)
    other = await memories.save(runtime, m.principal, "The search service runs on three replicas "
                                "in staging", None, space)  # cosine 0.93: above the version bound
    assert other["action"] == "saved"
    assert other["keptSeparateFrom"]["id"] == original["memory"]["id"]
    assert "environments differ" in other["keptSeparateFrom"]["reason"]
    page = await memories.list_page(runtime, m.principal, 1, 10, space)
    assert all(row["isLatest"] for row in page["memories"])  # both still current
    update = await memories.save(runtime, m.principal, "The search service runs on five replicas "
                                 "in production", None, space)  # a changed value: an update
    assert update["action"] == "versioned"
    assert update["supersedes"]["id"] == original["memory"]["id"]


@pytest.mark.anyio
async def test_long_texts_rules_run_off_the_event_loop(runtime: Runtime, world: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules over a long text take long enough to stall every other request of the
    process (seconds at 100,000 characters): a long forget or save runs them in a worker
    thread, a short one in the loop (a thread hop would cost more than its rules). The answers
    are the same either way."""
    space, runbooks = await world.space(), await world.space()
    m = await world.member(grants={space: "readwrite", runbooks: "readwrite"})
    loop = threading.get_ident()
    where: list[tuple[str, bool]] = []

    def watched(name: str, fn: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            where.append((name, threading.get_ident() == loop))
            return fn(*args, **kwargs)
        return run

    monkeypatch.setattr(matching, "choose_forget", watched("forget", matching.choose_forget))
    monkeypatch.setattr(versions, "choose", watched("version", versions.choose))
    short = "The VPN certificate expires after one year."
    saved = await memories.save(runtime, m.principal, short, None, space)
    long_ = "Runbook: " + " ".join(f"step {i} checks service{i} before rollout." for i in range(60))
    await memories.save(runtime, m.principal, long_, None, runbooks)
    assert where == [("version", True), ("version", False)], where
    where.clear()
    gone = await memories.forget(runtime, m.principal, "Forget that the VPN certificate "
                                 "expires after one year.", None, space)
    assert gone["action"] == "forgotten" and gone["memory"]["id"] == saved["memory"]["id"]
    assert where and all(in_loop for _, in_loop in where), where
    where.clear()
    kept = await memories.forget(runtime, m.principal, long_.replace("step 7 ", "step 70 "),
                                 None, runbooks)
    assert kept["action"] == "nothing_matched", kept
    assert where and not any(in_loop for _, in_loop in where), where
