"""How a text's tokens are spelled out before any rule reads them: short forms as their words
("DB", "2FA"), a unit symbol after a number ("30 kg", "30kg", "-18C"), degrees, time zones
after a time, "alternate Sundays" as "every other Sunday", and "not more than" as "at most".

Apart from ``services/facets.py`` because these are rewritings of the same words, each of
which a rewording of a stored fact used and the rules read as another fact (a name "ET" against
"Eastern", a name "18c" against "Celsius"). Each is meant only to make two texts that say the
same thing read the same, and is read narrowly for that reason: a symbol only after a number
("ships to **GB**" stays a name), a zone only after a time and as a name ("ET" / "PT" stay two
zones), and "no more than" only together with the bounds rule that compares "at most" with
"more than" (a review found each of these joining two values when read more eagerly).
"""

from __future__ import annotations

import re

from memory_mcp.services import negated_bounds
from memory_mcp.services.lexicon import (
    ABBREVIATIONS,
    CARDINALS,
    COMPACT_MEASURE,
    MEASURE_UNITS,
    MEASURES,
    NUMBER_WORDS,
    SCALED,
    UNIT_DAYS,
    UNIT_SYMBOLS,
    WEEKDAYS,
    ZONES,
)
from memory_mcp.services.negated_bounds import starts_amount
from memory_mcp.services.numerals import number
from memory_mcp.services.short_times import but_day, per_hour, whenever, workweek
from memory_mcp.services.spoken_numbers import compound
from memory_mcp.services.stems import singular_weekday

#: "°C", "° F", "degrees Celsius": the scale's name ("-18 °C" / "minus 18 degrees Celsius").
_DEGREES = re.compile(r"(?:°\s*|\bdeg(?:ree)?s?\s+)(?:(c|celsius)|(f|fahrenheit))\b",
                      re.IGNORECASE)
#: A percentile as its words: "p99" is "99th percentile".
_PERCENTILE = re.compile(r"[pP](\d{2}(?:\.\d+)?)")
#: A quarter as its words: "Q3" is "third quarter".
_QUARTER = re.compile(r"[qQ]([1-4])")
_ORDINALS = {"1": "first", "2": "second", "3": "third", "4": "fourth"}
_GENERATION = re.compile(r"(first|second|third|fourth|1st|2nd|3rd|4th)-gen(?:eration)?")
_GENERATIONS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "1st": "1", "2nd": "2",
                "3rd": "3", "4th": "4"}
#: A priority as its words: "P1" is "priority 1"; any one digit, so that "program **P6**" and
#: "program **P4**" (the 545th set) are both read so and differ in their number.
_PRIORITY = re.compile(r"[pP]([0-9])s?")
#: A version as its word: "v29" is "version 29", "v2.1" "version 2.1".
_VERSION = re.compile(r"[vV](\d+(?:\.\d+)*)")
#: A measure per a unit of time written with a slash: "400 **mm/min**" is "400 millimeters per
#: minute", so "… mm/s" differs and "400 millimetres per minute" agrees (the 475th set).
_SLASH_RATE = re.compile(r"([a-z]+)/(s|sec|min|h|hr|d|day|wk|week)")
_SLASH_TIMES = {"s": "second", "sec": "second", "min": "minute", "h": "hour", "hr": "hour",
                "d": "day", "day": "day", "wk": "week", "week": "week"}
#: A number and a length joined: "a 42-foot pattern", "a 16-ft box".
_SIZED = re.compile(r"(\d+(?:\.\d+)?)-(foot|feet|ft)")
#: "IT" in capitals is the department, not the pronoun "it" (a stop word).
_IT = "IT"
#: Verbs whose infinitive of purpose denies: "**to avoid** cross-contamination" is "so it
#: does **not** cross-contaminate" (not "team lunches avoid them", a plain verb).
_AVERTS = frozenset(["avoid", "prevent"])
#: Monday to Friday written short: "weekdays".
_WORKWEEK = frozenset(["mon-fri", "monday-friday"])
#: Tokens a time zone may follow.
_CLOCK_END = re.compile(r"\d{1,2}(?::\d{2})?(?:am|pm)?|am|pm|a\.m|p\.m|noon|midnight",
                        re.IGNORECASE)
