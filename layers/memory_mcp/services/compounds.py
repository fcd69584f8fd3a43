"""Where a thing is done, said as the first part of a hyphenated verb: the meters are
"**lab**-calibrated" / "**field**-calibrated" (the 459th set), parts "**factory**-fitted" /
"**site**-fitted".

The word rules read each compound as one word, or as its parts where one part is in the other
text: here the shared part ("calibrated") hides the other. Only settings are read: other first
parts are as often a rewording ("pressure-washed" / "power-washed", "cross-check" /
"double-check": the 32nd, 224th and 254th sets).
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.named_things import text_stems
from memory_mcp.services.stems import stem

#: Where a thing is done, as the first part of a compound; and what it is done with or run on
#: ("**syringe**-fed" / "**bottle**-fed" cubs, the 503rd set; "**oven**-dried" / "**air**-dried",
#: "**gas**-fired" / "**wood**-fired", "**battery**-powered" / "**mains**-powered").
_SETTINGS = frozenset("""lab field factory site shop home office workshop bench mill yard
plant hand machine syringe bottle tube spoon air oven kiln sun freeze tumble spray brush roller
gas wood coal oil electric water battery mains solar diesel petrol steam""".split())  # noqa: SIM905


def other_setting(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's compound, b's compound) where each has a "<setting>-<word>" with the same last
    part and another setting, each setting a word the other text never writes. Else None."""
    mine, theirs = _compounds(a.tokens), _compounds(b.tokens)
    if not mine or not theirs:
        return None
    said_a, said_b = text_stems(a.tokens), text_stems(b.tokens)
    for word, (first, last) in sorted(mine.items()):
        for other, (first_b, last_b) in sorted(theirs.items()):
            if last == last_b and first != first_b and stem(first) not in said_b \
                    and stem(first_b) not in said_a:
                return word, other
    return None


def _compounds(toks: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Each "<setting>-<word>" → (the setting, the stem of the word)."""
    out: dict[str, tuple[str, str]] = {}
    for t in toks:
        parts = t.split("-")
        if len(parts) == 2 and parts[0] in _SETTINGS and parts[1].isalpha():
            out[t] = (parts[0], stem(parts[1]))
    return out
