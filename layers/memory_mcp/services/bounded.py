"""A bound only the request sets: "cruising mainsails **over 40 feet** get three reef points" /
"cruising mainsails get three reef points" (the twentieth set), "each team fields **at least 6
players**" / "each team fields 6 players" (the 208th).

A narrower or bounded request is another fact, read from the request's side as the other added
conditions are (``conditions``); apart from them because a bound is a value's, read from
``facets.bounds``, not from a clause.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import MEASURES, MONTHS, UNIT_DAYS, UNIT_SYMBOLS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word


def added_bound(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's bound, "") where the request bounds an amount the stored text has no bound or
    number for: "cruising mainsails **over 40 feet** get three reef points" / "cruising
    mainsails get three reef points" (the twentieth set). The narrower rule is another fact;
    read from the request's side, as ``narrowed`` is."""
    theirs = {(kind, w) for kind, at in b.bounds for w in b.tokens[at + 1:at + 4]
              if number(w) is not None}
    for kind, at in a.bounds:
        after = [w for w in a.tokens[at + 1:at + 4] if number(w) is not None]
        if b.bounds and not (after and after[0].endswith("%") and (kind, after[0]) not in theirs):
            continue  # a stored bound of its own: the bounds rule's ("under 48 hours" in
            # both, and "**up to 50%**" / "a 50% surcharge" the request's alone, the 263rd set)
        timed = any(w in UNIT_DAYS or w in ("half", "quarter") for w in a.tokens[at + 1:at + 5])
        if timed and (kind not in ("max", "min") or not after
                      or not _bare_count(a.tokens, at, after[0], b.tokens)):
            continue  # "in under half an hour" / "within 30 minutes": the durations rule's;
            # "kept for **no more than** 3 years" / "kept for 3 years" is a limit's (the 245th)
        if after and (number(after[0]) not in b.numbers or (
                kind in ("min", "max") and _bare_count(a.tokens, at, after[0], b.tokens))):
            return " ".join(a.tokens[at:a.tokens.index(after[0], at) + 2]), ""
    return None


def _bare_count(ta: tuple[str, ...], at: int, n: str, tb: tuple[str, ...]) -> bool:
    """Whether the stored text counts the same thing with ``n`` and says nothing of a limit
    around it: "fields **at least 6 players** per match" / "fields 6 players per match" (the
    208th set), "**no more than 12 tins** … a month" / "12 tins a month". A measure is left
    out ("brought **up to 200 °C**" heats, it bounds nothing), and so is a stored text with a
    limit of its own words near the number ("a **speed limit** … of 8 km/h", "925 parts per
    thousand **or higher**", "**only** one trial class")."""
    i = ta.index(n, at)
    if n.endswith("%"):  # a share is counted, not heated: "a surcharge of **up to 50%**" /
        # "a 50% surcharge" (the two-hundred-and-sixty-third set)
        return any(t == n and not _limited(tb, max(0, j - _NEAR), j)
                   and not _limited(tb, j + 1, min(j + _NEAR, len(tb))) for j, t in enumerate(tb))
    counted = ta[i + 1] if i + 1 < len(ta) else ""
    if not counted and at > 1:  # the amount ends the request: "printed in **batches of** at
        # least 2,000" / "… in batches of 2,000 (order ref …)" (the 241st set)
        lead = ta[at - 2:at]
        return any(tb[j - 2:j] == lead and not _limited(tb, max(0, j - 6), j)
                   and not _limited(tb, j + 1, min(j + 6, len(tb)))
                   for j, t in enumerate(tb) if t == n and j > 1)
    if not counted.isalpha() or not content_word(counted) or counted in MEASURES \
            or counted in UNIT_SYMBOLS or counted in MONTHS:
        return False
    for j in (j for j, t in enumerate(tb[:-1]) if t == n and tb[j + 1] == counted):
        nxt = next((k for k in range(j + 1, min(j + 6, len(tb))) if tb[k][:1].isdigit()),
                   min(j + 6, len(tb)))  # to the next figure: "two witnesses aged 16 or over"
        if not _limited(tb, max(0, j - 6), j) and not _limited(tb, j + 1, nxt):
            return True
    return False


#: Words either side of a share a limit of its own may stand in ("**at most** 50%").
_NEAR = 2
_LIMITS = frozenset("""limit limits limited max maximum min minimum cap capped quota only higher
lower more less fewer least most exceed exceeds""".split())  # noqa: SIM905

#: Words that bound only beside "or" or a figure ("16 **or over**", "**up to** 40"): "driven
#: **over** from the Truro bakery" is a journey (the two-hundred-and-thirty-fourth set).
_BESIDE = frozenset(("over", "under", "above", "below", "up"))


def _limited(t: tuple[str, ...], start: int, end: int) -> bool:
    """Whether ``t[start:end]`` holds a limit's words next to the stored number."""
    return any(w in _LIMITS or (w in _BESIDE and (t[k - 1:k] == ("or",) or (
        t[k + 1:k + 2] and (t[k + 1] in ("to", "than") or number(t[k + 1]) is not None))))
        for k, w in ((k, t[k]) for k in range(start, end)))


#: Words that lift any limit: "as many hammers **as they like**", "**unlimited** refills".
_NO_LIMIT = (("as", "many"), ("as", "much"), ("unlimited",), ("no", "limit"), ("no", "cap"))


def unbounded(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """(a's words, b's words, False: a value) where one text sets no limit ("members can sign
    out **as many** Estwing hammers as they like") and the other an upper one ("… **at most
    2** per member", the two-hundred-and-thirtieth set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        free = next((" ".join(p) for i in range(len(x.tokens)) for p in _NO_LIMIT
                     if x.tokens[i:i + len(p)] == p and (p[0] != "as" or _as_wished(
                         x.tokens[i + 2:i + 8]))), None)
        capped = next((at for kind, at in y.bounds if kind == "max"), None)
        if free is None or capped is None or any(kind == "max" for kind, _ in x.bounds):
            continue
        found = free, " ".join(y.tokens[capped:capped + 3])
        return (found[1], found[0], False) if flip else (*found, False)
    return None


#: Words after "as many … as" that leave the amount to the one choosing: "as many hammers as
#: **they like**", not "as many as **four** toys" or "as much as **a** week".
_WISHED = frozenset("""they you we he she members people needed necessary required possible
like want wish""".split())  # noqa: SIM905


def _as_wished(after: tuple[str, ...]) -> bool:
    """Whether the words after "as many" / "as much" close with "as <someone or needed>"."""
    return any(w == "as" and after[k + 1:k + 2] and after[k + 1] in _WISHED
               for k, w in enumerate(after))
