"""Which memory a save becomes the next version of, or names as the one it probably
corrects (``mayReplace``): the save's decisions over its candidates, read by the agreement
rules.

Apart from ``services/memories.py``, which runs the save's transaction, because these are pure
decisions over texts and similarities (no database, no await): the save hands them to a worker
thread when a text is long (``services/offload.py``), and tests call them directly.
"""

from __future__ import annotations

import re
from typing import Any

from memory_mcp.db import memories as db
from memory_mcp.services import agreement, matching, values
from memory_mcp.services.facets import facets


def quote(text: str, limit: int = 80) -> str:
    """A memory named inside a reason: short enough to read in one line."""
    flat = " ".join(text.split())
    return f'"{flat if len(flat) <= limit else flat[: limit - 1] + "…"}"'


def choose(text: str, near: list[db.Row], t: matching.Thresholds
                    ) -> tuple[db.Row | None, db.Row | None, str]:
    """The candidate to supersede (or None) and, if a close one was kept apart, which and why.

    ``choose_version`` never looks past a candidate below ``t.version``, so only those at or
    above it are handed over (in the same order): the same decision, without comparing the
    agreement rules against memories that cannot matter (most saves have none that close).
    A changed day or month that other candidates show to be an entry of a list
    (``matching.list_entry``) keeps the save apart."""
    close = [r for r in near if float(r["similarity"]) >= t.version]
    decision = matching.choose_version(
        text, [(r["content"], float(r["similarity"])) for r in close], t)
    if decision.index is None:
        return None, (near[0] if decision.reason else None), decision.reason
    chosen = close[decision.index]
    others = [r for r in near if r["id"] != chosen["id"]]
    entry = matching.list_entry(text, decision.conflicts[decision.index],
                                [(r["content"], float(r["similarity"])) for r in others], t)
    if entry is None:
        return chosen, None, ""
    other = others[entry.index]
    changed = "; ".join(c.detail for c in decision.conflicts[decision.index])
    named = f"{quote(other['content'])}, id {other['id']}"
    if entry.occupant and entry.about_other:
        why = (f"another memory already holds that day or month for someone or something else "
               f"({named}: {entry.detail}), so it could update either")
    elif entry.occupant:
        why = (f"the space already has a memory for that day or month ({named}: "
               f"{entry.detail}), which it may update instead")
    else:
        why = (f"the space lists such facts per day or month ({named} and "
               f"{entry.entries - 1} more), so this may be a new entry rather than a change")
    return None, chosen, (
        f"it changes only this memory's day or month ({changed}), but {why}; both stay "
        "current: if it replaces one of them, forget that one by memoryId")


#: Words by which a save says it corrects something.
_CORRECTION = re.compile(
    r"\b(?:now|instead|moved|changed|anymore|no longer|updated|raised|lowered|increased|"
    r"decreased|reduced|switched|replaced|actually|from now on)\b", re.IGNORECASE)


def may_replace(text: str, near: list[db.Row], t: matching.Thresholds
                 ) -> dict[str, Any] | None:
    """The memory a new save probably corrects, when it is not close enough to version.

    "Production deploys now happen on Thursdays instead of Tuesdays" is worded too differently
    to become the next version of "Production deploys happen on Tuesdays" (cosine below
    ``version``), so both stay current and search may rank the old one first. A memory at
    least ``forget`` close (a rewording, for the pinned model) that differs in a value (a
    number, day, month, time, negation or opposite state) and in no other name, environment or thing is
    named, so the caller can forget it by id; nothing is changed on a guess."""
    # the closest memory below the versioning bound (those above it were about something else,
    # or this save would be their version); only that one, never a guess further down
    closest = next((r for r in near if float(r["similarity"]) < t.version), None)
    if closest is None or float(closest["similarity"]) < t.forget:
        return None
    found = agreement.conflicts(text, closest["content"])
    changed = [c for c in found if not c.subject]
    subjects = [c for c in found if c.subject]
    if not changed or any(c.kind != "word" for c in subjects):
        return None
    # "one word differs" is the rules' weakest evidence of another subject; a correction
    # reworded ("… now happen on Thursdays instead of Tuesdays") says it is one, else "The pro
    # plan allows 20 projects" is no correction of "The free plan allows 3 projects"
    if subjects and not _CORRECTION.search(text):
        return None
    years_a, years_b = (values.years(facets(x)) for x in (text, closest["content"]))
    if years_a and years_b and not years_a & years_b:
        return None  # "the budget for 2025" beside "… for 2024": each year's own fact
    kinds = {c.kind for c in changed}
    if kinds & {"weekday", "month", "time"} and len(kinds) > 1:
        return None  # another day, month or part of the day *and* another value: another entry
        # of a list ("The April sales target is 55 deals" beside "The March … is 40 deals")
    return {"id": str(closest["id"]), "memory": closest["content"],
            "similarity": round(float(closest["similarity"]), 4),
            "differs": [c.detail for c in found if not c.subject]}
