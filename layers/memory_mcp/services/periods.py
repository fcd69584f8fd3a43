"""How often, as a rate: "badge orders go to the shop **every month**" / "… **once a term**",
"drivers log the temperature **every hour**" / "… **every 30 minutes**" (the
two-hundred-and-seventeenth and two-hundred-and-nineteenth sets).

``schedules`` tells a daily schedule from a weekly or a weekday one; two periods longer than a
day ("every month" / "once a term") and a period against a duration the text also says ("every
hour on trips over 1 hour") passed it. Here every way of saying how often ("every 2 weeks",
"fortnightly", "twice a month", "every other day") is read as a rate per day, so "every two
weeks" and "fortnightly" agree and "every month" and "every term" do not. Two texts that both
say how often, and share no rate, say two facts.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import NUMBER_WORDS, UNIT_DAYS

#: Periods, in days; a term, a season or a shift has no fixed length here, and is compared
#: by its name.
_DAYS = {unit: float(UNIT_DAYS[unit]) for unit in ("minute", "hour", "day", "week", "fortnight",
                                                   "month", "quarter", "year")} | {
    "night": 1.0, "morning": 1.0, "evening": 1.0, "afternoon": 1.0, "weekday": 7 / 5,
    "weekend": 7.0}
_NAMED = frozenset(["term", "season", "semester", "shift", "session"])
_ADVERBS = {"hourly": 1 / 24, "daily": 1.0, "nightly": 1.0, "weekly": 7.0, "fortnightly": 14.0,
            "monthly": 30.44, "quarterly": 91.31, "yearly": 365.25, "annually": 365.25}
#: The frequency adverbs, for rules that only ask whether a text says one (``paced``).
PERIOD_ADVERBS = frozenset(_ADVERBS)
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_NTH = {"other": 2, "second": 2, "alternate": 2, "third": 3, "fourth": 4}
_PER = (("a",), ("an",), ("per",), ("each",), ("every",))
#: "the **last** Saturday of the month", "the **first** day of each term".
_ORDINALS = frozenset(["first", "second", "third", "fourth", "last", "final"])
_OF_THE = frozenset(["the", "each", "every", "a"])
#: Rates this close are one ("every 6 months" / "twice a year").
_CLOSE = 0.03


def other_rate(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's how-often, b's how-often) when both texts say how often and no rate of one is a
    rate of the other. Else None."""
    ra, rb = _rates(a.tokens), _rates(b.tokens)
    if not ra or not rb:
        return None
    if any(_same(x, y) for x in ra for y in rb):
        return None
    return ", ".join(ra.values()), ", ".join(rb.values())


def _same(x: float | str, y: float | str) -> bool:
    if isinstance(x, str) or isinstance(y, str):
        return x == y
    return abs(x - y) <= _CLOSE * max(x, y)


@lru_cache(maxsize=1024)
def _rates(raw: tuple[str, ...]) -> dict[float | str, str]:
    """Each how-often of the text → its words: times per day, or "<n> per <named period>"."""
    toks = _spelled(raw)
    out: dict[float | str, str] = {}
    for i, t in enumerate(toks):
        if t in _ADVERBS:
            times = _times(toks, i - 1) if i else None  # "**twice** daily"
            out.setdefault((times or 1) / _ADVERBS[t], " ".join(toks[i - bool(times):i + 1]))
        elif t in ("every", "each"):
            count, at = _count(toks, i + 1)
            unit = _unit(toks[at]) if at < len(toks) else None
            if unit is not None and count is not None:
                out.setdefault(_rate(1, count, unit), " ".join(toks[i:at + 1]))
        elif t == "of" and 2 <= i < len(toks) - 2 and toks[i - 2] in _ORDINALS \
                and toks[i + 1] in _OF_THE and (unit := _unit(toks[i + 2])) is not None:
            # "the last Saturday **of the month**": once a month, as "monthly" is; not "… of
            # each quarter" (the two-hundred-and-ninety-second set)
            out.setdefault(_rate(1, 1, unit), " ".join(toks[i - 2:i + 3]))
        elif (times := _times(toks, i)) is not None and toks[i + 1:i + 2] in _PER \
                and i + 2 < len(toks) and (unit := _unit(toks[i + 2])) is not None:
            out.setdefault(_rate(times, 1, unit), " ".join(toks[i - (t == "times"):i + 3]))
    return out


