"""One word in place of another between the same words: "service slots in the **West** Chapel
are 40 minutes long" / "service slots in the **East** Chapel are 40 minutes long; the West
Chapel is booked in 60-minute slots".

The swapped-word rule (``wording.swap``) compares the words each text has and the other lacks,
so a word the stored text says elsewhere ("the West Chapel is booked …") hides the swap. Read in
order, the two texts share the two words before and the two after, and differ in the one
between: another thing in the same place of the same sentence (the fifty-sixth set). Numbers
are left to the value rules, and a word of the same stem ("chapel" / "chapels") is no swap.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX
from memory_mcp.services.stems import content_word, stem

#: Words on each side of the swapped one that both texts must share, in order.
_SIDE = 2


def in_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's word, b's word) where both texts have the same two words before and after and a
    different content word between that names a kind of the content word after it; or
    None."""
    starts: dict[tuple[str, ...], list[int]] = {}
    tb = (*_START, *b.tokens)  # the text's start is a shared "before" too
    for j in range(_SIDE, len(tb) - _SIDE):
        starts.setdefault(tb[j - _SIDE:j], []).append(j)
    ta = (*_START, *a.tokens)
    for i in range(_SIDE, len(ta) - _SIDE):
        before, after, word = ta[i - _SIDE:i], ta[i + 1:i + 1 + _SIDE], ta[i]
        kind = _compared(word) and content_word(after[0]) and before[-1] not in AUX \
            and "^" not in before  # the start only for a subject ("we **buy**" / "we **order**")
        # a word naming a kind of the next ("the **West** Chapel"), not a verb ("is
        # **booked** for", "is **kept** for": rewordings swap verbs freely)
        subject = _noun(word) and after[0] in _COPULAS and content_word(before[-1]) \
            and before[-1] not in AUX  # "torn **towels** are bagged" / "torn **sheets** are …"
        if not (kind or subject):
            continue
        for j in starts.get(before, ()):
            other = tb[j]
            if tb[j + 1:j + 1 + _SIDE] == after and _apart(word, other) \
                    and (_compared(other) if kind else _noun(other)):
                return word, other
    return None


_START = ("^", "^")
_COPULAS = frozenset(["is", "are"])


def _noun(word: str) -> bool:
    """A content word that is no number (a plural too)."""
    return content_word(word) and not any(c.isdigit() for c in word)


def _compared(word: str) -> bool:
    """A content word that is no number, nor a verb's form ("**sends** garment counts",
    "a **booked** slot"): a kind's word before a noun is bare."""
    return _noun(word) and not word.endswith(("s", "ed"))


def _apart(word: str, other: str) -> bool:
    """Two words, not one word's forms or short form ("prod" / "production") nor a part of
    the other ("booked" / "pre-booked")."""
    return stem(word) != stem(other) and not (word.startswith(other) or other.startswith(word)) \
        and word not in other.split("-") and other not in word.split("-")
