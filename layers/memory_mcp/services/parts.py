"""How much of a whole one text takes where the other takes all or names no amount: "**most**
Oakridge district jobs" / "Jobs in the Oakridge district", "**two of the four** fan motors" /
"**all four** fan motors", "**either** an apron **or** a face shield" / "aprons **and** face
shields", "**one** auto-belay **per** wall" / "the auto-belays".

Split from ``slots`` (which compares the quantity words two texts put in the same place):
these read a part and its whole, wherever each text puts them.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS
from memory_mcp.services.lexicon import ORDINAL
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_forms import EVERY_COUNTS
from memory_mcp.services.slots import UNIVERSALS, after_quantity, universals
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.values import show_number

#: Words that take part of the things: "**most** Oakridge district jobs".
_PART = frozenset("most some many few several".split())  # noqa: SIM905
#: Words that would say the part another way ("the majority of", "a few of").
_PART_SAID = _PART | frozenset("majority minority portion share part half".split())  # noqa: SIM905


def any_part(a: Facets, b: Facets) -> tuple[str, str] | None:
    """The first part against a whole that one of this module's reads finds, or None."""
    return part_of_bare(a, b) or either_or(a, b) or count_per(a, b) or part_of_whole(a, b) \
        or both_of_one(a, b) or part_of_everyone(a, b) or every_nth(a, b) or any_of_all(a, b) \
        or first_or_every(a, b) or first_few(a, b)


