"""Another time a rule holds "during": "**during runway works**, apron controllers hand
aircraft over at Alpha 3" / "**during low-visibility procedures**, …" (the 484th set).

The condition rules read clauses opened by "if", "when", "unless" or "only"; a "during" phrase
is no clause, and the one word each side names is too few for the word rules, which take a
single swapped word for a synonym. Here each text says "during" once, and the phrases after
it share no word, each naming only what the other text never says.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PREPOSITIONS
from memory_mcp.services.stems import content_word, stem

#: Words that end a "during" phrase besides a preposition.
_ENDS = frozenset(["and", "or", "then", "so", "when", "if", "while", "unless", "but"])
#: How many words a "during" phrase runs to at most.
_LONGEST = 5


def other_during(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's phrase, b's phrase) for two "during" phrases that name other things; else None."""
    pa, pb = _phrase(a.tokens), _phrase(b.tokens)
    if pa is None or pb is None:
        return None
    stems_a, stems_b = {stem(t) for t in a.tokens}, {stem(t) for t in b.tokens}
    pa, pb = _unseen(pa, stems_b), _unseen(pb, stems_a)
    if any(content_word(w) for w in pa) and any(content_word(w) for w in pb):
        return "during " + " ".join(pa), "during " + " ".join(pb)
    return None


def _unseen(phrase: tuple[str, ...], other: set[str]) -> tuple[str, ...]:
    """The phrase's words up to the first the other text says (the punctuation that would
    end it is gone from the tokens: "during runway works, **apron** controllers …")."""
    out: list[str] = []
    for w in phrase:
        if stem(w) in other:
            break
        out.append(w)
    return tuple(out)


def _phrase(toks: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words after the text's only "during", up to a preposition or a clause's start."""
    if toks.count("during") != 1:
        return None
    i = toks.index("during")
    out: list[str] = []
    for w in toks[i + 1:i + 1 + _LONGEST]:
        if w in PREPOSITIONS or w in _ENDS:
            break
        out.append(w)
    return tuple(out)
