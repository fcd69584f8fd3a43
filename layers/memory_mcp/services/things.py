"""Which thing a text is about, when two texts name things of one kind: a word swapped
before the same noun ("the **payments** team" / "the **platform** team") and things a day or
month names ("the **March** release" / "the **April** release").

Apart from ``services/agreement.py``, which lists every conflict of two texts, because these
rules read a text's noun phrases, and the numbered-thing rule asks ``else_differs`` too.
"""

from __future__ import annotations

import math
import re

from memory_mcp.services import grammar, numbered, values
from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import (
    COMPACT,
    ENVIRONMENTS,
    MONTHS,
    ORDINAL,
    TIMES,
    UNIT_DAYS,
    WEEKDAYS,
)
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, singular_weekday, stem
from memory_mcp.services.word_pool import parts_pool, pool

_DETERMINERS = frozenset(["the", "a", "an", "our", "their", "its", "this", "that", "next",
                          "last", "each"])
_PERIODS = frozenset(["week", "month", "year", "quarter", "sprint", "weekend"])
RELATIVE = frozenset(["this", "next", "last", "previous", "coming", "following"])


def dated_things(f: Facets) -> frozenset[str]:
    """Things a day, month or relative period *names*, as opposed to dates a fact states: "the
    **March release**", "the **Monday standup**", "**this week**" / "**next week**". "The March
    release freezes on the 20th" and "the April release …" are two releases; "the offsite is in
    March" → "… in April" moves one offsite (a value, compared by the month rule)."""
    out: set[str] = set()
    tokens = f.tokens
    for i, token in enumerate(tokens[:-1]):
        before = tokens[i - 1] if i else ""
        after = tokens[i + 1]
        dated = (token in MONTHS or singular_weekday(token) in WEEKDAYS) \
            and before in _DETERMINERS and content_word(after) and after not in MONTHS \
            and singular_weekday(after) not in WEEKDAYS
        if dated or (token in RELATIVE and after in _PERIODS):
            out.add(f"{token} {after}")
    return frozenset(out)


def core_stems(f: Facets) -> frozenset[str]:
    """A fact's content stems without its days, months and numbers: what two entries of one
    list share ("standup", "host", "lena" in "the standup host on Monday is Lena"). Capitals
    play no part."""
    out: set[str] = set()
    for token in f.tokens:
        for part in re.split(r"[\-/]", token):
            if content_word(part) and part not in MONTHS and singular_weekday(part) not in WEEKDAYS:
                out.add(stem(part))
    return frozenset(out)


def else_differs(a: Facets, b: Facets, *, numbers: frozenset[float] = frozenset(),
                  days: frozenset[str] = frozenset(), words: frozenset[str] = frozenset()
                  ) -> bool:
    """Whether the texts differ in anything besides ``numbers``, the days or months in
    ``days`` and ``words``: other words, other numbers, durations, times, days or months."""
    skip = frozenset(stem(w) for w in words)
    if core_stems(a) - skip != core_stems(b) - skip:
        return True
    na, nb = a.numbers - numbers, b.numbers - numbers
    if na and nb and not (na <= nb or nb <= na):
        return True
    if values.durations_differ(a.durations, b.durations) or (a.times != b.times):
        return True
    short = frozenset(WEEKDAYS.get(singular_weekday(d), MONTHS.get(d, d)) for d in days)
    return (a.weekdays - short) != (b.weekdays - short) or (a.months - short) != (b.months - short)


def numbers_in(named: str) -> frozenset[float]:
    """The numbers of "priority 1, priority 2" as ``Facets.numbers`` holds them."""
    out = set()
    for word in named.replace(",", " ").split():
        try:
            value = float(word)
        except ValueError:
            continue
        if math.isfinite(value):
            out.add(value)
    return frozenset(out)


def first_words(things: frozenset[str]) -> frozenset[str]:
    """"march release" → "march": the day or month a dated thing is named by."""
    return frozenset(t.split(" ", 1)[0] for t in things)


