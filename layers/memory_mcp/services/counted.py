"""What a number counts: "every 100 flight **hours**" and "every 100 flight **cycles**" give
one number for two things, as "a minimum of 40 **tonnes**" and "minimum 40 **sacks**" do.

Found by the fifty-second set's near misses: the texts share every word but the one after the
number, and the word a unit of measure or time is, which the swapped-word rule leaves to the
value rules (``facets.units``, durations), while the other text's word is no unit, so neither
rule saw a difference. Apart from ``values`` because it reads tokens, not facets' values.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory_mcp.services import periods
from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import MEASURES, UNIT_DAYS, UNIT_SYMBOLS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem


def unit_or_count(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("100 hours", "100 cycles") where both texts give one number, one counting a unit of
    measure or time after it and the other a thing the first text never names, while the
    other text has no word of that unit: "every 100 flight **hours**" / "every 100 flight
    **cycles**", "a minimum of 40 **tonnes**" / "minimum 40 **sacks**" (the fifty-second
    set); or two units the value rules did not read ("every 300 operating **days**" / "…
    **hours**"). Two counted things are left alone ("six people" / "six staff")."""
    heads_a, heads_b = _count_words(_apart(a.tokens)), _count_words(_apart(b.tokens))
    for n in sorted(heads_a.keys() & heads_b.keys()):
        for x, y, flip in ((heads_a[n], heads_b[n], False), (heads_b[n], heads_a[n], True)):
            mine, theirs = (a, b) if not flip else (b, a)
            if _is_unit(x) and not _is_unit(y) and y not in _ANY_SCALE \
                    and x not in theirs.tokens and y not in mine.tokens:
                shown = (f"{n:g} {x}", f"{n:g} {y}")
                return (shown[1], shown[0]) if flip else shown
        x, y = heads_a[n], heads_b[n]
        if _is_unit(x) and _is_unit(y) and _measure(x) != _measure(y) \
                and (x not in b.tokens or y not in a.tokens) \
                and (x not in UNIT_DAYS or (x not in b.tokens and y not in a.tokens)):
            return f"{n:g} {x}", f"{n:g} {y}"  # "every 300 operating **days**" / "… **hours**";
            # "20 **ft** long" / "1.2 m wide and 20 **m** long": one unit is enough for a
            # measure, which no other rule reads
    return None


_JOINED_UNIT = re.compile(r"(\d+(?:\.\d+)?)-([a-z]+)")


