"""A thing's scope changed by one word put before its noun: "tyre blankets for **all four**
slicks" / "… for **the rear** slicks" (the 503rd set), "drip irrigation … on the **north**
saffron beds **only**" / "… on the saffron beds" (the 503rd set).

The scope rules read "all" against a restriction written after the noun ("guests **on silent
retreats**") or a list; a single word before the noun is as often a rewording's adjective
("the new slicks" / "the fresh slicks") as another scope, so each rule here needs a marker on
the request's side that says the scope is the point: "all" (with at most a count after it)
against a word the request never says, or "only" right after a noun the request narrowed by
a word the stored text never says.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS
from memory_mcp.services.lexicon import (
    MEASURES,
    MONTHS,
    TIMES,
    UNIT_DAYS,
    UNIT_SYMBOLS,
    WEEKDAYS,
)
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Words that take the whole of a noun.
_ALL = frozenset(["all", "every"])
#: When a thing happens: "every night" is how often ("runs nightly"), not which of a thing.
_WHEN = frozenset([*TIMES, *WEEKDAYS, *MONTHS, *UNIT_DAYS, "night", "day", "week", "month",
                   "year", "quarter", "shift", "weekend", "term", "season"])
_WHEN_STEMS = frozenset(stem(w) for w in _WHEN)
#: Words before a noun that say "all of it" too ("all day" / "the whole day").
_WHOLE = frozenset(["whole", "full", "entire", "complete"])


def all_or_modified(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all four slicks", "rear slicks") where the request takes all of a noun and the stored
    text, with no "all" of it, puts before the same noun a word the request never says; else
    None. Read from the request's side only: a stored "all" against a request's word is a
    request narrower than the fact, which the other scope rules weigh."""
    ta, tb = a.tokens, b.tokens
    for i, w in enumerate(ta[:-1]):
        if w not in _ALL:
            continue
        k = i + 1 + (number(ta[i + 1]) is not None and i + 2 < len(ta))
        noun = stem(ta[k])
        if not content_word(ta[k]):
            continue
        if ta[k] in _WHEN or noun in _WHEN_STEMS:
            continue  # "every night" / "runs nightly": how often, not which
        for j in range(2, len(tb)):
            before = tb[j - 1]
            if stem(tb[j]) == noun and tb[j - 2] in DETERMINERS and content_word(before) \
                    and stem(before) not in a.stems and before not in _WHOLE \
                    and not any(t in _ALL for t in tb[max(0, j - 3):j]) and "-" not in before:
                return " ".join(ta[i:k + 1]), f"{before} {tb[j]}"
    return None


def only_narrowed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("north saffron beds only", "saffron beds") where the request closes a noun with "only"
    after a word before it that the stored text never says, and the stored text names the same
    noun with no "only"; else None."""
    ta, tb = a.tokens, b.tokens
    if "only" in tb:
        return None
    for i in range(2, len(ta)):
        if ta[i] != "only" or not content_word(ta[i - 1]) \
                or (i + 1 < len(ta) and (content_word(ta[i + 1]) or ta[i + 1] in PREPOSITIONS)):
            continue  # "loose leaf **only with** the gilder's tip": the "only" is the tool's
        noun, k = stem(ta[i - 1]), i - 1
        while k > max(0, i - 4) and content_word(ta[k - 1]):
            k -= 1  # the words that modify the noun: "the **north saffron** beds only"
        added = [w for w in ta[k:i - 1] if stem(w) not in b.stems and len(w) > 2
                 and w not in UNIT_SYMBOLS and w not in MEASURES]
        if added and noun in {stem(t) for t in tb}:
            return " ".join(ta[k:i + 1]), ta[i - 1]
    return None


#: Words that take a part of the things after "of the": "**any of the** pumps", "**two-thirds
#: of the** ratepayers", "**60% of the** crates".
_PART_OF = frozenset(["any", "some", "most", "half", "none", "one", "few", "several", "either",
                      "sample", "selection", "subset", "handful", "two"])


def all_or_part(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all of the dewatering pumps", "any of the dewatering pumps") where one text takes
    "all of the" things and the other a part of the same things ("any", "some", a fraction or a
    share: "consent from **all of the** ratepayers" / "**at least two-thirds of the**
    ratepayers", the 514th and 515th sets); else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        for i in range(len(tx) - 2):
            k = _all_at(tx, i)
            if k is None:
                continue
            things = {stem(w) for w in tx[k:k + 2] if content_word(w)}
            for j in range(1, len(ty) - 2):
                part, m = ty[j - 1], j + 2 + (number(ty[j + 2]) is not None and j + 3 < len(ty))
                if ty[j] == "of" and ty[j + 1] in _OF_WHOSE and stem(ty[m]) in things \
                        and (part in _PART_OF or _share(part)):
                    found = " ".join(tx[i:k + 1]), " ".join(ty[j - 1:m + 1])
                    return (found[1], found[0]) if flip else found
    return None


#: Words after "of" that take a part of named things: "10% **of the** slides", "all **of
#: each** screener's slides" (the 523rd set).
_OF_WHOSE = frozenset(["the", "each", "every", "their", "its", "our", "his", "her", "your"])
_OF_THE = frozenset((w,) for w in _OF_WHOSE)


def _all_at(tx: tuple[str, ...], i: int) -> int | None:
    """Where the thing stands after an "all of the", "all the" or "all" and a count at ``i``
    ("**all of the** ratepayers", "from **all three** units", the 518th set), else None."""
    if tx[i] != "all":
        return None
    k = i + 1 + (tx[i + 1] == "of" and tx[i + 2:i + 3] in _OF_THE) * 2 + (tx[i + 1] == "the")
    k += k < len(tx) - 1 and number(tx[k]) is not None and tx[k] not in ("one", "1")
    return k if k < len(tx) and content_word(tx[k]) and (k > i + 1 or tx[i - 1:i] == ("of",)) \
        else None  # "the test **of all** sluice gates" / "… on just one of the sluice gates"


def only_one_of(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only one vacuum box cover", "covers") where the request says "only one" of a thing
    and the stored text, with no "one" of it, speaks of the things in the plural: "only one
    vacuum box cover is inspected" / "vacuum box covers are inspected" (the 508th set); else
    None."""
    ta, tb = a.tokens, b.tokens
    if "one" in tb:
        return None
    for o in range(len(ta) - 1):
        if ta[o] != "one":
            continue
        only = o > 0 and ta[o - 1] == "only" and not (o > 1 and ta[o - 2] == "the")
        # "the only one to lay wet gores": a person, not one of the things
        if not only and o > 0 and ta[o - 1] in _NOT_SINGLED:
            continue
        end = next((k for k in range(o + 1, min(len(ta), o + 5)) if not content_word(ta[k])),
                   min(len(ta), o + 5))
        if not only and ta[end:end + 2] not in _EACH:
            continue  # "one specimen door **from each** batch" (the 516th set), not "one
            # specimen door" alone ("one door" may be the fact's own)
        for k in range(o + 1, end):
            if ta[k] + "s" in tb:
                return " ".join(ta[o - only:k + 1]), ta[k] + "s"
    return None


