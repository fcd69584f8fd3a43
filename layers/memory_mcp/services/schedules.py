"""How often: a schedule against another one of the same sentence ("purged **every night**" /
"purged **every Sunday**", "**every other** Sunday" / "every Sunday", "the **first** Monday of
the month" / "every Monday", "after each flight day" / "once a week").

Split from ``slots``, whose times and weekday rules see no daily schedule against a weekly
one: these read the words a schedule is written in (every, daily, first/last, after each …).
"""

from __future__ import annotations

import re

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import MONTHS, NUMBER_WORDS, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.opposite_forms import EVERY_COUNTS
from memory_mcp.services.stems import content_word, singular_weekday

#: Words after "every" / "each" that make a daily or hourly schedule.
_DAILY_AFTER = frozenset(["day", "night", "morning", "evening", "afternoon", "hour", "weekday"])
_DAILY = frozenset(["daily", "nightly", "hourly"])
_ALL_WEEK = (("seven", "days", "a", "week"), ("7", "days", "a", "week"))
_LONGER = frozenset(["week", "weekend", "fortnight", "month", "quarter", "year", "season"])
_LONGER_WORDS = frozenset(["weekly", "fortnightly", "biweekly", "monthly", "quarterly", "yearly",
                           "annually"])


def reversed_span(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's span, b's span) where one text's "between X and Y" or "from X to Y" of times is
    the other's "between Y and X": "a lifejacket **between sunrise and sunset**" / "…
    **between sunset and sunrise**, and at least one person on watch carries a VHF" (the
    eighty-eighth set), "between 22:00 and 06:00" / "between 06:00 and 22:00". The night
    against the day: the same two times, the other way round, and the word rules see no
    difference."""
    spans_a, spans_b = _spans(a.tokens), _spans(b.tokens)
    for (x, y), shown in spans_a.items():
        if x != y and (y, x) in spans_b and (x, y) not in spans_b and (y, x) not in spans_a:
            return shown, spans_b[(y, x)]
    return None


def _spans(toks: tuple[str, ...]) -> dict[tuple[str, str], str]:
    """(start, end) → the words, for each "between X and Y" and "from X to / until Y" whose ends
    are times: a clock time, a part of the day, a weekday or a month; or amounts ("from 32 kg
    down to 8")."""
    out: dict[tuple[str, str], str] = {}
    for i, t in enumerate(toks[:-3]):
        joint = _JOINTS.get(t)
        x = _when(toks[i + 1]) if joint is not None and toks[i + 2] in joint else None
        y = _when(toks[i + 3]) if x is not None else None
        if x is not None and y is not None:
            out.setdefault((x, y), " ".join(toks[i:i + 4]))
        elif t == "from" and _AMOUNT.fullmatch(toks[i + 1]):  # "from **32 kg down to 8** kg",
            # "from 8 to 12 Ml/d" / "from 12 Ml/d to 8"
            unit = toks[i + 2]  # a unit between, a word or "ml/d", "km/h"
            k = i + 2 + (not any(c.isdigit() for c in unit) and unit not in _STEP_JOINTS)
            k += k < len(toks) and toks[k] in ("down", "up")
            if k + 1 < len(toks) and toks[k] in _STEP_JOINTS and _AMOUNT.fullmatch(toks[k + 1]):
                out.setdefault((toks[i + 1], toks[k + 1]), " ".join(toks[i:k + 2]))
    return out


#: Amounts a "from … to …" runs between, in order: "sorted by weight **from 8 kg to 32 kg**" /
#: "… **from 32 kg down to 8 kg**" (the hundred-and-thirty-fourth set).
_AMOUNT = re.compile(r"\d+(?:\.\d+)?")
_STEP_JOINTS = frozenset(["to", "until", "till"])


_JOINTS = {"between": ("and",), "from": ("to", "until", "till")}
_SUN = frozenset(["sunrise", "sunset", "dawn", "dusk", "noon", "midday", "midnight"])


def _when(word: str) -> str | None:
    """A time's key ("22:00", "sunset", "fri", "mar"), or None."""
    if _CLOCK.fullmatch(word) or word in _SUN:
        return word
    return WEEKDAYS.get(word) or MONTHS.get(word)


_CLOCK = re.compile(r"\d{1,2}[:.]\d{2}|\d{1,2}(?:am|pm)")


def _daily(f: Facets) -> str | None:
    """"daily", "every night", and "every **clear** night" (one word between, not a weekday
    or a count: "every Monday night" and "every 3 days" are no daily schedule)."""
    toks = f.tokens
    for i, t in enumerate(toks):
        if t in _DAILY or toks[i:i + 4] in _ALL_WEEK:  # "**seven days a week**"
            return " ".join(toks[i:i + 4]) if t in ("seven", "7") else t
        if t not in ("every", "each", "any"):
            continue
        if t == "any" and toks[i + 2:i + 5] == ("of", "the", "week") \
                and toks[i + 1] in _DAILY_AFTER:
            return " ".join(toks[i:i + 5])  # "on **any night of the week**": every night
        if t == "any":
            continue
        if toks[i + 1:i + 2] and toks[i + 1] in _DAILY_AFTER:
            return f"{t} {toks[i + 1]}"
        if toks[i + 2:i + 3] and toks[i + 2] in _DAILY_AFTER and content_word(toks[i + 1]) \
                and singular_weekday(toks[i + 1]) not in WEEKDAYS \
                and not toks[i + 1][:1].isdigit() and toks[i + 1] not in NUMBER_WORDS \
                and toks[i + 1] not in ("other", "second", "few", "alternate"):
            return " ".join(toks[i:i + 3])
    return None


_PLURAL_PARTS = (("mornings",), ("afternoons",), ("evenings",), ("nights",))


#: "every **third** Friday": the period in weeks (or units) an ordinal after "every" names.
_EVERY_NTH = {"other": 2, "second": 2, "alternate": 2, "third": 3, "fourth": 4, "fifth": 5,
              "sixth": 6}


def _every_nth(f: Facets) -> int | None:
    """2 for "every other <day or unit>" (or "every second", "fortnightly"), 3 for "every
    third …", 1 for a plain "every <day or unit>" or a weekday in the plural ("on Wednesdays",
    "Wednesday mornings"), None for neither."""
    toks = f.tokens
    found = None
    for i, t in enumerate(toks):
        if t in ("fortnightly", "biweekly", "bi-weekly"):
            return 2
        if singular_weekday(t) in WEEKDAYS and (singular_weekday(t) != t or toks[
                i + 1:i + 2] in _PLURAL_PARTS):  # "on Wednesdays", "Wednesday mornings"
            found = 1
        if t not in ("every", "each") or i + 1 == len(toks):
            continue  # "**each** Friday afternoon" / "every second Friday" (the 346th set)
        nxt = toks[i + 1]
        after = toks[i + 2] if i + 2 < len(toks) else ""
        if nxt in _EVERY_NTH and (singular_weekday(after) in WEEKDAYS
                            or after in UNIT_DAYS or after in MONTHS):
            return _EVERY_NTH[nxt]  # not "unlike every other street"
        if singular_weekday(nxt) in WEEKDAYS or nxt in UNIT_DAYS or nxt in MONTHS:
            found = 1
    return found


def _every(n: int) -> str:
    """A period in words, as a conflict shows it: "every", "every other", "every third"."""
    return "every" if n == 1 else "every other" if n == 2 else "every " + next(
        w for w, k in _EVERY_NTH.items() if k == n)


def schedule(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A daily or hourly schedule against named weekdays ("purged **every night**" / "purged
    **every Sunday**"), which neither the times rule nor the weekday rule tells apart."""
    oa, ob = _every_nth(a), _every_nth(b)
    if oa is not None and ob is not None and oa != ob:  # "every other Sunday" / "every Sunday"
        return _every(oa), _every(ob)
    da, db = _daily(a), _daily(b)
    wa, wb = a.weekdays or days_named(a), b.weekdays or days_named(b)  # "on weekends"
    if da and not db and wb and not wa:
        return da, ", ".join(sorted(wb))
    if db and not da and wa and not wb:
        return ", ".join(sorted(wa)), db
    na, nb = _nth_weekday(a), _nth_weekday(b)  # "the **first** Monday of every month" /
    # "every Monday": monthly, not weekly
    if bool(na) != bool(nb) and a.weekdays & b.weekdays:
        return (na or "every " + ", ".join(sorted(a.weekdays)),
                nb or "every " + ", ".join(sorted(b.weekdays)))
    pa, pb = _longer_period(a), _longer_period(b)  # "cleaned **every night**" / "**every week**"
    if da and not db and pb and not pa:
        return da, pb
    if db and not da and pa and not pb:
        return pa, db
    for x, y, px, py, flip in ((a, b, pa, pb, False), (b, a, pb, pa, True)):  # "**once a
        # month**" / "**every Monday**": a period longer than a week against weekdays (not
        # "every week on Monday")
        if px and not py and y.weekdays and (not x.weekdays or _monthly_day(x, y, px)) and (
                "week" not in px or (px.startswith("twice") and len(y.weekdays) == 1)):
            # "**twice a week**" / "every Monday": two days a week against one
            days = "every " + ", ".join(sorted(y.weekdays))
            return (days, px) if flip else (px, days)
    ea, eb = _per_event(a), _per_event(b)  # "refilled **after each flight day**" / "refilled
    # **once a week**": on an event, or by the calendar
    if ea and not eb and _by_calendar(b) and not _by_calendar(a):
        return ea, "by the calendar"
    if eb and not ea and _by_calendar(a) and not _by_calendar(b):
        return "by the calendar", eb
    if eb and not ea and pa and not pb:  # "wiped **once a week** and deep cleaned on the last
        return pa, eb  # Sunday" / "wiped **after every session** and …" (the 374th set)
    if ea and not eb and pb and not pa:
        return ea, pb
    return None


def _monthly_day(x: Facets, y: Facets, period: str) -> bool:
    """Whether ``x`` holds on one weekday once in a period longer than a week and ``y`` on
    every one of that weekday: "restocked **once a month on a Friday** afternoon" / "restocked
    **every Friday** afternoon" (the 356th and 359th sets). Not when ``x`` also says every such
    day ("every Friday, and the deep clean once a month")."""
    return "week" not in period and bool(x.weekdays & y.weekdays) \
        and _every_nth(y) == 1 and _every_nth(x) is None


_EVENT_WORDS = frozenset(["after", "before", "on", "between"])


def _per_event(f: Facets) -> str | None:
    """"after each flight day", "before every public session", "at the start of each shift",
    "on every pull request", "between every dog" (the 362nd set): a schedule set by events."""
    toks = f.tokens
    for i in range(len(toks) - 2):
        if (toks[i] in _EVENT_WORDS or (toks[i] == "of" and i and toks[i - 1] in (
                "start", "end", "beginning"))) and toks[i + 1] in ("each", "every") \
                and content_word(toks[i + 2]) and (toks[i + 2] not in EVERY_COUNTS
                                                   or toks[i + 2] == "shift"
                                                   or toks[i + 3:i + 4] == ("shift",)):
            return " ".join(toks[i:i + 3])  # "after every **night shift**": an event
    return None


def _by_calendar(f: Facets) -> bool:
    """A period or a day says when: "once a week", "weekly", "on Mondays"."""
    return bool(f.durations or f.weekdays or f.times or f.months)


_NTH = frozenset("first second third fourth last 1st 2nd 3rd 4th final".split())  # noqa: SIM905


def _nth_weekday(f: Facets) -> str | None:
    """"first Monday", "last Friday": one weekday of each month, not every one."""
    toks = f.tokens
    return next((f"{t} {toks[i + 1]}" for i, t in enumerate(toks[:-1])
                 if t in _NTH and singular_weekday(toks[i + 1]) in WEEKDAYS
                 and not (t in ("second", "2nd") and i and toks[i - 1] in ("every", "each"))
                 # "every second Friday" is every other one; "the first Monday **after each
                 # release**" is no monthly day
                 and any(w in ("month", "months", "quarter", "monthly") for w in
                         toks[max(0, i - 5):i + 7])), None)


def _longer_period(f: Facets) -> str | None:
    """"every week", "each month": a period longer than a day (a schedule the daily one is not)."""
    toks = f.tokens
    for i, t in enumerate(toks):
        if t in _LONGER_WORDS:
            return t  # "archived **monthly**"
        if t in ("once", "twice") and toks[i + 1:i + 2] in (("a",), ("per",)) \
                and toks[i + 2:i + 3] and toks[i + 2] in _LONGER:
            return " ".join(toks[i:i + 3])  # "refuelled **once a week**"
        if t not in ("every", "each"):
            continue
        nxt = [w for w in toks[i + 1:i + 3] if w not in ("other", "second", "few") and not
               w[:1].isdigit() and w not in NUMBER_WORDS][:1]  # "every **other** week"
        if nxt and (nxt[0] in _LONGER or nxt[0].removesuffix("s") in _LONGER):
            return f"{t} {' '.join(toks[i + 1:toks.index(nxt[0], i + 1) + 1])}"
    return None


def days_named(f: Facets) -> frozenset[str]:
    """The weekdays ``f`` names, a weekend read as Saturday and Sunday where it names no weekday
    ("**every weekend**" / "on **Saturdays only**", the 201st set, are other days)."""
    toks = f.tokens
    if f.weekdays or any(singular_weekday(p) in WEEKDAYS for t in toks if "-" in t
                         for p in t.split("-")):  # "Mon-Wed"
        return f.weekdays
    said = any(t in ("weekend", "weekends") and toks[max(0, i - 2):i] != ("over", "the")
               for i, t in enumerate(toks))  # a schedule, not "stuck in a depot over the
    work = any(t in ("weekday", "weekdays") for t in toks)  # weekend"; "on **weekdays**" /
    return _WEEKEND if said else _WORKDAYS if work else f.weekdays  # "every day" (the 249th)


_WEEKEND, _WORKDAYS = frozenset(["sat", "sun"]), frozenset(["mon", "tue", "wed", "thu", "fri"])


#: "twice a year", "three times a year": more than once in a year.
_YEARLY_COUNTS = frozenset(["twice", "two", "three", "four", "2", "3", "4"])


def month_or_count(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("twice a year", "every january") where one text does a thing more than once a year and
    the other every year in one month: "sent for calibration **twice a year**" / "… **every
    January**" (the 398th set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        count = next((" ".join(tx[i:i + 3]) for i in range(len(tx) - 2)
                      if tx[i] in _YEARLY_COUNTS
                      and (tx[i + 1:i + 3] == ("a", "year")
                           or tx[i + 1:i + 4] == ("times", "a", "year"))), None)
        month = next((f"every {ty[j + 1]}" for j in range(len(ty) - 1)
                      if ty[j] in ("every", "each") and ty[j + 1] in MONTHS), None)
        if count is not None and month is not None and not any(t in MONTHS for t in tx):
            return (month, count) if flip else (count, month)
    return None
