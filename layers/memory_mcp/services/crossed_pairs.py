"""Two opposite words swapped between the same things: "fuel loads go **north** …; the empty
tankers come back **south**" / "fuel loads come **south** … and the empty tankers go back
**north**", "XS to M hang on the **right** rack and L and XL on the **left**" / "… the **left**
rack, L and XL on the **right**" (the twenty-eighth and hundred-and-first sets).

Each text says both words, so the opposite rules, which look for a word one text says and the
other denies, see nothing; what changed is which thing each word goes with. A word both texts
say once, standing between the two opposite words in both, shows it: the word before it in
one text is after it in the other.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem

#: Opposite words a text may say both of, each of one thing.
_PAIRS = (("north", "south"), ("east", "west"), ("left", "right"), ("up", "down"),
          ("upstream", "downstream"), ("inbound", "outbound"), ("northbound", "southbound"),
          ("eastbound", "westbound"), ("upstairs", "downstairs"), ("front", "back"))


def crossed_pair(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's order, b's order) where both texts say each word of an opposite pair once, and a
    content word both say once stands between them in both, with the pair's words on the
    other sides of it. Else None."""
    ta, tb = a.tokens, b.tokens
    for x, y in _PAIRS:
        if not all(t.count(w) == 1 for t in (ta, tb) for w in (x, y)):
            continue
        ax, ay, bx, by = ta.index(x), ta.index(y), tb.index(x), tb.index(y)
        if (ax < ay) == (bx < by):
            continue
        once_a = _once(ta[min(ax, ay) + 1:max(ax, ay)], ta)
        once_b = _once(tb[min(bx, by) + 1:max(bx, by)], tb)
        shared = once_a.keys() & once_b.keys()
        if shared:
            first = (x, y) if ax < ay else (y, x)
            return f"{first[0]} … {first[1]}", f"{first[1]} … {first[0]}"
    return None


def _once(words: tuple[str, ...], toks: tuple[str, ...]) -> dict[str, str]:
    """Stem → word for the content words of ``words`` said once in the whole text."""
    stems = [stem(t) for t in toks]
    return {stem(w): w for w in words if content_word(w) and not w[:1].isdigit()
            and stems.count(stem(w)) == 1}
