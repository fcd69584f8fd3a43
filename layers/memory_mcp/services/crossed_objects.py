"""Two verbs whose things are swapped: "staff **enter through the foot bath** and **leave
through the rear corridor door**" / "… enter through the rear corridor door and leave through
the foot bath", "**leaving Hillcrest Primary** at 7:05 and **arriving at the depot**" /
"leaving the depot … arriving at Hillcrest Primary" (the 355th set).

Every word of one text is in the other, so no word rule sees a change; the verbs are even in
the same order. What changed is which thing each verb goes with: each text's first verb has
the other's second verb's thing. Read only on the two sides of an opposite pair of the
lexicon (enter / leave, leaving / arriving), each said once, with things said once: any two
words with a thing after each swap places in a rewording ("Kenji **on Saturdays**, Lola on
Sundays" / "**Saturdays**: Kenji"), which 76 rewordings of the earlier sets showed.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations

from memory_mcp.services.crossed_pairs import OBJECT_OPENERS, phrase_end
from memory_mcp.services.facets import Facets
from memory_mcp.services.opposite_words import other_side
from memory_mcp.services.stems import content_word, stem

#: Words between a verb and the place or thing it goes with: "enter **through** the foot
#: bath", "arriving **at** the depot", "drive **to** the quay".
_LINKS = frozenset("through at from to into onto via past towards toward".split())  # noqa: SIM905


def swapped_things(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where two opposite verbs said once in both texts each have, in
    ``a``, the thing the other has in ``b``. Else None."""
    ta, tb = _things(a.tokens), _things(b.tokens)
    shared = sorted(ta.keys() & tb.keys())
    for v, w in combinations(shared, 2):
        (xa, sa), (ya, wa) = ta[v], ta[w]
        (xb, sb), (yb, wb) = tb[v], tb[w]
        if xa != ya and (xa, ya) == (yb, xb) and {xa, ya}.isdisjoint({v, w}) \
                and other_side(sa.split()[0], wa.split()[0]):
            return f"{sa}; {wa}", f"{sb}; {wb}"
    return None


@lru_cache(maxsize=256)  # a stored text is read against many requests
def _things(toks: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Word stem → (the stem of the last word of the thing after it, the words), for each
    content word said once with, past one linking word and one opener at most, a thing after
    it whose last word is said once too."""
    stems = [stem(t) for t in toks]
    counts = Counter(stems)
    out: dict[str, tuple[str, str]] = {}
    for i, t in enumerate(toks[:-1]):
        if counts[stems[i]] != 1 or not content_word(t) or t[:1].isdigit():
            continue
        j = i + 2 if toks[i + 1] in _LINKS else i + 1
        if j < len(toks) and toks[j] in OBJECT_OPENERS:
            j += 1
        if j >= len(toks) or not content_word(toks[j]) or toks[j][:1].isdigit():
            continue
        end = phrase_end(toks, j)
        if counts[stems[end]] == 1:
            out[stems[i]] = (stems[end], " ".join(toks[i:end + 1]))
    return out
