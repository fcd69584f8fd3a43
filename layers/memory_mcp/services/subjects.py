"""The same predicate said of another thing: "the **wheel bearings** are checked before every
trip" / "**tyre pressures** are checked before every trip", "**student nurses** may not change
the settings" / "**healthcare assistants** may not change the settings".

The swapped-word rule reads one or two words apart in texts that otherwise line up; a stored
text that says more elsewhere ("towed **on the team trailer** behind the Hilux") leaves too
many words apart for it, and the cosine of the two texts stays high (the 384th and 389th
sets). Here each clause whose auxiliary and the words after it are the same in both texts
is read for its subject: when each text's subject has a word the other text never uses, the
two texts say the predicate of two things.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets, facets
from memory_mcp.services.grammar import AUX, DETERMINERS
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.word_pool import parts_pool

#: Words of the predicate, from its auxiliary, that must be the same in both texts.
_TAIL = 4
#: Content words of a subject read back from its auxiliary, at most, and at least (each).
_SUBJECT, _SUBJECT_MIN = 3, 2


def other_subject(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's subject, b's subject) where both texts have a clause with the same auxiliary and
    the same words after it, and each subject has a word the other text never uses. Else
    None."""
    subjects_b = _subjects(b.tokens)
    if not subjects_b:
        return None
    for tail, mine in _subjects(a.tokens).items():
        theirs = subjects_b.get(tail)
        if theirs is None:
            continue
        pool = parts_pool(facets(" ".join(theirs)))
        if min(len(mine), len(theirs)) < _SUBJECT_MIN or any(pool.has(w, 0.75) for w in mine):
            continue  # "the **grazing** is good" / "the **pasture** is good": one word is as
            # often a synonym; "**off-spec** batches" / "batches that fail **spec**"
        own_a = [w for w in mine if stem(w) not in b.stems]
        own_b = [w for w in theirs if stem(w) not in a.stems]
        if own_a and own_b and not any(x.startswith(y) or y.startswith(x)
                                       for x in own_a for y in own_b):
            return " ".join(mine), " ".join(theirs)
    return None


def _subjects(toks: tuple[str, ...]) -> dict[tuple[str, ...], list[str]]:
    """Each auxiliary's predicate (it and the words after it) → the content words of the
    subject right before it, after an article or at a clause's start."""
    out: dict[tuple[str, ...], list[str]] = {}
    for i, t in enumerate(toks):
        if t not in AUX or i == 0 or i + _TAIL > len(toks):
            continue
        words: list[str] = []
        k = i - 1
        while k >= 0 and len(words) < _SUBJECT and content_word(toks[k]) \
                and toks[k] not in AUX:
            words.insert(0, toks[k])
            k -= 1
        opened = k < 0 or toks[k] in DETERMINERS or toks[k] in ("and", "but")
        if words and opened:
            out.setdefault(tuple(toks[i:i + _TAIL]), words)
    return out
