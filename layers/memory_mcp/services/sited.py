"""Where a rule holds, said before it: "**In St Anne's church hall**, the Allen & Heath QU-16
desk uses scene 4 for brass bands" / "**At the bandstand**, the Allen & Heath QU-16 desk uses
scene 4 …", "**At our pop-up site in Hove** the box office team scans e-tickets at Gate 2" /
"The box office team scans e-tickets at Gate 2" (the hundredth set).

The word sets read a place a sentence opens with as a few words among many, and the swapped-
word rules look for the same words on both sides of one slot; here the slot is the sentence's
start. The same rule at another site, or at a site the stored note never names, is another
fact: the stored rule still holds where it was said.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import MONTHS, TIMES, WEEKDAYS
from memory_mcp.services.stems import content_word, part_stems, stem

#: Prepositions a place opening a sentence starts with.
_PLACE = frozenset(["in", "at", "on", "inside"])
#: At most this many words name the place ("at our pop-up site in Hove").
_PLACE_MAX = 6
#: The words after the place that both texts must share, in order.
_SAME = 4
_WHEN = frozenset([*TIMES, *WEEKDAYS, *MONTHS, "weekends", "weekend", "weekdays", "dawn",
                   "dusk", "sunrise", "sunset", "daytime", "christmas", "easter"])


def opened_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's place, b's place, "(none)" for a text that names none) where a text opens with a
    place and then says what the other text says from its start, or after a place of its own,
    for at least four words; the place's words are nowhere in the other text. Else None."""
    ta, tb = a.tokens, b.tokens
    for ka in _starts(ta):
        for kb in _starts(tb):
            if (ka or kb) and len(ta) >= ka + _SAME and ta[ka:ka + _SAME] == tb[kb:kb + _SAME] \
                    and _unseen(ta[:ka], b) and _unseen(tb[:kb], a):
                return " ".join(ta[:ka]) or "(none)", " ".join(tb[:kb]) or "(none)"
            if ka and kb and _shifted(ta[ka:], tb[kb:]) and _unseen(ta[:ka], b) \
                    and _unseen(tb[:kb], a):  # "in the holding nursery each transplanted
                # tree gets …" / "at customer sites, water each transplanted tree …" (the
                # 453rd set): both open with a place, one word apart after it
                return " ".join(ta[:ka]), " ".join(tb[:kb])
    return None


def _shifted(xs: tuple[str, ...], ys: tuple[str, ...]) -> bool:
    """Whether the words after two places share three, one text a word ahead."""
    n = _SAME - 1
    return len(xs) > n and len(ys) > n and (xs[:n] == ys[1:1 + n] or ys[:n] == xs[1:1 + n])


def _starts(toks: tuple[str, ...]) -> list[int]:
    """Where the text's words after an opening place may start (0: no place)."""
    if not toks or toks[0] not in _PLACE:
        return [0]
    return [0, *range(2, min(_PLACE_MAX, len(toks) - _SAME) + 1)]


def _unseen(words: tuple[str, ...], other: Facets) -> bool:
    """Whether the place's content words (an empty place passes) are all missing from the
    other text, their hyphenated parts too."""
    named = [w for w in words[1:] if content_word(w)]
    if words and (not named or any(w in _WHEN or w[:1].isdigit() for w in named)):
        return False  # "**at night** the kits are locked away": a time, not a place
    stems = {s for t in other.tokens for s in (stem(t), *part_stems(t))}
    return not any(stem(w) in stems or set(part_stems(w)) & stems for w in named)
