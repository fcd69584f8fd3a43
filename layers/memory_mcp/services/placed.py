"""Another place after the same thing: "the log sheet is kept in the **red folder in the van**"
/ "… the sheet lives in the **red folder under the counter**" (the 200th set).

The word sets read "van" as a word one text adds and "counter" as a detail the request leaves
out, and the stored text's other words ("filled in at opening and closing") keep the texts
apart in length, so the swapped-word rules see no slot. Read in order, both texts name the same
thing by its last two words and then where it is: two places that share no word are two
facts. A request that names no place there ("the red folder") leaves one out, and passes.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, SLOT_TOKENS
from memory_mcp.services.lexicon import MONTHS, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.stems import content_word, stem

#: Words that open where a thing is, before an article, a possessive or a name ("in **the** van"):
#: "at" and "on" are left out, as "at stumps" and "on arrival" say when; "by" is a place after
#: a thing ("the compost bay **by** the farm gate", the two-hundred-and-twenty-fifth set).
_PLACES = frozenset(["in", "under", "underneath", "beneath", "behind", "beside", "inside",
                     "above", "below", "near", "next", "by"])
#: Words after a place word that name a time, not a place ("in the morning", "on Fridays").
_WHEN = frozenset([*TIMES, *UNIT_DAYS, *WEEKDAYS, *(f"{d}s" for d in WEEKDAYS), *MONTHS,
                   "weekend", "weekends", "weekdays", "advance", "case", "time", "total",
                   "least", "most", "all", "once", "order", "use", "stock", "place", "line"])
#: At most this many words name the place.
_PLACE_MAX = 3


def other_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's place, b's place) where both texts follow the same two content words with a place
    of their own, the places share no word and no word of the request's place is anywhere
    in the stored text. Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    theirs = _placed(b.tokens, b.names)
    if not theirs:
        return None
    for thing, place in _placed(a.tokens, a.names).items():
        other = theirs.get(thing)
        if other is None:
            continue
        mine_stems, their_stems = {stem(w) for w in place}, {stem(w) for w in other}
        if not mine_stems & their_stems and not mine_stems & b.stems:
            return " ".join((*thing, *place)), " ".join((*thing, *other))
    return None


def _placed(toks: tuple[str, ...], names: frozenset[str]
            ) -> dict[tuple[str, str], tuple[str, ...]]:
    """(the two words naming a thing) → the content words of the place after it, a place
    opened by an article or named ("the blue tote **in Shed 3**")."""
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for j in range(2, len(toks) - 1):
        thing = toks[j - 2:j]
        if toks[j] not in _PLACES or not all(content_word(w) and w.isalpha() for w in thing):
            continue
        k = j + 1 + (toks[j] == "next" and toks[j + 1:j + 2] == ("to",))
        if k >= len(toks) or (toks[k] not in DETERMINERS and toks[k] not in names):
            continue
        place = _place_at(toks, k)
        if place and not any(w in _WHEN for w in place):
            out.setdefault((thing[0], thing[1]), place)
    return out


#: Verbs of moving somewhere, read with the place right after their "to".
_MOVES = frozenset("""move moves moved go goes went relocate relocates relocated switch
switches switched transfer transfers transferred divert diverts diverted shift shifts shifted
head heads headed return returns returned travel travels travelled traveled report reports
reported""".split())  # noqa: SIM905  "graffiti is **reported to** the council's team" (the 369th)


def other_destination(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same verb of moving goes "to" places that share no
    word, neither text naming the other's: "the sack race **moves to the sports hall** if the
    field is waterlogged" / "… **moves to the playground** with gym mats at the finish" (the
    two-hundred-and-twenty-second set). Else None."""
    da = _destinations(a.tokens)
    if not da:
        return None
    db = _destinations(b.tokens)
    found = _apart(a, b, da, db)
    return None if found is None else (f"{found[0]} to {found[1]}", f"{found[0]} to {found[2]}")


