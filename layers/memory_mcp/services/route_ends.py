"""Where a route starts and where it ends, read from its verbs: "the carnival parade **leaves
Market Square** at 13:00 and **ends at Victoria Park**" / "the parade **leaves Victoria Park** at
13:00" (the hundred-and-sixty-ninth set), "the bus **leaves the Dayton Convention Center**" /
"the bus **leaves the school**" (the hundred-and-sixty-ninth).

The "from … to" rules read prepositions; a route said with "leaves", "sets off from", "ends at"
or "reaches" names its two ends with verbs instead, and the word sets see the same places in
both texts. A place one text starts from and the other ends at, or two texts starting from
places that share no word, are two routes.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS
from memory_mcp.services.lexicon import MONTHS, TIMES, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Words that open a route's start, and a route's end (each read with the word after it).
_STARTS = {("leaves", ""), ("leave", ""), ("departs", ""), ("depart", ""), ("departs", "from"),
           ("depart", "from"), ("leaves", "from"), ("leave", "from"), ("starts", "from"),
           ("start", "from"), ("starts", "at"), ("start", "at"), ("off", "from"),
           ("out", "from")}
_ENDS = {("ends", "at"), ("end", "at"), ("finishes", "at"), ("finish", "at"), ("reaches", ""),
         ("reach", ""), ("arrives", "at"), ("arrive", "at"), ("arrives", "in"),
         ("arrive", "in"), ("terminates", "at"), ("gets", "to"), ("get", "to"),
         ("finishes", "on"), ("finish", "on"), ("ends", "on"), ("end", "on")}
_PLACE_WORDS = 3
_WHEN = frozenset([*TIMES, *WEEKDAYS, *MONTHS, "every", "each", "daily", "weekly"])


def other_route(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's end, b's end) where one text starts where the other ends, or both start from
    places that share no word. Else None."""
    (start_a, end_a), (start_b, end_b) = _ends(a.tokens), _ends(b.tokens)
    for place in sorted(start_a.keys() & end_b.keys() - start_b.keys()):
        return f"from {start_a[place]}", f"to {end_b[place]}"
    for place in sorted(end_a.keys() & start_b.keys() - start_a.keys()):
        return f"to {end_a[place]}", f"from {start_b[place]}"
    if start_a and start_b and not _share(start_a, start_b):
        return f"from {min(start_a.values())}", f"from {min(start_b.values())}"
    return None


def _share(x: dict[str, str], y: dict[str, str]) -> bool:
    return any(set(p.split()) & set(q.split()) for p in x for q in y)


@lru_cache(maxsize=1024)
def _ends(toks: tuple[str, ...]) -> tuple[dict[str, str], dict[str, str]]:
    """(the places the text's routes start from, the places they end at), each the stems of
    up to ``_PLACE_WORDS`` content words after its opener → those words."""
    starts: dict[str, str] = {}
    ends: dict[str, str] = {}
    toks = tuple(t for k, t in enumerate(toks) if not _timed(toks, k))
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        found: dict[str, str]
        for found, opener in ((starts, _STARTS), (ends, _ENDS)):
            if (t, nxt) in opener:
                place = _place(toks, i + 2)
            elif (t, "") in opener and nxt not in PREPOSITIONS:
                place = _place(toks, i + 1)
            else:
                continue
            if place:
                found[" ".join(map(stem, place))] = " ".join(place)
    return starts, ends


def _timed(toks: tuple[str, ...], k: int) -> bool:
    """Whether ``toks[k]`` is part of a clock time said between a route's verb and its
    "from": "sets off **at 17:45** from the Market Cross" (the 197th set)."""
    at = k if toks[k] == "at" else k - 1
    return at >= 0 and toks[at] == "at" and toks[at + 1:at + 2] != () \
        and any(c.isdigit() for c in toks[at + 1]) and toks[at + 2:at + 3] == ("from",)


def _place(toks: tuple[str, ...], j: int) -> list[str]:
    """The place's words from ``j``, past an article; none for a time."""
    if j < len(toks) and toks[j] in DETERMINERS:
        j += 1
    words: list[str] = []
    for w in toks[j:j + _PLACE_WORDS]:
        if not content_word(w) or w in _WHEN or number(w) is not None or w in PREPOSITIONS:
            break
        words.append(w)
    return words


_UP_DOWN = {"up": "down", "down": "up"}


def up_or_down(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("down the ramps", "up the ramps") where one text goes up a thing and the other down
    the same thing, and neither says the other's way: prepupae "migrate **down the ramps**" /
    "self-migrate **up the ramps**" (the 432nd set). Else None."""
    ta, tb = a.tokens, b.tokens
    for i in range(len(ta) - 2):
        way = _UP_DOWN.get(ta[i])
        if way is None or ta[i + 1] != "the" or not content_word(ta[i + 2]):
            continue
        mine, theirs = (ta[i], "the", ta[i + 2]), (way, "the", ta[i + 2])
        if _holds(tb, theirs) and not _holds(tb, mine) and not _holds(ta, theirs):
            return " ".join(mine), " ".join(theirs)
    return None


def _holds(toks: tuple[str, ...], words: tuple[str, str, str]) -> bool:
    return any(toks[k:k + 3] == words for k in range(len(toks) - 2))


#: Points of the compass, and "left" / "right", that a way is said between.
_POINTS = frozenset(["north", "south", "east", "west", "left", "right", "top", "bottom",
                     "front", "back", "inside", "outside", "upstream", "downstream"])


def points_turned(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("west to east", "east to west") where each text works or goes from one point to
    another and the other text the other way, neither saying both: "working **east to west**"
    / "working **west to east**" (the 527th set). Else None."""
    wa, wb = _ways(a.tokens), _ways(b.tokens)
    for x, y in wa:
        if (y, x) in wb and (x, y) not in wb and (y, x) not in wa:
            return f"{x} to {y}", f"{y} to {x}"
    return None


def _ways(toks: tuple[str, ...]) -> set[tuple[str, str]]:
    """Each (point, point) written "<point> to <point>"."""
    return {(toks[k - 1], toks[k + 1]) for k in range(1, len(toks) - 1)
            if toks[k] == "to" and toks[k - 1] in _POINTS and toks[k + 1] in _POINTS
            and toks[k - 1] != toks[k + 1]}
