"""A rule widened past the stored one: "all ultrasound scans, **adult and paediatric alike**" /
"all **paediatric** ultrasound scans", "all must, **reds as well as whites**" / "All **white**
must", "**anywhere in the city**" / "in the **city centre**" (the fifth, thirty-seventh,
forty-fifth, forty-eighth, fifty-third, fifty-ninth and sixtieth sets).

The word sets see the stored text's narrowing word among the request's, and the request's
extra words as a restatement; but a request that names both kinds of a thing, or any place at
all, is about a wider rule than the one stored for one kind or one place, and that rule still
holds where it was said.
"""

from __future__ import annotations

from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, DETERMINERS
from memory_mcp.services.lexicon import MONTHS, TIMES, WEEKDAYS
from memory_mcp.services.stems import content_word, stem

#: Words before the kinds a widened rule lists ("**every** mainsail, racing or cruising").
_EVERY = frozenset(["every", "all", "each", "any"])
#: How many words after "every" the kinds may start.
_EVERY_REACH = 3
#: Prepositions before the place a stored rule is narrowed to ("**in** the city centre").
_PLACE = frozenset(["in", "on", "within", "at", "along", "inside", "for"])
#: At most this many words after the preposition name the place.
_PLACE_WORDS = 3
_WHEN = frozenset([*TIMES, *WEEKDAYS, *MONTHS])


