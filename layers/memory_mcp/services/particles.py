"""Opposite particles after the same word: "hot food trays sent **down** in DW-2" / "… sent
**up** in DW-2", "tanker GT-09 is back **on** the road" / "… is **off** the road" (the
two-hundred-and-fortieth set); and opposite words before the same hyphenated word:
"**heat**-stabilised" / "**cold**-stabilised" (the two-hundred-and-forty-eighth).

The lexicon of ``opposite_words`` pairs whole words; "up" and "down", "in" and "out", "on"
and "off" are too common to pair anywhere, so they are read only where the word before them
(a verb: "sent up") or the two after them ("on the road") are the same in both texts, and
each text says its particle there and not the other's.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import COPULAS, DETERMINERS
from memory_mcp.services.opposite_words import other_side
from memory_mcp.services.stems import content_word, stem

#: Words before a particle that make it a state's: "back **on** the road", "stays **in** the
#: van".
_STATES = frozenset(["back", "stays", "stay", "remains", "remain", "kept", "left"])
#: Words between a thing and the state it is set to: "with the extractor **switched** off".
_SET = frozenset(["switched", "turned", "left", "kept", "set", "powered"])
#: Words before a bare verb: "must shower in".
_BARE = frozenset((w,) for w in ["must", "should", "can", "will", "may", "to"])
_PAIRS = {"up": "down", "down": "up", "in": "out", "out": "in", "on": "off", "off": "on"}


def particle_opposed(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """(a's words, b's words, True: a state) where the same verb takes opposite particles or
    opposite particles open the same place, neither text saying the other's there too. Else
    None."""
    ka, kb = _keys(a.tokens), _keys(b.tokens)
    for key, said in ka.items():
        theirs = kb.get(key, set())
        for particle in sorted(said - theirs):
            other = _PAIRS[particle]
            if other in theirs and other not in said:
                return _show(key, particle), _show(key, other), True
    return None


def compound_opposed(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """(a's word, b's word, True) where each text writes one compound ("heat-stabilised" /
    "cold-stabilised") whose first parts are the two sides of one opposite pair and whose last
    parts agree, neither text saying the other's first part. Else None: the lexicon reads whole
    words, and a compound hides its opposite inside."""
    mine, theirs = set(a.tokens) - set(b.tokens), set(b.tokens) - set(a.tokens)
    for x in sorted(w for w in mine if w.count("-") == 1):
        hx, tx = x.split("-")
        for y in sorted(w for w in theirs if w.count("-") == 1):
            hy, ty = y.split("-")
            if tx == ty and other_side(hx, hy) and hx not in b.tokens and hy not in a.tokens:
                return x, y, True
    return None


def _show(key: tuple[str, str], particle: str) -> str:
    if key[0] == "with":
        return f"with the {key[1]} {particle}"
    return f"{key[1]} {particle}" if key[0] == "after" else f"{particle} {key[1]}"


def _keys(toks: tuple[str, ...]) -> dict[tuple[str, str], set[str]]:
    """("after", verb stem) or ("before", "the road") → the particles said there."""
    out: dict[tuple[str, str], set[str]] = {}
    for i, t in enumerate(toks):
        if t not in _PAIRS:
            continue
        prev = toks[i - 1] if i else ""
        if prev == "back" and i >= 2:  # "boxes are logged **back in**" / "… logged **out**"
            prev = toks[i - 2]  # (the 523rd set): back again, the same way in
        if prev and content_word(prev) and prev.isalpha() and (prev.endswith(("ed", "s", "t"))
                                                              or toks[i - 2:i - 1] in _BARE):
            # "visitors must shower **in**" / "… must shower **out**" (the 326th set): a bare
            # verb after a modal
            out.setdefault(("after", stem(prev)), set()).add(t)
        after = toks[i + 1:i + 3]
        if len(after) == 2 and after[0] in DETERMINERS and content_word(after[1]) \
                and (prev in COPULAS or prev in _STATES):  # "is **off** the road", not
            # "turn **off** the home straight irrigation"
            out.setdefault(("before", " ".join(after)), set()).add(t)
        j = i - 2 if prev in _SET else i - 1  # "with the extractor (switched) **off**"
        if j >= 2 and toks[j - 2] == "with" and toks[j - 1] in DETERMINERS \
                and content_word(toks[j]) and toks[j].isalpha():  # (the 270th set)
            out.setdefault(("with", stem(toks[j])), set()).add(t)
        if after == ("by", "default") and (prev in _STATES or prev.endswith("ed")):
            # "switched **on** by default" / "left **off** by default" (the 268th set)
            out.setdefault(("before", "by default"), set()).add(t)
    return out
