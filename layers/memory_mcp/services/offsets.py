"""The same amount added or taken off: "siblings pay **50% extra** for the second place" /
"siblings get **50% off** the second place", "trade customers pay **10% extra** on labour" /
"… get **10% off** labour" (the 352nd and 353rd sets).

The lexicon pairs whole words ("surcharge" / "discount"); here the word that says which way
the amount goes stands right after the amount, and the amount is the same in both texts, so
it is the one value the two facts give opposite signs.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.numerals import number

#: Words after an amount that add it, and words that take it off.
_ADDED = frozenset(["extra", "more", "surcharge", "added", "on top"])
_TAKEN = frozenset(["off", "discount", "less", "cheaper", "reduction"])
#: Verbs that add the amount after them to a price: "**adds** €2 to every glass".
_ADDS = frozenset(["add", "adds", "added", "adding"])


def extra_or_off(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """(a's words, b's words, False) where one text puts an amount before a word that adds
    it and the other puts the same amount before one that takes it off. Else None."""
    signs_a, signs_b = _signs(a.tokens), _signs(b.tokens)
    for value, (sign, shown) in signs_a.items():
        other = signs_b.get(value)
        if other is not None and other[0] != sign:
            return shown, other[1], False
    return None


def _signs(toks: tuple[str, ...]) -> dict[float, tuple[bool, str]]:
    """Amount → (whether it is added, the words as written), for each amount a text says
    "extra" or "off" after; an amount said both ways is left out."""
    out: dict[float, tuple[bool, str]] = {}
    both: set[float] = set()
    for i, t in enumerate(toks[:-1]):
        value = number(t.rstrip("%"))
        nxt = toks[i + 1]
        adds = i > 0 and toks[i - 1] in _ADDS and nxt in ("to", "onto")  # "happy hour **adds
        # €2 to** every glass" / "… with €2 off every glass" (the 362nd set)
        if value is None or not (nxt in _ADDED or nxt in _TAKEN or adds):
            continue
        sign = adds or nxt in _ADDED
        if value in out and out[value][0] != sign:
            both.add(value)
        out.setdefault(value, (sign, f"{toks[i - 1]} {t} {nxt}" if adds else f"{t} {nxt}"))
    return {v: s for v, s in out.items() if v not in both}
