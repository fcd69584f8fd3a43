"""How many of them, said in words the count rules do not read (the 414th, 415th and 418th
sets): "**one in every ten** wheelsets … is tested" / "wheelsets … are tested" (a sample
against all of them), "Rahul is **one of three** operators cleared" / "Rahul is **the only**
operator cleared", and "**nobody** goes onto the apron without a lifejacket" / "**trainees
don't** go onto the apron …" (everyone against some people).
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS
from memory_mcp.services.lexicon import MONTHS, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.numbered import ID_NOUNS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, singular_weekday, stem

_NOBODY = (("nobody",), ("no", "one"), ("no-one",), ("none",))
_NOT = frozenset(["not", "never", "cannot"])
#: Whole workforces, which "nobody" rewords ("**crews** must not go up on a roof"): not some.
_EVERYONE = frozenset(["crew", "crews", "staff", "people", "everyone", "workers", "employees",
                       "anyone", "team", "teams", "members", "users", "we", "you"])
_MODALS = frozenset(["may", "must", "can", "should", "shall", "will", "at", "all", "ever"])


def sampled(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("one in every ten", "all") where the request tests or keeps one in so many and the
    stored text says no such share. Else None."""
    ta = a.tokens
    for i in range(len(ta) - 2):
        if number(ta[i]) == 1 and ta[i + 1] == "in" and not _share(b.tokens) \
                and not (i and ta[i - 1] in DETERMINERS):  # not "the one in one-tonne bags"
            end = i + 3 + (ta[i + 2] == "every")
            if end <= len(ta) and number(ta[end - 1]) is not None and "-" not in ta[end - 1]:
                return " ".join(ta[i:end]), "all of them"
    return None


def _share(toks: tuple[str, ...]) -> bool:
    return any(number(toks[i]) == 1 and toks[i + 1] == "in" for i in range(len(toks) - 1)) \
        or any(t.endswith(("th", "nd", "rd")) and t[:1].isdigit() for t in toks)


