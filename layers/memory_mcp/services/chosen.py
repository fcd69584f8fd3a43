"""The thing chosen and the one passed over, or the step first and the step after, changed
places: "render jobs are **submitted during the day rather than queued overnight**" / "…
**queued overnight** … **rather than submitted during the day**" (the hundred-and-thirtieth
set), "a 5 km run **followed by** 90 minutes on the Wattbike" / "90 minutes on the Wattbike
followed by a 5 km run" (the 329th).

Split from ``crossed_pairs`` when the order's "followed by" joined the choice's "rather
than": each reads the few content words either side of one joining phrase.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PREPOSITIONS
from memory_mcp.services.stems import content_word, stem


def swapped_choice(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("X rather than Y", "Y rather than X"): the thing chosen and the one passed over
    changed places ("render jobs are **submitted during the day rather than queued
    overnight**" / "… **queued overnight** … **rather than submitted during the day**", the
    hundred-and-thirtieth set). Each side is the content words within a few words of the
    "rather than" or "instead of"; each text's chosen words are the other's passed-over ones,
    and none is on the same side in both. Else None."""
    sides_a, sides_b = _choices(a.tokens), _choices(b.tokens)
    if sides_a is None or sides_b is None or (sides_a[2] == _FOLLOWED) != (
            sides_b[2] == _FOLLOWED):
        return None  # an order ("followed by") is not a choice ("rather than")
    (chosen_a, passed_a, join), (chosen_b, passed_b, _) = sides_a, sides_b
    if chosen_a & passed_b and passed_a & chosen_b \
            and not (chosen_a & chosen_b or passed_a & passed_b):
        first, second = (_said(a.tokens, min(chosen_a & passed_b)),
                         _said(a.tokens, min(passed_a & chosen_b)))
        return f"{first} {join} {second}", f"{second} {join} {first}"
    return None


def _said(toks: tuple[str, ...], stemmed: str) -> str:
    """The text's first word of that stem, as a conflict shows it ("minutes", not "minut")."""
    return next((t for t in toks if stem(t) == stemmed), stemmed)


_CHOICE_SPAN = 6  # words each side: "washout booth in Room P12, **never** in the sinks in P10"


_FOLLOWED = "followed by"


def _choices(toks: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str], str] | None:
    """The content stems just before and just after a text's one "rather than", "instead of"
    or "never" ("reclaimed in the P10 sinks and **never** in the P12 washout booth", the 134th
    set), or "followed by" ("a 5 km run **followed by** 90 minutes on the Wattbike" / "90
    minutes on the Wattbike followed by a 5 km run", the 329th), and the joining words; or
    None (none, or more than one)."""
    at = [(i, 2) for i in range(len(toks) - 1)
          if (toks[i], toks[i + 1]) in (("rather", "than"), ("instead", "of"),
                                        ("followed", "by"))] \
        + [(i, 1) for i, t in enumerate(toks[:-1]) if t == "never" and i > 0
           and toks[i + 1] in PREPOSITIONS and toks[i + 1] != "to"]  # "never **in** the
    # sinks", "never **by** the on-call engineer"; not a verb's "never posts", "never to be"
    if len(at) != 1:
        return None
    i, width = at[0]
    before = toks[max(0, i - _CHOICE_SPAN):i]
    after = toks[i + width:i + width + _CHOICE_SPAN]
    chosen = frozenset(stem(t) for t in before if content_word(t))
    passed = frozenset(stem(t) for t in after if content_word(t))
    join = " ".join(toks[i:i + width]) if width == 2 and toks[i] == "followed" \
        else "rather than"
    return chosen - passed, passed - chosen, join  # a word on both sides tells neither apart
