"""What the agreement rules read from a text: tokens, content stems, names, numbers, clock
times, durations, weekdays, months, environments and negation (``facets``).

Apart from ``services/agreement.py`` (which compares two texts' facets) because reading a text
is its own concern with its own lexicon, and both forget and save-time versioning call it for
every candidate: ``facets`` and ``stem`` are cached here, once per process.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from memory_mcp.services import negation
from memory_mcp.services.environments import environments
from memory_mcp.services.lexicon import (
    COMPACT,
    COMPACT_UNITS,
    CURRENCIES,
    CURRENCY,
    ENVIRONMENTS,
    MONTHS,
    NEGATIONS,
    ORDINAL,
    RUNNING,
    STOP_WORDS,
    TIMES,
    UNIT_DAYS,
    WEEKDAYS,
)
from memory_mcp.services.measured import COUNTED, measured_units
from memory_mcp.services.numerals import bounds, clock, is_clock, number, prices, spoken
from memory_mcp.services.short_forms import degrees, expand
from memory_mcp.services.stems import content_word, singular_weekday, stem

#: An e-mail address is one token (and a name): "conflicts@" and "intake@" the same firm are
#: two addresses, not one word each and a shared "@harlowlaw.com". A minus sign before a
#: number is a token ("-18": "minus", "18"), so "-18 °C" and "18 °C" differ.
_SPELLED = re.compile(r"(\d+(?:\.\d+)?)-(second|minute|hour|day|week|month|year)")
_JOINED = re.compile(r"\d+(?:[\-/.]\d+)+%?")  # "14-16%" too (the hundred-and-forty-second set)
_TOKEN = re.compile(r"[\w.+\-]+@\w[\w\-]*(?:\.[\w\-]+)+|(?<![\w\-])[-\u2212\u2013](?=\d)"
                    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|[#@]?\w+(?:[.:'\u2019\-/]\w+)*%?")


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
    times: frozenset[str]          # parts of the day and frequencies (``TIMES``)
    negations: int                 # negation words: "not encrypted and not tested" has two
    currencies: frozenset[str] = frozenset()  # "$25" / "25 euros": another amount
    prices: frozenset[float] = frozenset()    # "costs £6" / "6 for £5": amounts marked as money
    units: frozenset[str] = frozenset()       # "18 celsius" / "18 fahrenheit", "10 gigabytes"
    negatives: frozenset[float] = frozenset()  # numbers after a minus sign: "-18" / "18"
    bounds: tuple[tuple[str, int], ...] = ()   # "at most" (max), "over" (gt), … and where
    negated: tuple[frozenset[str], ...] = ()    # stems around each denial (``negation.denied``)
    contrasts: tuple[frozenset[str], ...] = ()  # stems after each "rather … than", "instead of"
    excluded: tuple[frozenset[str], ...] = ()   # stems after each contrasting "not" / "never"


#: Past this many characters two texts are first compared as word sets, before any rule is
#: read (``agreement.conflicts``).
LONG_TEXT = 4_000
#: A text longer than this has its facets cached apart, in a cache of a few entries: facets
#: grow with the text (~25 KB at 1,000 characters, ~2 MB at 100,000: every token), so the facts'
#: cache of 4,096 entries, filled with long texts by one writer, would hold gigabytes.
CACHED_CHARS = 1_000


def facets(text: str) -> Facets:
    """What the rules read from ``text``, cached once per process (short and long texts
    apart, ``CACHED_CHARS``): forget and versioning compare the same texts many times."""
    return (_short_facets if len(text) <= CACHED_CHARS else _long_facets)(text)


def tokens(text: str) -> tuple[list[str], list[str]]:
    """The text's tokens as written and lower-cased (NFC, as the rest of the rules read it),
    with short forms spelled out (``services/short_forms.py``)."""
    text = degrees(unicodedata.normalize("NFC", text).replace("\u2019", "'")
                   .replace("\u00d7", " x "))  # a multiplication sign: "40 x 30 cm"
    raw = expand(_TOKEN.findall(text))
    return raw, [t.lower() for t in raw]


def _weekdays(lower: list[str]) -> frozenset[str]:
    return frozenset(WEEKDAYS[singular_weekday(w)] for w in lower
                     if singular_weekday(w) in WEEKDAYS)


def _months(lower: list[str], raw: list[str]) -> frozenset[str]:
    found = {MONTHS[w] for i, (w, t) in enumerate(zip(lower, raw, strict=True))
             if w in MONTHS and (w != "may" or (t == "May" and not _asks(lower, i)))}
    for w, t in zip(lower, raw, strict=True):  # "Dec-Feb", "mid-Nov", "June-August"
        if "-" in w:
            found.update(MONTHS[p] for p, q in zip(w.split("-"), t.split("-"), strict=False)
                         if p in MONTHS and (p != "may" or q == "May"))
    return frozenset(found)


def dates(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The weekdays and months ``text`` names, as ``facets`` reads them: all search needs of
    every hit (``matching.other_date``). A long text is only tokenised for it (a few
    milliseconds), not read in full (~0.4 s at 100,000 characters)."""
    if len(text) <= CACHED_CHARS:
        f = facets(text)
        return f.weekdays, f.months
    raw, lower = tokens(text)
    return _weekdays(lower), _months(lower, raw)


