"""Whether two runs of words name two things: the test ``aligned``'s slot reads put to what
stands in the slot ("the **West** Chapel" / "the **East** Chapel", "in **hallways and
landings**" / "in **bedrooms**"). Apart from ``aligned`` so its reads stay short.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.leading import noun
from memory_mcp.services.lexicon import MONTHS, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.names_found import name_apart
from memory_mcp.services.stems import part_stems, stem

#: Words of a time, which the value rules read, not a thing.
WHEN = frozenset([*TIMES, *UNIT_DAYS, *WEEKDAYS, *(f"{d}s" for d in WEEKDAYS), *MONTHS])
THE = frozenset(["the", "a", "an", "our", "their", "its", "his", "her", "your", "my"])


def other_things(xs: tuple[str, ...], ys: tuple[str, ...], a: Facets, b: Facets) -> bool:
    """Two named things (``_thing``) that share no stem nor a word's start ("prod" /
    "production"), each with a word the other text lacks."""
    sx, sy = _thing(xs), _thing(ys)
    if not (sx and sy) or sx & sy or any(x.startswith(y) or y.startswith(x)
                                         for x in sx for y in sy) \
            or _initials(xs, ys) or _initials(ys, xs):
        return False
    return (bool(sx - text_stems(b.tokens)) or name_apart(xs, a, b)) \
        and (bool(sy - text_stems(a.tokens)) or name_apart(ys, b, a))


@lru_cache(maxsize=256)
def text_stems(tokens: tuple[str, ...]) -> frozenset[str]:
    """A text's stems, with its hyphenated words' parts ("the **tack-room** whiteboard"): read
    once a text, not once a pair of things."""
    return frozenset(s for t in tokens for s in (stem(t), *part_stems(t)))


def _initials(xs: tuple[str, ...], ys: tuple[str, ...]) -> bool:
    """Whether one thing is the other's initials: "the HP **MJF** 5200" / "… **Multi Jet
    Fusion** 5200"."""
    return any(len(ys) > 1 and x == "".join(y[0] for y in ys) for x in xs)


def _thing(words: tuple[str, ...]) -> set[str]:
    """The stems (of hyphenated parts too) of words that name a thing: "the" or a possessive,
    then nouns, and numbers only among two of them ("Kongsberg K-Chief 700", "the 2-tonne chain
    hoist"); or an empty set
    for anything else: a time or an amount ("a day" / "24 hours", "13:00 daily"), a clause
    ("they go back with" / "return and"), which the value and verb rules read."""
    rest = words[1:] if words[0] in THE else words
    rest = tuple(w for k, w in enumerate(rest) if not (0 < k < len(rest) - 1 and w in _JOINS))
    # a list of things is things: "in **hallways and landings**" (the 257th set)
    nouns = [w for w in rest if noun(w) and w not in WHEN]
    numbered = [w for w in rest if any(c.isdigit() for c in w)]
    if not rest or len(nouns) + len(numbered) != len(rest) or (numbered and len(nouns) < 2):
        return set()
    return {p for w in nouns for p in (part_stems(w) or [stem(w)])}


_JOINS = frozenset(["and", "or"])
