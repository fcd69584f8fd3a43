"""Numbers as a text says them: digits, number words, ordinals, clock times ("2pm", "14:00",
"half past seven") and spoken durations and frequencies ("half an hour", "twice a year",
"every other week").

Apart from ``services/facets.py``, which reads every facet of a text, because how a value is
*said* is a lexicon and a grammar of its own, and the rules depend on reading each value once
and the same way in both texts.
"""

from __future__ import annotations

import math
import re

from memory_mcp.services.lexicon import MONTHS, NUMBER_WORDS, UNIT_DAYS

_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?(am|pm)?$")
_DIGIT = re.compile(r"\d")
_THOUSANDS = re.compile(r"\d+(?:\.\d+)?k")


#: An amount after a currency symbol: "£6", "$1,200", "€2.5k".
_PRICE = re.compile(r"[$€£¥₹]\s?(\d[\d,]*(?:\.\d+)?)(k\b)?", re.IGNORECASE)


def prices(text: str) -> frozenset[float]:
    """The amounts of money ``text`` marks with a currency symbol ("£6", "$1,200", "€2.5k")."""
    return frozenset(float(m[1].replace(",", "")) * (1000 if m[2] else 1)
                     for m in _PRICE.finditer(text))


def is_clock(token: str) -> bool:
    """'2pm', '14:00', '2:30am': a token ``clock`` can read ("7" + "pm" when written apart)."""
    return _TIME.match(token) is not None


def number(token: str) -> float | None:
    """A token's value: "3", "three", "2,000", "15%", "3rd", or a clock time's code; None for
    a word. One reader for every rule, so "three" in one text equals "3" in the other."""
    token = token.rstrip("%")
    if token in NUMBER_WORDS:
        return float(NUMBER_WORDS[token])
    if not _DIGIT.search(token):
        # a word: not a number, even one float() reads ("nan", "inf", "infinity"); checked
        # first because most tokens are words, and a failed float() costs an exception
        return None
    m = _TIME.match(token)
    if m and (m.group(2) or m.group(3)):
        return clock(token)
    if token.endswith("k") and _THOUSANDS.fullmatch(token):  # "$4k", "10k requests"
        return float(token[:-1]) * 1000
    try:
        value = float(token.replace(",", ""))
    except ValueError:
        ordinal = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", token)
        value = float(ordinal.group(1)) if ordinal else math.nan
    # a run of digits past a float's range (an id, a pasted blob) is no value to compare: it
    # would read as infinity, equal to any other such run
    return value if math.isfinite(value) else None


def clock(token: str) -> float:
    """'2pm', '14:00', '2:30am' → a code for minutes past midnight, so 2pm and 14:00 agree.

    Negative, so a time never equals a bare number."""
    m = _TIME.match(token)
    assert m is not None
    hour, minute, meridiem = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if meridiem == "pm" and hour < 12:
        hour += 12
    if meridiem == "am" and hour == 12:
        hour = 0
    return -(hour * 60 + minute) - 1


#: How often, as a period: "twice a year" is every 182 days, as "every six months" says.
_TIMES_A = {"once": 1.0, "twice": 2.0, "thrice": 3.0}
_TIMES_X = re.compile(r"(\d+)x")
#: Frequency words as their period, so "reviewed quarterly" / "every month" differ and
#: "weekly" / "every week" agree.
_FREQUENCY = {"hourly": 1 / 24, "daily": 1.0, "weekly": 7.0, "biweekly": 14.0,
              "fortnightly": 14.0, "monthly": 30.44, "quarterly": 91.31, "yearly": 365.25,
              "annually": 365.25}