_ENVIRONMENT_WORDS = frozenset(ENVIRONMENTS) | {"live"}


def swapped_modifiers(a: Facets, b: Facets) -> tuple[str, str] | None:
    """'payments team' vs 'platform team': another word just before the same content word.

    The differing word must occur nowhere in the other text, so a reordering ("analytics data
    warehouse" / "analytics warehouse") is not a swap. (Letting one side's word occur elsewhere
    in the other text, "the **risk** committee" / "credit limits … the **credit** committee",
    refused eight rewordings of the forget sets for every near miss it caught.)"""
    def heads(f: Facets, other: Facets) -> dict[str, str]:
        out: dict[str, str] = {}
        whole = pool(frozenset(other.tokens))
        parts = parts_pool(other)
        verbs = grammar.predicates(f)
        for i, (x, h) in enumerate(zip(f.tokens, f.tokens[1:], strict=False)):
            if i in verbs:
                continue  # a reworded verb before its object ("likes" / "enjoys" climbing)
            head = re.split(r"[\-/]", h)[0]
            if not (content_word(head) and stem(head) in other.stems):
                continue
            compound = bool(re.search(r"[\-/]", x))
            last = re.split(r"[\-/]", x)[-1]
            if not (content_word(last) or ORDINAL.fullmatch(last)) \
                    or singular_weekday(last) in WEEKDAYS or last in MONTHS:
                continue  # a changed day or month is a value, compared on its own
            if COMPACT.fullmatch(last):
                continue  # "24h notice": a duration, compared by its own rule
            if not (whole if compound else parts).has(x, 0.0):
                out[stem(head)] = x
        return out

    mine, theirs = heads(a, b), heads(b, a)
    for head, word in mine.items():
        other = theirs.get(head)
        if other is None:
            continue
        if {word, other} <= _ENVIRONMENT_WORDS:
            continue  # two environments: their own rule's ("live" / "production" agree)
        if word in TIMES and other in TIMES:
            continue  # two frequencies: the times rule's ("yearly" / "annual" targets agree)
        if not (ORDINAL.fullmatch(word) and ORDINAL.fullmatch(other)):
            # "the **ground** floor" / "the **third** floor": another place; two ordinals
            # ("third" / "fourth" floor) are two numbers, a value the numbers rule compares;
            # a frequency and a word ("**night** shift" / "**day** shift") two things
            return word, other
    return None


def crossed_environments(a: Facets, b: Facets) -> tuple[str, str] | None:
    """The same environments holding the same values the other way round: "**production**
    runs 3.4.1 while **staging** stays on 3.3.9" / "**staging** runs 3.4.1 while
    **production** stays on 3.3.9". Each environment is paired with the first value written
    with digits after it (before the next environment); a rewording that names them in the
    other order moves their values with them."""
    def pairs(f: Facets) -> dict[str, str]:
        out: dict[str, str] = {}
        env: str | None = None
        for t in f.tokens:
            if t in ENVIRONMENTS and ENVIRONMENTS[t] in f.environments:
                env = ENVIRONMENTS[t]
            elif env is not None and any(ch.isdigit() for ch in t):
                out.setdefault(env, t)
                env = None
        return out

    if len(a.environments) < 2 or a.environments != b.environments:
        return None
    pa, pb = pairs(a), pairs(b)
    for env in sorted(pa.keys() & pb.keys()):
        if pa[env] != pb[env] and pa[env] in pb.values() and pb[env] in pa.values():
            return f"{env} {pa[env]}", f"{env} {pb[env]}"
    return None



