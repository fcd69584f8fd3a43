"""Do two texts state the same fact? The agreement rules a wrong forget or version cannot pass.

Embedding similarity alone cannot tell "Bob prefers dark mode" from "Alice prefers dark mode":
with the local model such near misses score 0.65-0.97, higher than many true rewordings
(bench/forget_quality.py). So forgetting by content, and turning a save into a new version, also
require the two texts to *agree* on what embeddings blur: who (names, identifiers), which
environment, which thing of a kind ("payments team" vs "platform team"), how much (numbers,
durations), when (weekdays, months) and whether (negation).

A conflict is a *subject* conflict when the texts are about different things, and a *value*
conflict when they say different things about the same thing. Forget refuses on either; save
refuses to version only on a subject conflict, since a changed value ("deploys move from Friday
to Thursday") is exactly what a new version records.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_TOKEN = re.compile(r"[#@]?\w+(?:[.:'\u2019\-/]\w+)*%?")

STOP_WORDS = frozenset("""
a about above after again all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each every few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself of off on once only or other our ours ourselves out over own same
she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves get gets got must may might shall via per
within across along among around behind beyond despite inside onto outside since toward
towards upon versus whereas whether though although unless rather always usually often
sometimes still already yet ever even also
""".split())  # noqa: SIM905

NEGATIONS = frozenset("""
not no never none nobody nothing neither nor without cannot n't isn't aren't wasn't weren't
don't doesn't didn't can't couldn't won't wouldn't shouldn't hasn't haven't hadn't mustn't
""".split())  # noqa: SIM905

#: Words naming a deployment environment: two texts about different ones are different facts.
ENVIRONMENTS = {"production": "production", "prod": "production", "staging": "staging",
                "stage": "staging", "dev": "development", "development": "development",
                "qa": "qa", "test": "test", "testing": "test", "sandbox": "sandbox",
                "preview": "preview", "uat": "uat"}

WEEKDAYS = {name: name[:3] for name in
            ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")}
WEEKDAYS.update({"mon": "mon", "tue": "tue", "tues": "tue", "wed": "wed", "thu": "thu",
                 "thur": "thu", "thurs": "thu", "fri": "fri"})
MONTHS = {name: name[:3] for name in
          ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")}
MONTHS.update({m[:3]: m[:3] for m in list(MONTHS) if m != "may"})
MONTHS.update({"sept": "sep"})

_SMALL_NUMBERS = """zero one two three four five six seven eight nine ten eleven twelve thirteen
fourteen fifteen sixteen seventeen eighteen nineteen twenty"""
NUMBER_WORDS: dict[str, float] = {w: float(i) for i, w in enumerate(_SMALL_NUMBERS.split())}
NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                     "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
                     "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
                     "half": 0.5, "once": 1, "twice": 2})
#: A number followed by one of these is a duration; durations compare in days, with slack.
UNIT_DAYS = {"minute": 1 / 1440, "minutes": 1 / 1440, "hour": 1 / 24, "hours": 1 / 24,
             "day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30.44, "months": 30.44,
             "year": 365.25, "years": 365.25}
_DURATION_SLACK = 0.03
_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?(am|pm)?$")
_PREAMBLE = re.compile(
    r"^\s*(?:please\s+)?(?:forget|(?:remove|delete|drop)\s+(?:the\s+)?(?:fact|memory|note)s?)"
    r"(?:\s+(?:that|about|saying))?\s*[:,-]?\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Facets:
    """What the rules compare, read once from a text."""

    tokens: tuple[str, ...]        # lower-cased tokens in order, stop words kept, no #/@/'s
    stems: frozenset[str]          # content stems (no stop words, no negations)
    names: frozenset[str]          # proper names and identifiers, lower-cased
    numbers: frozenset[float]      # bare numbers and clock times (minutes past midnight)
    durations: tuple[float, ...]   # in days
    weekdays: frozenset[str]
    months: frozenset[str]
    environments: frozenset[str]
    negated: bool


@dataclass(frozen=True)
class Conflict:
    """One reason the two texts are not the same fact."""

    kind: str        # name | environment | thing | number | duration | weekday | month | negation
    subject: bool    # True: different things; False: a different value of the same thing
    detail: str      # for people: 'names differ: "Bob" vs "Alice"'


def strip_preamble(text: str) -> str:
    """'forget that X' → 'X': the request's wrapper is not part of the fact."""
    stripped = _PREAMBLE.sub("", text, count=1).strip()
    return stripped or text.strip()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball stem, cached: the pure-Python stemmer costs ~0.1 ms a word and the rules compare
    the same words many times (without the cache it was ~90 ms of every save, in the lock)."""
    return str(_stemmer().stemWord(word.lower().replace("\u2019", "'").removesuffix("'s")))


@lru_cache(maxsize=1)
def _stemmer() -> Any:
    """Loaded on first use: ``snowballstemmer`` imports every language's stemmer, which a Lambda
    cold start would otherwise pay before its first request (most of which never stem)."""
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=4096)
def facets(text: str) -> Facets:
    raw = _TOKEN.findall(text.replace("\u2019", "'"))
    lower = [t.lower() for t in raw]
    names: set[str] = set()
    numbers: set[float] = set()
    durations: list[float] = []
    stems: set[str] = set()
    for i, (tok, low) in enumerate(zip(raw, lower, strict=True)):
        nxt = lower[i + 1].replace(".", "") if i + 1 < len(lower) else ""
        value = _number(low)
        if value is None and low in ("a", "an") and nxt in UNIT_DAYS:
            value = 1.0
        if value is not None:
            if nxt in UNIT_DAYS:
                durations.append(value * UNIT_DAYS[nxt])
            elif nxt in ("am", "pm") and _TIME.match(low + nxt):
                numbers.add(_clock(low + nxt))
            else:
                numbers.add(value)
        elif _is_name(tok) and low not in WEEKDAYS and _singular(low) not in WEEKDAYS \
                and (low not in MONTHS or (low == "may" and tok != "May")):
            names.add(_bare(low))
        for part in re.split(r"[\-/]", _bare(low)):
            if _content(part):
                stems.add(stem(part))
    return Facets(
        tokens=tuple(_bare(t) for t in lower), stems=frozenset(stems), names=frozenset(names),
        numbers=frozenset(numbers), durations=tuple(durations),
        weekdays=frozenset(WEEKDAYS[_singular(w)] for w in lower if _singular(w) in WEEKDAYS),
        months=frozenset(MONTHS[w] for w, t in zip(lower, raw, strict=True)
                         if w in MONTHS and (w != "may" or t == "May")),
        environments=frozenset(ENVIRONMENTS[w] for w in lower if w in ENVIRONMENTS),
        negated=any(w in NEGATIONS or w.endswith("n't") for w in lower),
    )


def _bare(token: str) -> str:
    """'#support-escalations' → 'support-escalations'; "website's" → 'website'."""
    return token.lstrip("#@").removesuffix("'s")


def _content(word: str) -> bool:
    return bool(word) and word not in STOP_WORDS and word not in NEGATIONS \
        and _number(word) is None


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and word[:-1] in WEEKDAYS else word


def _number(token: str) -> float | None:
    token = token.rstrip("%")
    if token in NUMBER_WORDS:
        return float(NUMBER_WORDS[token])
    m = _TIME.match(token)
    if m and (m.group(2) or m.group(3)):
        return _clock(token)
    try:
        return float(token.replace(",", ""))
    except ValueError:
        ordinal = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", token)
        return float(ordinal.group(1)) if ordinal else None


def _clock(token: str) -> float:
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


def _is_name(token: str) -> bool:
    """Capitalised words, CamelCase and acronyms, #channels and @handles, letter-digit ids.

    A sentence's first word counts too ("Alice prefers ..."); an ordinary word capitalised only
    because it starts the sentence is found among the other text's words and so never
    conflicts."""
    if token[0] in "#@":
        return len(token) > 1
    if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
        return True
    if token.lower() in STOP_WORDS or token.lower() in NEGATIONS:
        return False
    return token[0].isupper() or any(c.isupper() for c in token[1:])


def _same_word(a: str, b: str, ratio: float) -> bool:
    """Equal, the same stem, or one a prefix making up most of the other (Postgres/PostgreSQL).

    The rules ask it through ``_Pool.has`` (indexed); this plain form is its definition, which
    ``tests/test_agreement_pool.py`` checks the pool against."""
    if a == b or stem(a) == stem(b):
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and long_.startswith(short) and len(short) >= ratio * len(long_)


_SCAN = 64


@dataclass(frozen=True)
class _Pool:
    """The words of the other text, indexed so that "does ``x`` match any of them"
    (``_same_word``) costs a few set lookups and one sorted-range scan instead of a comparison
    with every word: comparing two long texts word by word was quadratic (46 s for two 10,000-
    character texts), and any writer could make a save pay that."""

    words: frozenset[str]
    stems: frozenset[str]
    ordered: tuple[str, ...]

    def has(self, x: str, ratio: float) -> bool:
        if x in self.words or stem(x) in self.stems:
            return True
        # x the shorter one: words starting with x, x making up at least `ratio` of them
        if len(x) >= 3:  # at most _SCAN of them: past that, "no match" (the side that refuses)
            i = bisect.bisect_right(self.ordered, x)
            for w in self.ordered[i : i + _SCAN]:
                if not w.startswith(x):
                    break
                if len(x) >= ratio * len(w):
                    return True
        # x the longer one: a prefix of x (3+ characters, at least `ratio` of x) is a word
        return any(x[:k] in self.words for k in range(max(3, math.ceil(ratio * len(x))), len(x)))


@lru_cache(maxsize=1024)
def _pool(words: frozenset[str]) -> _Pool:
    return _Pool(words, frozenset(stem(w) for w in words), tuple(sorted(words)))


def _unmatched_names(mine: Facets, other: Facets) -> list[str]:
    """Names of one text found nowhere in the other (as a name or as an ordinary word)."""
    pool = _pool(frozenset(other.names | set(other.tokens)))
    return sorted(n for n in mine.names if not pool.has(n, 0.75))


def _swapped_modifiers(a: Facets, b: Facets) -> tuple[str, str] | None:
    """'payments team' vs 'platform team': another word just before the same content word.

    The differing word must occur nowhere in the other text, so a reordering ("analytics data
    warehouse" / "analytics warehouse") is not a swap."""
    def heads(f: Facets, other: Facets) -> dict[str, str]:
        out: dict[str, str] = {}
        whole = _pool(frozenset(other.tokens))
        parts = _pool(frozenset(p for t in other.tokens for p in (t, *re.split(r"[\-/]", t))))
        for x, h in zip(f.tokens, f.tokens[1:], strict=False):
            head = re.split(r"[\-/]", h)[0]
            if not (_content(head) and stem(head) in other.stems):
                continue
            compound = bool(re.search(r"[\-/]", x))
            last = re.split(r"[\-/]", x)[-1]
            if not _content(last) or _singular(last) in WEEKDAYS or last in MONTHS:
                continue  # a changed day or month is a value, compared on its own
            if not (whole if compound else parts).has(x, 0.0):
                out[stem(head)] = x
        return out

    mine, theirs = heads(a, b), heads(b, a)
    for head, word in mine.items():
        if head in theirs:
            return word, theirs[head]
    return None


def _durations_differ(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    def close(x: float, y: float) -> bool:
        return abs(x - y) <= _DURATION_SLACK * max(abs(x), abs(y))
    return bool(a and b) and not (all(any(close(x, y) for y in b) for x in a)
                                  or all(any(close(x, y) for x in a) for y in b))


def conflicts(request: str, stored: str) -> list[Conflict]:
    """Every reason ``request`` and ``stored`` are not the same fact (empty: they agree)."""
    a, b = facets(strip_preamble(request)), facets(stored)
    out: list[Conflict] = []
    only_a, only_b = _unmatched_names(a, b), _unmatched_names(b, a)
    if only_a and only_b:
        out.append(Conflict("name", True, f"names differ: {_q(only_a)} vs {_q(only_b)}"))
    if a.environments and b.environments and a.environments != b.environments:
        out.append(Conflict("environment", True, f"environments differ: "
                            f"{_q(sorted(a.environments))} vs {_q(sorted(b.environments))}"))
    swap = _swapped_modifiers(a, b)
    if swap is not None:
        out.append(Conflict("thing", True, f'different things: "{swap[0]}" vs "{swap[1]}"'))
    if a.numbers and b.numbers and not (a.numbers <= b.numbers or b.numbers <= a.numbers):
        out.append(Conflict("number", False, f"numbers differ: {_nums(a.numbers)} vs "
                                             f"{_nums(b.numbers)}"))
    if _durations_differ(a.durations, b.durations):
        out.append(Conflict("duration", False, "durations differ"))
    for kind, x, y in (("weekday", a.weekdays, b.weekdays), ("month", a.months, b.months)):
        if x and y and x != y:
            out.append(Conflict(kind, False, f"{kind}s differ: {_q(sorted(x))} vs {_q(sorted(y))}"))
    if a.negated != b.negated:
        out.append(Conflict("negation", False, "one says the opposite of the other"))
    return out


def _q(items: list[str]) -> str:
    return ", ".join(f'"{i}"' for i in items)


def _nums(values: frozenset[float]) -> str:
    def show(v: float) -> str:
        if v < 0:
            minutes = int(-v - 1)
            return f"{minutes // 60:02d}:{minutes % 60:02d}"
        return str(int(v)) if v == int(v) else str(v)
    return ", ".join(show(v) for v in sorted(values, key=abs))

