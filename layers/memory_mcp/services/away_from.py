"""A thing turned away from what the other text turns it to: riggers "**facing away from** the
wall" / "**facing** the wall" (the 467th set), a camera "pointing away from the door" /
"pointing at the door".

Every word of the shorter text is in the longer one, so no word rule sees a change; "away"
is a stop word. What changed is the direction of the same verb towards the same thing.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word

#: Words between the verb and its thing that keep the direction ("facing **towards** the
#: wall", "pointing **at** the door").
_TOWARDS = frozenset(["the", "a", "an", "towards", "toward", "to", "at", "into", "onto"])


def turned_away(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says "<verb> away from <thing>" and the other,
    saying no "away", "<verb> [towards] <thing>" with the same verb and thing, or "in
    <thing>". Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if "away" in y.tokens:
            continue
        for verb, thing in _away(x.tokens):
            if _towards(y.tokens, verb, thing) or _inside(y.tokens, thing):
                found = f"{verb} away from {thing}", f"{verb} {thing}"
                return (found[1], found[0]) if flip else found
    return None


def _away(toks: tuple[str, ...]) -> list[tuple[str, str]]:
    """(verb, thing) for each "<verb> away from [the] <thing>"."""
    out = []
    for i in range(1, len(toks) - 2):
        if toks[i] == "away" and toks[i + 1] == "from" and content_word(toks[i - 1]):
            thing = next((w for w in toks[i + 2:i + 4] if content_word(w)), None)
            if thing is not None:
                out.append((toks[i - 1], thing))
    return out


def _towards(toks: tuple[str, ...], verb: str, thing: str) -> bool:
    """Whether the text says the verb, then (past direction words) the thing."""
    for i, t in enumerate(toks):
        if t == verb:
            j = i + 1
            while j < len(toks) and toks[j] in _TOWARDS:
                j += 1
            if j < len(toks) and toks[j] == thing:
                return True
    return False


def _inside(toks: tuple[str, ...], thing: str) -> bool:
    """Whether the text puts something "in" or "under" the thing: "stored … **in direct
    sunlight**" / "… **away from direct sunlight**" (the 469th set)."""
    return any(t in ("in", "under", "into") and toks[i + 1:i + 2] == (thing,)
               for i, t in enumerate(toks[:-1]))
