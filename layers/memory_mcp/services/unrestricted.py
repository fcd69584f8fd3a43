"""A rule said of more than the stored one keeps to itself: "the 4 m tents are for kids'
sleepovers **and weddings**" / "… for kids' sleepovers **only**", "reviews **every will**" /
"reviews **any will involving a trust**", "traders with a **4- or 5-star** rating" / "only
traders with a **5-star** rating".

Split from ``widened``, which reads a request naming both kinds of a thing or any place; these
read a stored restriction ("only", "involving", one number) that the request drops or adds an
alternative to.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Words after "and" that add no thing ("LS6 and LS7 **and nowhere else**").
_NO_THING = frozenset(["nowhere", "else", "elsewhere", "nothing", "none", "no"])


def only_one_added(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("sleepovers and weddings", "sleepovers only") where one text keeps a thing to itself
    with "only" ("the 4 m tents are for kids' sleepovers **only**") and the other, with no
    "only", joins it with a thing the first never names ("… for kids' sleepovers **and
    weddings**", the two-hundred-and-nineteenth set): a wider rule. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if any("only" in t for t in x.tokens) or "only" not in y.tokens:
            continue  # "motorhome-only" says it too
        others = next((" ".join(x.tokens[i:i + 3]) for i in range(len(x.tokens) - 1)
                       if x.tokens[i] in ("all", "every", "any") and "other" in x.tokens[i + 1:i + 3]),
                      None)  # "… and **all the other** flavours" / "… only" (the 242nd set)
        if others is not None:
            return ("only", others) if flip else (others, "only")
        toks, theirs = y.tokens, {stem(t) for t in y.tokens}
        kept = {stem(toks[i - 1]) for i, t in enumerate(toks) if t == "only" and i
                and content_word(toks[i - 1])} | {stem(w) for i, t in enumerate(toks)
                                                   if t == "only" for w in toks[i + 1:i + 3]
                                                   if content_word(w)}
        for i in range(1, len(x.tokens) - 1):
            one, join, two = x.tokens[i - 1:i + 2]
            if join not in ("and", "or") or not (content_word(one) and content_word(two)):
                continue
            # a list's earlier item, its comma lost: "wheelchair **users**, cyclists and
            # passengers" / "wheelchair users only" (the two-hundred-and-thirty-sixth set)
            before = x.tokens[i - 2] if i > 1 and content_word(x.tokens[i - 2]) else one
            for mine, added in ((one, two), (two, one), (before, two)):
                if stem(mine) in kept and stem(added) not in theirs and added not in _NO_THING:
                    found = f"{one} {join} {two}", f"{mine} only"
                    return (found[1], found[0]) if flip else found
    return None


#: Words after "any <thing>" that restrict which: "any will **involving** a trust".
_RESTRICTING = frozenset(["involving", "that", "which", "who", "where", "containing",
                          "needing", "requiring", "over", "under", "above", "below",
                          # "all lanyards **sold to** hospitals" (the 259th set)
                          "sold", "shipped", "sent", "supplied", "delivered", "issued",
                          "booked", "ordered", "bought", "made"])


def unrestricted(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the stored text restricts "any" / "every" / "all" of a
    thing ("reviews **any will involving a trust** or overseas assets") and the request says
    every one of it without that restriction ("reviews **every will** before it is sent", the
    two-hundred-and-forty-sixth set). Else None."""
    for i in range(len(b.tokens) - 3):
        q, thing, word = b.tokens[i:i + 3]
        what = next((w for w in b.tokens[i + 3:i + 6] if content_word(w)), "")
        if q not in _EVERY or word not in _RESTRICTING or not thing.isalpha() \
                or thing in DETERMINERS \
                or not what or stem(what) in a.stems:
            continue
        for j in range(len(a.tokens) - 1):
            if a.tokens[j] in _EVERY and stem(a.tokens[j + 1]) == stem(thing) \
                    and not set(a.tokens[j + 2:j + 3]) & _NARROWING:  # "any tray **with**
                # nuts" / "every tray **that** contains nuts": restricted in both
                return " ".join(a.tokens[j:j + 2]), f"{q} {thing} {word} … {what}"
    return None


_EVERY = frozenset(["any", "every", "all", "each"])
_NARROWING = _RESTRICTING | {"with", "in", "of", "for", "from", "on", "at", "to", "whose"}


def another_alternative(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("4 or 5-star", "only … 5-star") where the request joins a number the stored text
    never says to one it does with "or", and the stored text says "only": "traders with a
    **4- or 5-star** hygiene rating may use the prep kitchen" / "**Only** traders with a
    **5-star** hygiene rating may …" (the 365th set). A wider rule, read from the request's
    side. Else None."""
    if "only" not in b.tokens:
        return None
    toks = a.tokens
    for i in range(1, len(toks) - 1):
        if toks[i] != "or":
            continue
        first, second = number(toks[i - 1]), number(toks[i + 1].split("-")[0])
        if first is not None and second is not None and first not in b.numbers \
                and second in b.numbers and first != second:
            return f"{toks[i - 1]} or {toks[i + 1]}", f"only … {toks[i + 1]}"
    return None
