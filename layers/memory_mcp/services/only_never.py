"""Things kept "only" in one text and ruled out with "never" in the other: "used **for quartz
only, never for wood** or laminate" / "used **for wood and laminate only, never for quartz**"
(the 541st set), and "go **on the old paper forms, not into TravelVax**" / "are entered
**in TravelVax, not on the old paper forms**" (the 549th). Both texts hold the same words, so
every word rule agrees; the thing one text allows is the thing the other forbids.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS
from memory_mcp.services.stems import content_word, stem

#: How far after "never" (and its preposition) the things it rules out may stand.
_REACH = 4


def crossed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where a thing one text keeps "only" is one the other text rules
    out with "never", or the reverse; else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        kept = _kept(x.tokens)
        if not kept:
            continue
        for shown, _, span in _ruled_out(y.tokens):
            hit = _firsts(y.tokens, span) & set(kept)
            if hit:
                found = kept[min(hit)], shown
                return (found[1], found[0]) if flip else found
    return None


def crossed_nots(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where each text rules out with "not" a thing the other says
    plainly: "X, not Y" / "Y, not X"; else None."""
    out_a, out_b = _ruled_out(a.tokens, "not"), _ruled_out(b.tokens, "not")
    if not out_a or not out_b:
        return None
    plain_a, plain_b = _plain(a.tokens, out_a), _plain(b.tokens, out_b)
    for shown_a, stems_a, _ in out_a:
        for shown_b, stems_b, _ in out_b:
            if stems_a & plain_b and stems_b & plain_a and not stems_a & stems_b:
                return shown_a, shown_b
    return None


def _firsts(toks: tuple[str, ...], span: range) -> set[str]:
    """The stems of the first word of each thing a ruled-out phrase lists: "never for **wood**
    or **laminate**", not "never on the old manual **changer**" (the 480th set: "the Corghi
    Artiglio changer only" is another changer)."""
    out, first = set(), True
    for k in span[2:]:
        if toks[k] in ("or", "and"):
            first = True
        elif content_word(toks[k]) and first:
            out.add(stem(toks[k]))
            first = False
    return out


def _plain(toks: tuple[str, ...], ruled: list[tuple[str, frozenset[str], range]]
           ) -> frozenset[str]:
    """The stems of the text's content words outside its ruled-out phrases."""
    inside = {k for _, _, span in ruled for k in span}
    return frozenset(stem(t) for k, t in enumerate(toks) if k not in inside and content_word(t))


def _kept(toks: tuple[str, ...]) -> dict[str, str]:
    """The stem of each thing right before an "only" → "<thing> only": "for quartz **only**"."""
    return {stem(toks[i - 1]): f"{toks[i - 1]} only" for i in range(1, len(toks))
            if toks[i] == "only" and content_word(toks[i - 1])
            and (i + 1 == len(toks) or not content_word(toks[i + 1]))}


def _ruled_out(toks: tuple[str, ...], word: str = "never"
               ) -> list[tuple[str, frozenset[str], range]]:
    """("never for quartz", its stems, its span) for each ``word`` before a preposition and its
    things ("not on **the** old paper forms": past a determiner)."""
    out = []
    for i, t in enumerate(toks):
        if t != word or toks[i + 1:i + 2] == () or toks[i + 1] not in PREPOSITIONS:
            continue
        j = i + 2
        while j < len(toks) and toks[j] in DETERMINERS:
            j += 1
        end = j
        while end < min(len(toks), j + _REACH) and (content_word(toks[end])
                                                      or toks[end] in ("or", "and")):
            end += 1
        stems = frozenset(stem(w) for w in toks[j:end] if content_word(w))
        if stems:
            out.append((" ".join(toks[i:end]), stems, range(i, end)))
    return out
