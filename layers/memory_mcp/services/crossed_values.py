"""Two things swapped between the same two values: "deployed to **production on Tuesdays**,
then to **staging on Thursdays**" / "… to staging on Tuesdays, then to production on
Thursdays", "picks up at **St Anne's Primary at 8:05** am and drops off at the **Manor Park
stop by 8:40**" / the two stops the other way round (the 485th and 484th sets).

Each text names both things and both values, so no word is unseen and no value differs; what
changed is which thing goes with which value. A clock time or a weekday is tied here to the
nearest content word before it, a few words back at most: two values both texts say once,
tied to the same two things the other way round, make another fact. A rewording that moves a
value before its thing ("on Tuesdays it goes to staging") ties it to another word, and so
crosses nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import WEEKDAYS
from memory_mcp.services.stems import content_word, singular_weekday, stem

#: A clock time as the rules write it: "8:05", "18:00", "6pm".
_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}|\d{1,2}(?:am|pm)")
#: How far back a value looks for its thing.
_REACH = 4


def crossed_values(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's thing and value, b's thing and value) for the first shared value whose thing the
    other text ties to the other shared value; else None."""
    ties_a = _ties(a.tokens)
    if len(ties_a) < 2:
        return None
    ties_b = _ties(b.tokens)
    once = _once(a.tokens) & _once(b.tokens)
    for v, w in combinations(sorted(set(ties_a) & set(ties_b)), 2):
        x, y = ties_a[v], ties_a[w]
        if x != y and ties_b[v] == y and ties_b[w] == x and {x, y} <= once:
            return f"{x} … {v}", f"{y} … {v}"
    return None


def _ties(toks: tuple[str, ...]) -> dict[str, str]:
    """Each value the text says once → the stem of the nearest content word before it."""
    counts = Counter(toks)
    out: dict[str, str] = {}
    for i, t in enumerate(toks):
        if not _value(t) or counts[t] > 1:
            continue
        for w in reversed(toks[max(0, i - _REACH):i]):
            if _value(w):
                break
            if content_word(w) and not w[:1].isdigit():
                out[t] = stem(w)
                break
    return out


def _value(token: str) -> bool:
    return bool(_CLOCK.fullmatch(token)) or singular_weekday(token) in WEEKDAYS


def _once(toks: tuple[str, ...]) -> frozenset[str]:
    """The stems a text says once."""
    counts = Counter(stem(t) for t in toks)
    return frozenset(s for s, n in counts.items() if n == 1)