#: Clock times said as one word, after a preposition ("locks up **at midnight**" / "at 2 am"),
#: coded as ``clock`` codes them.
_CLOCK_WORDS = {"midnight": -1.0, "noon": -721.0, "midday": -721.0}
_AT = frozenset("at by until till before after from around to between".split())  # noqa: SIM905
#: Words that multiply the number word before them.
_SCALES = {"hundred": 100.0, "thousand": 1000.0, "million": 1_000_000.0}
#: Parts of the day after a time said in words that put it after noon.
_LATER_PARTS = [["in", "the", "evening"], ["in", "the", "afternoon"]]
#: Clock times said in words: "half past seven" is 7:30.
_PAST = {"half": 30, "quarter": 15}


def _and_a_half(lower: list[str], i: int) -> tuple[float, int] | None:
    """(days, the end of the words) for "an hour and a half", "one and a half hours", "2 and
    a half days" starting at ``i``; None otherwise."""
    w = lower[i]
    count = 1.0 if w in ("a", "an") else number(w)
    if count is None:
        return None
    if lower[i + 1:i + 4] == ["and", "a", "half"] and lower[i + 4:i + 5] \
            and lower[i + 4] in UNIT_DAYS:
        return (count + 0.5) * UNIT_DAYS[lower[i + 4]], i + 5
    if lower[i + 1:i + 2] and lower[i + 1] in UNIT_DAYS and lower[i + 2:i + 5] == [
            "and", "a", "half"]:
        return (count + 0.5) * UNIT_DAYS[lower[i + 1]], i + 5
    return None


def _and_more(lower: list[str], i: int) -> tuple[float, int] | None:
    """(days, the end of the words) for "an hour and fifteen minutes", "2 days and 6 hours" at
    ``i``: one amount in two units, the larger first."""
    if i + 4 >= len(lower) or lower[i + 2] != "and" or lower[i + 1] not in UNIT_DAYS \
            or lower[i + 4] not in UNIT_DAYS:
        return None
    first = 1.0 if lower[i] in ("a", "an") else number(lower[i])
    second = number(lower[i + 3])
    big, small = UNIT_DAYS[lower[i + 1]], UNIT_DAYS[lower[i + 4]]
    if first is None or second is None or small >= big:
        return None
    return first * big + second * small, i + 5


def _quarters(lower: list[str], i: int) -> tuple[float, int] | None:
    """(days, the end of the words) for "three quarters of an hour" or "three-quarters of a
    day" at ``i`` (not "3 quarters" alone: a quarter is also three months)."""
    words = lower[i].split("-") if "-" in lower[i] else lower[i:i + 2]
    at = i + (1 if "-" in lower[i] else 2)
    if len(words) != 2 or words[1] not in ("quarter", "quarters") \
            or lower[at:at + 2] not in (["of", "an"], ["of", "a"]) \
            or at + 2 >= len(lower) or lower[at + 2] not in UNIT_DAYS:
        return None
    count = number(words[0])
    return (count * 0.25 * UNIT_DAYS[lower[at + 2]], at + 3) if count else None


