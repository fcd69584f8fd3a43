"""Two means said in the other order: orders come "**by text** first and then **by phone**" /
"**by phone** and then **by confirmation text**" (the 457th set).

Both texts name both means, so no word rule sees a change, and the swapped-word rules look for
the same words on both sides of one word. Here each means is a phrase after "by" (or "via"),
and a text that says "then" or "first" gives them an order: the same two means in the other
order are another procedure.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem

_BY = frozenset(["by", "via"])
_ORDERED = frozenset(["then", "first", "followed", "before", "after"])
_PHRASE = 2  # content words of a means: "by **confirmation text**"


def swapped_means(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's means in order, b's) where both texts order two means ("then", "first") and each
    text's first means is the other's second. Else None."""
    if not (_ORDERED & set(a.tokens) and _ORDERED & set(b.tokens)):
        return None
    mine, theirs = _means(a.tokens), _means(b.tokens)
    if len(mine) != 2 or len(theirs) != 2:
        return None
    (a1, a2), (b1, b2) = mine, theirs
    if a1 & b2 and a2 & b1 and not a1 & b1 and not a2 & b2:
        return " then ".join(" ".join(sorted(m)) for m in mine), \
            " then ".join(" ".join(sorted(m)) for m in theirs)
    return None


def _means(toks: tuple[str, ...]) -> list[frozenset[str]]:
    """The stems of each phrase after "by" or "via", up to two content words."""
    out = []
    for i, t in enumerate(toks):
        if t in _BY:
            words = [w for w in toks[i + 1:i + 1 + _PHRASE + 1] if content_word(w)][:_PHRASE]
            if words:
                out.append(frozenset(stem(w) for w in words))
    return out