def one_of_or_only(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("one of three", "the only") where one text makes someone one of several and the
    other the only one, of the same thing. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        for i in range(len(tx) - 2):
            if number(tx[i]) == 1 and tx[i + 1] == "of" and (
                    number(tx[i + 2]) is not None or tx[i + 2] in ("several", "many", "two")):
                thing = next((w for w in tx[i + 3:i + 5] if content_word(w)), "")
                if thing and any(ty[j] == "only" and j + 1 < len(ty) and stem(ty[j + 1])
                                 == stem(thing) for j in range(len(ty))) \
                        and "only" not in tx[i:i + 5]:
                    found = " ".join(tx[i:i + 3]), f"the only {thing}"
                    return (found[1], found[0]) if flip else found
    return None


def nobody_or_some(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("nobody", "trainees") where one text opens with nobody doing a thing and the other
    says some people, whom the first never names, do not do it. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        opening = next((o for o in _NOBODY if x.tokens[:len(o)] == o), None)
        if opening is None:
            continue
        rest = [w for w in x.tokens[len(opening):len(opening) + 4] if w not in _MODALS]
        verb = rest[0] if rest else ""
        ty = y.tokens
        for j in range(2, len(ty)):
            if not _same_verb(ty[j], verb):
                continue
            before = ty[max(0, j - 3):j]
            if any(w in _NOT or w.endswith("n't") for w in before):
                who = [w for w in ty[:j] if content_word(w) and w not in _NOT
                       and not w.endswith("n't") and w not in _MODALS]
                if who and not any(stem(w) in x.stems for w in who) \
                        and not set(who) & _EVERYONE:
                    found = " ".join(opening), who[0]
                    return (found[1], found[0]) if flip else found
            return None
    return None


def _same_verb(word: str, verb: str) -> bool:
    """"go" / "goes", "operate" / "operates": one verb, with or without its -s."""
    return bool(verb) and (word == verb or word.removesuffix("es") == verb.removesuffix("es")
                           or word.removesuffix("s") == verb.removesuffix("s"))


def first_of(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("the first tanker", "tankers") where the request keeps a thing the stored text says of
    all to its first one ("**the first** cream yeast tanker each day may only be loaded …" /
    "cream yeast tankers may only be loaded …", the 422nd and 425th sets), the stored text
    saying no "first", or saying "every" of it: "signs off **the first engine wash** of each
    night" / "signs off **every engine wash** … the first departure" (the 464th set). Else
    None."""
    for x, y, flip in ((a.tokens, b.tokens, False), (b.tokens, a.tokens, True)):
        for i in range(1, len(x) - 1):  # and "**every board** of every batch" / "**the first
            # board** of every batch" (the 472nd set)
            if x[i] == "first" and x[i - 1] == "the" and any(
                    y[j] in ("every", "each", "all") and y[j + 1:j + 3] == x[i + 1:i + 3]
                    for j in range(len(y) - 2)):
                found = f"the first {' '.join(x[i + 1:i + 3])}", "every"
                return (found[1], found[0]) if flip else found
    ta, tb = a.tokens, b.tokens
    if {"first", "1st", "earliest"} & set(tb):
        return None
    for i in range(1, len(ta) - 1):
        if ta[i] == "first" and ta[i - 1] == "the":
            thing = next((w for w in ta[i + 1:i + 4] if w.isalpha() and content_word(w)
                          and not _timed(w) and {f"{w}s", f"{w}es"} & set(b.tokens)), None)
            if thing is not None:  # the stored text says them all, in the plural
                return f"the first {thing}", thing
    return None


def every_numbered(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("every can line", "can line 2") where the request says every one of a thing the
    stored text names by its number, a number the request never says (the 423rd set). Else
    None."""
    ta, tb = a.tokens, b.tokens
    for i in range(len(ta) - 1):
        if ta[i] not in ("every", "all", "each"):
            continue
        thing = next((w for w in ta[i + 1:i + 4] if content_word(w)), None)
        if thing is None or stem(thing) not in ID_NOUNS or _timed(thing):
            continue
        for j in range(len(tb) - 1):
            if tb[j] == thing and tb[j + 1].isdigit() and len(tb[j + 1]) <= _ID_DIGITS \
                    and tb[j + 1] not in ta and tb[j - 1:j] != (ta[i],):
                return f"{ta[i]} … {thing}", f"{thing} {tb[j + 1]}"
    return None


_ID_DIGITS = 3  # "can line **2**", not "June **2027**"


def _timed(word: str) -> bool:
    """A word of time ("day", "March", "Thursdays", "morning"): "the first day" is a date."""
    return word in UNIT_DAYS or word in MONTHS or singular_weekday(word) in WEEKDAYS \
        or word in TIMES or word.rstrip("s") in TIMES


#: "any of our pits", "all of the sites", "each of our lines": a rule said of every one of them.
_ANY_OF = frozenset(["any", "all", "each", "every", "none"])


def any_of_one(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("any of our pits", "the pit") where one text holds a rule for any or all of some things
    in the plural and the other for one of them, in the singular after "the", "our" or "this",
    never writing the plural: "blasting is not used **at any of our pits**" / "… **at the
    pit**" (the 426th set). Both ways. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        tx, ty = x.tokens, y.tokens
        for i in range(len(tx) - 3):
            if tx[i] not in _ANY_OF or tx[i + 1] != "of" or tx[i + 2] not in ("our", "the"):
                continue
            many = tx[i + 3]
            one = many[:-1] if many.endswith("s") and not many.endswith("ss") else ""
            if not one or not content_word(one) or many in ty or not any(
                    ty[j] == one and ty[j - 1] in ("the", "our", "this") for j in range(1, len(ty))):
                continue
            found = " ".join(tx[i:i + 4]), f"the {one}"
            return (found[1], found[0]) if flip else found
    return None


#: How many of them: "**only one of them** must be unloaded" / "**all of them** must be".
_HOW_MANY = frozenset(["all", "one", "some", "both", "none", "each", "two", "three", "most",
                       "half", "either", "neither", "any"])


def of_them(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where each text says "<how many> of them" (or "of these",
    "of those") and the two say another count (the 472nd set). Else None."""
    mine, theirs = _of_them(a.tokens), _of_them(b.tokens)
    if mine and theirs and not mine & theirs:
        return f"{sorted(mine)[0]} of them", f"{sorted(theirs)[0]} of them"
    return None


def _of_them(toks: tuple[str, ...]) -> set[str]:
    """The counts before "of them": "each" and "every one" read as "all" ("**every one of
    them** has to reach 720 hours" / "**all of them** must reach …", the 469th set)."""
    out = set()
    for i in range(1, len(toks) - 1):
        if toks[i] == "of" and toks[i + 1] in ("them", "these", "those") \
                and toks[i - 1] in _HOW_MANY:
            every = toks[i - 1] == "each" or (toks[i - 1] == "one" and i > 1
                                              and toks[i - 2] in ("every", "each"))
            out.add("all" if every else toks[i - 1])
    return out
