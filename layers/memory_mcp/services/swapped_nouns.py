"""Two words of a thing swapped for two others between the same words: "jobs for Midland Rail
**traction motors** take priority" / "jobs for Midland Rail **auxiliary generators** take
priority" (the 430th set).

Each word-level rule reads one changed word; here both words of a plural thing change and no
word of either pair is in the other text. Kept to plural things (the last word of each pair
ends in "s") after a name both texts write ("Midland Rail"), with two words the same on each
side, so a reworded subject and verb ("crew cuts" / "team mows") is left alone, and so is a
value (a number, a time, a unit).
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import TIMES, UNIT_DAYS
from memory_mcp.services.opposite_words import same_side
from memory_mcp.services.stems import content_word, stem

_SIDE = 2  # words the same before and after each pair


def other_pair(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's two words, b's two words) where the two texts say the same two words, the last a
    name, then two words of a plural thing, then the same two words again, and neither pair shares a word (or
    a stem) with the other text. Else None."""
    ta, tb = a.tokens, b.tokens
    if len(ta) < 2 * _SIDE + 2 or len(tb) < 2 * _SIDE + 2:
        return None
    at = {tb[j:j + _SIDE]: j for j in range(len(tb) - _SIDE + 1)}
    sa, sb = {stem(t) for t in ta}, {stem(t) for t in tb}
    for i in range(_SIDE, len(ta) - 1 - _SIDE):
        j = at.get(ta[i - _SIDE:i])
        if j is None or j + _SIDE + 2 + _SIDE > len(tb):
            continue
        k = j + _SIDE
        if ta[i + 2:i + 2 + _SIDE] != tb[k + 2:k + 2 + _SIDE]:
            continue
        mine, theirs = ta[i:i + 2], tb[k:k + 2]
        if ta[i - 1] in a.names and ta[i - 1] in b.names \
                and _thing(mine, sb, tb) and _thing(theirs, sa, ta) \
                and not any(same_side(x, y) for x in mine for y in theirs):
            return " ".join(mine), " ".join(theirs)
    return None


def _thing(pair: tuple[str, ...], stems: set[str], toks: tuple[str, ...]) -> bool:
    """Two content words (not a time, a unit or a number) that the other text never writes,
    the last a plural."""
    return all(w.isalpha() and content_word(w) and w not in TIMES and w not in UNIT_DAYS
               and w not in toks and stem(w) not in stems for w in pair) \
        and pair[1].endswith("s") and not pair[1].endswith("ss")
