"""A rule said of more than the stored one keeps to itself: "the 4 m tents are for kids'
sleepovers **and weddings**" / "… for kids' sleepovers **only**", "reviews **every will**" /
"reviews **any will involving a trust**", "traders with a **4- or 5-star** rating" / "only
traders with a **5-star** rating".

Split from ``widened``, which reads a request naming both kinds of a thing or any place; these
read a stored restriction ("only", "involving", one number, a list's last item, one model of a
make, "anyone under 18") that the request drops, adds an alternative to or replaces with its
own ("any visit **to a new patient**" / "any visit **after 20:00**").
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PRONOUNS
from memory_mcp.services.lexicon import MONTHS, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, singular_weekday, stem
from memory_mcp.services.word_pool import parts_pool

#: Words after "and" that add no thing ("LS6 and LS7 **and nowhere else**").
_NO_THING = frozenset(["nowhere", "else", "elsewhere", "nothing", "none", "no"])


def only_one_added(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("sleepovers and weddings", "sleepovers only") where one text keeps a thing to itself
    with "only" ("the 4 m tents are for kids' sleepovers **only**") and the other, with no
    "only", joins it with a thing the first never names ("… for kids' sleepovers **and
    weddings**", the two-hundred-and-nineteenth set): a wider rule. The kept thing's modifier
    counts as kept: "for the **staff** network only" / "for the staff **and student**
    networks" (the 389th set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if any("only" in t for t in x.tokens) or "only" not in y.tokens:
            continue  # "motorhome-only" says it too
        others = next((" ".join(x.tokens[i:i + 3]) for i in range(len(x.tokens) - 1)
                       if x.tokens[i] in ("all", "every", "any") and "other" in x.tokens[i + 1:i + 3]),
                      None)  # "… and **all the other** flavours" / "… only" (the 242nd set)
        if others is not None:
            return ("only", others) if flip else (others, "only")
        toks, theirs = y.tokens, {stem(t) for t in y.tokens}
        kept = {stem(toks[k]) for i, t in enumerate(toks) if t == "only" and i
                for k in (i - 1, i - 2) if k >= 0 and content_word(toks[k])
                and (k == i - 1 or i + 1 == len(toks))} | {
                    stem(w) for i, t in enumerate(toks)
                                                   if t == "only" for w in toks[i + 1:i + 3]
                                                   if content_word(w)}
        for i in range(1, len(x.tokens) - 1):
            one, join, two = x.tokens[i - 1:i + 2]
            if join not in ("and", "or") or not (content_word(one) and content_word(two)):
                continue
            # a list's earlier item, its comma lost: "wheelchair **users**, cyclists and
            # passengers" / "wheelchair users only" (the two-hundred-and-thirty-sixth set)
            before = x.tokens[i - 2] if i > 1 and content_word(x.tokens[i - 2]) else one
            for mine, added in ((one, two), (two, one), (before, two)):
                if stem(mine) in kept and stem(added) not in theirs and added not in _NO_THING:
                    found = f"{one} {join} {two}", f"{mine} only"
                    return (found[1], found[0]) if flip else found
    return None


#: Words after "any <thing>" that restrict which: "any will **involving** a trust".
_RESTRICTING = frozenset(["involving", "that", "which", "who", "where", "containing",
                          "needing", "requiring", "over", "under", "above", "below",
                          # "all lanyards **sold to** hospitals" (the 259th set)
                          "sold", "shipped", "sent", "supplied", "delivered", "issued",
                          "booked", "ordered", "bought", "made"])


def unrestricted(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the stored text restricts "any" / "every" / "all" of a
    thing ("reviews **any will involving a trust** or overseas assets") and the request says
    every one of it without that restriction ("reviews **every will** before it is sent", the
    two-hundred-and-forty-sixth set). Else None."""
    for i in range(len(b.tokens) - 3):
        q, thing, word = b.tokens[i:i + 3]
        what = next((w for w in b.tokens[i + 3:i + 6] if content_word(w)), "")
        if q not in _EVERY or not (word in _RESTRICTING or _participle(word)) \
                or not thing.isalpha() \
                or thing in DETERMINERS \
                or not what or stem(what) in a.stems:
            continue
        for j in range(len(a.tokens) - 1):
            if a.tokens[j] in _EVERY and stem(a.tokens[j + 1]) == stem(thing) \
                    and not set(a.tokens[j + 2:j + 3]) & _NARROWING:  # "any tray **with**
                # nuts" / "every tray **that** contains nuts": restricted in both
                return " ".join(a.tokens[j:j + 2]), f"{q} {thing} {word} … {what}"
    return None


_EVERY = frozenset(["any", "every", "all", "each"])
_NARROWING = _RESTRICTING | {"with", "in", "of", "for", "from", "on", "at", "to", "whose"}


