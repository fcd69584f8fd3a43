"""A condition met by someone else: "refundable only if **the buyer** cancels" / "refundable only
if **we** cancel" (the 411th set).

Both texts say the same condition word after the same word and the same verb after it; what
differs is who does it, and one of the two is the team itself ("we", "I"). A condition on the
team's own act and one on another party's are two rules. A pronoun that only refers back ("if
**they** cancel" for "if the customer cancels") is not the team, and agrees.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, SLOT_TOKENS
from memory_mcp.services.stems import content_word, stem

_IF = frozenset(["if", "unless", "when", "once", "until"])
_US = frozenset(["we", "i"])
_SUBJECT = 3  # words of the subject between the condition word and its verb


def other_party(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) for the same condition with another doer, one of them the
    team; else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    ta, tb = a.tokens, b.tokens
    for i in range(1, len(ta)):
        if ta[i] not in _IF:
            continue
        for j in range(1, len(tb)):
            if tb[j] != ta[i] or tb[j - 1] != ta[i - 1]:
                continue
            found = _subjects(ta, i, tb, j)
            if found is not None:
                return found
    return None


def _subjects(ta: tuple[str, ...], i: int, tb: tuple[str, ...],
              j: int) -> tuple[str, str] | None:
    for k in range(i + 2, min(i + 2 + _SUBJECT, len(ta))):
        for m in range(j + 2, min(j + 2 + _SUBJECT, len(tb))):
            if not content_word(ta[k]) or stem(ta[k]) != stem(tb[m]):
                continue
            mine = [w for w in ta[i + 1:k] if w not in DETERMINERS]
            theirs = [w for w in tb[j + 1:m] if w not in DETERMINERS]
            if mine and theirs and (bool(set(mine) & _US) != bool(set(theirs) & _US)) \
                    and not {stem(w) for w in mine} & {stem(w) for w in theirs}:
                return f"{ta[i]} {' '.join(mine)} {ta[k]}", f"{tb[j]} {' '.join(theirs)} {tb[m]}"
            return None
    return None
