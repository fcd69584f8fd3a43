"""Working days against other spans of the same count: "reported within 10 **working days**" /
"absent for 10 consecutive **weeks**" (the 520th set), "filed within 5 **weeks** of receipt" /
"… within 5 **working days**" (the 538th).

The value rules read "10 weeks" as a duration and leave "10 working days" as a bare number,
because a working day is no fixed span; a text saying the count once in each unit then looks
like the other with a value left out. Here each count is paired with what it counts, and two
texts that count the same number in other units, once more in one than in the other, differ.
"""

from __future__ import annotations

from collections import Counter

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import RUNNING, UNIT_DAYS
from memory_mcp.services.numerals import number

#: Words that make a day a working one.
_WORKING = frozenset(["working", "business", "school", "banking", "trading"])


def other_day_kind(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("10 weeks", "10 working days") where one text counts a number of spans the other,
    with the same number, counts in another kind (one of them working days), each beyond what
    the other says; else None."""
    ca, cb = _spans(a.tokens), _spans(b.tokens)
    if not any(kind == "working days" for _, kind in ca | cb):
        return None
    mine, theirs = ca - cb, cb - ca
    for n, kind in sorted(mine):
        other = next((k for m, k in sorted(theirs) if m == n and k != kind), None)
        if other is not None and "working days" in (kind, other) and "day" not in (kind, other):
            # "5 days" for "5 working days" is a rewording that dropped a word, as often as
            # another span (the 279th set's "five days express")
            return f"{n:g} {kind}", f"{n:g} {other}"
    return None


def _spans(toks: tuple[str, ...]) -> Counter[tuple[float, str]]:
    """(count, "working days" or the unit) for each number a span of time follows."""
    out: Counter[tuple[float, str]] = Counter()
    for i, t in enumerate(toks[:-1]):
        n = number(t)
        if n is None:
            continue
        k = i + 1 + (toks[i + 1] in RUNNING)
        if k + 1 < len(toks) and toks[k] in _WORKING and toks[k + 1] in ("day", "days"):
            out[(n, "working days")] += 1
        elif k < len(toks) and toks[k] in UNIT_DAYS:
            out[(n, toks[k].rstrip("s"))] += 1
    return out