#: Words before "one" that make it no count of the things ("the one", "at least one").
_NOT_SINGLED = frozenset(["the", "least", "no", "than", "any", "every", "each"])
#: What says the one is taken from each group: "one door **from each** batch".
_EACH = frozenset((p, e) for p in ("from", "per", "in", "out") for e in ("each", "every"))


def _share(word: str) -> bool:
    """A fraction or a share: "two-thirds", "half", "60%", "three-quarters"."""
    return word.endswith(("%", "thirds", "third", "quarters", "quarter", "fifths", "tenths")) \
        or word in ("half", "majority", "minority")


def both_or_only(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("both 10 ml and 2 ml", "only") where one text takes "both" of two things and the
    other, with no "both", keeps one of them "only": "approved for **both** 10 mL **and** 2 mL
    vials" / "approved for 10 mL vials **only**" (the 532nd set), "shot at **1550 nm only**" /
    "… at **both** 1310 nm **and** 1550 nm" (the 529th); else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        if "both" not in tx or "only" in tx or "both" in ty or "only" not in ty:
            continue
        i = tx.index("both")
        join = next((k for k in range(i + 2, min(len(tx), i + 7)) if tx[k] == "and"), None)
        if join is None:
            continue
        named = set(tx[i + 1:join]) | set(tx[join + 1:join + 4])
        if any(ty[k] == "only" and ty[k - 1] in named for k in range(1, len(ty))):
            # "10 mL vials **only**": the thing kept, not "**Only** drivers holding D1 …",
            # which restricts who, "both" being what they hold (the 49th set)
            found = " ".join(tx[i:join + 3]), "only"
            return (found[1], found[0]) if flip else found
    return None


def only_listed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only for hiv", "hiv hepatitis b and c htlv and syphilis") where the request keeps one
    thing "only" and the stored text, with no "only", lists it among others the request never
    names: "screened **only for HIV**" / "screened for HIV, hepatitis B and C, HTLV and
    syphilis" (the 545th set); else None."""
    ta, tb = a.tokens, b.tokens
    if "only" not in ta or "only" in tb:
        return None
    i = ta.index("only")
    k = i + 1 + (ta[i + 1:i + 2] != () and ta[i + 1] in PREPOSITIONS)
    if k >= len(ta) or not content_word(ta[k]) or any(t in ("and", "or")
                                                         for t in ta[k + 1:k + 3]):
        return None
    at = next((j for j, t in enumerate(tb) if t == ta[k]), None)
    if at is None or not at or tb[at - 1] not in PREPOSITIONS:
        return None  # the thing kept as a list's first, after its preposition
    join = next((j for j in range(at + 1, min(len(tb) - 1, at + 6)) if tb[j] in ("and", "or")),
                None)
    if join is None:
        return None
    others = [t for t in tb[at + 1:join + 2] if content_word(t) and stem(t) not in a.stems]
    return (" ".join(ta[i:k + 1]), " ".join(tb[at:join + 2])) if others else None


def each_or_one(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("just one", "each one") where one text does a thing to "each one" of them and the other
    to "just one" ("only one", "one of them"): "tests **each one** with the insulation tester"
    / "tests **just one of them**" (the 542nd set); else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        ex, ey = _each_one(x.tokens), _each_one(y.tokens)
        if ex and not ey and (one := _just_one(y.tokens)) is not None and _just_one(x.tokens) is None:
            return (one, ex) if flip else (ex, one)
    return None


def _each_one(toks: tuple[str, ...]) -> str:
    return next((f"{p} one" for p, o in pairwise(toks)
                 if o == "one" and p in ("each", "every")), "")


def _just_one(toks: tuple[str, ...]) -> str | None:
    for i, t in enumerate(toks):
        if t != "one":
            continue
        if i and toks[i - 1] in ("just", "only", "single") and toks[i - 2:i - 1] != ("the",):
            return f"{toks[i - 1]} one"
        if toks[i + 1:i + 3] == ("of", "them") and not (i and toks[i - 1] in _NOT_SINGLED):
            return "one of them"
    return None
