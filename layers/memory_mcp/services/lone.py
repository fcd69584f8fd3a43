"""One thing named in place of another where the sentence around it is reordered: "the
**battery** of the Philips HeartStart FRx AED in the tower is replaced every 2 years" / "The
AED in the tower is a Philips HeartStart FRx; its **pads** are replaced every 2 years", "must
wear nitrile gloves and **a respirator**, with the extractor fan on" / "… gloves and
**goggles**, and the extractor fan must be on" (the 366th and 375th sets).

``wording.swap`` finds a swapped word by aligning the two texts, and a reordered sentence
aligns the two words apart. Here the texts differ in that one word each and nothing else: both
are nouns after an article or a joining word, heads of their phrases, of no shared family, and
the lexicon does not hold them as one side.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS
from memory_mcp.services.lexicon import COMMON_VERBS
from memory_mcp.services.opposite_words import same_side
from memory_mcp.services.stems import content_word, stem

#: Words before a noun that open its phrase ("**its** pads", "gloves **and** goggles").
_OPENERS = DETERMINERS | {"and", "or"}
#: Letters a noun must have: shorter words are mostly short forms the pool cannot place.
_LEAST = 4


def lone_swap(a: Facets, b: Facets, only_a: list[tuple[int, str]],
              only_b: list[tuple[int, str]]) -> tuple[str, str] | None:
    """(a's noun, b's noun) where each text has exactly one word the other lacks, and both
    are nouns heading a phrase. Else None."""
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    x, y = only_a[0][1], only_b[0][1]
    if not (_noun_at(a.tokens, x) and _noun_at(b.tokens, y)) or same_side(x, y) \
            or x[:_LEAST] == y[:_LEAST] or stem(x) == stem(y) or x.endswith(y) \
            or y.endswith(x):  # "hives" / "beehives"
        return None
    return x, y


def _noun_at(toks: tuple[str, ...], word: str) -> bool:
    """Whether ``word`` stands once in the text, after an article, a possessive or a joining
    word, and ends its phrase (no content word after it but "of")."""
    at = [i for i, t in enumerate(toks) if t == word]
    if len(at) != 1 or not word.isalpha() or len(word) < _LEAST or not content_word(word) \
            or word in COMMON_VERBS or word.endswith(("ed", "ing", "ly")):
        return False
    i = at[0]
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    if word.endswith("s"):  # a plural noun ("and **goggles**, and the fan …", "its **pads**
        # are replaced"), not a verb in -s with its object or place ("and **swaps** the
        # lures", "and **sits** in our workspace", "and **starts** at £18,500": 11 rewordings)
        ends = nxt in ("", "and", "or", "are", "were", "have", "need", "must")
    else:
        ends = nxt in ("of", "with", "and", "or", "is", "was", "has", "needs", "must", "")
    return i > 0 and toks[i - 1] in _OPENERS and ends
