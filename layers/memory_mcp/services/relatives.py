"""Who a fact holds for, said in a relative clause: "members **who have paid the annual
subscription** can borrow a loaner drum" is not "members **who have attended at least three
sessions** can …", nor "licences are issued only to applicants **who own a registered boat**"
"… **who have completed the shore safety course**" (the 293rd and 296th sets).

Apart from ``conditioned``, which reads clauses opened by "if", "when" or "unless": here the
condition is a "who" clause on the same people, and the two clauses share no word.
"""

from __future__ import annotations

from memory_mcp.services.conditions import compared
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, CLAUSE_BREAKS, SLOT_TOKENS
from memory_mcp.services.stems import stem
from memory_mcp.services.word_pool import parts_pool

#: Content words of a clause read, at most, and needed on each side, at least.
_REACH, _LEAST = 5, 2
#: Words that end a "who" clause and go back to the main one: its modal ("… who have paid
#: the subscription **can** borrow").
_MAIN = frozenset(["can", "may", "must", "should", "will", "get", "gets", "pay", "pays"])


def other_who(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's clause, b's clause) where both texts say "<people> who …" of the same people and
    no word of either clause is in the other text. Else None. Short texts only, as the other
    pairwise rules: it compares every "who" of one text with every "who" of the other."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    clauses_b = _whos(b.tokens)
    if not clauses_b:
        return None
    pool_a, pool_b = parts_pool(a), parts_pool(b)
    for head, words_a, shown_a in _whos(a.tokens):
        for other, words_b, shown_b in clauses_b:
            if other != head or len(words_a) < _LEAST or len(words_b) < _LEAST:
                continue
            if not any(pool_b.has(w, 0.75) for w in words_a) \
                    and not any(pool_a.has(w, 0.75) for w in words_b):
                return shown_a, shown_b
    return None


def _whos(toks: tuple[str, ...]) -> list[tuple[str, list[str], str]]:
    """(the people's stem, the clause's content words, the clause as written) for each "<noun>
    who …" of a text."""
    out = []
    for i, t in enumerate(toks[1:-1], 1):
        if t != "who":
            continue
        words: list[str] = []
        end = i + 1
        for w in toks[i + 1:i + 10]:
            if w in CLAUSE_BREAKS or (w in _MAIN and words) or len(words) == _REACH:
                break
            end += 1
            if compared(w) and w not in AUX:
                words.append(w)
        out.append((stem(toks[i - 1]), words, " ".join(toks[i - 1:end])))
    return out
