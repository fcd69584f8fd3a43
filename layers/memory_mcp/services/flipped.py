"""A condition turned inside out with every other word kept: "treat with oxalic acid **unless**
the count exceeds 9 mites" / "… **if** the count exceeds 9 mites" (the 501st set), "may open
the door **even without** a second keyholder" / "… **only with** a second keyholder" (the
500th set).

``conditioned`` compares the clauses after "if", "unless" and "when" when the texts are worded
alike throughout; a rewording of the rest of the sentence ("Varroa counts use an alcohol
wash …" / "the August varroa rule: alcohol wash …") hid the flip from it. Here only the words
around the turning word must agree: the one before it and the first three after it. A
rewording that turns the condition words it otherwise ("treat **unless** the count is **low**"),
or says "not" / "never" somewhere, is left alone.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS

#: What opens a condition that holds when the thing happens, and when it does not.
_WHEN = frozenset(["if", "when", "whenever"])
#: Words that turn a sentence around, so that "unless" and "if" may mean one rule.
_TURNING = frozenset(["not", "never", "no", "nobody", "nothing", "only", "cannot", "don't",
                      "doesn't", "isn't", "aren't", "won't", "mustn't", "shouldn't"])
#: How many words after the turning word must agree.
_AFTER = 3


def unless_or_if(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says "unless" and the other "if" or "when" between
    the same word before and the same three words after; else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        if _TURNING & set(tx) or _TURNING & set(ty) or tx.count("unless") != 1 \
                or "unless" in ty:
            continue
        i = tx.index("unless")
        for j, w in enumerate(ty):
            if w in _WHEN and _around(tx, i, ty, j):
                found = (" ".join(tx[i:i + 1 + _AFTER]), " ".join(ty[j:j + 1 + _AFTER]))
                return (found[1], found[0]) if flip else found
    return None


def with_or_without(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says "without" a thing and the other "with" the
    same thing ("**without** a second keyholder" / "only **with** a second keyholder"), and
    neither says the other's word too; else None. A thing is its next two words after any
    "a" or "the", "with no" being a "without" said otherwise."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        if tx.count("without") != 1 or "with" in tx or "without" in ty:
            continue
        thing = _thing(tx, tx.index("without"))
        for j, w in enumerate(ty):
            if w == "with" and len(thing) == 2 and _thing(ty, j) == thing:
                found = ("without " + " ".join(thing), "with " + " ".join(thing))
                return (found[1], found[0]) if flip else found
    return None


def _around(tx: tuple[str, ...], i: int, ty: tuple[str, ...], j: int) -> bool:
    """Whether the word before and the ``_AFTER`` words after positions i and j agree."""
    after_x, after_y = tx[i + 1:i + 1 + _AFTER], ty[j + 1:j + 1 + _AFTER]
    return i > 0 and j > 0 and tx[i - 1] == ty[j - 1] and len(after_x) == _AFTER \
        and after_x == after_y


def _thing(toks: tuple[str, ...], i: int) -> tuple[str, ...]:
    """The two words after position i, past a determiner."""
    k = i + 1 + (i + 1 < len(toks) and toks[i + 1] in DETERMINERS)
    return toks[k:k + 2]
