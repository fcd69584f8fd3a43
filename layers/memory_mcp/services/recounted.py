"""One thing counted with two numbers: "the cartridge is swapped after every **5 runs**" /
"… 5-micron cartridges …; swapped after every **3 runs**" (the two-hundred-and-seventy-third
set).

The number rules compare the numbers each text says; here the stored text says the request's
number too, of another thing ("5-micron"), so every number of the request is found and they
agree. What differs is the number before the one word both texts count: read number by number,
each text counts "runs" once, and with another number.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import SLOT_TOKENS
from memory_mcp.services.lexicon import (
    MEASURES,
    MONTHS,
    NUMBER_WORDS,
    UNIT_DAYS,
    UNIT_SYMBOLS,
    WEEKDAYS,
)
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_forms import EVERY_COUNTS
from memory_mcp.services.stems import content_word, stem

#: Words that scale a count, so that two numbers may count the same things: "2 **dozen**
#: eggs" / "24 eggs", "1.5 **k** units" / "1,500 units".
_SCALES = frozenset(["dozen", "dozens", "hundred", "hundreds", "thousand", "thousands",
                     "million", "millions", "k", "m", "score", "gross", "pairs", "pair"])
_RUN = 3  # words after a number that may name what it counts: "27 MHz **radios**"


def other_count(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where each text counts the same thing once, with another number
    and the same words between ("every 5 runs" / "every 3 runs"), neither text counting that
    thing with the other's number. Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    mine, theirs = _counts(a.tokens), _counts(b.tokens)
    for head in sorted(mine.keys() & theirs.keys()):
        (n, between, word), (m, other, their_word) = mine[head], theirs[head]
        if n != m and between == other:
            return _show(n, between, word), _show(m, other, their_word)
    return None


def _show(n: float, between: tuple[str, ...], head: str) -> str:
    return " ".join([f"{n:g}", *between, head])


@lru_cache(maxsize=64)  # a text is read once per candidate otherwise
def _counts(toks: tuple[str, ...]) -> dict[str, tuple[float, tuple[str, ...], str]]:
    """Stem of the counted word → (its number, the words between, the word), for the words a text
    counts once after "every": the last of up to three content words right after the number
    ("every 5 **runs**"). Clock times, codes, measures and scaled counts are left out."""
    seen: dict[str, list[tuple[float, tuple[str, ...], str]]] = {}
    for i, t in enumerate(toks):
        n = number(t)
        if n is None or n < 0 or ":" in t or toks[i - 1:i] != ("every",):
            continue  # only a count of what a thing is done after: "every **5 runs**"; other
            # counts pair numbers and things too freely ("three $500 prizes" / "3 prizes of
            # $500", "one bale in ten" / "1 in 10 bales")
        run: list[str] = []
        for w in toks[i + 1:i + 1 + _RUN]:
            if not w.isalpha() or not content_word(w) or w in _SCALES:
                break
            run.append(w)
        if run and not (set(toks[i + 1:i + 2 + len(run)]) & _SCALES) \
                and not any(w in UNIT_DAYS or w in MEASURES or w in UNIT_SYMBOLS for w in run):
            # a measure is the value rules' ("30 cm apart" / "rows 75 cm apart")
            seen.setdefault(stem(run[-1]), []).append((n, tuple(run[:-1]), run[-1]))
    return {h: found[0] for h, found in seen.items() if len(found) == 1}


def single_or_more(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("a single horse", "2 horses") where one text counts one of a thing with "a single"
    and the other two or more of it: "when the trailer will carry **a single horse**" / "…
    will carry **two horses**" (the 363rd set). "single" is no number of the lexicon, being
    a kind as often ("single-phase", "a single room"), so the number rules see a count in one
    text only. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks = x.tokens
        for i in range(1, len(toks) - 1):
            single = toks[i] == "single" and toks[i - 1] in ("a", "one")
            if not (single or (toks[i] in ("a", "an") and i + 2 < len(toks)
                               and toks[i + 2] not in _OF_MANY and not _measure(toks[i + 1]))) \
                    or not content_word(toks[i + 1]) or toks[i + 1] in _SCALES:
                continue  # "**an** inspection finds" / "**two** inspections in a row find"
                # (the 368th set); not "a dozen of", "a pair of", nor a unit ("twice **a
                # week**" / "2 weeks", "**an hour**" / "24 hours": 43 earlier rewordings)
            head = stem(toks[i + 1])
            found = next((f"{n:g} {w}" for k, w in enumerate(y.tokens[1:], 1)
                          if stem(w) == head and w != toks[i + 1]
                          and (n := number(y.tokens[k - 1])) is not None
                          and n >= 2 and n not in x.numbers), None)
            if found is not None:
                mine = f"{'a single' if single else toks[i]} {toks[i + 1]}"
                return (found, mine) if flip else (mine, found)
    return None


def _measure(word: str) -> bool:
    """A unit of time or measure, or a word made of one ("weekly")."""
    bare = word.removesuffix("ly")
    return any(w in UNIT_DAYS or w in MEASURES or w in UNIT_SYMBOLS or w in EVERY_COUNTS
               for w in (word, bare, bare + "s", word + "s"))


#: Words after "a <noun>" that make it a group of several ("a **set of** 4 keys").
_OF_MANY = frozenset(["of"])


def said_more_often(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("3", "2.5") where the request writes a figure more often than the stored text and the
    stored text has a figure the request never writes: "the lower **3** metres … blast cleaned
    to Sa **3**" / "the lower **3** metres … to Sa **2.5**" (the 408th set). Each number of the
    request is found in the stored text, so the number rule agrees; counted, one of the
    request's 3s stands where the stored text says 2.5. Figures only: "no **one**" is no count.
    Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):  # both ways: "door 14 … visits on **21**
        # January" / "door 14 … on **14** January" (the 425th set)
        mine, theirs = _figures(x.tokens), _figures(y.tokens)
        lacking = sorted(set(theirs) - set(mine))
        for value, times in mine.items():
            if lacking and 1 <= theirs.get(value, 0) < times:
                found = _plain(value), _plain(lacking[0])
                return (found[1], found[0]) if flip else found
    return None


def _figures(toks: tuple[str, ...]) -> dict[float, int]:
    """How often each figure stands in ``toks``; not clock times ("6:30", "2 pm"), which the
    time rules read and a rewording writes either way."""
    counts: dict[float, int] = {}
    for i, tok in enumerate(toks):
        if any(ch.isdigit() for ch in tok) and ":" not in tok and not tok.endswith(("am", "pm")) \
                and toks[i + 1:i + 2] not in (("am",), ("pm",), ("a.m",), ("p.m",)) \
                and (value := number(tok)) is not None and value >= 0:
            counts[value] = counts.get(value, 0) + 1
    return counts


def _plain(value: float) -> str:
    return f"{value:g}"


def other_year(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's year, b's year) where each text dates a thing by a year the other never says,
    also inside a code: "calibrated to **the 2003 edition** of ISO 6789" / "… to ISO
    6789-2:**2017**" (the 414th set), the request's other numbers all found. Else None."""
    mine, theirs = _years(a.tokens), _years(b.tokens)
    if mine and theirs and not mine & theirs:
        return sorted(mine)[0], sorted(theirs)[0]
    return None