def another_alternative(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("4 or 5-star", "only … 5-star") where the request joins a number the stored text
    never says to one it does with "or", and the stored text says "only": "traders with a
    **4- or 5-star** hygiene rating may use the prep kitchen" / "**Only** traders with a
    **5-star** hygiene rating may …" (the 365th set). A wider rule, read from the request's
    side. Else None."""
    if "only" not in b.tokens:
        return None
    toks = a.tokens
    for i in range(1, len(toks) - 1):
        if toks[i] != "or":
            continue
        first, second = number(toks[i - 1]), number(toks[i + 1].split("-")[0])
        if first is not None and second is not None and first not in b.numbers \
                and second in b.numbers and first != second:
            return f"{toks[i - 1]} or {toks[i + 1]}", f"only … {toks[i + 1]}"
    return None


def added_item(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("students and retired members", "students") where the stored text ends on a thing
    ("£25 for **students**") and the request ends on that thing joined with "and" or "or" to
    one the stored text never names ("… £25 for students **and retired members**", the 386th
    set): the rule said of more. Read from the request's side; else None."""
    ta, tb, found = a.tokens, b.tokens, parts_pool(b)
    if not tb or not content_word(tb[-1]):
        return None
    for i in range(max(1, len(ta) - _TAIL), len(ta) - 1):
        if ta[i] in ("and", "or") and stem(ta[i - 1]) == stem(tb[-1]) \
                and all(content_word(w) for w in ta[i + 1:]) \
                and not found.has(ta[i + 1], 0.75) \
                and not any(w in _NO_THING or w.endswith("er") for w in ta[i + 1:]):
            # not "2.5 °C **or colder**", "1.5 metres **or higher**": a bound
            return " ".join(ta[i - 1:]), tb[-1]
    return None


_TAIL = 4  # "… students **and retired members**": the last words the request adds


#: Words for "any person or thing" that "at all" widens: "anyone **at all**".
_ANYONE = frozenset(["anyone", "anybody", "anything", "everyone", "everybody", "everything"])


def at_all(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("anyone at all", "anyone under 18") where the request says "at all" (or "whatsoever")
    of an "anyone" the stored text restricts with words the request lacks: "written consent
    before photographing **anyone at all**" / "… **anyone under 18**" (the 385th set). A wider
    rule. Else None."""
    ta, tb = a.tokens, b.tokens
    for i, t in enumerate(ta):
        if not (t in _ANYONE or (i and ta[i - 1] in ("no", "any") and content_word(t))) \
                or not (ta[i + 1:i + 3] == ("at", "all") or ta[i + 1:i + 2] == ("whatsoever",)):
            continue  # "**no children at all** are seen" / "children under 2 are not seen"
        for j, u in enumerate(tb[:-1]):
            nxt = tb[j + 1]
            if stem(u) == stem(t) and nxt not in ("at", "whatsoever") \
                    and stem(nxt) not in a.stems and (
                    content_word(nxt) or number(nxt) is not None or nxt in _LIMITS):
                return " ".join(ta[i:i + 3]), " ".join(tb[j:j + 3])
    return None


_LIMITS = frozenset(["under", "over", "below", "above", "aged", "with", "without", "from", "in"])


#: Nouns after a make that name every model of it: "every ThinkPad **model**".
_MODELS = frozenset(["model", "models", "unit", "units", "machine", "machines", "type", "types"])


def every_model(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("every thinkpad model", "thinkpad t480") where the request says every model of a make
    and the stored text names one model of it by a code the request lacks: "**every ThinkPad
    model** we refurbish gets a new 256 GB SSD" / "**ThinkPad T480** units get …" (the 388th
    set). Else None."""
    ta, tb = a.tokens, b.tokens
    for i in range(len(ta) - 2):
        q, make, noun = ta[i:i + 3]
        if q not in _EVERY or noun not in _MODELS or not make.isalpha():
            continue
        for j in range(len(tb) - 1):
            code = tb[j + 1]
            if tb[j] == make and any(c.isdigit() for c in code) and code not in ta:
                return f"{q} {make} {noun}", f"{make} {code}"
    return None


#: Words after "any <thing>" that open a restriction of which: "any visit **after** 20:00".
_WHICH = _RESTRICTING | frozenset(["after", "before", "to", "from", "at", "in", "on", "for"])


def other_restriction(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where both texts restrict "any" / "every" of the same thing and
    no word of either restriction is in the other text: "before **any visit to a new
    patient**" / "before **any visit after 20:00**" (the 384th set). Else None."""
    for i in range(len(a.tokens) - 3):
        q, thing, word = a.tokens[i:i + 3]
        if q not in _EVERY or word not in _WHICH or not content_word(thing) \
                or thing in TIMES or thing in WEEKDAYS or thing in UNIT_DAYS or thing in MONTHS \
                or singular_weekday(thing) in WEEKDAYS:
            continue  # "each night **at 11 pm**" / "every night at 23:00": when, not which
        mine = _restriction(a.tokens[i + 3:])
        for j in range(len(b.tokens) - 3):
            if b.tokens[j] not in _EVERY or stem(b.tokens[j + 1]) != stem(thing) \
                    or b.tokens[j + 2] not in _WHICH:
                continue
            theirs = _restriction(b.tokens[j + 3:])
            if _timed(mine) and _timed(theirs):
                continue  # "any visit after **8 pm**" / "… after **20:00**": the value rules'
            if mine and theirs and max(len(mine), len(theirs)) >= _RESTRICTION_MIN \
                    and not any(stem(w) in b.stems for w in mine) \
                    and not any(stem(w) in a.stems for w in theirs):
                return " ".join(a.tokens[i:i + 6]), " ".join(b.tokens[j:j + 6])
    return None


def _restriction(toks: tuple[str, ...]) -> list[str]:
    """The content words and numbers of a restriction's first three words; none when it
    opens a clause ("before **they're** sent to clients" / "before **it** goes to the
    client": one time, reworded)."""
    if toks[:1] and (toks[0] in PRONOUNS or toks[0].split("'")[0] in PRONOUNS):
        return []
    return [w for w in toks[:3] if (content_word(w) or number(w) is not None)
            and w not in _EVERY]


_RESTRICTION_MIN = 2  # "to **a new patient**": one word each side is as often a synonym


def _timed(words: list[str]) -> bool:
    """Whether a restriction names a number or a clock time."""
    return any(number(w) is not None or any(c.isdigit() for c in w) for w in words)


def every_or_one(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("every 30 m section", "a 30 m section") where one text says every one of a measured
    thing and the other, as a condition, a single one, the same number and words after it:
    "species-rich if **every** 30 m section holds at least five native species" / "… if **a**
    30 m section holds …" (the 393rd set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        for i in range(len(x.tokens) - 2):
            if x.tokens[i] != "every" or number(x.tokens[i + 1]) is None:
                continue
            rest = x.tokens[i + 1:i + 4]
            for j in range(1, len(y.tokens) - 1):
                if y.tokens[j] in ("a", "an", "one") and y.tokens[j - 1] in ("if", "when") \
                        and y.tokens[j + 1:j + 1 + len(rest)] == rest:  # not "**each** 30 cm
                    # bear takes 180 g" / "**a** 30 cm bear needs 180 g": one of many alike
                    found = " ".join(x.tokens[i:i + 4]), " ".join(y.tokens[j:j + 4])
                    return (found[1], found[0]) if flip else found
    return None


#: Words after a plain plural that keep it to some of them: "guests **on** silent retreats",
#: "ships **coming** from outside the UK".
_SOME_OF = _RESTRICTING | frozenset(["on", "with", "for", "coming", "arriving", "travelling",
                                      "aged", "from"])  # "children missing **from care homes**"


def _participle(word: str) -> bool:
    """"detainees **flagged** as high risk", "any lot **marked** fragile" (the 484th and 487th
    sets): a thing kept to some by a verb's past participle after it."""
    return word.endswith("ed") and len(word) > 4


def all_of_restricted(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all guests", "guests on … silent") where the request says all of a thing and the
    stored text, with no "all" of it, keeps the thing to some by words the request never says:
    "all guests eat in the garden room" / "guests **on silent retreats** eat …", "all customers
    get a call back" / "customers **on the priority services register** …" (the 398th and
    400th sets). A wider rule, read from the request's side. Else None."""
    ta, tb = a.tokens, b.tokens
    for i in range(len(ta) - 1):
        if ta[i] not in ("all", "every") or not content_word(ta[i + 1]):
            continue
        thing = stem(ta[i + 1])
        for j in range(len(tb) - 2):
            if stem(tb[j]) != thing or not (tb[j + 1] in _SOME_OF or _participle(tb[j + 1])) \
                    or (j and tb[j - 1] in _EVERY):
                continue
            what = [w for w in tb[j + 2:j + 6] if content_word(w) or w == "outside"]
            read = what[:2] if tb[j + 1] == "with" else what[:1]  # "clients **with a wool
            # allergy**" / "every client … the wool layers": one word is said elsewhere
            if read and any(stem(w) not in a.stems for w in read) \
                    and ta[i + 1] not in UNIT_DAYS and not ta[i + 1].endswith("ly"):
                return f"{ta[i]} {ta[i + 1]}", " ".join(tb[j:j + 5])
    return None


def all_or_some_ones(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all of them", "any worn ones") where the request takes all of the things the stored
    text keeps to the ones a word the request never says names: "checks the jet nozzles … and
    **replaces all of them**" / "… **replaces any worn ones**" (the 490th and 492nd sets).
    Else None."""
    ta, tb = a.tokens, b.tokens
    if not any(ta[i:i + 3] == ("all", "of", "them") for i in range(len(ta) - 2)):
        return None
    for j in range(len(tb) - 2):
        q, word, ones = tb[j:j + 3]
        if q in ("any", "the") and ones == "ones" and content_word(word) \
                and stem(word) not in a.stems:
            return "all of them", f"{q} {word} ones"
    return None