def _destinations(toks: tuple[str, ...]) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Verb stem → (where it stands, the content words of the place after "<verb> to [the]"
    (three at most)). A place said before the verb is another step's: "rings at reception
    first and diverts to the Apex Lifts call centre" (the two-hundred-and-fortieth set)."""
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    for i, t in enumerate(toks[:-2]):
        to = i + 1 if t in _MOVES else next(
            (j for j in range(i + 1, min(i + _PASSED_ON, len(toks) - 1)) if toks[j] == "to"),
            None) if t in _PASSES else None  # "escalates **any file rejection** to IT
        # operations" / "… to the compliance team" (the 266th set)
        if to is None or toks[to] != "to":
            continue
        place = _place_at(toks, to + 1, letters_only=False)
        if place and not any(w in _WHEN for w in place):
            out.setdefault(stem(t), (i, place))
    return out


#: Verbs of passing a thing on, read with the place after the "to" past their object.
_PASSES = frozenset("""escalate escalates escalated forward forwards forwarded""".split())  # noqa: SIM905
_PASSED_ON = 7
#: Verbs of keeping or showing something somewhere, read with the place after their "in",
#: "inside", "at" or "on the".
_KEEPS = frozenset("""kept keeps keep stored held filed housed parked locked hung left
published publishes posted displayed displays pinned advertised""".split())  # noqa: SIM905
#: A keeping verb this many words before its place at most ("kept **for 24 months** in").
_KEEP_REACH = 5


def other_store(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same verb of keeping puts a thing in places that
    share no word, neither text naming the other's after the verb: "retained blend samples
    are **kept for 24 months in the cold room**" / "… **kept for 24 months in cabinet R2** of
    the sample library" (the two-hundred-and-thirty-fifth set), "the boat and waders are
    **kept at the Mill Road office**" / "the team is based at the Mill Road office; the boat
    and waders are **kept at the Brantford boathouse**" (the 236th): a place the stored text
    names before the verb is another thing's. Else None."""
    ka = _kept(a.tokens)
    if not ka:
        return None
    kb = _kept(b.tokens)
    found = _apart(a, b, ka, kb)
    return None if found is None else (f"{found[0]} {found[1]}", f"{found[0]} {found[2]}")


def _kept(toks: tuple[str, ...]) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Keeping verb → (where it stands, the content words (letters only) of the first place
    after it)."""
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    for i, t in enumerate(toks):
        if t in _COPULAS and toks[i + 1:i + 2] in (("in",), ("on",), ("at",)) \
                and toks[i + 2:i + 3] and toks[i + 2] in DETERMINERS:  # "the machine room
            place = _place_at(toks, i + 2)  # **is in the basement**" (the 258th set)
            if place and not any(w in _WHEN for w in place):
                out.setdefault(t, (i, place))
            continue
        if t not in _KEEPS:
            continue
        end = min(i + 1 + _KEEP_REACH, len(toks) - 1)
        for j in range(i + 1, len(toks) - 1):
            if j >= end:
                break
            if toks[j] in ("in", "inside", "at") or (
                    toks[j] == "on" and toks[j + 1] in DETERMINERS):
                place = _place_at(toks, j + 1)
                if place and not any(w in _WHEN for w in place):
                    out.setdefault(t, (i, place))
                    break
                if not any(w in _WHEN for w in toks[j + 1:j + 4]):
                    break
                end = min(end + _WHEN_SKIP, len(toks) - 1)  # "held **on the first Thursday
                # of every month** in Room 3": past a time to the place (the 256th set)
    return out


#: Where a thing is, said right after its copula and an article.
_COPULAS = frozenset(["is", "are"])
#: Words a time said between a keeping verb and its place may take.
_WHEN_SKIP = 6


def _place_at(toks: tuple[str, ...], k: int, *, letters_only: bool = True) -> tuple[str, ...]:
    """The content words of a place from ``k``, past its articles (``_PLACE_MAX`` at most;
    letters only unless told otherwise, so "cabinet **R2**" ends at "cabinet")."""
    while k < len(toks) and toks[k] in DETERMINERS:
        k += 1
    place: list[str] = []
    while k < len(toks) and len(place) < _PLACE_MAX and content_word(toks[k]) \
            and (toks[k].isalpha() or not letters_only):
        place.append(toks[k])
        k += 1
    return tuple(place)


Placed = dict[str, tuple[int, tuple[str, ...]]]


def _apart(a: Facets, b: Facets, in_a: Placed, in_b: Placed) -> tuple[str, str, str] | None:
    """(the verb, a's place, b's place) where the same verb has places that share no word and
    neither text names the other's after its verb (before it, it is another thing's)."""
    for verb in in_a.keys() & in_b.keys():
        (i, mine), (j, theirs) = in_a[verb], in_b[verb]
        if not {stem(w) for w in mine} & {stem(w) for w in b.tokens[j:]} \
                and not {stem(w) for w in theirs} & {stem(w) for w in a.tokens[i:]}:
            return verb, " ".join(mine), " ".join(theirs)
    return None


def moved_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's place, b's place) where the only words each text has and the other lacks are
    the words of one place each ("in **the basement**" / "in **the upstairs studio**"), said
    in another part of the sentence: "the workshop runs from 7 to 9 pm in the basement" / "the
    workshop in the upstairs studio runs from 7 to 9 pm" (the 308th set). The place rules
    above read a place after the same thing; here the place moved."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    sa, sb = _stems(a.tokens), _stems(b.tokens)
    only_a, only_b = sa - sb, sb - sa
    if not (only_a and only_b):
        return None
    mine = next((p[:n] for p in _places(a.tokens) for n in range(1, len(p) + 1)
                 if {stem(w) for w in p[:n]} == only_a), None)  # "the upstairs studio"
    theirs = next((p[:n] for p in _places(b.tokens) for n in range(1, len(p) + 1)
                   if {stem(w) for w in p[:n]} == only_b), None)  # of "… studio runs"
    if mine is None or theirs is None:
        return None
    return " ".join(mine), " ".join(theirs)


def _stems(toks: tuple[str, ...]) -> set[str]:
    return {stem(w) for w in toks if content_word(w)}


def _places(toks: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The content words of each place opened by a place word and an article ("in **the
    upstairs studio**"), up to ``_PLACE_MAX`` words; not a time ("in the morning")."""
    out = []
    for j in range(len(toks) - 2):
        if toks[j] not in _PLACES or toks[j + 1] not in DETERMINERS:
            continue
        words = []
        for w in toks[j + 2:j + 2 + _PLACE_MAX]:
            if not content_word(w) or not w.isalpha():
                break
            words.append(w)
        if words and not any(w in _WHEN for w in words):
            out.append(tuple(words))
    return out


