"""Two texts that each deny what the other allows: "trays are watered **from the top only,
never from below**" / "… **from below only, never from the top**", "weights may be handled
**with bare hands, without lint-free gloves**" / "… only with lint-free gloves …, **never with
bare hands**" (the 455th set).

Each text holds one denial, so the counts agree, and every word of one is in the other. What
changed is which word each denial takes: the first word after one text's "never" stands
undenied in the other, and the other way round. Both ways are needed: a rewording may put a
denial of its own around a word ("do not touch weights with bare hands").
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import stem

#: Words that deny the phrase after them.
_DENY = frozenset(["never", "not", "no"])
_PREPS = frozenset(["from", "with", "by", "in", "on", "at", "to", "into", "via", "through"])
_ARTICLES = frozenset(["the", "a", "an", "any"])

Slot = tuple[str, str]  # (preposition, stem of the word after it)


def crossed(a: Facets, b: Facets) -> bool:
    """Whether a phrase one text denies ("never **from below**") the other states undenied,
    with the same preposition, and the other way round with another word."""
    deny_a, say_a = _slots(a.tokens)
    deny_b, say_b = _slots(b.tokens)
    if any(x != y for x in deny_a & say_b for y in deny_b & say_a):
        return True
    # a means denied with "without" against the other's "not by": "estimated from the bottle
    # **without measuring**" / "checked **by measuring** …, **not by estimating**" (the
    # 480th set): each denied word is said freely in the other text, whatever its preposition
    if not ("without" in a.tokens or "without" in b.tokens):
        return False
    free_a, free_b = _free(a.tokens), _free(b.tokens)
    return any(x != y for _, x in deny_a if x in free_b for _, y in deny_b if y in free_a)


def _free(toks: tuple[str, ...]) -> set[str]:
    """The stems of a text's words outside its denied phrases (a few words after each "not
    by" or "without"): "without **the estates manager's approval**" denies all of them."""
    out = {stem(t) for t in toks}
    for i, t in enumerate(toks):
        if t == "without" or (t in _PREPS and i and toks[i - 1] in _DENY):
            out -= {stem(w) for w in toks[i + 1:i + 1 + _SPAN]}
    return out


#: How many words a denied phrase runs to.
_SPAN = 4


def _slots(toks: tuple[str, ...]) -> tuple[set[Slot], set[Slot]]:
    """(denied, stated) slots: the first word after each preposition (articles skipped),
    denied when a denial stands right before the preposition or before its article and noun,
    or "without" ("with" denied)."""
    denied: set[Slot] = set()
    stated: set[Slot] = set()
    for i, t in enumerate(toks):
        prep = "with" if t == "without" else t
        if prep not in _PREPS:
            continue
        j = i + 1
        while j < len(toks) and toks[j] in _ARTICLES:
            j += 1
        if j >= len(toks) or not toks[j].replace("-", "").isalpha():
            continue
        slot = (prep, stem(toks[j]))
        if t == "without" or (i and toks[i - 1] in _DENY) or (
                i >= 3 and toks[i - 3] in _DENY and toks[i - 2] in _ARTICLES):  # "**never
            # the number from** the original contract" (the 480th set)
            denied.add(slot)
        else:
            stated.add(slot)
    return denied, stated - denied
