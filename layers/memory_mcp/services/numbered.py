"""Numbered things: "**Invoice 1001** was paid" / "**Invoice 1002** was paid" (cosine 0.99),
"ferments in **tank 7**" / "… in **tank 3**", "**Hall C**" / "**Hall D**": a number or a letter
after a noun that names one thing of many, not a value of it; and numbered grades ("priority
1", "version 4.2"), which name another fact before the verb and a value after it.

Split from ``wording`` (the rules that read word order) because these read a noun and the
number after it, and come with their own lists of nouns.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import verb_s
from memory_mcp.services.lexicon import MEASURES, MONTHS, ORDINAL, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.wording import subject_end

#: Nouns a number after which *names* one thing of many ("invoice 1001", "sprint 14"), so two
#: texts with other numbers there are about different things, not different values.
ID_NOUNS = frozenset(stem(w) for w in """invoice order ticket issue incident case bug user
customer client account employee room building floor desk node server host machine rack vm job
build sprint release milestone phase step story epic task item project contract policy rule
squad group gate flight route bus cluster shard partition table chapter section page slide lot
unit apartment store branch lab batch cohort candidate applicant patient vendor supplier
shipment package pr module lesson part volume edition season episode wave round stage
hall ladder rescue engine truck ambulance bay zone line platform lane bed ward court field pitch
station site terminal dock track van vehicle crane berth tank vat silo pier quay wharf hangar
studio booth kiosk locker cabinet freezer fridge oven kiln enclosure paddock block wing tower
door entrance exit checkpoint counter class ext extension port crew team shift plan
workshop yard shed barn warehouse depot
""".split())  # noqa: SIM905
#: Numbered *places and pieces of kit* ("tank 7", "bay 4", "Studio 3", "oven 2"): another
#: number names another one wherever it stands, so a save naming another is kept beside the
#: fact, not made its next version ("ferments in **tank 7**" / "… in **tank 3**": seven forget
#: sets written apart from the rules label every such pair two facts). Other numbered things
#: after the verb stay values ("the SDK is pinned to **release 2.3**" → "2.4").
PLACE_NOUNS = frozenset(stem(w) for w in """room building floor desk rack bay hall zone platform
lane bed ward court field pitch station site terminal dock track berth tank vat silo pier quay
wharf hangar studio booth kiosk locker cabinet freezer fridge oven kiln enclosure paddock block
wing tower door entrance exit checkpoint counter gate ladder rescue engine truck ambulance van
vehicle crane unit class ext extension port workshop yard shed barn warehouse depot""".split())  # noqa: SIM905
#: Numbered *grades* of something rather than things of many: "severity 1", "priority 2",
#: "tier 1", "version 4.2", "level 3", "week 2", "year 2024", "quarter 3". A grade before the
#: verb, or changing together with anything else ("priority 1 tickets within 1 hour" /
#: "priority 2 tickets within 8 hours"), names another fact; alone after the verb it is the
#: value ("pinned to version 2.3" → "2.4").
GRADE_NOUNS = frozenset(stem(w) for w in """severity sev level tier version priority week year
quarter grade iteration cycle rev revision""".split())  # noqa: SIM905

def identifiers(f: Facets) -> dict[str, set[tuple[str, int]]]:
    """Numbered things of a text: noun stem → ("noun number" as written, token position)."""
    out: dict[str, set[tuple[str, int]]] = {}
    toks = f.tokens
    for i, (prev, tok) in enumerate(pairwise(toks)):
        if (tok[:1].isdigit() and (stem(prev) in ID_NOUNS or stem(prev) in GRADE_NOUNS)) \
                or (_letter_id(toks, i + 1) and stem(prev) in ID_NOUNS):
            out.setdefault(stem(prev), set()).add((f"{prev} {tok.replace(',', '')}", i))
    return out


def _letter_id(toks: tuple[str, ...], i: int) -> bool:
    """"Hall **C**", "gate **B**": a letter naming one thing of many. "A" (and "I") only where
    no word follows it ("in Hall **A**.", "Hall **A** on Fridays", not "a hall a week")."""
    tok = toks[i]
    if len(tok) != 1 or not tok.isalpha():
        return False
    after = toks[i + 1] if i + 1 < len(toks) else ""
    return tok not in ("a", "i") or not content_word(after) or (
        tok == "a" and verb_s(after) and i > 0 and stem(toks[i - 1]) in ID_NOUNS)  # "Crew
    # **A** covers …": no article stands before a verb's -s


def other_numbered_thing(a: Facets, b: Facets) -> tuple[str, str, bool, str] | None:
    """'invoice 1001' vs 'invoice 1002': the same kind of thing under other numbers; and
    whether it is what a text is *about* (before its verb: "**Invoice 1001** was paid", a
    different thing) or a value it names ("the SDK is pinned to **release 2.3**" → "2.4", an
    update of the same fact)."""
    ia, ib = identifiers(a), identifiers(b)
    for noun in sorted(ia.keys() & ib.keys()):
        x = {n.split(" ", 1)[1] for n, _ in ia[noun]}
        y = {n.split(" ", 1)[1] for n, _ in ib[noun]}
        if not (x <= y or y <= x):
            subject = (noun in PLACE_NOUNS or min(i for _, i in ia[noun]) < subject_end(a)
                       or min(i for _, i in ib[noun]) < subject_end(b))
            return (", ".join(sorted(n for n, _ in ia[noun])),
                    ", ".join(sorted(n for n, _ in ib[noun])), subject, noun)
    return None


def other_label(a: Facets, b: Facets) -> tuple[str, str, bool, str] | None:
    """("shelf 5", "shelf 3", False, "shelf"): the same noun of no list above before other
    numbers in the two texts ("spare refills are on **shelf 5**" / "spare 5-litre refills are
    on **shelf 3**", the two-hundred-and-eighteenth set), where the numbers rule saw the
    request's 5 among the stored numbers. A value: the refills may have moved."""
    la, lb = _labels(a), _labels(b)
    for noun in sorted(la.keys() & lb.keys()):
        mine, theirs = la[noun] - lb[noun], lb[noun] - la[noun]
        if mine and theirs and not mine & _counts(b.tokens) and not theirs & _counts(a.tokens):
            # neither number said as a count in the other text ("second screen: **180**
            # seats" / "Screen 2 … seats 180"); as a measure it is another number ("5-litre")
            return (", ".join(f"{noun} {n}" for n in sorted(la[noun])),
                    ", ".join(f"{noun} {n}" for n in sorted(lb[noun])), False, stem(noun))
    return None


def _labels(f: Facets) -> dict[str, set[str]]:
    """Noun → the numbers written right after it, for nouns not in the lists above and not
    read as verbs ("takes 5", "aged 5")."""
    out: dict[str, set[str]] = {}
    for prev, tok in pairwise(f.tokens):
        if tok.isdigit() and content_word(prev) and prev.isalpha() and not verb_s(prev) \
                and not prev.endswith(("ed", "ing")) and stem(prev) not in ID_NOUNS \
                and stem(prev) not in GRADE_NOUNS and prev not in _NOT_LABELS:
            out.setdefault(prev, set()).add(tok)
    return out


def _counts(toks: tuple[str, ...]) -> set[str]:
    """The numbers of a text not followed by a unit ("**5** liters" measures)."""
    return {t for t, after in zip(toks, (*toks[1:], ""), strict=True)
            if t.isdigit() and after not in MEASURES and after not in UNIT_DAYS}


#: Words before a number that say no thing's label: "at **least** 2", "**february** 28".
_NOT_LABELS = frozenset([*MONTHS, *WEEKDAYS, "least", "most", "than", "about", "around",
                         "over", "under", "aged", "age", "ages", "only", "just", "nearly"])


def other_ordinal(a: Facets, b: Facets) -> tuple[str, str, bool, str] | None:
    """("3rd edition", "2nd edition", False, "edition"): another ordinal before the same noun
    ("judged against the **3rd edition** of the booklet" / "… by three judges against the
    **2nd edition**", the two-hundred-and-twenty-first set), where the numbers rule read the
    request's 3 as the stored "three judges"."""
    oa, ob = _ordinals(a.tokens), _ordinals(b.tokens)
    every_a, every_b = _every_ordinal(a.tokens), _every_ordinal(b.tokens)
    for noun in sorted(oa.keys() & ob.keys()):
        if not oa[noun] & every_b and not ob[noun] & every_a:  # "second **and** third place"
            return (f"no. {min(oa[noun])} {noun}", f"no. {min(ob[noun])} {noun}", False, noun)
    return None


def _ordinals(toks: tuple[str, ...]) -> dict[str, set[str]]:
    """Noun stem → the ordinals written right before it, as numbers ("3rd", "third" → "3");
    not a date's ("3rd May")."""
    out: dict[str, set[str]] = {}
    for word, noun in pairwise(toks):
        if content_word(noun) and noun not in MONTHS and (value := _ordinal(word)) is not None:
            out.setdefault(stem(noun), set()).add(value)
    return out


def _every_ordinal(toks: tuple[str, ...]) -> set[str]:
    """Every ordinal of the text as a number, before a noun or not."""
    return {v for w in toks if (v := _ordinal(w)) is not None}


def _ordinal(word: str) -> str | None:
    """An ordinal's number ("3rd", "third" → "3"); None for any other word and for "last"."""
    if not ORDINAL.fullmatch(word) or word == "last":
        return None
    value = _ORDINALS.get(word, word[:-2])
    return value if value.isdigit() else None


_ORDINALS = {w: str(i) for i, w in enumerate(["zeroth", "first", "second", "third", "fourth",
                                               "fifth", "sixth", "seventh", "eighth", "ninth",
                                               "tenth"])}


def swapped_amounts(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's order, b's order) where both texts give the same two or more amounts of one unit,
    each once, in another order, an amount of one standing where the other's other stands
    (the same word before it or after its unit): "start on **5.0 m²** sails and move down to
    **4.0 m²**" / "start on … **4.0 m²** sails and move up to **5.0 m²**" (the
    two-hundred-and-thirty-eighth set), not "transects are 100 metres long with a quadrat
    every 10 metres" / "quadrats every 10 m along each 100 m transect"."""
    in_b = _amounts(b.tokens)
    for unit, mine in _amounts(a.tokens).items():
        theirs = in_b.get(unit, [])
        ns, ms = [n for n, _ in mine], [n for n, _ in theirs]
        if len(ns) > 1 and len(set(ns)) == len(ns) and sorted(ns) == sorted(ms) and ns != ms \
                and any(n != m and (x[0] == y[0] or x[1] == y[1])
                        for n, x in mine for m, y in theirs):
            return (" … ".join(f"{n:g} {unit}" for n in ns),
                    " … ".join(f"{n:g} {unit}" for n in ms))
    return None