def spoken(lower: list[str], numbers: set[float], durations: list[float]) -> set[int]:
    """Read the spoken forms of a time, a duration or a frequency into ``numbers`` and
    ``durations``; returns the token positions they used, which are not read again.

    "half past seven" / "quarter to eight" (clock times), "half an hour" (30 minutes), "twice
    a year" / "three times per month" (a period: the unit over the count), "every week" /
    "every other week" (a period of one or two). Without them a
    rewording's "twice a year" was a year and a 2 against "every six months", and "seven
    days a week" a week against "every day"."""
    used: set[int] = set()
    n = len(lower)
    for i, w in enumerate(lower):
        if i in used:
            continue
        if w in _FREQUENCY:  # "quarterly" is every 3 months, as "every quarter" says
            durations.append(_FREQUENCY[w])
            continue
        if w in _TIMES_A and i + 1 < n and lower[i + 1] in _FREQUENCY:  # "twice daily"
            durations.append(_FREQUENCY[lower[i + 1]] / _TIMES_A[w])
            used.update((i, i + 1))
            continue
        if w in _PAST and i + 2 < n and lower[i + 1] in ("past", "to"):
            hour = number(lower[i + 2])
            if hour is not None and hour == int(hour) and 1 <= hour <= 12:
                minutes = hour * 60 + (_PAST[w] if lower[i + 1] == "past" else -_PAST[w])
                if hour < 12 and (lower[i + 3:i + 6] in _LATER_PARTS
                                  or lower[i + 3:i + 5] == ["at", "night"]):
                    minutes += 12 * 60  # "a quarter past seven in the evening": 19:15
                numbers.add(-minutes - 1)  # the code ``_clock`` gives "7:30"
                used.update((i, i + 1, i + 2))
        elif w == "half" and i + 2 < n and lower[i + 1] in ("a", "an") \
                and lower[i + 2] in UNIT_DAYS:
            durations.append(0.5 * UNIT_DAYS[lower[i + 2]])
            used.update((i, i + 1, i + 2))
        elif w == "quarter" and i + 3 < n and lower[i + 1] == "of" \
                and lower[i + 2] in ("a", "an") and lower[i + 3] in UNIT_DAYS:
            durations.append(0.25 * UNIT_DAYS[lower[i + 3]])  # "a quarter of an hour"
            used.update((i, i + 1, i + 2, i + 3))
        elif (quarters := _quarters(lower, i)) is not None:  # "three quarters of an hour"
            durations.append(quarters[0])
            used.update(range(i, quarters[1]))
        elif w in NUMBER_WORDS and i + 1 < n and lower[i + 1] in _SCALES \
                and 1 <= NUMBER_WORDS[w] < 100:  # "two thousand dollars" is 2000
            numbers.add(float(NUMBER_WORDS[w]) * _SCALES[lower[i + 1]])
            used.update((i, i + 1))
        elif w in _CLOCK_WORDS and i > 0 and (lower[i - 1] in _AT or (
                lower[i - 1] == "and" and "between" in lower[max(0, i - 5):i - 1])):  # "at
            # midnight" is 00:00, and "between 6am **and midnight**" (the 490th set)
            numbers.add(_CLOCK_WORDS[w])
        elif (both := _and_more(lower, i)) is not None:  # "an hour and fifteen minutes"
            durations.append(both[0])
            used.update(range(i, both[1]))
        elif (half := _and_a_half(lower, i)) is not None:  # "an hour and a half"
            durations.append(half[0])
            used.update(range(i, half[1]))
        elif w in ("every", "each") and i + 1 < n and (lower[i + 1] in UNIT_DAYS or (
                lower[i + 1] == "other" and i + 2 < n and lower[i + 2] in UNIT_DAYS)):
            other = lower[i + 1] == "other"  # "every other week": a period of two
            unit = lower[i + 2] if other else lower[i + 1]
            if unit != "second" and not (unit == "quarter" and "of" in lower[i + 2:i + 4]):
                # "every second Tuesday" is an ordinal, "every quarter of an hour" 15 minutes
                durations.append(UNIT_DAYS[unit] * (2 if other else 1))
                used.update(range(i, i + (3 if other else 2)))
        elif w in ("every", "each") and i + 1 < n and lower[i + 1] in _YEARLY \
                and lower[i + 2:i + 3] not in (["and"], ["or"], ["to"]):
            durations.append(UNIT_DAYS["year"])  # "every spring", "each March": once a
            # year ("every March and September" twice)
            used.update((i, i + 1))
        else:
            count, at = (_TIMES_A[w], i + 1) if w in _TIMES_A else (None, i)
            if count is None and i + 1 < n and lower[i + 1] in ("times", "days") \
                    and (lower[i + 1] == "times" or lower[i + 2:i + 4] in (
                        ["a", "week"], ["per", "week"], ["each", "week"], ["every", "week"])):
                # "3 times a month"; "seven days a week" (every day, not a week and 7 days)
                count, at = number(w), i + 2
            elif count is None and (times := _TIMES_X.fullmatch(w)):  # "2x a week"
                count, at = float(times.group(1)), i + 1
            if count and at + 1 < n and lower[at] in ("a", "an", "per", "each", "every") \
                    and lower[at + 1] in UNIT_DAYS:
                durations.append(UNIT_DAYS[lower[at + 1]] / count)
                used.update(range(i, at + 2))
    return used