def _years(toks: tuple[str, ...]) -> frozenset[str]:
    return frozenset(y for t in toks if any(c.isdigit() for c in t) for y in _YEAR.findall(t))


_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def counted_apart(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the request counts a thing with a number the stored text
    never says, and the stored text counts the same thing right after another number: "the
    mean of the best **three runs**" / "the mean of all **five runs**" (the 451st set). Every
    number of the stored text is in the request ("measured five times"), so the number rules
    read the request as saying more, not something else."""
    extra, lost = a.numbers - b.numbers, b.numbers - a.numbers
    if extra or lost:  # or the stored count is nowhere in the request and the request says its
        # count more often: "3 m … by **three fitters**" / "3 m … by **four fitters**" (541st)
        theirs = {word: m for m, word in _next_words(b.tokens)}
        for n, word in _next_words(a.tokens):
            if (n in extra or (theirs.get(word) in lost and _said(a.tokens, n) > _said(b.tokens, n))) \
                    and theirs.get(word, n) != n:
                return f"{n:g} {word}", f"{theirs[word]:g} {word}"
    bounded_b = _bounded(b.tokens)  # the number said elsewhere too: "at least **three
    # auditors** wearing Class **3**" / "at least **two auditors** wearing Class 3" (the 537th
    # set), read only after a bound: other counts pair numbers and things too freely
    for word, (shown, n) in _bounded(a.tokens).items():
        if word in bounded_b and bounded_b[word][1] != n:
            return shown, bounded_b[word][0]
    return None


def _said(toks: tuple[str, ...], n: float) -> int:
    """How often ``n`` stands in ``toks``, in figures or words: the request's 3 said twice ("3 m
    … three fitters") where the stored text says it once."""
    return sum(1 for t in toks if (t[:1].isdigit() or t in NUMBER_WORDS) and number(t) == n)


_BOUNDS = (("at", "least"), ("at", "most"))


def _bounded(toks: tuple[str, ...]) -> dict[str, tuple[str, float]]:
    """The stem of the thing → (the words, its count), for each count right after "at least"
    or "at most"."""
    if "least" not in toks and "most" not in toks:
        return {}
    return {stem(nxt): (" ".join(toks[i - 2:i + 2]), number(t) or 0.0)
            for i, (t, nxt) in enumerate(pairwise(toks))
            if i >= 2 and toks[i - 2:i] in _BOUNDS and _counts_thing(t, nxt)}


def _next_words(toks: tuple[str, ...]) -> list[tuple[float, str]]:
    """(number, the stem of the thing right after it), for things that are no unit or scale."""
    return [(number(t) or 0.0, stem(nxt)) for t, nxt in pairwise(toks) if _counts_thing(t, nxt)]


def _counts_thing(t: str, nxt: str) -> bool:
    """Whether ``t`` counts the thing ``nxt`` names: a count in digits or a cardinal, not
    "once", "second lot" or "5, Monday"."""
    return number(t) is not None and (t.isdigit() or (t in NUMBER_WORDS and not t.endswith(_NTH))) \
        and nxt.isalpha() and content_word(nxt) and nxt not in _SCALES and nxt not in UNIT_DAYS \
        and nxt not in MEASURES and nxt not in UNIT_SYMBOLS and nxt not in WEEKDAYS \
        and nxt not in MONTHS


_NTH = ("st", "nd", "rd", "th")  # "first", "second", "third", "fifth": an ordinal