def _amounts(toks: tuple[str, ...]) -> dict[str, list[tuple[float, tuple[str, str]]]]:
    """Unit → (the figure, (the word before it, the word after the unit)) of each amount, in
    order ("5.0 m²", "4.0 m²"); a unit is a measure, a period or a symbol ("m²", "%")."""
    out: dict[str, list[tuple[float, tuple[str, str]]]] = {}
    for i, (t, unit) in enumerate(pairwise(toks)):
        n = number(t) if t[:1].isdigit() else None
        if n is not None and (unit in MEASURES or unit in UNIT_DAYS or (
                unit and not unit.isalpha() and not unit[:1].isdigit())):
            around = toks[i - 1] if i else "", toks[i + 2] if i + 2 < len(toks) else ""
            out.setdefault(unit, []).append((n, around))
    return out


def swapped_range(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text goes "from" one number "to" another and the other
    the other way: "Ravi rolled StockLine back **from 5.4 to 5.1**" / "Ravi upgraded … **from
    StockLine 5.1 to 5.4**" (the two-hundred-and-forty-third set)."""
    ra, rb = _ranges(a.tokens), _ranges(b.tokens)
    for x, y in ra:
        if x != y and (y, x) in rb and (x, y) not in rb and (y, x) not in ra:
            return f"from {x:g} to {y:g}", f"from {y:g} to {x:g}"
    return None


def _ranges(toks: tuple[str, ...]) -> set[tuple[float, float]]:
    """(first, second) of each "from <n> to <m>", a word or two allowed before each number."""
    out: set[tuple[float, float]] = set()
    for i, t in enumerate(toks):
        if t != "from":
            continue
        k = next((k for k in range(i + 1, min(i + 4, len(toks))) if _figure(toks[k])), None)
        if k is None or toks[k + 1:k + 2] != ("to",):
            continue
        m = next((m for m in range(k + 2, min(k + 4, len(toks))) if _figure(toks[m])), None)
        if m is not None:
            out.add((_value(toks[k]), _value(toks[m])))
    return out


def _figure(word: str) -> bool:
    return word[:1].isdigit() and number(word) is not None


def _value(word: str) -> float:
    n = number(word)
    return 0.0 if n is None else n
