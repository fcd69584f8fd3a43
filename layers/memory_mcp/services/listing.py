"""Every one of a kind against a list of some: "Mill Ford is closed to **all vehicles** when
the gauge reads 0.4 m" / "… closed to **cars and vans** when …" (the two-hundred-and-fifty-
fourth set).

The word sets see one word against two and the model scores the pair as one fact; but the
stored rule names which things it holds for, and a request for every thing of the kind is a
wider rule that was never stored. Read where both texts have the same verb and preposition,
one followed by "all" / "every" / "any" and a noun, the other by a list of two or more that
does not name that noun. And the converse narrowing: "counting **only the ski** fleet" / "full
rental fleet inventory count", "**only** from the **Manchester** arcade sites" / "from arcade
sites" (the two-hundred-and-fifty-second set): an "only" before a thing the other text names
with a word it never says.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import (
    AUX,
    CLAUSE_BREAKS,
    DETERMINERS,
    PREPOSITIONS,
    PRONOUNS,
    SLOT_TOKENS,
    predicates,
)
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, part_stems, stem
from memory_mcp.services.word_pool import parts_pool

_EVERY = frozenset(["all", "every", "any"])
_JOINS = frozenset(["and", "or"])
#: Words of time, not place, after "only" ("only **after** payment clears").
_WHEN = frozenset(["after", "before", "until", "till", "during", "since"])
_EVERYONE = frozenset(["everyone", "everybody", "anyone", "anybody", "all"])


def all_or_listed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("to all vehicles", "to cars and vans") either way round, else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: pairs of words over two long texts cost seconds
    for x, y, flip in ((a, b, False), (b, a, True)):
        found = _widened(x, y) or _everyone(x, y)
        if found is not None:
            return (found[1], found[0]) if flip else found
    return None


def _widened(x: Facets, y: Facets) -> tuple[str, str] | None:
    tx, ty = x.tokens, y.tokens
    for k in range(2, len(tx) - 1):
        if tx[k] not in _EVERY or not content_word(tx[k + 1]) or tx[k - 1] not in PREPOSITIONS:
            continue
        verb, prep, noun = stem(tx[k - 2]), tx[k - 1], tx[k + 1]
        for j in range(1, len(ty) - 3):
            if ty[j] != prep or stem(ty[j - 1]) != verb:
                continue
            listed = _list_at(ty, j + 1)
            if listed and noun not in listed and stem(noun) not in y.stems:
                return f"{prep} {tx[k]} {noun}", f"{prep} {' and '.join(listed)}"
    return None


def _everyone(x: Facets, y: Facets) -> tuple[str, str] | None:
    """("for everyone", "for children") where ``y`` names whom the same word and preposition
    hold for and ``x`` says "everyone": "life jackets are compulsory **for everyone**" /
    "… compulsory **for children under 14**" (the two-hundred-and-fifty-second set)."""
    tx, ty = x.tokens, y.tokens
    for k in range(2, len(tx)):
        if tx[k] not in _EVERYONE or tx[k - 1] not in PREPOSITIONS:
            continue
        verb, prep = stem(tx[k - 2]), tx[k - 1]
        for j in range(1, len(ty) - 1):
            if ty[j] == prep and stem(ty[j - 1]) == verb and content_word(ty[j + 1]) \
                    and ty[j + 1] not in _EVERYONE and ty[j + 1] not in PRONOUNS \
                    and stem(ty[j + 1]) not in x.stems:
                return f"{prep} {tx[k]}", f"{prep} {ty[j + 1]}"
    return None


def _list_at(toks: tuple[str, ...], i: int) -> list[str]:
    """The content words of a list of two or more starting at ``i`` ("cars and vans",
    "cars vans or bikes"): single words, joined by "and" / "or" before the last."""
    out: list[str] = []
    while i < len(toks) and content_word(toks[i]):
        out.append(toks[i])
        if i + 1 < len(toks) and toks[i + 1] in _JOINS:
            last = toks[i + 2] if i + 2 < len(toks) else ""
            return [*out, last] if content_word(last) else []
        i += 1
    return []


def only_narrowed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only the ski fleet", "fleet") where the request's "only" opens a thing of several
    words whose head the stored text names, with a modifier the stored text never says."""
    pool = parts_pool(b)  # the request's "only": a stored one the request leaves out is a
    # detail left out ("exclusively in the booth" / "only in the ventilated spray booth")
    for thing in _only_things(a.tokens):
        head, mods = thing[-1], thing[:-1]
        if stem(head) in b.stems and any(not pool.has(m, _CLOSE) for m in mods):
            return f"only {' '.join(thing)}", head
    return None