def _read(text: str) -> Facets:
    raw, lower = tokens(text)
    names: set[str] = set()
    numbers: set[float] = set()
    durations: list[float] = []
    stems: set[str] = set()
    read = spoken(lower, numbers, durations)  # "half past seven", "twice a year", ...
    labelled = frozenset(_LABELLED.findall(text)) if "A" in raw else frozenset()
    for i, (tok, low) in enumerate(zip(raw, lower, strict=True)):
        nxt = lower[i + 1].replace(".", "") if i + 1 < len(lower) else ""
        once = low == "once" and nxt in _CLAUSE_OPENERS  # "once there are …": no count
        value = None if i in read or once else number(low)
        if value is None and _JOINED.fullmatch(low):  # "9-5", "2024-01-05", "555-0100"
            parts = [float(p) for p in re.split(r"[\-/.]", low.rstrip("%"))]
            if nxt in UNIT_DAYS and len(parts) == 2 and "-" in low:  # "2-4 **hours**": a
                durations.extend(p * UNIT_DAYS[nxt] for p in parts)  # range of durations
            else:
                numbers.update(parts)
            continue
        compact = COMPACT.fullmatch(low) or _SPELLED.fullmatch(low)
        if compact and tok.endswith("D"):
            compact = None  # "3D printer"
        if compact and i not in read:  # "30s", "200ms", "2h", "10-minute": a duration
            unit = compact.group(2)
            per = COMPACT_UNITS.get(unit) or UNIT_DAYS[unit]
            durations.append(float(compact.group(1)) * per)
            continue
        counted = COUNTED.fullmatch(low)
        if value is None and counted and i not in read:  # "a **35-tonne** limit"
            value = float(counted.group(1).replace(",", ""))
            nxt = ""  # its unit is written into it: not a duration of the next word
        if value is None and low in ("a", "an", "per") and nxt in UNIT_DAYS and nxt != "second" \
                and i not in read and lower[i + 2:i + 3] != ["of"]:  # "a quarter of the staff"
            value = 1.0
        if value is not None and nxt in RUNNING and i + 2 < len(lower) \
                and lower[i + 2] in UNIT_DAYS:  # "10 **consecutive** weeks" is 10 weeks
            nxt = lower[i + 2]
        if value is not None:
            if nxt in UNIT_DAYS and not ORDINAL.fullmatch(low):  # "the first day" is
                # a position, "one day" a duration
                durations.append(value * UNIT_DAYS[nxt])
            elif nxt in ("am", "pm") and is_clock(low + nxt):
                numbers.add(clock(low + nxt))
            else:
                numbers.add(value)
        elif i not in read and (_is_name(tok) or _label(raw, i, labelled)) \
                and not (i == 0 and _instruction(text, lower)) \
                and low not in WEEKDAYS \
                and singular_weekday(low) not in WEEKDAYS and low not in ENVIRONMENTS \
                and (low not in MONTHS or (low == "may" and tok != "May")) \
                and low not in CURRENCIES:  # "EUR" is compared as a currency
            # an environment is compared by its own rule ("Prod" / "Production" agree)
            names.add(_bare(low))
        for part in re.split(r"[\-/]", _bare(low)):
            if content_word(part):
                stems.add(stem(part))
    return Facets(
        tokens=tuple(_bare(t) for t in lower), stems=frozenset(stems), names=frozenset(names),
        numbers=frozenset(numbers), durations=tuple(durations),
        weekdays=_weekdays(lower), months=_months(lower, raw),
        environments=environments(lower),
        times=_times(lower),
        # counted, not just seen: "may not be restarted without approval" (two) says the
        # opposite of "may be restarted without approval" (one), though both contain one
        negations=len(denials := negation.denials(lower, off := negation.marks(text, lower))),
        negated=tuple(negation.denied(lower, i) for i in denials),
        contrasts=negation.contrasts(lower, off), excluded=negation.excluded(lower, off),
        currencies=frozenset(CURRENCIES[c.lower()] for c in CURRENCY.findall(text)),
        prices=prices(text),
        units=measured_units(lower),
        negatives=frozenset(v for i, w in enumerate(lower[1:], 1) if lower[i - 1] == "minus"
                            and (v := number(w)) is not None),
        bounds=bounds(lower),
    )