def landmark_as_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("in the cold room", "in the dry store next to the cold room") where the stored text
    puts a thing in one place beside a landmark and the request puts it in the landmark
    itself, never naming the place: "can ends … are stored **in the cold room**" / "… stored
    in the **dry store next to the cold room**" (the 362nd set). Read from the request's side:
    one that names the place and leaves the landmark out is shorter, not other."""
    toks, other = a.tokens, b.tokens
    for j in range(2, len(other) - 2):
        width = 2 if other[j:j + 2] == ("next", "to") else 1 if other[j] in _BESIDE else 0
        if not width or not content_word(other[j - 1]) or other[j - 1] in toks:
            continue
        start = j + width + (other[j + width] in DETERMINERS)
        landmark = other[start:start + _PLACE_MAX]
        landmark = landmark[:next((k for k, w in enumerate(landmark) if not content_word(w)),
                                  len(landmark))]
        if not landmark:
            continue
        for i in range(len(toks) - len(landmark) - 1):
            if toks[i] in ("in", "inside", "into") and toks[i + 1] in DETERMINERS \
                    and toks[i + 2:i + 2 + len(landmark)] == landmark:
                place = next(k for k in range(j - 1, -1, -1)
                             if other[k] in _PLACES or other[k] in DETERMINERS)
                return " ".join(toks[i:i + 2 + len(landmark)]), \
                    " ".join(other[place:start + len(landmark)])
    return None


#: Words that set a place beside a landmark: "the dry store **beside** the cold room".
_BESIDE = frozenset(["beside", "behind", "opposite", "alongside", "near"])