def any_of_all(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("any of the four", "all four") where one text's rule holds when any one of a counted
    whole does a thing and the other's when all of them do: "unless **any of the four**
    technicians is booked" / "unless **all four** technicians are booked" (the 352nd set).
    Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks = x.tokens
        for i in range(len(toks) - 3):
            if toks[i:i + 3] != ("any", "of", "the") or number(toks[i + 3]) is None:
                continue
            count = number(toks[i + 3])
            for k in range(len(y.tokens) - 1):
                if y.tokens[k] in ("all", "both") and number(y.tokens[k + 1]) == count \
                        and "any" not in y.tokens:
                    found = " ".join(toks[i:i + 4]), " ".join(y.tokens[k:k + 2])
                    return (found[1], found[0]) if flip else found
    return None


def every_nth(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("every tenth", "each") where one text takes every nth thing ("**every tenth** one gets
    a serial stencil") and the other each of them ("**each** gets a serial stencil", the 335th
    set), neither saying the other's; a count of time after the ordinal ("every second
    Thursday") is how often, the schedule rules' case. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks = x.tokens
        for i, word in enumerate(toks[:-2]):
            nth = toks[i + 1]
            if word != "every" or nth == "first" or not ORDINAL.fullmatch(nth) \
                    or (toks[i + 2] in EVERY_COUNTS and toks[i + 2] != "one") \
                    or nth in y.tokens:
                continue
            at = i + 2 + (toks[i + 2] == "one")  # "every tenth **one gets**"
            found = next((t for k, t in enumerate(y.tokens[:-1]) if t in ("each", "every")
                          and y.tokens[k + 1] == toks[at]), None) if at < len(toks) else None
            if found is not None:  # the same word after both ("… one **gets**" / "each
                # **gets**"), not "every fourth batch" / "every four batches"
                return (found, f"every {nth}") if flip else (f"every {nth}", found)
            if not flip and at < len(toks) and content_word(toks[at]) \
                    and stem(toks[at]) in y.stems and not {"each", "every"} & set(y.tokens):
                return f"every {nth} {toks[at]}", "(all of them)"  # "**only every second
                # quadrat** is photographed" / "quadrats are photographed" (the 356th set): the
                # request takes part of what the stored text says of all (read from its side)
    return None


def part_of_everyone(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("most", "everyone") where one text takes part of the people ("if **most of those**
    present agree") that the other says all of, before the same word ("if **everyone**
    present agrees", the 327th set); or part of a thing against all of it ("**half of it**" /
    "**all of it**", the 349th). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks, other = x.tokens, y.tokens
        for i, word in enumerate(toks[:-2]):
            if (word in _PART or word == "half") and toks[i + 1] == "of" \
                    and toks[i + 2] in _PRONOUNS and word not in other:
                whole = next((other[k] for k in range(len(other) - 2)
                              if other[k] in _ALL and other[k + 1:k + 3] == toks[i + 1:i + 3]),
                             None)  # "freezes **half of it**" / "**all of it** is frozen"
                if whole is not None:  # (the 349th set)
                    return (whole, word) if flip else (word, whole)
            if word not in _PART or toks[i + 1] != "of" or toks[i + 2] not in _THOSE \
                    or i + 3 >= len(toks):
                continue
            after = stem(toks[i + 3])
            found = next((t for k, t in enumerate(other[:-1])
                          if t in _EVERYONE and stem(other[k + 1]) == after), None)
            if found is not None and content_word(toks[i + 3]) \
                    and not _PART_SAID & set(other):
                return (found, word) if flip else (word, found)
    return None


#: Words that name the people a part is taken of: "most **of those** present".
_THOSE = frozenset(["those", "them", "these", "the"])
_EVERYONE = frozenset(["everyone", "everybody", "all"])
_PRONOUNS = frozenset(["it", "them", "these", "those"])
_ALL = frozenset(["all", "both", "each"])


def part_of_bare(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("most", "(none)") where one text takes part of things ("**most** Oakridge district
    jobs can only be booked …") that the other names with no quantity anywhere ("Jobs in the
    Oakridge district are booked only …"), wherever each puts the words around them."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if any(t in _PART_SAID or (t in UNIVERSALS and not _counts_time(y.tokens, k))
               for k, t in enumerate(y.tokens)):
            continue
        toks = x.tokens
        for i, word in enumerate(toks[:-1]):
            start = after_quantity(toks, i) if (word == "half" or (word.isalpha() and number(word)))\
                and toks[i + 1] == "of" and toks[i + 2:i + 3] and toks[i + 2] in DETERMINERS \
                else i + 3 if word == "half" and toks[i + 1:i + 3] in (("of", "each"),
                                                                      ("of", "every")) \
                and i + 3 < len(toks) else i + 1  # "**half of the** hatchery spat", "**one of
            # the** sand filters", "**half of each** shipment": a part, where "half full" is a
            # level and "2 of 3" a ratio
            if (word in _PART or start > i + 1) and content_word(toks[start]) and any(
                    stem(t) in y.stems for t in toks[start:start + 3] if content_word(t)):
                return ("(none)", word) if flip else (word, "(none)")
    return None


def part_of_whole(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("two of the four", "four") where one text takes a count out of a whole ("greases
    just **two of the four** fan motors") and the other has the whole's count but not the
    part's ("greases **all four** fan motors"): the numbers rule reads the one text's numbers
    as a superset of the other's, not as a part taken from them."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks = x.tokens
        for i in range(len(toks) - 3):
            if toks[i + 1] != "of" or toks[i + 2] not in _WHOLE_OPENERS:
                continue
            part, whole = number(toks[i]), number(toks[i + 3])
            if part is not None and whole is not None and part < whole \
                    and whole in y.numbers and part not in y.numbers:
                found = " ".join(toks[i:i + 4])
                return (show_number(whole), found) if flip else (found, show_number(whole))
    return None


_WHOLE_OPENERS = frozenset(["the", "our", "its", "their", "all"])


def _counts_time(toks: tuple[str, ...], k: int) -> bool:
    """"**every** second Thursday", "**every** 4 hours": "every" counts time, not things."""
    after = toks[k + 1] if k + 1 < len(toks) else ""
    return toks[k] == "every" and (after in EVERY_COUNTS or after[:1].isdigit())


def either_or(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("either … or", "and") where one text asks for one of two things ("**either** a leather
    apron **or** a face shield is mandatory") and the other for both ("aprons **and** face
    shields are mandatory"): another quantity of the same things."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if "either" in x.tokens and "or" in x.tokens[x.tokens.index("either"):] \
                and "or" not in y.tokens and "and" in y.tokens:
            return ("and", "either … or") if flip else ("either … or", "and")
    return None


def count_per(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("one auto-belay per wall", "auto-belays") where one text counts things per another
    thing ("inspects **one auto-belay per wall**") and the other names the things with no
    count and no "per" ("inspects **the auto-belays** every morning"): some of them, against
    all."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if "per" in y.tokens or universals(y):
            continue
        toks, counted = x.tokens, None
        for i in range(len(toks) - 3):
            thing = toks[i + 1]
            if number(toks[i]) is None or number(toks[i]) in y.numbers \
                    or not content_word(thing) or toks[i + 2] != "per":
                continue  # "**300** bales per load" / "in **300**-bale loads": the same count
            parts = {stem(p) for p in thing.split("-") if p}
            if counted is None:  # the other text's counted words, read once
                counted = {stem(p) for t, u in zip(y.tokens, y.tokens[1:], strict=False)
                           if number(t) is not None for p in u.split("-") if p}
            if parts <= y.stems and not parts <= counted:
                found = " ".join(toks[i:i + 4]), thing
                return (found[1], found[0]) if flip else found
    return None


def both_of_one(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("both huts", "hut") where one text says "both" of things ("**both** shepherd's huts
    sleep two adults") that the other names once, in the singular, with no count of them
    ("The shepherd's **hut** sleeps two adults"; the eighty-fifth set): two things against
    one."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        if _ALL_OF & set(y.tokens):
            continue
        toks = x.tokens
        for i in (k for k, t in enumerate(toks[:-1]) if t == "both"):
            j = next((k for k in range(i + 1, min(i + 4, len(toks)))
                      if toks[k] not in _BEFORE_BOTH), len(toks))
            j = next((k for k in range(j, min(j + 2, len(toks)))
                      if content_word(toks[k]) and toks[k].endswith("s")), len(toks))
            if j == len(toks):  # the plural things: "both shepherd's **huts**"
                continue
            named = [k for k, t in enumerate(y.tokens) if stem(t) == stem(toks[j])]
            if len(named) == 1 and not y.tokens[named[0]].endswith("s") \
                    and (named[0] == 0 or number(y.tokens[named[0] - 1]) is None):
                found = f"both {toks[j]}", y.tokens[named[0]]
                return (found[1], found[0]) if flip else found
    return None


_ALL_OF = frozenset(["both", "each", "every", "all", "either", "pair"])
_BEFORE_BOTH = frozenset(["the", "our", "their", "of", "its"])


def first_or_every(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("every coating", "first coating") where one text says every one of a thing ("the club
    pays for **every coating** a member has done") and the other the first one alone ("… for
    each member's **first coating**", the 358th set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        firsts = {stem(n): " ".join(y.tokens[k + 1:k + 2 + counted])
                  for k, f in enumerate(y.tokens[:-1]) if f == "first"
                  for counted in (number(y.tokens[k + 1]) is not None,)  # "the first **3** cans"
                  for n in y.tokens[k + 1 + counted:k + 2 + counted] if content_word(n)}
        if not firsts or "first" in x.tokens:
            continue
        for e, n in zip(x.tokens, x.tokens[1:], strict=False):
            if e in ("every", "each", "all", "any") and stem(n) in firsts \
                    and n not in EVERY_COUNTS:  # "in week one, dropping 3 degrees **every
                # week** after" / "for their **first week**": how often, not how many
                found = f"{e} {n}", f"first {firsts[stem(n)]}"
                return (found[1], found[0]) if flip else found
    return None


def first_few(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("first two teachers", "teachers") where the request takes the first few of a thing
    ("**only the first two teachers** go in free") that the stored text says with no count
    and no "first" ("**accompanying teachers** go in free", the 382nd set). Read from the
    request's side: a narrower rule. Else None."""
    if "first" in b.tokens:
        return None
    toks = a.tokens
    for i in range(len(toks) - 2):
        n = number(toks[i + 1])
        if toks[i] == "first" and n is not None and n not in b.numbers \
                and content_word(toks[i + 2]) and stem(toks[i + 2]) in b.stems \
                and toks[i + 2] not in EVERY_COUNTS:  # "free for the **first thirty days**" /
            # "held free for 30 days": a period, the value rules' (the 17th set)
            return " ".join(toks[i:i + 3]), toks[i + 2]
    return None