def both_kinds(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's two kinds, the one ``b`` names) where ``a`` names two kinds of a thing as one
    ("adult **and** paediatric **alike**", "reds **as well as** whites", "every mainsail,
    racing **or** cruising", "**both** the sheep **and** the cattle line") and ``b`` names
    exactly one of them: the stored rule is for that
    kind only. Else None."""
    seen = {stem(t) for t in b.tokens}
    for one, two in _pairs(a.tokens):
        has_one, has_two = stem(one) in seen, stem(two) in seen
        if has_one != has_two:
            return f"{one} and {two}", one if has_one else two
        if has_one and (kind := _only_kind(one, two, a, b)) is not None:
            return f"{one} and {two}", kind
    return None


def _only_kind(one: str, two: str, a: Facets, b: Facets) -> str | None:
    """b's phrase where ``b`` names both kinds but only one before a noun ``a`` says ("fits
    all **commercial jobs**; **domestic installs** are split …" / "fits every **job**,
    commercial and domestic alike"); None where ``b`` joins them itself ("commercial and
    domestic jobs")."""
    toks, said = b.tokens, {stem(t) for t in a.tokens}
    kinds = {stem(one), stem(two)}
    if any({stem(toks[k]), stem(toks[k + 2])} == kinds and toks[k + 1] in ("and", "or")
           for k in range(len(toks) - 2)):
        return None
    found = [f"{x} {y}" for x, y in pairwise(toks) if stem(x) in kinds
             and content_word(y) and stem(y) not in kinds and stem(y) in said]
    return found[0] if len(found) == 1 else None


def _pairs(toks: tuple[str, ...]) -> list[tuple[str, str]]:
    """The two kinds each "X and Y alike", "X as well as Y", "every N X or Y" or "both X
    and Y" lists."""
    out = []
    for i, t in enumerate(toks):
        if t == "alike" and i >= 3 and toks[i - 2] in ("and", "or"):
            out.append((toks[i - 3], toks[i - 1]))
        elif t == "alike" and i >= 4 and toks[i - 3] in ("and", "or"):  # "literal and
            out.append((toks[i - 4], toks[i - 2]))  # singable translations alike" (263rd)
        elif t == "well" and 2 <= i < len(toks) - 2 and toks[i - 1] == "as" \
                and toks[i + 1] == "as":
            out.append((toks[i - 2], toks[i + 2]))
        elif (t == "or" or (t == "and" and i == len(toks) - 2)) and 0 < i < len(toks) - 1 \
                and _EVERY & set(toks[max(0, i - _EVERY_REACH - 1):i - 1]):
            # "every N X or Y", and "every N, X and Y" closing the text ("every laser show,
            # indoor and outdoor"); an "and" inside it mostly joins two clauses ("every Monday
            # Hugh reads … and records …")
            out.append((toks[i - 1], toks[i + 1]))
        elif t == "both" and "and" in toks[i + 2:i + 4]:  # "on **both** the sheep **and** the
            # cattle line"
            k = toks.index("and", i + 2)
            after = [w for w in toks[k + 1:k + 3] if w not in ("the", "a", "an")]
            if after:
                out.append((toks[k - 1], after[0]))
    return [(x, y) for x, y in out if content_word(x) and content_word(y)
            and not (x[:1].isdigit() or y[:1].isdigit())]


#: Words for every place there is ("handles all recall reviews **nationally**" / "… for the
#: Northern region", the hundred-and-sixty-first set).
_ANYWHERE = frozenset(["anywhere", "everywhere", "nationally", "nationwide", "worldwide",
                       "globally", "countrywide"])


def anywhere(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("anywhere", b's place) where ``a`` says "anywhere" (or "nationally", …) and ``b``,
    which says none of them, holds "in"/"on"/"within"/"for" a place with a word ``a`` never
    says ("in the **barn**", "within **mainland** Portugal", "for the **Northern region**").
    Else None."""
    wide = _ANYWHERE & set(a.tokens)
    if not wide or _ANYWHERE & set(b.tokens):
        return None
    said = {stem(t) for t in a.tokens}
    toks = b.tokens
    for i, t in enumerate(toks[:-1]):
        if t not in _PLACE:
            continue
        if t == "within" and toks[i + 1][:1].isdigit() and "within" not in a.tokens:
            # "**within 20 miles** of the Leeds depot" / "applies everywhere" (the 341st set):
            # a distance that bounds the place; not "anywhere within 50 m"
            return min(wide), " ".join(toks[i:i + 3])
        words: list[str] = []
        for w in toks[i + 1:i + 1 + _PLACE_WORDS + 1]:
            if w in ("the", "a", "an", "our") and not words:
                continue
            if not content_word(w) or w in _WHEN or w[:1].isdigit():
                break
            words.append(w)
        if words[:_PLACE_WORDS] and any(stem(w) not in said for w in words[:_PLACE_WORDS]):
            return min(wide), f"{t} {' '.join(words[:_PLACE_WORDS])}"
    return None


#: Words for every person there is.
_EVERYONE = frozenset(["everyone", "everybody", "anyone", "anybody"])


def only_or_everyone(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only X", "everyone") where one text holds a rule for "only" some people ("**only the
    sprayer** in the spray booth has to wear …") and the other, saying no "only", for
    "**everyone** in the spray booth" (the hundred-and-twelfth set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if not _EVERYONE & set(y.tokens) or "only" in y.tokens or _EVERYONE & set(x.tokens):
            continue
        said = {stem(t) for t in y.tokens}
        for i, t in enumerate(x.tokens[:-1]):
            if t != "only" or x.tokens[i + 1] not in ("the", "a", "an", "our", "their"):
                continue  # "only **the** sprayer", not "only fire up the coil"
            who = next((w for w in x.tokens[i + 1:i + 4] if content_word(w) and w != "own"),
                       None)  # "only **our own work riders**" / "anyone riding out …,
            # **including** work riders on loan" (the 369th set): everyone, those too
            if who is not None and (stem(who) not in said or "including" in y.tokens):
                found = f"only {who}", next(w for w in y.tokens if w in _EVERYONE)
                return (found[1], found[0]) if flip else found
    return None



def only_listed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("all X and Y games", "only Y games") where one text narrows a thing with "only" and
    the other, with no "only", lists that kind and another after "all", "both" or "every":
    "officiates **all first and second** XI games" / "officiates **only second** XI games"
    (the hundred-and-eightieth set). The wider rule was never stored."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if "only" in x.tokens or "only" not in y.tokens:
            continue
        toks = y.tokens
        i = toks.index("only")
        kind = next((w for w in toks[i + 1:i + 3] if content_word(w) or w in _ORDINALS), None)
        if kind is None:
            continue
        for k, t in enumerate(x.tokens):
            if t not in _EVERY and t != "both":
                continue
            listed = x.tokens[k + 1:k + 1 + _EVERY_REACH + 2]
            if "and" not in listed or kind not in listed:
                continue
            extra = [w for w in listed[:listed.index("and")] if (content_word(w)
                     or w in _END_OF or w in _ORDINALS) and stem(w) not in y.stems]
            if extra:
                found = " ".join(x.tokens[k:k + 1 + listed.index(kind) + 1]), f"only {kind}"
                return (found[1], found[0]) if flip else found
    return None


#: Ordinals a kind may be named by ("only **second** XI games").
_ORDINALS = frozenset(["first", "second", "third", "fourth", "fifth"])
#: Words for one end of a series ("only **the first** release batch").
_END_OF = frozenset(["first", "last", "final"])
_ALL = frozenset(["all", "every", "each"])


def one_of_all(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("first X", "all X") where one text holds a rule for the first or last of some things
    ("approves only **the first** release batch of each season") and the other, naming no
    first or last, for all of them ("approves **all** release batches"; the hundred-and-
    fourteenth set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if _END_OF & set(y.tokens):
            continue
        whole = {stem(w): f"{t} {w}" for i, t in enumerate(y.tokens) if t in _ALL
                 for w in y.tokens[i + 1:i + 4] if content_word(w)}
        for i, t in enumerate(x.tokens[1:], 1):
            if t in _END_OF and x.tokens[i - 1] == "the" and x.tokens[i + 1:i + 2] != ("of",):
                # "on **the first of** each month" is a date, not one of the months
                for w in x.tokens[i + 1:i + 4]:
                    if content_word(w) and stem(w) in whole:
                        found = f"the {t} {w}", whole[stem(w)]
                        return (found[1], found[0]) if flip else found
    return None


#: Words that open a rule's "whatever the size" ("**regardless of** condition", "**no matter**
#: how little", "**irrespective of** the tier").
_REGARDLESS = (("regardless", "of"), ("irrespective", "of"), ("no", "matter"), ("however", "far"))


def regardless(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, "") where ``a`` holds its rule "whatever the X" or "regardless of X" and
    ``b`` says no such thing: ``a`` widens a rule ``b`` states for what it names ("every
    batch of crisps, **whatever the flavour**" / "every batch of **salt-and-vinegar**
    crisps"; "every patient, **whatever their age**" / "all patients **over 40**"). Of 53
    such requests in the first 160 forget sets, none rewords a stored fact. Else None."""
    if _any_of(b.tokens) is not None:
        return None
    found = _any_of(a.tokens)
    return None if found is None else (found, "(not said)")


def _any_of(toks: tuple[str, ...]) -> str | None:
    """The text's "whatever the X" (not "whatever's been left", a thing) or "regardless of
    X", or None."""
    for i, t in enumerate(toks[:-1]):
        nxt = toks[i + 1]
        if t == "whatever" and (nxt in DETERMINERS or content_word(nxt)) and nxt not in AUX:
            return " ".join(toks[i:i + 3])
        if (t, nxt) in _REGARDLESS:
            return " ".join(toks[i:i + 3])
    return None
