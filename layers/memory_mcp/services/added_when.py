"""Days or a clock time one text adds to a fact that names none: "tandem kayaks rent for $45
**on weekdays**" / "… for $45", "barred from the pool **after 20:00**" / "no guests under 18 in
the pool". Split from ``schedules``, which compares two schedules; these read a narrowing the
request makes where the stored text says no when at all."""

from __future__ import annotations

import re

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import WEEKDAYS
from memory_mcp.services.stems import singular_weekday

#: Words that name days without a weekday's name.
_DAY_WORDS = frozenset(["weekday", "weekdays", "weekend", "weekends", "day", "days", "daily",
                        "nightly", "weekly", "everyday", "week", "weeks",
                        # the two short forms ``lexicon.WEEKDAYS`` leaves out, being words too
                        # ("Staging DB refresh: **Sun** 02:00 UTC"); the others are weekdays
                        "sat", "sun"])


_DEADLINE = frozenset(["by", "until", "till", "before", "after"])


def added_days(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(the days, "(any day)") where the request ``a`` holds the fact on some days ("tandem
    kayaks rent for $45 for two hours **on weekdays**", "… **on Saturdays**") and the stored
    ``b`` names no day, no daily schedule and no time of day at all: a narrower fact (read from
    the request's side, as every narrowing is)."""
    if any(t in _DEADLINE and singular_weekday(u) in WEEKDAYS
           for t, u in zip(a.tokens, a.tokens[1:], strict=False)):
        return None  # "paid **by Friday**": a deadline, the value rules' to compare
    named = sorted(a.weekdays) or [t for t in a.tokens if t in ("weekdays", "weekends")]
    if not named or b.weekdays or b.times or b.months \
            or any(t in _DAY_WORDS for t in b.tokens):
        return None
    return ", ".join(named), "(any day)"


#: Words that bound a doing by a clock time: "barred **after** 20:00", "open **until** 6 pm".
_CLOCK_BOUNDS = frozenset(["after", "before", "until", "till", "from", "past"])
_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}|\d{1,2}(?:am|pm|a\.m|p\.m)")


def added_clock(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's bound, "") where the request bounds the fact by a clock time and the stored text
    names no time of day at all: "guests under 18 are barred from the pool **after 20:00**" /
    "no guests under 18 in the pool" (the forty-eighth set). Read from the request's side, as
    the other added conditions are."""
    if any(_clock_at(b.tokens, i) for i in range(len(b.tokens))) or b.times:
        return None
    toks = a.tokens
    for i, t in enumerate(toks[:-1]):
        if t in _CLOCK_BOUNDS and _clock_at(toks, i + 1):
            return f"{t} {toks[i + 1]}", ""
    return None


def _clock_at(toks: tuple[str, ...], i: int) -> bool:
    """A clock time at ``i``: "20:00", "6pm", or a number before "am" / "pm"."""
    t = toks[i]
    return bool(_CLOCK.fullmatch(t)) or (t.isdigit() and toks[i + 1:i + 2] in (
        ("am",), ("pm",), ("a.m",), ("p.m",)))
