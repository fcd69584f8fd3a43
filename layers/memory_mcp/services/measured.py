"""The units of measure a text's numbers carry (``Facets.units``): "18 **celsius**" / "18
**fahrenheit**", "a **225-litre** barrique", "2 **cubic metres**".

Apart from ``facets.py``, which reads everything else of a text, because a unit is read from
the words around a number in five ways: after it, written into it, after "cubic" or "square",
with a power ("20 m³"), or a scale's name before it ("force 6").
"""

from __future__ import annotations

import re

from memory_mcp.services.lexicon import ABBREVIATIONS, MEASURES, UNIT_SYMBOLS
from memory_mcp.services.numerals import number

#: A number written into a word: "a **35-tonne** limit", "a **4-seat** cabin" (durations,
#: "10-minute", are ``lexicon.COMPACT``'s).
COUNTED = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)-[a-z][a-z-]*")
#: Words that make a length a volume or an area: "2 **cubic** metres" is not "2 tonnes", and
#: not "2 metres" either (the 309th set).
_POWERS = {"cubic": "cubic", "square": "square", "sq": "square"}
#: The same written with a power after the number: "20 **m³**".
_RAISED = {"m3": "cubic-meters", "m\u00b3": "cubic-meters", "m2": "square-meters",
           "m\u00b2": "square-meters"}


#: Scales whose name comes before the number: "**force** 6" is the Beaufort scale, not knots
#: (the 334th set).
_SCALES = {"force": "beaufort", "beaufort": "beaufort"}


#: Hardness scales, each named by a letter after it: "10 **Shore A**", "58 **Rockwell C**".
_HARDNESS = {"shore": frozenset(["a", "d", "o", "00"]), "rockwell": frozenset(["a", "b", "c"])}


def measured_units(lower: list[str]) -> frozenset[str]:
    """The units after a number ("18 celsius"), written into it ("a 225-litre barrique"), or
    after a number and "cubic" / "square" ("2 cubic metres": "cubic-meters")."""
    out = set()
    for i, w in enumerate(lower[1:], 1):
        if lower[i - 1] in _SCALES and number(w) is not None:
            out.add(_SCALES[lower[i - 1]])  # "under **force 6**" / "under 6 knots"
        if number(lower[i - 1]) is None:
            if i > 1 and lower[i - 1] in _POWERS and number(lower[i - 2]) is not None \
                    and (unit := UNIT_SYMBOLS.get(w, w)) in MEASURES:
                out.add(f"{_POWERS[lower[i - 1]]}-{unit}")  # "2 cubic metres"
        elif w in MEASURES:
            out.add(w)
        elif w in _HARDNESS and i + 1 < len(lower) and lower[i + 1] in _HARDNESS[w]:
            out.add(f"{lower[i - 1]} {w} {lower[i + 1]}")  # "20 **Shore D**" / "20 Shore A"
            # (the 441st set): with its number, as one text may say two of a scale
        elif w in _RAISED:  # "20 m³"
            out.add(_RAISED[w])
    return frozenset(out) | _counted_units(lower)


def _counted_units(lower: list[str]) -> frozenset[str]:
    """Units written into their number: "a **225-litre** barrique", "the **600-gram**
    balloons" carry liters and grams as "225 L" and "600 g" do."""
    out = set()
    for w in lower:
        counted = COUNTED.fullmatch(w)
        if counted is not None:
            unit = w[w.index("-") + 1:]
            unit = ABBREVIATIONS.get(unit, UNIT_SYMBOLS.get(unit, unit))
            if unit in MEASURES:
                out.add(unit)
    return frozenset(out)
