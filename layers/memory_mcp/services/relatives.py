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

#: Content words of a clause read, at most, and needed in the two clauses together, at least.
_REACH, _TOGETHER = 5, 3
#: Words that end a "who" clause and go back to the main one: its modal ("… who have paid
#: the subscription **can** borrow").
_MAIN = frozenset(["can", "may", "must", "should", "will", "get", "gets", "pay", "pays"])


def other_who(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's clause, b's clause) where both texts say "<people> who …" of the same people, the
    two clauses share no word, and three of their words are nowhere in the other text. Else
    None. Short texts only, as the other pairwise rules: it compares every "who" of one text
    with every "who" of the other."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    clauses_b = _whos(b.tokens)
    if not clauses_b:
        return None
    pool_a, pool_b = parts_pool(a), parts_pool(b)
    for head, words_a, shown_a, who_a in _whos(a.tokens):
        for other, words_b, shown_b, who_b in clauses_b:
            if other != head or not (words_a and words_b) or not (who_a or who_b) \
                    or len(words_a) + len(words_b) < _TOGETHER:
                continue  # "guests **who have eaten** it here before" / "guests **who sign
                # the heat waiver**": one word of a clause against three (the 335th set)
            lost_a = [w for w in words_a if not pool_b.has(w, 0.75)]
            lost_b = [w for w in words_b if not pool_a.has(w, 0.75)]
            if len(lost_a) + len(lost_b) >= _TOGETHER and lost_a and lost_b \
                    and not {stem(w) for w in words_a} & {stem(w) for w in words_b}:
                return shown_a, shown_b  # a clause's word the other text says in its main
                # clause only is no shared condition ("chilli **heat**" / "the **heat**
                # waiver")
    return None


def _whos(toks: tuple[str, ...]) -> list[tuple[str, list[str], str, bool]]:
    """(the people's stem, the clause's content words, the clause as written, whether it opens
    with "who") for each "<noun> who …" of a text, and each "<noun> with …" before a modal:
    "only volunteers **with a current rabies vaccination** may handle bats" / "only volunteers
    **who have done the handling course** may …" (the 355th set). A "with" clause is read only
    against a "who" clause, as "staff with gloves" / "staff with masks" are things, not a
    condition."""
    out = []
    for i, t in enumerate(toks[1:-1], 1):
        if t != "who" and not (t == "with" and _MAIN & set(toks[i + 1:i + 2 + _REACH])):
            continue
        words: list[str] = []
        end = i + 1
        for w in toks[i + 1:i + 10]:
            if w in CLAUSE_BREAKS or (w in _MAIN and words) or len(words) == _REACH:
                break
            end += 1
            if compared(w) and w not in AUX:
                words.append(w)
        out.append((stem(toks[i - 1]), words, " ".join(toks[i - 1:end]), t == "who"))
    return out
