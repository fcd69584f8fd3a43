"""A kind of a thing a request's "only" keeps a fact to: "**only first-time** customers pay a
50 % deposit" is not "customers pay a 50 % deposit" (the two-hundred-and-eighty-third set).

Apart from ``widened``, which reads a universal or an "only" against a list or a place, and
``conditions``, which reads an "only" phrase of which the other text has no word at all: here
the stored text has the thing itself, just not the words that narrow it, so it holds the fact
of every such thing. ``listing.only_narrowed`` reads the thing after "only" and a preposition
or an article ("only from the Manchester arcade sites"); this, the kind right after "only".
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, predicates
from memory_mcp.services.stems import content_word, part_stems, stem
from memory_mcp.services.word_pool import parts_pool

#: Content words read after the "only": the kind's words and its thing.
_REACH = 3


def only_modified(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only first-time customers", "customers") where the request ``a`` keeps a fact to a
    kind of a thing with "only" and the stored ``b``, with no "only", names the thing without
    any word of the kind. Only the request's "only" is read: a stored one often stands before
    its verb ("the crew **only clears** gullies on the list" / "… clears the listed gullies").
    Else None."""
    if any("only" in t for t in b.tokens):
        return None
    found, verbs, toks = parts_pool(b), predicates(a), a.tokens
    for i, t in enumerate(toks[:-2]):
        if t != "only" or (i and toks[i - 1] == "not"):
            continue
        start = i + 1 + (toks[i + 1] in DETERMINERS)
        words: list[str] = []
        for k in range(start, min(start + _REACH, len(toks))):
            if k in verbs or not content_word(toks[k]):
                break
            words.append(toks[k])
        # the thing is the first word after the kind that the stored text names ("only
        # first-time **customers** pay": "pay" may be read as a noun too)
        head = next((j for j in range(1, len(words)) if stem(words[j]) in b.stems), None)
        if head is None:
            continue
        kind = words[:head]
        if any(w.endswith("s") and not w.endswith("ss") for w in kind):
            continue  # "only **uses** lanes 1 and 3": a verb, not a kind
        if any(p in b.stems or found.has(p, 0.75) for w in kind for p in part_stems(w)):
            continue
        return " ".join(["only", *words[:head + 1]]), words[head]
    return None