#: Two clock times joined by a hyphen ("18:00-19:00", "9am-5pm"): two times, as an en dash
#: already writes them apart.
_CLOCK_SPAN = re.compile(r"(\d{1,2}(?::\d{2})?(?:am|pm)?)-(\d{1,2}(?::\d{2})?(?:am|pm)?)")
_MINUS = frozenset("-\u2212\u2013")  # hyphen-minus, minus sign, en dash
_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: Nouns a number and letter name one of ("seat 14C", "room 4F"), not a measure.
_NUMBERED_PLACES = frozenset("""seat room row gate bay suite dock platform apartment flat unit
level floor stand aisle shelf""".split())  # noqa: SIM905


_SPECIAL = frozenset(ABBREVIATIONS) | frozenset(ZONES) | frozenset(UNIT_SYMBOLS) | frozenset(
    ["alternate", "alternating", "avoid", "prevent", "fortnightly"])


def degrees(text: str) -> str:
    """``text`` with each temperature's unit as one word: "celsius" or "fahrenheit"; "30
    percent" written "30%", as the other text may write it (the two read as another word
    before "deposit" otherwise); and "N·m" as "Nm"."""
    text = _NEWTON_METRES.sub(r"\1 Nm", _PERCENT.sub(r"\1%", text))
    return _DEGREES.sub(lambda m: " celsius" if m.group(1) else " fahrenheit", text)


#: From a number's first digit only (``(?<![\d.])``): tried at every digit of a run, a
#: 100,000-digit "number" cost ~300 s of backtracking (a forget of such a text, the
#: start-against-end check of the twenty-fifth session).
_PERCENT = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:percent|per cent)\b", re.IGNORECASE)
#: "50 N·m", "50 N.m", "50 N-m": newton-metres as one word ("50 Nm"), after a number only.
_NEWTON_METRES = re.compile(r"(\d)\s*N\s*[\u00b7\u22c5.\-]\s*m\b")


_CARDINALS = frozenset(CARDINALS)


