"""Numbers said in several words, written as one: "twenty-five euros" is "25 euros", "a
hundred and twenty" is 120, "two thousand five hundred" 2500, "two and a half tonnes" 2.5
tonnes, "at half six" 6:30.

The rules read a number per token, so "five hundred kilometres" was a 5 and a hundred
kilometres (100,000 m) against a stored "500 km", and every such rewording was refused as
another number: 124 of the refused rewordings over the first 112 forget sets had a number the
rules read apart (bench/forget_quality.py). Rewritten once here, with the short forms
(``short_forms.expand``), every rule reads the one value.
"""

from __future__ import annotations

from memory_mcp.services.lexicon import CARDINALS

#: Number words read as parts of a compound: one to ninety-nine.
_SMALL = {w: v for w, v in CARDINALS.items() if v < 100}
_TENS = {w: v for w, v in _SMALL.items() if v >= 20 and v % 10 == 0}
_UNITS = {w: v for w, v in _SMALL.items() if v < 10}
_SCALES = {"hundred": 100, "thousand": 1000}
#: Fractions said after "and a": "two and a half", "eight and a quarter".
_FRACTIONS = {"half": 0.5, "quarter": 0.25}
#: Words that may follow "half <hour>" said as a clock time ("at half six **to** eight").
_AFTER_CLOCK = frozenset(["to", "till", "until", "and", "-", "\u2013", "on", "in", "at", "pm",
                          "am", "o'clock", "every", "each", "tonight", "sharp"])
_BEFORE_CLOCK = frozenset(["at", "by", "from", "till", "until", "to", "around", "about",
                           "before", "after", "-", "\u2013"])


def compound(tokens: list[str]) -> list[str]:
    """``tokens`` with each number said in several words written as digits."""
    if not any((low := t.lower()) in _SCALES or low in _FRACTIONS or low in _TENS or "-" in low
               or _plural(low) is not None or (low[:1].isdigit() and low.endswith("s"))
               for t in tokens):
        return tokens
    out: list[str] = []
    i = 0
    while i < len(tokens):
        read = _grouped(tokens, i) or _phrase(tokens, i) or _half_past(tokens, i)
        if read is None:
            out.append(tokens[i])
            i += 1
            continue
        value, end = read
        out.append(value)
        i = end
    return out


def _small(low: str) -> int | None:
    """1-99 said as one word: "seven", "forty", "twenty-five"."""
    if low in _SMALL:
        return _SMALL[low]
    tens, _, unit = low.partition("-")
    if tens in _TENS and unit in _UNITS:
        return _TENS[tens] + _UNITS[unit]
    return None


def _phrase(tokens: list[str], i: int) -> tuple[str, int] | None:
    """(the digits, the end) of a number of several words at ``i``, or None for one word."""
    low = [t.lower() for t in tokens[i:i + 9]]
    total = current = 0
    j = 0
    if low[0] in ("a", "an") and low[1:2] and low[1] in _SCALES:
        current, j = 1, 1
    scaled = False
    while j < len(low):
        w = low[j]
        small = _small(w)
        if small is not None and (current % 100 == 0 or (current % 100 in _TENS.values()
                                                          and small < 10 and "-" not in w)):
            current += small
        elif w in _SCALES and (current or total):
            if w == "thousand":
                total, current = (total + (current or 1)) * 1000, 0
            else:
                current = (current or 1) * 100
            scaled = True
        elif w == "and" and scaled and j + 1 < len(low) and _small(low[j + 1]) is not None:
            pass  # "a hundred **and** twenty"
        else:
            break
        j += 1
    value = total + current
    words = j
    if words and low[words:words + 2] in (["and", "a"], ["and", "an"]) \
            and low[words + 2:words + 3] and low[words + 2] in _FRACTIONS:
        fraction = _FRACTIONS[low[words + 2]]
        return f"{value + fraction:g}", i + words + 3  # "two and a half tonnes"
    if words >= 2 or (words == 1 and "-" in low[0] and _small(low[0]) is not None):
        return (f"{value:d}", i + words) if value else None
    digits = _digits(low[0])
    if digits is not None and low[1:3] in (["and", "a"], ["and", "an"]) and low[3:4] \
            and low[3] in _FRACTIONS:
        return f"{digits + _FRACTIONS[low[3]]:g}", i + 4  # "2 and a half"
    return None


def _grouped(tokens: list[str], i: int) -> tuple[str, int] | None:
    """(the digits, the end) for a size of group said as a plural after "in" or "into":
    "bundled **in twenties**", "chained in fours", "packed in twenty-fives" (the 428th set:
    "twenties" / "twenty-fives" read as no number at all), and the digits' plural after a
    verb of grouping ("bundled **in 25s**", which otherwise reads as 25 seconds). Not "tens
    of thousands" nor "in their twenties" (an age, which both texts then write alike)."""
    low = tokens[i].lower()
    if not i or tokens[i - 1].lower() not in ("in", "into") \
            or (i + 1 < len(tokens) and tokens[i + 1].lower() == "of"):
        return None
    value = _plural(low)
    if value is None and i > 1 and tokens[i - 2].lower() in _GROUPING \
            and low.endswith("s") and low[:-1].isdigit() and len(low) < 6:
        value = int(low[:-1])
    return (f"{value:d}", i + 1) if value is not None else None


#: Verbs after which "in 25s" is a size of group, not 25 seconds.
_GROUPING = frozenset("""bundled packed sold stacked chained boxed tied grouped counted batched
bagged wrapped supplied shipped ordered sorted issued bought stored kept come comes sent""".split())  # noqa: SIM905


def _plural(low: str) -> int | None:
    """The value of a plural number word ("twenties", "fives", "twenty-fives"), or None."""
    if not low.endswith("s"):
        return None
    return _small(low[:-3] + "y" if low.endswith("ies") else low[:-1])


def _digits(low: str) -> int | None:
    return int(low) if low.isdigit() and len(low) < 7 else None


def _half_past(tokens: list[str], i: int) -> tuple[str, int] | None:
    """("6:30", the end) for the British "half six" after "at", "from", … or before "to",
    "till", …: half past the hour. Not "half a day", "half six-packs" nor "the half"."""
    if tokens[i].lower() != "half" or i + 1 >= len(tokens):
        return None
    hour = _small(tokens[i + 1].lower()) or _digits(tokens[i + 1])
    if hour is None or not 1 <= hour <= 12:
        return None
    before = tokens[i - 1].lower() if i else ""
    after = tokens[i + 2].lower() if i + 2 < len(tokens) else ""
    if before in _BEFORE_CLOCK or after in _AFTER_CLOCK:
        return f"{hour}:30", i + 2
    return None