#: Parts of an hour said in words, as minutes: "every **quarter of an hour**".
_PARTS = ((("three", "quarters", "of", "an", "hour"), ("45", "minutes")),
          (("quarter", "of", "an", "hour"), ("15", "minutes")),
          (("half", "an", "hour"), ("30", "minutes")), (("half", "hour"), ("30", "minutes")),
          (("half-hour",), ("30", "minutes")),
          (("hour", "and", "a", "half"), ("90", "minutes")))


def _spelled(toks: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens with each part of an hour said in words (``_PARTS``) as minutes; "a"
    before one dropped ("every **a** quarter" is no count)."""
    if not any(t in ("quarter", "quarters", "half", "half-hour") for t in toks):
        return toks
    out: list[str] = []
    i = 0
    while i < len(toks):
        for words, minutes in _PARTS:
            if toks[i:i + len(words)] == words:
                if out and out[-1] in ("a", "an"):
                    out.pop()
                out.extend(minutes)
                i += len(words)
                break
        else:
            out.append(toks[i])
            i += 1
    return tuple(out)


def _count(toks: tuple[str, ...], at: int) -> tuple[float | None, int]:
    """(how many periods, where the period's word stands) after "every": "every **2** weeks",
    "every **other** day", "every week" (one); None for a range ("every 6-8 weeks")."""
    if at >= len(toks):
        return None, at
    word = toks[at]
    if word in ("additional", "extra", "further") and at + 1 < len(toks):
        return 1.0, at + 1  # "€12 for **each additional hour**" / "… day" (the 432nd set)
    if word in _NTH:
        return float(_NTH[word]), at + 1
    if word in NUMBER_WORDS:
        return float(NUMBER_WORDS[word]), at + 1
    if word.replace(".", "", 1).isdigit():
        return float(word), at + 1
    if word[:1].isdigit():
        return None, at  # "6-8"
    return 1.0, at


def _times(toks: tuple[str, ...], i: int) -> int | None:
    """"once", "twice", "3 times", "three times": how many times in the period after."""
    t = toks[i]
    if t in _TIMES:
        return _TIMES[t]
    if t == "times" and i:
        before = toks[i - 1]
        if before.isdigit():
            return int(before)
        if before in NUMBER_WORDS:
            return int(NUMBER_WORDS[before])
    return None


def _unit(word: str) -> str | None:
    """The period a word names ("weeks" → "week"), else None."""
    one = word.removesuffix("s")
    return one if one in _DAYS or one in _NAMED else None


def _rate(times: float, count: float, unit: str) -> float | str:
    """Times per day, or "<times per count> per <unit>" for a period with no fixed length."""
    if unit in _DAYS:
        return times / (count * _DAYS[unit])
    return f"{times / count:g} per {unit}"


def per_time(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("metres per minute", "metres per second") where both texts give the same measure per
    a unit of time and the units differ, neither text naming the other's: "river flow drops
    below 4 cubic metres **per minute**" / "… **per second**" (the 456th set). A rate of
    flow, not a how-often, so ``other_rate`` reads none."""
    mine, theirs = _per_units(a.tokens), _per_units(b.tokens)
    for word, unit in sorted(mine):
        other = next((u for w, u in sorted(theirs) if w == word), None)
        if other is not None and UNIT_DAYS[other] != UNIT_DAYS[unit] \
                and (word, unit) not in theirs and (word, other) not in mine:
            return f"{word} per {unit}", f"{word} per {other}"
    return None


def _per_units(toks: tuple[str, ...]) -> set[tuple[str, str]]:
    """(the word before "per", the unit of time after it): "metres **per minute**"."""
    return {(toks[i - 1], toks[i + 1]) for i in range(1, len(toks) - 1)
            if toks[i] == "per" and toks[i + 1] in UNIT_DAYS and toks[i - 1].isalpha()}
