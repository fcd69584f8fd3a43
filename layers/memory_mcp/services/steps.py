"""Two steps of one process in the other order: "the base is **aged** 12 hours **before** it
is **pasteurised**" / "the base is **pasteurised** at 85 °C, **then aged** 12 hours" (the
hundred-and-forty-fourth set). Every word of one text is in the other, so only the order of the
two verbs tells the two facts apart.

A step pair is read from "A before B", "A, then B" and "A after B" (B first), A being the
text's last verb before the joining word and B the first content word after it.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import predicates, verb_s
from memory_mcp.services.lexicon import ENVIRONMENTS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Joining words, and whether the step after them comes first.
_JOINS = {"before": False, "then": False, "after": True}


def swapped_steps(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's steps, b's steps) where the two texts put the same two steps in the other order,
    neither text saying both orders. Else None."""
    pa, pb = _steps(a), _steps(b)
    for first, second in pa:
        if first != second and (second, first) in pb and (first, second) not in pb \
                and (second, first) not in pa:
            return f"{first} … {second}", f"{second} … {first}"
    for first, second in pa:  # "flattened … first and **then hung**" / "rinsed, **hung** on
        # the lines … and **then flattened**" (the 368th set): the other text's step before
        # its joining word is one of a list, not the clause's verb
        if first != second and _ordered(b.tokens, second, first) \
                and not _ordered(b.tokens, first, second):
            return f"{first} … {second}", f"{second} … {first}"
    return None


def _ordered(toks: tuple[str, ...], first: str, second: str) -> bool:
    """Whether the text says the step ``first`` (a stem said once) within ``_LIST_REACH``
    words before a "then" and ``second`` (said once) right after it."""
    stems = [stem(t) for t in toks]
    if stems.count(first) != 1 or stems.count(second) != 1:
        return False
    i, j = stems.index(first), stems.index(second)
    return any(toks[k] == "then" and i < k < j and k - i <= _LIST_REACH and j - k <= 2
               for k in range(len(toks)))


_LIST_REACH = 12


@lru_cache(maxsize=1024)  # one text is compared with several candidates
def _steps(f: Facets) -> frozenset[tuple[str, str]]:
    """The (first, second) step stems the text orders."""
    toks, verbs = f.tokens, sorted(predicates(f))
    out: set[tuple[str, str]] = set()
    for i, t in enumerate(toks):
        if t not in _JOINS:
            continue
        left = next((v for v in reversed(verbs) if v < i), None)
        right = next((j for j in range(i + 1, min(len(toks), i + 5))
                      if content_word(toks[j]) and number(toks[j]) is None), None)
        if left is None or right is None:
            continue
        x, y = stem(toks[left]), stem(toks[right])
        out.add((y, x) if _JOINS[t] else (x, y))
    return frozenset(out)


#: Words either side of a "first … then" read as its two stages: "go to the **Midway ranger
#: station first, then to the main office**".
_STAGE_SPAN = 10
_STARTS = frozenset(["starts", "start", "starting", "begins", "begin", "beginning"])


def swapped_stages(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's stages, b's stages) where each text says "X first, then Y" and a word of one
    text's first stage is in the other's second, and the other way round: "lost-and-found items
    go to the **Fairhollow main office first, then to Midway** ranger station" / "… to the
    **Midway ranger station first, then to the main office in Fairhollow**" (the
    hundred-and-fifty-fifth set). Else None."""
    crossed = _crossed(_stages(a.tokens), _stages(b.tokens))
    return None if crossed is None else (f"{crossed[0]} first, then {crossed[1]}",
                                         f"{crossed[1]} first, then {crossed[0]}")


def swapped_then(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's stages, b's stages) where each text joins two stages with its one "then" (one of
    them may say "first" too) and a word of one text's stage before it is in the other's stage
    after it, and the other way round: "oiled seabirds spend 24 hours in the **drying** pens
    first and are then **washed**" / "… are **washed** in the wash room …, then moved to the
    **drying** pens" (the 503rd set). Else None."""
    crossed = _crossed(_then_stages(a.tokens), _then_stages(b.tokens))
    return None if crossed is None else (f"{crossed[0]} … then {crossed[1]}",
                                         f"{crossed[1]} … then {crossed[0]}")


_Stages = tuple[frozenset[str], frozenset[str]]