def _apart(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens with a number joined to its unit by a hyphen written as two: "the inner
    **400-yard** loop" is "400 yard" to set against "the inner 400 m loop" (the 388th set)."""
    out: list[str] = []
    for t in tokens:
        joined = _JOINED_UNIT.fullmatch(t)
        out.extend((joined[1], joined[2]) if joined and _is_unit(joined[2]) else (t,))
    return tuple(out)


#: A swimming loop's or a pitch's unit, with its symbols, one measure: "the inner **400-yard**
#: loop" / "the inner 400 m loop" (the 388th set).
_YARDS = {"yard": "yards", "yards": "yards", "yd": "yards", "yds": "yards"}
#: Words that count a unit without naming its scale: "16 **degrees**" is "16 °C" reworded.
_ANY_SCALE = frozenset(["degrees", "degree", "deg"])


def _measure(unit: str) -> object:
    """What a unit measures, so that "min" and "minutes", "kg" and "kilograms" are one."""
    return UNIT_DAYS.get(unit) or _YARDS.get(unit) or UNIT_SYMBOLS.get(unit, unit)


@lru_cache(maxsize=64)  # a long text's tokens are read once per comparison otherwise
def _count_words(tokens: tuple[str, ...]) -> dict[float, str]:
    """Each number's counted word: its first unit, or else the last of the up to three
    content words right after it ("100 flight **cycles** per task card"), where a number is
    written once."""
    out: dict[float, str] = {}
    seen: set[float] = set()
    for i, t in enumerate(tokens):
        n = number(t)
        if n is None:
            continue
        run = []
        for w in tokens[i + 1:i + 4]:
            if not (w.isalpha() or _unit_compound(w)) \
                    or (not content_word(w) and w not in UNIT_DAYS):
                break
            run.append(w)
            if _is_unit(w):
                break  # "90 **min** minimum": the unit is what is counted
        if run and n not in seen:
            out[n] = run[-1]
        elif n in seen:
            out.pop(n, None)  # the number twice: which one each text means is unclear
        seen.add(n)
    return out


def _unit_compound(word: str) -> bool:
    """A hyphenated unit: "0.2 **arc-minutes**" (the two-hundred-and-seventieth set); not
    "day 28 **post-covering**"."""
    parts = word.split("-")
    return len(parts) == 2 and all(p.isalpha() for p in parts) and _is_unit(parts[1])


def _is_unit(word: str) -> bool:
    """A unit of measure or time, or of a text's length ("capped at 3,000 **characters**" /
    "… 3,000 **words**", the hundred-and-seventieth set); not "pounds", which may be money
    ("50k pounds")."""
    return word != "pounds" and (word in UNIT_DAYS or word in MEASURES or word in UNIT_SYMBOLS
                                 or word in _TEXT_UNITS or word in _YARDS)


_TEXT_UNITS = frozenset(["words", "characters", "pages", "teaspoon", "teaspoons", "tablespoon",
                         "tablespoons"])  # and a recipe's spoons ("1 teaspoon of soap", the 174th)


#: What a price may be per that is many, never one: "£0.85 each" / "£0.85 per **dozen**".
_GROUPS = frozenset(["dozen", "pair", "pack", "box", "set", "hundred", "thousand", "batch",
                     "bundle", "case", "crate", "tray", "brace", "gross", "bag", "roll"])
#: Words that open what a number is given per ("£18 **per** heel", "£18 **a** pair").
_RATE = frozenset(["per", "a", "an"])
#: Words before a unit that say which measure, not which thing: "per square foot".
_MEASURE = frozenset(["square", "cubic", "sq", "cu", "linear", "running"])


def other_rate(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("18 per heel", "18 a pair") where both texts give one number per a thing and the
    things differ, one of them nowhere in the other text: "heel replacements cost £18 **per
    heel**" / "… £18 **a pair**" (the fifty-third set) is another price. "£5 an hour" / "£5
    per hour" is one."""
    rates_a, rates_b = _rates(a.tokens), _rates(b.tokens)
    kinds_a, kinds_b = _kinds(a.tokens), _kinds(b.tokens)
    for n in sorted(kinds_a.keys() & kinds_b.keys()):  # "£85 per **linear** metre" / "£85
        if kinds_a[n] != kinds_b[n]:  # per **m²**" (the two-hundred-and-fiftieth set)
            return f"{n:g} per {kinds_a[n]}", f"{n:g} per {kinds_b[n]}"
    for n in sorted(rates_a.keys() & rates_b.keys()):
        x, y = rates_a[n], rates_b[n]
        if "each" in (x, y) and not {x, y} & (_GROUPS | MEASURES):
            continue  # "£5 each" is "£5 per item", "a piece", "per fly"; not "€2.20 per
            # **kg**" (the 336th set)
        if stem(x) != stem(y) and not (x.startswith(y) or y.startswith(x)) \
                and (x not in b.tokens or y not in a.tokens):  # "a loco" / "per locomotive"
            return _per(n, x), _per(n, y)
    for rates, other, flip in ((rates_a, b.tokens, False), (rates_b, a.tokens, True)):
        flat = next((n for n in sorted(rates) if rates[n] != "each" and _flat(other, n)), None)
        if flat is not None:  # "billed at £35 **per hour**" / "billed at **a flat** £35" (the
            # 345th set)
            found = _per(flat, rates[flat]), f"flat {flat:g}"
            return (found[1], found[0]) if flip else found
    chains_b = _chained(b.tokens)  # "£3.20 per metre **per week**" / "… per metre per night"
    for n, (x, y) in _chained(a.tokens).items():
        first, second = chains_b.get(n, (x, y))
        if stem(first) == stem(x) and stem(second) != stem(y) \
                and (y not in b.tokens or second not in a.tokens):
            return f"{n:g} per {x} per {y}", f"{n:g} per {first} per {second}"
    return periods.per_time(a, b)


def _flat(tokens: tuple[str, ...], n: float) -> bool:
    """Whether the text says ``n`` as a flat amount: "a **flat** £35", "£35 **flat**"."""
    return any(number(t) == n and ("flat" in tokens[max(0, i - 2):i]
                                   or tokens[i + 1:i + 2] == ("flat",))
               for i, t in enumerate(tokens))


def _per(n: float, thing: str) -> str:
    return f"{n:g} {thing}" if thing == "each" else f"{n:g} per {thing}"


def _chained(tokens: tuple[str, ...]) -> dict[float, tuple[str, str]]:
    """Each number's two "per" things in a row: "£3.20 **per metre per night**" (the
    two-hundred-and-thirty-seventh set)."""
    out: dict[float, tuple[str, str]] = {}
    for i, t in enumerate(tokens):
        n = number(t)
        j = next((j for j in range(i + 1, min(i + 4, len(tokens) - 3)) if tokens[j] == "per"),
                 None)
        if n is None or j is None or tokens[j + 2] not in _RATE:
            continue
        x, y = tokens[j + 1], tokens[j + 3]
        if x.isalpha() and y.isalpha() and content_word(x) and content_word(y):
            out.setdefault(n, (x, y))
    return out


#: Which measure a rate is per: "per **square** metre", "per **m²**", "per **linear** metre".
_KINDS = {"square": "square", "sq": "square", "cubic": "cubic", "cu": "cubic",
          "linear": "linear", "running": "linear", "m²": "square", "m2": "square",
          "sqm": "square", "ft²": "square", "m³": "cubic", "m3": "cubic"}


def _kinds(tokens: tuple[str, ...]) -> dict[float, str]:
    """Each number's kind of measure after "per": square, cubic or linear."""
    out: dict[float, str] = {}
    for i, t in enumerate(tokens[:-2]):
        n = number(t)
        if n is not None and tokens[i + 1] == "per" and tokens[i + 2] in _KINDS:
            out.setdefault(n, _KINDS[tokens[i + 2]])
    return out


@lru_cache(maxsize=64)  # as ``_count_words``
def _rates(tokens: tuple[str, ...]) -> dict[float, str]:
    """Each number's "per" thing: the content word after a "per", "a" or "an" right after the
    number ("18 **per heel**", "15 **a weekend** plus a deposit"), or after a "per" one word
    later ("1 day **per metre** of rod") or two ("£20 card hold **per table**"); past a
    measure's "square" or "cubic" ("£2.50 per square **foot**" / "… per square **metre**", the
    125th set)."""
    out: dict[float, str] = {}
    for i, t in enumerate(tokens[:-2]):
        n = number(t)
        if n is None:
            continue
        if tokens[i + 1] == "each":
            out.setdefault(n, "each")  # "£0.85 **each**" / "£0.85 per dozen" (the 271st set)
            continue
        if tokens[i + 1] in _RATE:
            at = i + 2
        elif i + 3 < len(tokens) and tokens[i + 1].isalpha() and (
                tokens[i + 2] == "per" or (tokens[i + 2] in _RATE and tokens[i + 3] in UNIT_DAYS
                                           and tokens[i + 1] != "pounds" and (
                    tokens[i + 1] in MEASURES or tokens[i + 1] in UNIT_SYMBOLS))):
            at = i + 3  # "3 kg **a week**" / "3 kg **a month**" (the 284th set), not "six
            # pounds **a head**" (money) nor "120 grams **a person**" / "… per guest"
        elif tokens[i + 3:i + 4] == ("per",) and i + 4 < len(tokens) \
                and tokens[i + 1].isalpha() and tokens[i + 2].isalpha():
            at = i + 4  # "a £20 card hold **per table**" / "a £20 **per person** card hold"
        else:
            continue
        if tokens[at] in _EXTRA and at + 1 < len(tokens):
            at += 1  # "£55 per **additional** hour"
        part = at + 1 < len(tokens) and (tokens[at], tokens[at + 1]) in _PART  # "per **half
        # hour**" (not "£45 **a quarter**")
        if (tokens[at] in _MEASURE or number(tokens[at]) is not None) and at + 1 < len(tokens):
            at += 1  # "per square **metre**", "per 1,000 **words**" (the hundred-and-seventieth)
        w = f"{tokens[at - 1]} {tokens[at]}" if part else tokens[at]  # / "… hour" (the 267th)
        if w.replace(" ", "").isalpha() and content_word(w.split()[-1]):
            out.setdefault(n, w)
    return out


_EXTRA = frozenset(["additional", "extra", "further", "subsequent"])
_PART = frozenset([("half", "hour"), ("quarter", "hour"), ("half", "day")])


def other_measure(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's unit, b's unit) where each text names a unit of measure and they share none, no
    number before either: "log each donation's weight **in pounds**" / "… **in kilograms**"
    (the hundred-and-fifty-seventh set). Units after numbers are the units rule's. Else
    None."""
    ua, ub = _named_measures(a), _named_measures(b)
    if ua and ub and not ua & ub and not (a.units or b.units):
        return sorted(ua)[0], sorted(ub)[0]
    return None


def _named_measures(f: Facets) -> frozenset[str]:
    """The measures a text names in whole words, one spelling each ("in **centimetres**",
    "in **inches**", the hundred-and-eighty-ninth set); symbols alone ("l", "ft") are left
    out, as they name other things without a number."""
    return frozenset(_WORDED.get(t) or (UNIT_SYMBOLS.get(t, t) if len(t) > _SYMBOL else t)
                     for t in f.tokens if t in MEASURES or t in _WORDED
                     or (t in UNIT_SYMBOLS and len(t) > _SYMBOL))


_WORDED = {"inch": "inches", "inches": "inches", "yard": "yards", "yards": "yards",
           "ounce": "ounces", "ounces": "ounces"}
_SYMBOL = 4  # "kg", "km/h": symbols; "metre", "centimetres": words
