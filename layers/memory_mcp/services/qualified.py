"""The same thing qualified otherwise: "switched on 15 minutes before **landings in fog**" /
"… before **night landings**" (the 411th set).

Each text keeps the noun both say ("landings") to some of it by a word of its own, one before
the noun, the other in a phrase after it, and neither says the other's word anywhere: two
conditions on one thing, not one reworded. A request that only moves the word ("landings at
night") says the stored word, and agrees.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS, SLOT_TOKENS, predicates
from memory_mcp.services.stems import content_word, stem

#: Prepositions that qualify the noun before them: "landings **in** fog", "shifts **at** night".
_AFTER = frozenset(["in", "during", "under", "without"])  # not "at": "starts **at** 4 pm"
_REACH = 2  # words after the preposition for its noun: "in **thick** fog", "in the fog"


def other_qualifier(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the request says a noun of the stored text with a phrase
    after it whose noun the stored text never says ("landings in fog"), and the stored text says
    that noun after a word of its own the request never says ("night landings"). Read from the
    request's side, as the request is the narrower or other fact. Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    before = _modified(b, a)
    if not before:
        return None
    ta, verbs = a.tokens, predicates(a)
    for i in range(len(ta) - 2):
        if stem(ta[i]) not in before or ta[i + 1] not in _AFTER or i in verbs \
                or _reworded(before[stem(ta[i])], ta):
            continue
        what = [w for w in ta[i + 2:i + 3 + _REACH] if w not in DETERMINERS][:1]
        if what and content_word(what[0]) and what[0].isalpha() \
                and stem(what[0]) not in b.stems:
            return f"{ta[i]} {ta[i + 1]} {what[0]}", f"{before[stem(ta[i])]} {ta[i]}"
    return None


def _modified(b: Facets, a: Facets) -> dict[str, str]:
    """Nouns of ``b`` that ``a`` says, each with the word before it in ``b`` that ``a`` never
    says: {"landing": "night"} for "before **night** landings" against "landings in fog"."""
    tb, found, verbs = b.tokens, dict[str, str](), predicates(b)
    for j in range(len(tb) - 1):
        word, noun = tb[j], tb[j + 1]
        if content_word(word) and word.isalpha() and content_word(noun) \
                and not {j, j + 1} & verbs and word not in _NOT_MODIFIERS \
                and j and tb[j - 1] in _OPENS \
                and stem(noun) in a.stems and stem(word) not in a.stems:
            found.setdefault(stem(noun), word)
    return found


_OPENS = DETERMINERS | PREPOSITIONS  # "before **night** landings", "the **night** shift"
_NOT_MODIFIERS = frozenset(["whose", "which", "who", "where", "when"])
_PREFIX = 4


def _reworded(word: str, toks: tuple[str, ...]) -> bool:
    """Whether the request says ``word`` in another form: "**daytime** traffic" / "traffic
    during the **day**", "**supervised** hours" / "hours under **supervision**", "**resus**" /
    "**resuscitation**"."""
    return any(len(t) >= _PREFIX - 1 and t.isalpha() and (
        t[:_PREFIX] == word[:_PREFIX] or word.startswith(t)) for t in toks)