def expand(raw: list[str]) -> list[str]:
    """The tokens as the rules read them (see the module's docstring)."""
    out: list[str] = []
    for i, token in enumerate(raw):
        if token.isalpha() and token.islower() and token not in _SPECIAL:
            out.append(token)  # most words: nothing to spell out (long texts are read whole)
            continue
        low = token.lower()
        measure = COMPACT_MEASURE.fullmatch(token)
        percentile = _PERCENTILE.fullmatch(token)
        prev = out[-1].lower() if out else ""
        after_time = bool(_CLOCK_END.fullmatch(prev)) or prev in NUMBER_WORDS
        after_number = bool(_AMOUNT.fullmatch(prev)) or prev in NUMBER_WORDS
        if low in _MINUS:
            out.append("minus")  # "-18 °C": a sign, read as "minus 18 degrees"
        elif low in ZONES and after_time:
            out.append(ZONES[low])  # a name, as "Eastern" is: "ET" / "PT" are two zones
        elif low in UNIT_SYMBOLS and after_number:
            out.append(UNIT_SYMBOLS[low])
        elif (rate := _SLASH_RATE.fullmatch(low)) and after_number \
                and (UNIT_SYMBOLS.get(rate.group(1)) or rate.group(1)) in MEASURES \
                and not token.startswith(("ML", "Ml")):  # "8 **ML/day**": megalitres
            out += [UNIT_SYMBOLS.get(rate.group(1)) or rate.group(1), "per",
                    _SLASH_TIMES[rate.group(2)]]
        elif token == _IT:
            out += ["Information", "Technology"]  # "the IT team": not the pronoun, a name
        elif low in ABBREVIATIONS:
            out.extend(ABBREVIATIONS[low].split())
        elif measure and not (out and out[-1].lower() in _NUMBERED_PLACES):
            unit = measure.group(2).lower()  # "seat 14C" is a seat, not 14 °C
            out += [measure.group(1), MEASURE_UNITS.get(unit) or UNIT_SYMBOLS[unit]]
        elif percentile:
            out += [f"{percentile.group(1)}th", "percentile"]
        elif quarter := _QUARTER.fullmatch(token):
            out += [_ORDINALS[quarter.group(1)], "quarter"]
        elif generation := _GENERATION.fullmatch(low):  # "the **first-generation** inReach
            # Mini" / "the inReach Mini **2**" (the 287th and 299th sets): a model's number
            out += ["generation", _GENERATIONS[generation.group(1)]]
        elif priority := _PRIORITY.fullmatch(token):
            out += ["priority", priority.group(1)]
        elif version := _VERSION.fullmatch(token):
            out += ["version", version.group(1)]
        elif (unit := _counted_measure(low)) is not None:
            out += list(unit)  # "a **70-metre** line", "**one-litre** bottles": 70 meters
        elif low in _PART_HOURS:
            out.append(_PART_HOURS[low])  # "half-hour slots" are "30-minute slots"
        elif (head := low.split("-"))[-1] in UNIT_DAYS and len(head) == 2 \
                and head[0] in _CARDINALS:
            out.append(f"{NUMBER_WORDS[head[0]]:g}-{head[1]}")  # "four-hour" is "4-hour"
        elif sized := _SIZED.fullmatch(low):  # "a 42-foot pattern" is "42 feet"
            out += [sized.group(1), "feet" if sized.group(2) in ("foot", "feet", "ft")
                    else sized.group(2)]
        elif (span := _CLOCK_SPAN.fullmatch(low)) and (":" in low or "m" in low):
            out += [span.group(1), span.group(2)]  # "18:00-19:00" read as two times
        elif low.endswith("'s") and _AMOUNT.fullmatch(low[:-2]):
            out.append(low[:-2])  # "Bay 3's lights": the number 3
        elif low in _AVERTS and prev == "to":
            out.append("not")  # "to avoid wasting gas": so as not to waste it
        elif low in _WORKWEEK:
            out.append("weekdays")
        elif low in ("alternate", "alternating") and i + 1 < len(raw) \
                and _periodic(raw[i + 1].lower()):
            out += ["every", "other"]  # "alternate Sundays": every other Sunday
        elif low == "fortnightly" and i + 1 < len(raw) \
                and singular_weekday(raw[i + 1].lower()) in WEEKDAYS:
            out += ["every", "other"]  # "the fortnightly Friday clean": every other Friday
        elif len(token) >= 3 and token.endswith("s") and token[:-1].isupper() \
                and not token.endswith("'s"):  # "G-BXRT's" is the name's possessive
            out.append(token[:-1])  # "PRs" is the acronym "PR": one name, not another
        else:
            out.append(token)
    return negated_bounds.bounds(_deadlines(_scaled(_bare_degrees(compound(per_hour(workweek(but_day(
        whenever(out)))))))))


#: A part of an hour written as a word: its minutes.
_PART_HOURS = {"half-hour": "30-minute", "quarter-hour": "15-minute"}


def _counted_measure(low: str) -> tuple[str, str] | None:
    """("70", "meters") for "70-metre", ("1", "liters") for "one-litre": a number and a unit of
    measure written as one word, read as the number and the unit ("the 70 m line"), so the two
    spellings agree and ``_scaled`` reads "30-centimetre" as "30 cm". Not a duration ("four-
    hour" stays one word: the durations rule reads it) nor an ordinal ("first-aid")."""
    head, _, tail = low.partition("-")
    if not tail or "-" in tail:
        return None
    if _AMOUNT.fullmatch(head):
        value = head.replace(",", "")
    elif head in _CARDINALS:
        value = f"{NUMBER_WORDS[head]:g}"
    else:
        return None
    unit = ABBREVIATIONS.get(tail, UNIT_SYMBOLS.get(tail, tail))
    return (value, unit) if unit in MEASURES else None


def _bare_degrees(tokens: list[str]) -> list[str]:
    """"65 degrees" with no scale named → "65 celsius" ("fahrenheit" if the text names that
    scale elsewhere): "heated to 38 degrees" and "heated to 38°C" say one temperature, where
    "degrees" against "celsius" read as another word."""
    if "degrees" not in tokens and "degree" not in tokens:
        return tokens
    scale = "fahrenheit" if "fahrenheit" in tokens else "celsius"
    out = list(tokens)
    for i, t in enumerate(out[1:], 1):
        nxt = out[i + 1].lower() if i + 1 < len(out) else ""
        if t in ("degrees", "degree") and number(out[i - 1].lower()) is not None \
                and nxt not in ("c", "f", "celsius", "fahrenheit"):
            out[i] = scale
    return out


