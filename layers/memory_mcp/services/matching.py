"""Which memory a forget or a save means: the agreement rules plus the model's thresholds.

Embedding similarity ranks the candidates; ``agreement.conflicts`` vetoes those that are
another fact; the pinned model's calibrated thresholds (cosines are not comparable across
models) decide whether what is left is close enough to act on. When unsure, nothing is acted on.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_mcp.services.agreement import Conflict, conflicts, strip_preamble
from memory_mcp.services.facets import Facets, dates, facets
from memory_mcp.services.lexicon import MONTHS, WEEKDAYS
from memory_mcp.services.things import core_stems


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
    mine = core_stems(facets(strip_preamble(text)))
    for i in order:
        if candidates[i][1] < t.version:
            break
        subject = [c for c in found[i] if c.subject]
        more = sorted(core_stems(facets(candidates[i][0])) - mine)
        if not subject and len(more) >= 2 and mine <= core_stems(facets(candidates[i][0])):
            # the memory says all this and more ("the security audit *report* is *due* in
            # June" for "the security audit is in June"): another fact, or a shorter wording
            # that would lose what it adds; either way not its next version
            kept_apart = kept_apart or ("the memory says more: " + ", ".join(
                f'"{w}"' for w in more[:4]))
            continue
        if not subject:
            return Decision(i, "", found)
        kept_apart = kept_apart or "; ".join(c.detail for c in subject)
    return Decision(None, kept_apart, found)


#: Value kinds that can be the key of a list of parallel facts ("the standup host on Monday is
#: Lena", "… on Tuesday is Omar"; "the on-call lead for March is …"): a day or a month names a
#: slot as often as it states a value. Numbers, durations and times of day almost always state
#: a value ("3 replicas" → "4 replicas"), so they are left out.
_SLOTS = {"weekday": "weekdays", "month": "months"}


def _same_template(a: Facets, b: Facets) -> bool:
    """The same words but for one or two in place of as many others (whom or what the entry is
    about: "Alice" / "Bob"), or none: entries of one list. A memory with words the other lacks
    ("the design review **prep** happens on Thursdays") is another fact, not an entry."""
    ca, cb = core_stems(a), core_stems(b)
    shared = len(ca & cb)
    only_a, only_b = len(ca - cb), len(cb - ca)
    return shared >= 2 and only_a == only_b and only_a <= min(2, shared)


@dataclass(frozen=True)
class Entry:
    """Another entry of the list a day-or-month change moves into (``list_entry``)."""

    index: int        # into the candidates handed over
    occupant: bool    # it holds the save's new day or month already
    about_other: bool  # ... about someone or something else (a subject conflict)
    detail: str       # how it differs from the save
    entries: int      # how many entries of the list were seen


def list_entry(text: str, changed: tuple[Conflict, ...], others: list[tuple[str, float]],
               t: Thresholds) -> Entry | None:
    """Evidence that the day or month a save changes is a *slot* of a list, not one fact's value.

    A save that changes only the day or month of a memory ("Dave is the on-call lead for
    April" → "… for March") is its next version, unless the other candidates show a list keyed
    by the day or month (the same words, ``_same_template``, with a day or month of their own):
    - an entry already holds the new day or month: about someone else ("Carol is the on-call lead
      for March": Dave may move or replace her), or about the same thing with another value
      ("The sales target for April is 55 deals" when "… for March is 40" becomes "… for April
      is 40": that one may be what the save updates, not March's; or it may be another fact,
      "the audit report is due in June" beside "the audit is in June");
    - or two other entries hold days or months of their own (a rota: "the standup host on
      Tuesday is Omar", "… on Wednesday is Kim", so "… on Friday is Lena" may add Lena to Friday
      rather than move her from Monday; or targets per month: "the sales target for April is 55
      deals", "… for May is 60 deals", so "… for June is 40 deals" is June's, not March's).
    One other entry with another day or month ("iOS ships in May" beside "Android ships in
    March") is no such evidence: "Android ships in April" corrects Android's month.
    ``others`` are the save's other candidates (content, cosine)."""
    kinds = {c.kind for c in changed if not c.subject}
    if not kinds or not kinds <= _SLOTS.keys():
        return None
    mine = facets(strip_preamble(text))
    entries: list[tuple[int, str]] = []
    for i, (other, cosine) in enumerate(others):
        if cosine < t.weak:
            continue
        theirs = facets(other)
        if not all(getattr(theirs, _SLOTS[k]) for k in kinds) or \
                not _same_template(mine, theirs):
            continue
        found = conflicts(text, other)
        subject = [c for c in found if c.subject]
        if all(getattr(theirs, _SLOTS[k]) & getattr(mine, _SLOTS[k]) for k in kinds):
            detail = "; ".join(c.detail for c in (subject or found)) or "the same wording"
            return Entry(i, True, bool(subject), detail, len(entries) + 1)
        if found:  # its own day or month, and someone or something else or another value
            entries.append((i, "; ".join(c.detail for c in (subject or found))))
    if len(entries) >= 2:
        return Entry(entries[0][0], False, True, entries[0][1], len(entries))
    return None


def other_date(query: str, text: str) -> str | None:
    """How ``text`` names another weekday or month than ``query`` asks about, if it does (the
    query names exactly one, the text others only): search labels such a hit moderate at best.
    A query naming two ("between Monday and Friday", "January to March") may mean a range, which
    a date between them answers."""
    for a, b in zip(dates(query), dates(text), strict=True):  # weekdays, then months
        if len(a) == 1 and b and not a & b:
            return f"asks about {_names(a)}, states {_names(b)}"
    return None


#: "mon" → "Monday", "jan" → "January": the facets' short forms, as a person writes them.
_FULL = {short: max((n for n, s in (*WEEKDAYS.items(), *MONTHS.items()) if s == short),
                    key=len).capitalize() for short in {*WEEKDAYS.values(), *MONTHS.values()}}


def _names(values: frozenset[str]) -> str:
    return " / ".join(_FULL.get(v, v) for v in sorted(values))
