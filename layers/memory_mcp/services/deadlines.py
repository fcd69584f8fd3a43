"""By when: "the stolen-goods check is run before **noon**" and "… before **the end of the
business day**" set two deadlines for one task, and the local model scores them as one fact.

The value rules compare clock times ("before 17:00") and parts of the day both texts name
("every **morning**" / "every **evening**"); a deadline said in words ("the end of the day",
"close of business") is neither, so a request that moves a deadline to noon was read as the
same fact (the 384th set). Here each text's deadlines after "before", "by", "until" or "till"
are read as one of a few named points in a day, week or month, or as a clock time, and two
texts whose deadlines have no point in common hold two facts.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets

#: Words that open a deadline: "before noon", "by the end of the day", "until midnight".
_OPENERS = frozenset(["before", "by", "until", "till"])
#: Single words naming a point in a day.
_POINTS = {"noon": "noon", "midday": "noon", "lunchtime": "noon", "midnight": "midnight",
           "cob": "end_of_day", "eod": "end_of_day", "eow": "end_of_week"}
#: "the end of the (business) day / week / month", "close of business / play".
_ENDS = {"day": "end_of_day", "week": "end_of_week", "month": "end_of_month",
         "business": "end_of_day", "shift": "end_of_shift", "term": "end_of_term"}
#: The points a text names in words, not by a clock.
_WORDED = frozenset([*_POINTS.values(), *_ENDS.values()])
#: Words read past between an opener and its point: "before **the** end of **the working** day".
_SKIP = frozenset(["the", "a", "this", "that", "each", "every", "business", "working",
                   "trading", "school", "office"])
#: Tokens read after an opener, at most.
_REACH = 6


def other_deadline(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's deadline, b's deadline) where both texts set one in words and no point is the
    same: "before noon" / "before the end of the business day". A clock time is the value
    rules' ("by noon" / "by 12:00" is one deadline)."""
    da, db = _deadlines(a.tokens), _deadlines(b.tokens)
    if not (da and db) or set(da) & set(db):
        return None
    if not any(p in _WORDED for p in da) or not any(p in _WORDED for p in db):
        return None  # "by noon" / "by 12:00", "by 10:30am" / "by 10:30": a clock is the
        # value rules'; "before the end of the day" / "before 17:00" may be one time
    return da[sorted(da)[0]], db[sorted(db)[0]]


def _deadlines(tokens: tuple[str, ...]) -> dict[str, str]:
    """Each deadline's point → its words as written."""
    out: dict[str, str] = {}
    for i, t in enumerate(tokens):
        if t not in _OPENERS:
            continue
        window = tokens[i + 1:i + 1 + _REACH]
        point = _point(window)
        if point is not None:
            out.setdefault(point[0], " ".join(tokens[i:i + 2 + point[1]]))
    return out


def _point(window: tuple[str, ...]) -> tuple[str, int] | None:
    """(the point, the index of its last word) the window opens with, or None."""
    for k, w in enumerate(window):
        if w in _POINTS:
            return _POINTS[w], k
        if w[:1].isdigit() and ":" in w:
            return w, k
        if w in ("end", "close") and window[k + 1:k + 2] == ("of",):
            rest = [x for x in window[k + 2:] if x not in _SKIP or x == "business"]
            if rest[:2] == ["business", "day"]:
                rest = rest[1:]  # "the end of the business **day**"
            if rest and rest[0] in _ENDS:
                return _ENDS[rest[0]], k + 2 + window[k + 2:].index(rest[0])
            return None
        if w not in _SKIP:
            return None
    return None