def ordinal_thing(a: Facets, b: Facets) -> tuple[str, str] | None:
    """One of the things, against the things: "the **18th green** is mowed at 3.2 mm" /
    "**greens** are mowed at 3.2 mm". An ordinal before a noun the other text names with no
    number or ordinal before it. Only an ordinal in digits, before no word of time: "every
    **second Wednesday**", "the **last working** day" are schedules."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        for first, noun in zip(x.tokens, x.tokens[1:], strict=False):
            if not (_NTH.fullmatch(first) and content_word(noun)) or _timely(noun) \
                    or float(first[:-2]) in y.numbers:  # "grade 5" / "5th grade"
                continue
            head = stem(noun)
            bare = [t for i, t in enumerate(y.tokens) if stem(t) == head and not (
                i and (y.tokens[i - 1][:1].isdigit() or ORDINAL.fullmatch(y.tokens[i - 1])))]
            if bare and not any(ORDINAL.fullmatch(t) for t in y.tokens):
                found = f"{first} {noun}", bare[0]
                return (found[1], found[0]) if flip else found
        mine, theirs = numbered.identifiers(x), numbered.identifiers(y)
        for head in sorted(mine.keys() - theirs.keys()):  # "**Crane 14** stops lifting"
            # / "**Cranes** stop lifting": one of them, against all (not "lanes 1 to 12",
            # "lines 200 mm": a plural before a number is a range or a measure)
            if all(n.split(" ", 1)[0].endswith("s") for n, _ in mine[head]):
                continue
            plural = next((t for t in y.tokens if stem(t) == head and t.endswith("s")
                           and not any(stem(u) == head and u != t for u in x.tokens
                                       if u.endswith("s"))), None)
            if plural is not None:
                found = min(mine[head])[0], plural
                return (found[1], found[0]) if flip else found
    return None


_NTH = re.compile(r"\d+(?:st|nd|rd|th)")


def _timely(word: str) -> bool:
    return singular_weekday(word) in WEEKDAYS or word in MONTHS or word in TIMES \
        or word in UNIT_DAYS or word in _PERIODS


_DECIMAL = re.compile(r"\d+\.\d+")


def other_decimals(a: Facets, b: Facets) -> tuple[str, str] | None:
    """Numbers written with a decimal point that each text has and the other lacks, as written:
    "the Genesis **2.1** controller" / "the Genesis **2.0** controller", where "2.0" equals
    the 2 of "Kiln 2" and the numbers alone looked contained."""
    da = {t for t in a.tokens if _DECIMAL.fullmatch(t)}
    db = {t for t in b.tokens if _DECIMAL.fullmatch(t)}
    if da - db and db - da and not ({float(t) for t in da} <= {float(t) for t in db}
                                    or {float(t) for t in db} <= {float(t) for t in da}):
        return ", ".join(sorted(da - db)), ", ".join(sorted(db - da))
    return None


#: Roman numerals a model or a mark is numbered by ("Mk **III**"), by value.
ROMAN = {w: float(i) for i, w in enumerate(
    "i ii iii iv v vi vii viii ix x xi xii".split(), 1)}  # noqa: SIM905


def _value(token: str) -> float | None:
    """"3", "three" and "iii" as 3.0 ("Mk 3" / "Mk III": one model)."""
    return ROMAN.get(token, number(token))


def other_model(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("element 2", "element 5d"): the same name followed by another model number or mark in
    the other text ("iTero Element **2**" / "… Element **5D**", "Alpha Mk **III**" / "… Mk
    **II**"): another product, where the numbers rule sees no number ("5D") or none differing.
    """
    ma, mb = _models(a), _models(b)
    for name in sorted(ma.keys() & mb.keys()):
        x, y = ma[name], mb[name]
        if not x & y and not {_value(v) for v in x} & {_value(v) for v in y} - {None}:
            return f"{name} {min(x)}", f"{name} {min(y)}"
    return None


def _models(f: Facets) -> dict[str, set[str]]:
    """Name → the model tokens written right after it ("element" → {"5d"})."""
    out: dict[str, set[str]] = {}
    for name, tok in zip(f.tokens, f.tokens[1:], strict=False):
        if name in f.names and name.isalpha() and ((tok in ROMAN and tok not in ("i", "v", "x"))
                                                   or (tok[:1].isdigit() and tok.isalnum())):
            out.setdefault(name, set()).add(tok)
    return out
