"""Which memory a forget or a save means: the agreement rules plus the model's thresholds.

Embedding similarity ranks the candidates; ``agreement.conflicts`` vetoes those that are
another fact; the pinned model's calibrated thresholds (cosines are not comparable across
models) decide whether what is left is close enough to act on. When unsure, nothing is acted on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_mcp.services.agreement import Conflict, conflicts, strip_preamble
from memory_mcp.services.facets import (
    MONTHS,
    WEEKDAYS,
    Facets,
    content_word,
    facets,
    singular_weekday,
    stem,
)


@dataclass(frozen=True)
class Thresholds:
    """Similarity bounds of one embedding model: cosines are not comparable across models."""

    version: float   # a save at least this close to a memory (and agreeing) is its next version
    forget: float    # a forget request must be at least this close to the memory it removes
    margin: float    # ... and this much closer than any other agreeing memory
    weak: float      # a search hit scoring below this is marked weak ("no good match")
    strong: float    # ... and at or above this, strong


#: Measured on this model (docs/pgvector-halfvec-search.md): forget and versioning with
#: bench/forget_quality.py (no near miss agreeing with a wrong fact scored above 0.61, 29 of 32
#: rewordings 0.70 or more); weak/strong with bench/retrieval_quality.py (>= 98 % of answerable
#: questions' evidence on the dev sets scores >= 0.22; 11 of 12 off-topic questions below it).
CALIBRATED = {"local:all-MiniLM-L6-v2-int8": Thresholds(version=0.90, forget=0.70, margin=0.05,
                                                        weak=0.22, strong=0.50)}
#: Models nobody has measured here (Bedrock, OpenAI-compatible): act only on near-identical
#: text. A forget that is refused returns its candidates and the caller forgets by id; a wrong
#: forget loses a fact. The weak floor is low, so a real answer is not hidden behind "no good
#: match" on a scale nobody has checked.
UNCALIBRATED = Thresholds(version=0.95, forget=0.92, margin=0.05, weak=0.15, strong=0.50)


def thresholds_for(model_id: str, version: float | None = None, forget: float | None = None,
                   margin: float | None = None, weak: float | None = None) -> Thresholds:
    """The pinned model's calibrated bounds, each overridable by configuration."""
    base = CALIBRATED.get(model_id, UNCALIBRATED)
    return Thresholds(version=base.version if version is None else version,
                      forget=base.forget if forget is None else forget,
                      margin=base.margin if margin is None else margin,
                      weak=base.weak if weak is None else weak,
                      strong=max(base.strong, weak or 0.0))


def relevance(score: float, t: Thresholds) -> str:
    """A person's word for a hit's fused score: strong, moderate or weak."""
    return "strong" if score >= t.strong else "moderate" if score >= t.weak else "weak"


@dataclass(frozen=True)
class Decision:
    """The memory to act on (an index into the candidates), or why none."""

    index: int | None
    reason: str
    conflicts: tuple[tuple[Conflict, ...], ...]


def choose_forget(request: str, candidates: list[tuple[str, float]], t: Thresholds) -> Decision:
    """Which of ``candidates`` (content, cosine; any order) does ``request`` mean, if any?

    Only the closest memory, or one within ``margin`` of it, may be chosen: a fact that wins only
    because the rules excluded a closer one is a fallback, not what the person meant. It must
    agree with the request on every rule, reach the model's forget threshold, and beat every
    other agreeing candidate by ``margin``. Anything less changes nothing."""
    found = tuple(tuple(conflicts(request, text)) for text, _ in candidates)
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i][1])
    if not order:
        return Decision(None, "the space has no memories to compare with", found)
    best = candidates[order[0]][1]
    if best < t.forget:  # nothing is close: that is the reason, whatever the words differ in
        return Decision(None, f"no memory is close enough (best {best:.2f}, needs "
                              f"{t.forget:.2f})", found)
    agreeing = [i for i in order if not found[i] and candidates[i][1] >= best - t.margin]
    if not agreeing:
        closest = found[order[0]]
        why = "; ".join(c.detail for c in closest)
        return Decision(None, f"the closest memory is a different fact ({why})", found)
    choice = agreeing[0]
    score = candidates[choice][1]
    if score < t.forget:
        return Decision(None, f"no memory is close enough (best {score:.2f}, needs "
                              f"{t.forget:.2f})", found)
    rivals = [i for i in order if i != choice and not found[i]
              and candidates[i][1] > score - t.margin]
    if rivals:
        return Decision(None, "several memories match about equally well", found)
    return Decision(choice, "", found)