def _times(lower: list[str]) -> frozenset[str]:
    """Parts of the day and frequencies; "**each** morning" is also daily ("by 7am daily")."""
    out = {TIMES[w] for w in lower if w in TIMES}
    out.update(_SEASON_WORDS[w] for i, w in enumerate(lower[1:], 1)
               if w in _SEASON_WORDS and lower[i - 1] in _BEFORE_FALL)  # "closes early **in
    # fall**", "inspected **every spring**" (not "Spring Boot", "the fuel falls")
    out.update("daily" for i, w in enumerate(lower[1:], 1)
               if w in _DAY_PARTS and lower[i - 1] in ("each", "every"))
    out.update("every other day" for i, w in enumerate(lower[2:], 2)  # "every other morning"
               if w in _DAY_PARTS and lower[i - 1] == "other" and lower[i - 2] == "every")
    return frozenset(out)


_DAY_PARTS = frozenset(["morning", "afternoon", "evening", "night"])
_BEFORE_FALL = frozenset(["in", "during", "this", "last", "next", "each", "every", "the"])
_SEASON_WORDS = {"fall": "autumn", "spring": "spring"}


#: Words after which "once" starts a clause ("once there are more than 2,000 messages"), not
#: a count.
_CLAUSE_OPENERS = frozenset("the a an there we it they you he she i this that all any".split())  # noqa: SIM905

_short_facets = lru_cache(maxsize=4096)(_read)
_long_facets = lru_cache(maxsize=16)(_read)

#: Words after which a capital "May" opening a sentence asks, not dates ("May I deploy …").
_MAY_ASKS = frozenset(["i", "we", "you", "he", "she", "they", "it", "one", "someone", "anyone"])


def _asks(lower: list[str], i: int) -> bool:
    """"May" at ``i`` opens a question or a wish ("May I …", "May we …"): the verb."""
    return (i == 0 or lower[i - 1] in ".!?") and i + 1 < len(lower) \
        and lower[i + 1] in _MAY_ASKS


def _bare(token: str) -> str:
    """'#support-escalations' → 'support-escalations'; "website's" → 'website'."""
    return token.lstrip("#@").removesuffix("'s")


def _instruction(text: str, lower: list[str]) -> bool:
    """Whether the text opens with a verb telling someone what to do ("**Switch** the kiln
    off", "**Turn** off the kiln"): its capital is the sentence's, not a name's. Not before a
    comma: "**Sofia**, our registrar, checks in …" names her."""
    return not _FIRST_COMMA.match(text) and opens_order(lower)


def opens_order(tokens: Sequence[str]) -> bool:
    """Whether the words after the first open an instruction's object ("Empty **the** chaff
    collector", "Check **all** fire exits", "Turn **off the** kiln"): the first word is then
    the verb. Not "a", which names one of many as often ("Grade **A** particle counts")."""
    after = tokens[1:3]
    return bool(after) and (after[0] in _ORDER_OBJECTS or (
        after[0] in _ORDER_PARTICLES and len(after) > 1 and after[1] in _ORDER_OBJECTS))


_FIRST_COMMA = re.compile(r"\s*\S+\s*,")
_ORDER_OBJECTS = frozenset("the your our their all each every any".split())  # noqa: SIM905
_ORDER_PARTICLES = frozenset(["off", "out", "up", "down"])


def _label(raw: list[str], i: int, labelled: frozenset[str]) -> bool:
    """A capital "A" right after a word, no stop between them, is a label, not the article
    (which is capitalised only where a sentence starts): "Parlour **A**", "Grade **A**", "the
    studio **A** booth" (so "Parlour A" / "Parlour B" name two parlours). ``labelled``: the
    words a label "A" follows in the text (``_LABELLED``, found in one pass)."""
    return raw[i] == "A" and i > 0 and raw[i - 1] in labelled


_LABELLED = re.compile(r"([\w.+\-]+)[ \t]+A\b")


def _is_name(token: str) -> bool:
    """Capitalised words, CamelCase and acronyms, #channels and @handles, letter-digit ids.

    A sentence's first word counts too ("Alice prefers ..."); an ordinary word capitalised only
    because it starts the sentence is found among the other text's words and so never
    conflicts."""
    if token[0] in "#@":
        return len(token) > 1
    if "@" in token:
        return True  # an e-mail address
    if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
        return True
    if token.lower() in STOP_WORDS or token.lower() in NEGATIONS:
        return False
    return token[0].isupper() or any(c.isupper() for c in token[1:])
