"""Two steps of one process in the other order: "the base is **aged** 12 hours **before** it
is **pasteurised**" / "the base is **pasteurised** at 85 °C, **then aged** 12 hours" (the
hundred-and-forty-fourth set). Every word of one text is in the other, so only the order of the
two verbs tells the two facts apart.

A step pair is read from "A before B", "A, then B" and "A after B" (B first), A being the
text's last verb before the joining word and B the first content word after it.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import predicates
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Joining words, and whether the step after them comes first.
_JOINS = {"before": False, "then": False, "after": True}


def swapped_steps(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's steps, b's steps) where the two texts put the same two steps in the other order,
    neither text saying both orders. Else None."""
    pa, pb = _steps(a), _steps(b)
    for first, second in pa:
        if first != second and (second, first) in pb and (first, second) not in pb \
                and (second, first) not in pa:
            return f"{first} … {second}", f"{second} … {first}"
    return None


@lru_cache(maxsize=1024)  # one text is compared with several candidates
def _steps(f: Facets) -> frozenset[tuple[str, str]]:
    """The (first, second) step stems the text orders."""
    toks, verbs = f.tokens, sorted(predicates(f))
    out: set[tuple[str, str]] = set()
    for i, t in enumerate(toks):
        if t not in _JOINS:
            continue
        left = next((v for v in reversed(verbs) if v < i), None)
        right = next((j for j in range(i + 1, min(len(toks), i + 5))
                      if content_word(toks[j]) and number(toks[j]) is None), None)
        if left is None or right is None:
            continue
        x, y = stem(toks[left]), stem(toks[right])
        out.add((y, x) if _JOINS[t] else (x, y))
    return frozenset(out)