def _scaled(tokens: list[str]) -> list[str]:
    """"1.5 kilometers" → "1500 meters", "6.5 centimeters" → "65 millimeters", "1.5
    megawatts" → "1500 kilowatts" (``SCALED``): one amount in one unit, so every rule reads
    both texts alike."""
    if not any(t in SCALED for t in tokens):
        return tokens
    out = list(tokens)
    for i, t in enumerate(out[1:], 1):
        value = number(out[i - 1].lower()) if t in SCALED else None
        if value is not None and value >= 0:
            unit, factor = SCALED[t]
            out[i - 1], out[i] = f"{value * factor:g}", unit
            _other_sides(out, i - 2, factor)
    return out


def _other_sides(out: list[str], k: int, factor: float) -> None:
    """Scales the other sides of a size written once with its unit: "300 **x** 300 cm" (the
    413th set: "300 x 300 cm" / "300 x 300 mm" read as 300 and 3000 mm against 300 mm).
    "by" only between figures ("60 **by** 90 cm"), not in "opened gate three **by** 20 cm"."""
    while k >= 1 and (out[k].lower() == "x" or (
            out[k].lower() == "by" and out[k - 1].isdigit())):
        first = number(out[k - 1].lower())
        if first is None or first < 0:
            return
        out[k - 1] = f"{first * factor:g}"
        k -= 2


def _periodic(word: str) -> bool:
    """A weekday or a unit of time, singular or plural ("Sundays", "weeks")."""
    single = word[:-1] if word.endswith("s") else word
    return word in UNIT_DAYS or single in WEEKDAYS or word in WEEKDAYS


def _deadlines(tokens: list[str]) -> list[str]:
    """"prior to", "ahead of", "in advance of" → "before"; "apart from" → "except"; "no later
    than 45 minutes before" → "at least 45 minutes before", and "no later than 5pm" → "before
    5pm": a deadline, not a negation; "goes over 40" → "exceeds 40" (one verb for one bound)."""
    out: list[str] = []
    i = 0
    low = [t.lower() for t in tokens]
    while i < len(tokens):
        if (low[i] == "prior" and low[i + 1:i + 2] == ["to"]) or (
                low[i:i + 2] == ["ahead", "of"] and low[i + 2:i + 3] != ["schedule"]):
            out.append("before")  # "ahead of the sizer" / "before it reaches the sizer" (not
            i += 2  # "4 minutes ahead of schedule", which "behind schedule" opposes)
        elif low[i:i + 3] == ["in", "advance", "of"]:
            out.append("before")
            i += 3
        elif low[i:i + 2] == ["apart", "from"]:
            out.append("except")  # "apart from the Kodo Kids imprint" / "except in …"
            i += 2
        elif low[i] in _PASSES and low[i + 1:i + 2] in (["over"], ["above"], ["past"]) \
                and i + 2 < len(low) and starts_amount(low[i + 2]):
            out.append(_PASSES[low[i]])  # "gusts **go over** 40 mph" / "gusts **exceed** 40 mph"
            i += 2
        elif low[i] in _PASSES_AN and i + 1 < len(low) and starts_amount(low[i + 1]):
            out.append(_PASSES_AN[low[i]])  # "once wind **passes** 290 km/h"
            i += 1
        elif low[i:i + 3] == ["no", "later", "than"]:
            # "no later than 9am" is "before 9am" (so "after 9am" stays its opposite), and "no
            # later than 45 minutes before" is "at least 45 minutes before"
            ahead = low[i + 3:i + 8]
            out += ["at", "least"] if "before" in ahead or "prior" in ahead else ["before"]
            i += 3
        else:
            out.append(tokens[i])
            i += 1
    return out


#: A verb and "over" / "above" before an amount, as the one verb that says it.
_PASSES = {"go": "exceed", "goes": "exceeds", "went": "exceeded", "gone": "exceeded",
           "going": "exceeding", "rise": "exceed", "rises": "exceeds", "rose": "exceeded",
           "rising": "exceeding", "get": "exceed", "gets": "exceeds", "got": "exceeded",
           "getting": "exceeding"}
_PASSES_AN = {"pass": "exceed", "passes": "exceeds", "passed": "exceeded", "passing": "exceeding"}
