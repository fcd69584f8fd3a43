"""Who deals with us: "Bywell Clays order pallets of 7,200 clays **from us**" / "Clays are
ordered **from Bywell Clays**", "Dan Holloway invoices **us** monthly" / "team restrings are
invoiced monthly **to** their treasurer, Dan Holloway".

A stored note is often written without a "we" ("Clays are ordered from Bywell Clays"); the
request's "us" then says which way the goods or the money go. When the thing the request
opens with is, in the stored text, where things come from or go to, the two say the relation
the other way round (the sixty-second and seventy-second sets). A stored text with its own
"we", "us" or "our" is left to the order rules (``turned``), which read both sides.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.direction import SENDS
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import CLAUSE_BREAKS
from memory_mcp.services.stems import content_word, stem

_US = frozenset(["we", "us", "our", "ours", "ourselves"])
#: Words after which a text names where things come from or go to.
_ENDS = frozenset(["from", "to"])
#: The words read after such a word ("to **their treasurer**, Dan Holloway").
_REACH = 3
#: The words of the thing a text opens with that are read.
_OPENING = 3


def us_turned(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text deals with "us" in its first clause and opens
    with a thing that the other, which has no "we" of its own, names after "from" or "to"; or
    None. A later clause's "us" ("the data centre mirrors the archive **and** returns
    climatologies **to us**") is another relation's."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        at = _party(x.tokens)
        if at is None or _US & set(y.tokens):
            continue
        first = x.tokens[:at]
        if CLAUSE_BREAKS & set(first):
            continue
        ends = _ends(y.tokens)
        shared = [w for w in first if content_word(w)][:_OPENING]
        for word in shared:
            if stem(word) in ends:
                mine, theirs = f"{word} … us", f"{ends[stem(word)]} {word}"
                return (theirs, mine) if flip else (mine, theirs)
    return _we_or_us(a, b)


def _we_or_us(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("we pay", "pay us") where one text sends with "we" and the other has the same
    sending verb take "us", neither text saying it both ways: "**we pay** Lifeline Textiles
    40p per kg" / "Lifeline Textiles … **pay us** 40p per kg" (the 212th set)."""
    we_a, we_b, us_a, us_b = _we(a.tokens), _we(b.tokens), _us(a.tokens), _us(b.tokens)
    for verb in sorted((we_a & us_b) - us_a - we_b):
        return f"we {verb}", f"{verb} us"
    for verb in sorted((us_a & we_b) - we_a - us_b):
        return f"{verb} us", f"we {verb}"
    return None


def _we(toks: tuple[str, ...]) -> set[str]:
    """The sending verbs said right after "we" ("**we pay** …")."""
    return {stem(t) for u, t in pairwise(toks) if u == "we"} & SENDS


def _us(toks: tuple[str, ...]) -> set[str]:
    """The sending verbs said right before "us" ("they **pay us** …")."""
    return {stem(t) for t, u in pairwise(toks) if u == "us"} & SENDS


def _party(toks: tuple[str, ...]) -> int | None:
    """Where the text first names us as a party: "us", or "our" after "to" or "from" ("reports
    every outbreak **to our** infection control team"; the ninety-sixth set)."""
    return next((i for i, t in enumerate(toks) if t == "us" or (
        t == "our" and i and toks[i - 1] in _ENDS)), None)


def _ends(toks: tuple[str, ...]) -> dict[str, str]:
    """The stems of the content words named just after "from" or "to", with that word."""
    out: dict[str, str] = {}
    for i, t in enumerate(toks):
        if t in _ENDS:
            for w in toks[i + 1:i + 1 + _REACH]:
                if content_word(w):
                    out.setdefault(stem(w), t)
    return out