#: Comparatives of size that bound a measure when "than" and an amount follow.
#: Not "older": an age's "older than 21" is more, a version's "older than 3.1" less.
_LARGER = ("wider", "longer", "taller", "heavier", "bigger", "larger", "deeper", "thicker",
           "higher")
_SMALLER = ("narrower", "shorter", "smaller", "lighter", "thinner", "shallower", "lower")

#: Words that bound an amount, by the bound they set: "at most" / "no more than" (rewritten to
#: "at most" by ``short_forms``) is ≤, "more than" / "over" >, and so on.
_TWO_WORD_BOUNDS = {("at", "most"): "max", ("up", "to"): "max", ("or", "less"): "max",
                    ("or", "fewer"): "max", ("at", "least"): "min", ("or", "more"): "min",
                    ("more", "than"): "gt", ("greater", "than"): "gt", ("less", "than"): "lt",
                    ("fewer", "than"): "lt", ("capped", "at"): "max", ("limited", "to"): "max",
                    # "at **or below** level 6" / "at least level 6"
                    ("or", "below"): "max", ("or", "under"): "max", ("or", "above"): "min",
                    # "an NIHSS score **of 6 or higher**" / "… **below 6**" (the 548th set)
                    ("or", "higher"): "min", ("or", "greater"): "min", ("or", "lower"): "max",
                    # "any sign **wider than** 1.5 m" / "… **up to** 1.5 m wide" (the 236th set)
                    **dict.fromkeys(((w, "than") for w in _LARGER), "gt"),
                    **dict.fromkeys(((w, "than") for w in _SMALLER), "lt")}
_ONE_WORD_BOUNDS = {"maximum": "max", "minimum": "min", "max": "max", "min": "min", "over": "gt",
                    "within": "within",  # "decides **within** 5 days" / "takes at least 5 days"
                    "above": "gt",
                    "exceeds": "gt", "exceeding": "gt", "under": "lt", "below": "lt",
                    # "make **exactly 5** call attempts" / "make **up to 5**" (the 135th set)
                    "exactly": "eq"}


#: Months and seasons, each of which comes once a year.
_YEARLY = frozenset([*MONTHS, "spring", "summer", "autumn", "fall", "winter"])


def bounds(lower: list[str]) -> tuple[tuple[str, int], ...]:
    """(bound, token position) of each bound on an amount: "at most two" ("max"), "over $500"
    ("gt"). A single word bounds only a number right after it ("fails **over** to Frankfurt",
    "**under** review" bound nothing); "up to" likewise."""
    out: list[tuple[str, int]] = []
    for i, word in enumerate(lower):
        nxt = lower[i + 1] if i + 1 < len(lower) else ""
        after = lower[i + 2] if i + 2 < len(lower) else ""
        pair = _TWO_WORD_BOUNDS.get((word, nxt))
        if pair is not None and (word in _LARGER or word in _SMALLER) and not _amount(after):
            continue  # "higher than usual" bounds nothing
        if pair is not None and (pair != "max" or word != "up" or _amount(after) or (
                after.isalpha() and len(after) == 3 and i + 3 < len(lower)
                and _amount(lower[i + 3]))):  # "up to AUD 25,000"
            out.append((pair, i))
        elif word in _ONE_WORD_BOUNDS and (_amount(nxt) or word in ("maximum", "minimum")):
            out.append((_ONE_WORD_BOUNDS[word], i))
    return tuple(out)


def _amount(word: str) -> bool:
    return word == "minus" or number(word) is not None