def _only_things(toks: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The words of the thing after each "only" and a preposition or an article, when it has
    a modifier and a head: "only from the **Manchester arcade sites**"."""
    out = []
    for i, t in enumerate(toks):
        if t != "only" or (i and toks[i - 1] == "not"):
            continue
        k = i + 1
        while k < len(toks) and ((toks[k] in PREPOSITIONS and toks[k] not in _WHEN)
                                 or toks[k] in DETERMINERS):
            k += 1
        if k == i + 1:  # "only **add** concrete blocks": a verb, or an adjective ("only
            continue  # senior staff"), which ``only_modified`` reads
        words: list[str] = []
        while k < len(toks) and len(words) < _THING and content_word(toks[k]) \
                and toks[k].isalpha() and toks[k] not in AUX and toks[k] not in CLAUSE_BREAKS \
                and toks[k] not in PREPOSITIONS:
            words.append(toks[k])
            k += 1
        if len(words) >= _MODIFIED:
            out.append(tuple(words))
    return out


#: Words of a thing read after "only" at most, and at least (a modifier and its head).
_THING = 4
_MODIFIED = 2
#: How close a word of the other text must be to count as the modifier said there.
_CLOSE = 0.75


# A kind of a thing right after a request's "only": "**only first-time** customers pay a 50 %
# deposit" is not "customers pay a 50 % deposit" (the two-hundred-and-eighty-third set); the
# stored text has the thing itself, not the words that narrow it. ``only_narrowed`` reads the
# thing after "only" and a preposition or an article.
#: Content words read after the "only": the kind's words and its thing.
_KIND_REACH = 3


def only_modified(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only first-time customers", "customers") where the request ``a`` keeps a fact to a
    kind of a thing with "only" and the stored ``b``, with no "only", names the thing without
    any word of the kind. Only the request's "only" is read: a stored one often stands before
    its verb ("the crew **only clears** gullies on the list" / "… clears the listed gullies").
    Else None."""
    if any("only" in t for t in b.tokens):
        return None
    found, verbs, toks = parts_pool(b), predicates(a), a.tokens
    for i, t in enumerate(toks[:-2]):
        if t != "only" or (i and toks[i - 1] == "not"):
            continue
        start = i + 1 + (toks[i + 1] in DETERMINERS)
        words: list[str] = []
        for k in range(start, min(start + _KIND_REACH, len(toks))):
            if k in verbs or not content_word(toks[k]):
                break
            words.append(toks[k])
        # the thing is the first word after the kind that the stored text names ("only
        # first-time **customers** pay": "pay" may be read as a noun too)
        head = next((j for j in range(1, len(words)) if stem(words[j]) in b.stems), None)
        if head is None:
            continue
        kind = words[:head]
        if any(w.endswith("s") and not w.endswith(("ss", "seas")) for w in kind):
            continue  # "only **uses** lanes 1 and 3": a verb, not a kind; "only **overseas**
            # vendors" is one (the 384th set)
        if any(p in b.stems or found.has(p, _CLOSE) for w in kind for p in part_stems(w)):
            continue
        return " ".join(["only", *words[:head + 1]]), words[head]
    return None


#: Words after a thing that narrow which of it a rule holds for ("proofs **containing**
#: apostrophes").
_NARROWS = frozenset(["containing", "involving", "needing", "requiring", "that", "which",
                      "carrying", "showing"])  # not "with", a tool as often: "quarterly **with**
# the LTL-X Mark II"


def all_of_narrowed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all nameplate proofs", "proofs containing … apostrophes") where the request says all of
    a thing and the stored text only those of it that hold something the request never
    says: "**all** nameplate proofs must be approved" / "nameplate proofs **containing
    apostrophes** … must be approved" (the two-hundred-and-fifty-ninth set). Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: pairs of words over two long texts cost seconds
    ta, tb = a.tokens, b.tokens
    for j, t in enumerate(ta):
        if t not in _EVERY_ONE:
            continue
        k = j + 1
        while k < len(ta) and k <= j + _THING_AFTER and content_word(ta[k]):
            k += 1
        thing = ta[j + 1:k]
        if not thing or (k < len(ta) and ta[k] in _NARROWS):
            continue  # "every tray **with** nuts": narrowed in both
        for i in range(len(tb) - 2):
            if stem(tb[i]) != stem(thing[-1]) or tb[i + 1] not in _NARROWS \
                    or _EVERY_ONE & set(tb[max(0, i - _THING_AFTER - 1):i]):
                continue  # "any will involving …" is ``widened.unrestricted``'s
            what = next((w for w in tb[i + 2:i + 5] if content_word(w)), "")
            if what and stem(what) not in a.stems:
                return f"{t} {' '.join(thing)}", f"{tb[i]} {tb[i + 1]} … {what}"
    return None


_EVERY_ONE = frozenset(["all", "every", "each", "any"])
#: Words of a thing read after "all" at most ("all **nameplate proofs**").
_THING_AFTER = 2



def all_numbered(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all five instars", "instars 1-3") either way round: "all" (and a count) before a
    thing the other text numbers in groups ("… for **instars 1-3**, then … for **instars
    4-5**", the two-hundred-and-sixty-ninth set) or numbers up to less than the count. The
    stored text holds for some of them; "all" is a wider fact."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        found = _all_of_numbered(x, y)
        if found is not None:
            return (found[1], found[0]) if flip else found
    return None


def _all_of_numbered(x: Facets, y: Facets) -> tuple[str, str] | None:
    tx, ty = x.tokens, y.tokens
    for k in range(len(tx) - 1):
        if tx[k] != "all" or "all" in ty:  # "every six weeks" is how often
            continue
        count = number(tx[k + 1])
        at = k + 2 if count is not None else k + 1
        if at >= len(tx) or not content_word(tx[at]):
            continue
        groups = [_numbers_after(ty, p) for p in range(len(ty) - 1)
                  if stem(ty[p]) == stem(tx[at]) and number(ty[p + 1]) is not None]
        if len(groups) > 1 or (groups and count is not None and max(groups[0]) < count):
            shown = "-".join(f"{n:g}" for n in groups[0])
            return " ".join(tx[k:at + 1]), f"{tx[at]} {shown}"
    return None


def _numbers_after(ty: tuple[str, ...], p: int) -> list[float]:
    """The number or range after ``p``: "instars 1 3" (from "1-3"), "instars 1 to 5"."""
    out = [number(ty[p + 1])]
    rest = ty[p + 2:p + 4]
    if rest[:1] in (("to",), ("and",)) and len(rest) == 2:
        out.append(number(rest[1]))
    elif rest:
        out.append(number(rest[0]))
    return [n for n in out if n is not None]


def joined_subject(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the request's subject is the stored one with a thing
    joined by "and" that the stored text never names, before the same verb and two words:
    "juniors under 16 **and over-65s** play for €6" / "juniors under 16 play for €6" (the
    two-hundred-and-eightieth set). A wider rule; read from the request's side only, as a
    rewording may leave a list's member out but does not add one."""
    ta, tb = a.tokens, b.tokens
    if max(len(ta), len(tb)) > SLOT_TOKENS:
        return None
    for i in range(_JOINED, len(ta) - 2):
        added = ta[i - 1]
        if ta[i - 2] != "and" or not content_word(added) or stem(added) in b.stems \
                or not content_word(ta[i]) or not added.endswith("s"):
            continue  # things: not "approves each spray **and keeps** the spray log", "use
            # clip-on tuners **and keep** spare batteries"
        for j in range(2, len(tb) - 2):
            if ta[i:i + 3] == tb[j:j + 3] and ta[i - 4:i - 2] == tb[j - 2:j]:
                kept = " ".join(tb[j - 2:j])
                return f"{kept} and {added}", kept
    return _joined_first(ta, tb, b)


def _joined_first(ta: tuple[str, ...], tb: tuple[str, ...], b: Facets) -> tuple[str, str] | None:
    """The thing joined before the stored subject, the text's first words: "**all staff and**
    visitors must shower in" / "visitors must shower in" (the 326th set)."""
    at = 1 + (ta[:1] in (("all",), ("both",), ("the",)))
    if len(ta) > at + 4 and ta[at] == "and" and content_word(ta[at - 1]) \
            and stem(ta[at - 1]) not in b.stems and ta[at + 1:at + 4] == tb[:3]:
        return f"{ta[at - 1]} and {tb[0]}", tb[0]
    return None


_JOINED = 4  # two words of the stored subject, "and", the thing added