def _crossed(sa: _Stages | None, sb: _Stages | None) -> tuple[str, str] | None:
    """(a word of a's first stage in b's second, a word of a's second in b's first), or None."""
    if sa is None or sb is None:
        return None
    moved_on, moved_back = sa[0] & sb[1], sa[1] & sb[0]
    return (min(moved_on), min(moved_back)) if moved_on and moved_back else None


@lru_cache(maxsize=1024)
def _then_stages(toks: tuple[str, ...]) -> _Stages | None:
    """The content stems either side of the text's one "then" (``_STAGE_SPAN`` words each),
    each without the other's, or None."""
    at = [i for i, t in enumerate(toks) if t == "then"]
    if len(at) != 1:
        return None
    return _split(toks, at[0], at[0])


def _split(toks: tuple[str, ...], start: int, t: int) -> _Stages:
    """The stems from ``_STAGE_SPAN`` words before ``start`` up to the "then" at ``t``, and
    the ``_STAGE_SPAN`` after it, each without the other's."""
    before = _read(toks[max(0, start - _STAGE_SPAN):t])
    after = _read(toks[t + 1:t + 1 + _STAGE_SPAN])
    return before - after, after - before


def _read(span: tuple[str, ...]) -> frozenset[str]:
    return frozenset(stem(w) for w in span if content_word(w) and number(w) is None)


def named_first(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("QAS first", "DEV first") where each text puts "first" after a name, code or
    environment both texts write: "SPS02 goes to **QAS first** … before moving to DEV" / "…
    goes to **DEV first** … before moving to QAS" (the 428th set). The same two names either
    way round, so no other rule sees a changed word. Else None."""
    fa, fb = _said_first(a), _said_first(b)
    named = a.names | b.names | set(ENVIRONMENTS)
    if fa and fb and not fa & fb and fa <= set(b.tokens) and fb <= set(a.tokens) \
            and fa | fb <= named:
        return f"{min(fa)} first", f"{min(fb)} first"
    return None


def _said_first(f: Facets) -> frozenset[str]:
    """The content words the text writes just before "first"; the rule keeps to names, codes
    and environments ("DEV", which the names leave to the roles), not "go first" nor "new
    first flush"."""
    return frozenset(f.tokens[i - 1] for i, t in enumerate(f.tokens)
                     if t == "first" and i and content_word(f.tokens[i - 1])
                     and number(f.tokens[i - 1]) is None)


@lru_cache(maxsize=1024)
def _stages(toks: tuple[str, ...]) -> _Stages | None:
    """The content stems of the text's one "first … then" stages, each without the stems the
    other has, or None."""
    at = [i for i, t in enumerate(toks) if t == "then"]
    if len(at) != 1:
        return None
    t = at[0]
    f = next((i for i in range(t - 1, max(-1, t - _STAGE_SPAN - 1), -1) if toks[i] == "first"
              or (toks[i] == "with" and i and toks[i - 1] in _STARTS)), None)  # "the call
    # list **starts with** the bank director and then …" (the 440th set)
    return None if f is None else _split(toks, f, t)


def swapped_sides(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's order, b's order) where both texts join two events with one "before" (or one
    "after") and the words of each event stand on the other side in the other text: "crew
    may go on site **before** the property owner has signed the release" / "the property
    owner must sign the release **before** any crew member sets foot on site" (the
    two-hundred-and-fifty-third set). The step rule reads one verb a side, and the two texts'
    verbs differ here; the things each event names do not."""
    for join in ("before", "after"):
        if a.tokens.count(join) != 1 or b.tokens.count(join) != 1:
            continue
        (la, ra), (lb, rb) = _sides(a.tokens, join), _sides(b.tokens, join)
        crossed, kept = (la & rb) | (ra & lb), (la & lb) | (ra & rb)
        if len(la & rb) and len(ra & lb) and len(crossed) >= _CROSSED and not kept:
            return f"{min(la & rb)} {join} {min(ra & lb)}", f"{min(ra & lb)} {join} {min(la & rb)}"
    return None


def swapped_around(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("pickling tank before alkaline degreaser", "alkaline degreaser before pickling tank")
    where the two things either side of one "before", "after" or "then" in one text stand on
    the other sides of it in the other: steel panels "go through the **pickling tank before the
    alkaline degreaser**" / "… the **alkaline degreaser before the pickling tank**" (the 442nd
    set). ``swapped_sides`` reads whole events, and the rest of these sentences is the same."""
    for join in ("before", "after", "then", "on", "over"):
        for n in (1,) if join in ("on", "over") else (2,):  # "the **village green on Easter
            # Sunday**" / "… on Easter Sunday on the village green": a place and a day
            pa, pb = _around(a.tokens, join, n), _around(b.tokens, join, n)
            for left, right in pa:
                if (right, left) in pb and (left, right) not in pb:
                    return f"{' '.join(left)} {join} {' '.join(right)}", \
                        f"{' '.join(right)} {join} {' '.join(left)}"
    return None


