"""How two texts' values compare: durations (with their slack, and as a person reads them),
clock times against bare hours, years a fact is dated by (denials are ``denials``').

Apart from ``agreement.py``, which decides *whether* two texts conflict, because these are the
small arithmetic of values its rules share, and ``versions.may_replace`` reads ``years`` too.
"""

from __future__ import annotations

import bisect
from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import ORDINAL, STOP_WORDS, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word
from memory_mcp.services.wording import subject_end

_DURATION_SLACK = 0.03


#: Words before a number that make it a year ("for 2025", "fiscal year 2024", "since 2019"): a
#: save's hint (``versions.may_replace``) never pairs two years' facts.
_YEAR_BEFORE = frozenset(["in", "for", "of", "since", "until", "during", "year", "fy", "from",
                          "to", "by", "before", "after"])


def years(f: Facets) -> frozenset[str]:
    """Four-digit years a text dates itself by: after "for", "in", "year", … and not counting
    something ("a limit of 2000 requests" is a number, "the budget for 2025 is" a year)."""
    tokens = f.tokens
    return frozenset(
        t for i, t in enumerate(tokens)
        if len(t) == 4 and t.isdigit() and 1900 <= int(t) <= 2100 and i > 0
        and tokens[i - 1] in _YEAR_BEFORE
        and (i + 1 == len(tokens) or tokens[i + 1] in STOP_WORDS))