def choose_version(text: str, candidates: list[tuple[str, float]], t: Thresholds) -> Decision:
    """The memory a save should supersede: the closest one at least ``t.version`` close that is
    about the same thing (a changed number, day or negation is an update, another name,
    environment or team is a different fact)."""
    found = tuple(tuple(conflicts(text, stored)) for stored, _ in candidates)
    order = sorted(range(len(candidates)), key=lambda i: -candidates[i][1])
    kept_apart = ""
    for i in order:
        if candidates[i][1] < t.version:
            break
        subject = [c for c in found[i] if c.subject]
        if not subject:
            return Decision(i, "", found)
        kept_apart = kept_apart or "; ".join(c.detail for c in subject)
    return Decision(None, kept_apart, found)


#: Value kinds that can be the key of a list of parallel facts ("the standup host on Monday is
#: Lena", "… on Tuesday is Omar"; "the on-call lead for March is …"): a day or a month names a
#: slot as often as it states a value. Numbers, durations and times of day almost always state
#: a value ("3 replicas" → "4 replicas"), so they are left out.
_SLOTS = {"weekday": "weekdays", "month": "months"}


def _template(f: Facets) -> frozenset[str]:
    """A fact's content stems apart from who and which day or month: what entries of one list
    share ("standup", "host" in every "the standup host on <day> is <name>")."""
    out: set[str] = set()
    for token in f.tokens:
        for part in re.split(r"[\-/]", token):
            if content_word(part) and part not in f.names and part not in MONTHS \
                    and singular_weekday(part) not in WEEKDAYS:
                out.add(stem(part))
    return frozenset(out)


def _same_template(a: Facets, b: Facets) -> bool:
    ta, tb = _template(a), _template(b)
    shared = len(ta & tb)
    return shared >= 2 and shared >= 0.75 * len(ta | tb)


def list_entry(text: str, changed: tuple[Conflict, ...], others: list[tuple[str, float]],
               t: Thresholds) -> tuple[int, str] | None:
    """Another memory showing that the day or month the save changes is a *slot* of a list.

    A save that changes only the day or month of a memory ("Dave is the on-call lead for
    April" → "… for March") is its next version, unless the space holds other entries of the
    same list: the same words about another person or thing, with a day or month of its own
    ("Carol is the on-call lead for March", or "… for May"). Then the save may be a new entry as
    well as a move, and versioning would hide an entry that may still be true; it stays a new
    memory and the answer names both, so the caller forgets the outdated one by id. ``others``
    are the save's other candidates (content, cosine); returns an index and what keeps it
    apart."""
    kinds = {c.kind for c in changed if not c.subject}
    if not kinds or not kinds <= _SLOTS.keys():
        return None
    mine = facets(strip_preamble(text))
    for i, (other, cosine) in enumerate(others):
        if cosine < t.weak:
            continue
        theirs = facets(other)
        if not all(getattr(theirs, _SLOTS[k]) for k in kinds) or \
                not _same_template(mine, theirs):
            continue
        subject = [c for c in conflicts(text, other) if c.subject]
        if subject:
            return i, "; ".join(c.detail for c in subject)
    return None


def other_date(query: str, text: str) -> str | None:
    """How ``text`` names another weekday or month than ``query`` asks about, if it does (both
    name one, and none in common): search labels such a hit moderate at best."""
    asked, stated = facets(query), facets(text)
    for field in _SLOTS.values():
        a, b = getattr(asked, field), getattr(stated, field)
        if a and b and not a & b:
            return f"asks about {_names(a)}, states {_names(b)}"
    return None


#: "mon" → "Monday", "jan" → "January": the facets' short forms, as a person writes them.
_FULL = {name[:3].lower(): name for name in (
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January",
    "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December")}


def _names(values: frozenset[str]) -> str:
    return " / ".join(_FULL.get(v, v) for v in sorted(values))