def _around(toks: tuple[str, ...], join: str, n: int
            ) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(the ``n`` content words before, the ``n`` after) each ``join`` of the text, none a
    number ("before 2 hours" is a time). By "on" or "over", one word a side right by it:
    "font in **black on white**" / "… **white on black**" (the 445th set)."""
    out = set()
    for i, t in enumerate(toks):
        if t != join:
            continue
        left = [w for w in toks[max(0, i - 2 * n):i] if content_word(w)][-n:]
        right = [w for w in toks[i + 1:i + 1 + 2 * n] if content_word(w)][:n]
        if n == 1 and (toks[i - 1:i] != tuple(left) or toks[i + 1:i + 2] != tuple(right)):
            continue
        if len(left) == len(right) == n and not any(w[:1].isdigit() for w in left + right):
            out.add((tuple(left), tuple(right)))
    return out


def _sides(toks: tuple[str, ...], join: str) -> tuple[frozenset[str], frozenset[str]]:
    """The content stems before and after the joining word, each without the other's."""
    at = toks.index(join)
    left = frozenset(stem(w) for w in toks[:at] if content_word(w) and number(w) is None)
    right = frozenset(stem(w) for w in toks[at + 1:] if content_word(w) and number(w) is None)
    return left - right, right - left


#: Words that must change sides between the texts, together.
_CROSSED = 3


def swapped_object(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same verb takes one text's thing "to" the other's:
    "translates **English** lyrics **into Italian**" / "translates **Italian to English**
    lyrics" (the two-hundred-and-sixty-third set). Else None."""
    ea, eb = _object_ends(a.tokens), _object_ends(b.tokens)
    for verb, (x, y) in ea.items():
        if x != y and eb.get(verb) == (y, x):
            return f"{x} to {y}", f"{y} to {x}"
    return None


def _object_ends(toks: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Verb stem → (its object's first stem, the stem after its "to" / "into"), for a verb
    ending in -s whose object comes right after it."""
    out: dict[str, tuple[str, str]] = {}
    for i, t in enumerate(toks[:-1]):
        if not (t.endswith("s") and content_word(t)) or not content_word(toks[i + 1]):
            continue
        to = next((j for j in range(i + 2, min(len(toks) - 1, i + 2 + _OBJECT_WORDS))
                   if toks[j] in ("to", "into")), None)
        if to is not None and content_word(toks[to + 1]):
            out.setdefault(stem(t), (stem(toks[i + 1]), stem(toks[to + 1])))
    return out


#: Words an object may take before its "to".
_OBJECT_WORDS = 3


def before_or_once(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("before the first pods", "once the first pods") where one text does a thing before
    an event and the other once (or when) the same event has come, the three words after the
    joining word the same: "pinch out the tops **before** the first pods set" / "… **once**
    the first pods set" (the 336th set). Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        after = {x.tokens[i + 1:i + 4] for i, t in enumerate(x.tokens[:-3]) if t == "before"}
        things = {_thing(x.tokens[i + 1:i + 4]) for i in range(len(x.tokens) - 3)
                  if x.tokens[i] == "before"} - {""}  # "before **any flooring** goes down" /
        # "once **the flooring** has gone down" (the 496th set): the same thing comes
        for j, t in enumerate(y.tokens[:-3]):
            event = y.tokens[j + 1:j + 4]
            if t in _AT_EVENT and (event in after or _thing(event) in things) \
                    and "before" not in y.tokens and t not in x.tokens:
                found = f"before {' '.join(event)}", f"{t} {' '.join(event)}"
                return (found[1], found[0]) if flip else found
    return None


def _thing(words: tuple[str, ...]) -> str:
    """The stem of the first noun-like content word of an event's words, "" for none."""
    return next((stem(w) for w in words if content_word(w) and not verb_s(w)), "")


#: Words that hold a thing at or after an event: "**once** the first pods set".
_AT_EVENT = frozenset(["once", "when", "after"])