def hours(numbers: frozenset[float]) -> frozenset[float]:
    """The numbers, and for each whole-hour clock time the bare hours it is written as: "at
    10:00" / "at ten", "closes at 18:00" / "closes at 6"."""
    out = set(numbers)
    for n in numbers:
        minutes = -n - 1
        if n < 0 and minutes % 60 == 0:
            out.update({minutes // 60, minutes // 60 - 12} - {0.0, -12.0})
    return frozenset(out)


def within(x: Facets, y: Facets) -> bool:
    """Whether every number of ``x`` is one of ``y``'s, or the bare hour of one of ``y``'s
    clock times ("closes at 6" / "closes at 18:00"). A number written before a word it counts
    is no hour: "gets **5 kg** of oats … at 17:00" does not say 5 pm (a count of the
    twenty-fourth forget set was read as the hour of the other text's "17:00"). Two texts'
    percentages are compared as such: "more than **5%** weed seed … line 2" / "more than
    **2%** … line 2" (the ninety-eighth set) is no subset."""
    px, py = _percents(x), _percents(y)
    if (px and py and not (px <= py or py <= px)) or (x.prices and y.prices
                                                      and not x.prices <= y.prices):
        return False  # and amounts of money as money: "6 churros cost **£6**" / "6 churros
        # for **£5**" (the 210th set)
    extra = x.numbers - y.numbers
    return not extra or (extra <= hours(y.numbers) and not any(
        number(t) in extra and (ORDINAL.fullmatch(t) or (  # "the **first** Saturday" is no hour
            i + 1 < len(x.tokens) and content_word(x.tokens[i + 1])
        and x.tokens[i + 1] not in TIMES and x.tokens[i + 1].replace(".", "") not in _CLOCK))
        for i, t in enumerate(x.tokens)))


def percent_or_amount(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("10%", "10 gbp") where one text gives a number as a percentage and the other the same
    number as money or before a unit ("get **10%** off" / "get **£10** off", "throttled to
    **50%**" / "to **50 Hz**"): another amount, though the numbers are equal."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        shared = (_percents(x) - _percents(y)) & y.numbers
        if not shared:
            continue
        counted: dict[float, str] = {}  # one pass over the other text: linear in it
        for t, nxt in zip(y.tokens, y.tokens[1:], strict=False):
            n = number(t)
            if n in shared and content_word(nxt):
                counted.setdefault(n, nxt)
        for n in sorted(shared):
            other = " ".join(sorted(y.currencies)) if y.currencies else counted.get(n)
            if other is not None:
                found = f"{show_number(n)}%", f"{show_number(n)} {other}"
                return (found[1], found[0]) if flip else found
    return None


def price_or_measure(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("200 kilograms", "200 gbp") where one text gives a number as money and the other the
    same number in a unit of measure ("orders over **£200**" / "orders over **200 kg**"), with
    no currency in the one and no unit in the other. "Pounds" is left out: "200 pounds" may
    be the £200."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        units = x.units - {"pounds"}
        if not (units and y.currencies) or x.currencies or y.units or not x.numbers & y.numbers:
            continue
        found = (" ".join(sorted(units)), " ".join(sorted(y.currencies)))
        return (found[1], found[0]) if flip else found
    return None


@lru_cache(maxsize=4096)
def _percents(f: Facets) -> frozenset[float]:
    """The numbers a text gives as percentages ("10%", "ten percent")."""
    out = set()
    for i, t in enumerate(f.tokens):
        n = number(t[:-1]) if t.endswith("%") else number(t) if f.tokens[i + 1:i + 2] in (
            ("percent",), ("pct",)) else None
        if n is not None:
            out.add(n)
    return frozenset(out)


#: Words after an hour that keep it an hour ("ten **a.m.**", "6 **o'clock**").
_CLOCK = frozenset(["am", "pm", "o'clock", "oclock", "h", "hrs", "sharp", "till", "noon",
                    "midday", "midnight", *WEEKDAYS, *(d + "s" for d in WEEKDAYS)])


def durations_text(values: tuple[float, ...]) -> str:
    """Durations in days as a person reads them: 0.00347 → "5 minutes", 30 → "30 days"."""
    out = []
    for days in sorted(set(values)):
        whole = [(u, round(days / n)) for u, n in _UNITS
                 if days >= n * 0.995 and abs(days / n - round(days / n)) <= 0.005 * days / n]
        unit, count = whole[0] if whole else next(
            ((u, days / n) for u, n in _UNITS if days >= n), ("ms", days * 86_400_000))
        out.append(f"{count:.3g} {unit[:-1] if count == 1 and unit != 'ms' else unit}")
    return ", ".join(out)


_UNITS = (("years", 365.25), ("months", 30.44), ("weeks", 7.0), ("days", 1.0),
          ("hours", 1 / 24), ("minutes", 1 / 1440), ("seconds", 1 / 86_400),
          ("ms", 1 / 86_400_000))


def durations_differ(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Both texts state durations, and neither's are all found (``close``) among the other's."""
    if not (a and b):
        return False
    sa, sb = sorted(set(a)), sorted(set(b))
    return not (all(_near(x, sb) for x in sa) or all(_near(y, sa) for y in sb)) \
        or _counted_apart(a, b)


#: Durations a text may state for ``_counted_apart`` to pair them one by one (a long text's
#: thousands are compared as sets only).
_PAIRED = 4


def _counted_apart(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """As many durations in each, and paired one by one some are left on both sides: "renew
    the rope rescue qualification **every year** and the first aid certificate every **12
    months**" / "… **every 3 years** and … every 12 months" (the 309th set). As sets the first
    text's one year is found in the second; counted, it states it twice."""
    if len(a) != len(b) or len(a) > _PAIRED:
        return False
    left = list(b)
    for x in a:
        k = next((k for k, y in enumerate(left) if close(x, y)), None)
        if k is None:
            return True
        del left[k]
    return False


def _near(x: float, ordered: list[float]) -> bool:
    """Whether some duration of ``ordered`` (sorted) is ``close`` to ``x``: only its neighbours
    by value need asking, since closeness only grows towards ``x``. A long text states
    thousands of durations, and comparing each with each took seconds."""
    i = bisect.bisect_left(ordered, x)
    return any(close(x, ordered[k]) for k in (i - 1, i) if 0 <= k < len(ordered))


def close(x: float, y: float) -> bool:
    """Two durations within the slack a rewording's rounding needs ("a month" / "30 days")."""
    return abs(x - y) <= _DURATION_SLACK * max(abs(x), abs(y))


def show_number(v: float) -> str:
    """A number as a person writes it; a clock time's code (negative) as "14:30"."""
    if v < 0:
        minutes = int(-v - 1)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    return str(int(v)) if v == int(v) else str(v)


def each_has_more(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Each text states a number or a duration the other does not (each rule alone sees one
    text's values contained in the other's: "held a licence for under **2 years**, £30 a day" /
    "under **25**, £30 a day"). A bare number equals a duration of that many days ("25 vacation
    days" / "25 days of vacation"); a whole-hour clock time its bare hour. Shown as values."""
    def extra(x: Facets, y: Facets) -> list[str]:
        spans = y.durations
        out = [show_number(n) for n in sorted(x.numbers - hours(y.numbers), key=abs)
               if not any(close(n, d) or _counted(n, d, x) for d in spans)]
        out += [durations_text((d,)) for d in x.durations
                if not any(close(d, e) for e in spans) and d not in y.numbers
                and not any(_counted(n, d, y) for n in y.numbers)]
        return out
    ea, eb = extra(a, b), extra(b, a)
    return (", ".join(ea), ", ".join(eb)) if ea and eb else None


def _counted(n: float, days: float, f: Facets) -> bool:
    """``f`` counts ``n`` of a unit it names apart from the number, which makes ``days``:
    "every **4** operating **hours**" / "every four hours of operation"."""
    return any(close(n * UNIT_DAYS[t], days) for t in f.tokens if t in UNIT_DAYS)


_BOUND_WORDS = {"max": "at most", "min": "at least", "gt": "more than", "lt": "less than",
                "eq": "exactly"}


def bounds_differ(a: Facets, b: Facets) -> tuple[str, str, bool] | None:
    """Both texts bound an amount, and not the same way ("at most two" / "more than two";
    "no more than" is read as "at most"); whether a bound stands in a text's subject ("orders of
    **more than** 10 items ship free" / "… **no more than** 10 items …": two rules, both
    true). None when they agree or one states no bound. "Within" is compared on its number
    only: "within 30 minutes" is "in under half an hour", and no bound at all on a text's
    other numbers."""
    ka = {k for k, _ in a.bounds if k != "within"}
    kb = {k for k, _ in b.bounds if k != "within"}
    if not (ka and kb) or ka <= kb or kb <= ka:  # the same kinds of bound overall, yet on
        # one number another: "within 30 days … a penalty of **at least** three times" /
        # "… **up to** three times"
        pa, pb = _bounded(a), _bounded(b)
        pairs = [(x, y) for n in sorted(pa.keys() & pb.keys())
                 if not ((x := _read_within(pa[n], pb[n])) <= (y := _read_within(pb[n], pa[n]))
                         or y <= x)]
        if not pairs:
            return None
        ka, kb = pairs[0]
    end_a, end_b = subject_end(a), subject_end(b)  # once per text: it reads the whole text
    subject = any(i < end_a for _, i in a.bounds) or any(i < end_b for _, i in b.bounds)
    return (", ".join(_BOUND_WORDS[k] for k in sorted(ka)),
            ", ".join(_BOUND_WORDS[k] for k in sorted(kb)), subject)


def _read_within(mine: set[str], theirs: set[str]) -> set[str]:
    """``mine`` with "within" read as the other text's upper bound ("less than", "at most"),
    or "at most"."""
    if "within" not in mine:
        return mine
    return (mine - {"within"}) | (theirs & {"max", "lt"} or {"max"})


def _bounded(f: Facets) -> dict[float, set[str]]:
    """Each bounded number's bounds: the first number at most three words after its bound."""
    out: dict[float, set[str]] = {}
    for kind, i in f.bounds:
        n = next((v for t in f.tokens[i + 1:i + 4] if (v := number(t)) is not None), None)
        if n is not None:
            out.setdefault(n, set()).add(kind)
    return out
