"""Two opposite words swapped between the same things: "fuel loads go **north** …; the empty
tankers come back **south**" / "fuel loads come **south** … and the empty tankers go back
**north**", "XS to M hang on the **right** rack and L and XL on the **left**" / "… the **left**
rack, L and XL on the **right**" (the twenty-eighth and hundred-and-first sets).

Each text says both words, so the opposite rules, which look for a word one text says and the
other denies, see nothing; what changed is which thing each word goes with. A word both texts
say once, standing between the two opposite words in both, shows it: the word before it in
one text is after it in the other.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, PREPOSITIONS
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_words import opposed_forms, other_side
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.voice import participle

#: Opposite words a text may say both of, each of one thing; a side may be said several ways
#: ("on the **upper** floor" / "**upstairs**").
_PAIRS = tuple((frozenset(x.split()), frozenset(y.split())) for x, y in (
    ("north", "south"), ("east", "west"), ("left", "right"), ("up", "down"),
    ("upstream", "downstream"), ("inbound", "outbound"), ("northbound", "southbound"),
    ("eastbound", "westbound"), ("upstairs upper top", "downstairs lower bottom ground"),
    ("front forward forwards", "back backward backwards"), ("entry entrance", "exit"),
    ("arrival arrivals", "departure departures")))


def crossed_pair(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's order, b's order) where both texts say each word of an opposite pair once, and a
    content word both say once stands between them in both, with the pair's words on the
    other sides of it. Else None."""
    ta, tb = _heads(a.tokens), _heads(b.tokens)
    words_a, words_b = set(ta), set(tb)
    said = _said_pairs(ta, tb)
    for xs, ys in (*_PAIRS, *said):
        if not (xs & words_a and ys & words_a and xs & words_b and ys & words_b):
            continue  # most pairs of texts: no opposite pair said in both
        at = [[k for k, t in enumerate(toks) if t in side]
              for toks in (ta, tb) for side in (xs, ys)]
        if any(len(found) != 1 for found in at):
            continue
        (ax,), (ay,), (bx,), (by,) = at
        if (ax < ay) == (bx < by):
            continue
        once_a = _once(ta[min(ax, ay) + 1:max(ax, ay)], ta)
        once_b = _once(tb[min(bx, by) + 1:max(bx, by)], tb)
        shared = once_a.keys() & once_b.keys() or _counts(ta, min(ax, ay), max(ax, ay)) \
            & _counts(tb, min(bx, by), max(bx, by))  # "six … set to **exit and two** to entry"
        if (xs, ys) in said and not (_next(ta, ax) == _next(tb, by) != _next(ta, ay) == _next(
                tb, bx)):  # "**banned in** the nave but **allowed in** the Lady Chapel" / "allowed in
            continue  # the nave but banned in …": each word now before the other's thing;
            # not "can **write** to the warehouse, … **read** access" / "**read** access …;
            # … **write** access", two clauses reordered
        if shared:
            return f"{ta[min(ax, ay)]} … {ta[max(ax, ay)]}", f"{tb[min(bx, by)]} … {tb[max(bx, by)]}"
    return None


def _next(toks: tuple[str, ...], at: int) -> str:
    """The stem of the first content word after ``at``, or ""."""
    return next((stem(t) for t in toks[at + 1:] if content_word(t)), "")


def _said_pairs(ta: tuple[str, ...], tb: tuple[str, ...]) -> list[tuple[frozenset[str],
                                                                       frozenset[str]]]:
    """Pairs of the lexicon's opposite words (``opposite_words.other_side``) both texts say,
    each word as written: "photography is **banned** in the nave but **allowed** in the Lady
    Chapel" / "… **allowed** in the nave but **banned** …" (the 401st set)."""
    theirs = set(tb)  # once: a long text's every word looked up in a tuple is quadratic
    said = sorted({t for t in set(ta) & opposed_forms()
                   if t in theirs or t + "s" in theirs or t[:-1] in theirs})
    return [(frozenset([x, x + "s", x[:-1]]), frozenset([y, y + "s", y[:-1]]))
            for k, x in enumerate(said) for y in said[k + 1:] if other_side(x, y)]


def _heads(toks: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens with a hyphenated word read as its first part ("the **south-side** routes"
    says "south", the hundred-and-fifty-ninth set)."""
    return tuple(t.split("-", 1)[0] if "-" in t[1:] else t for t in toks)


def _once(words: tuple[str, ...], toks: tuple[str, ...]) -> dict[str, str]:
    """Stem → word for the content words of ``words`` said once in the whole text."""
    counts = Counter(stem(t) for t in toks)
    return {stem(w): w for w in words if content_word(w) and not w[:1].isdigit()
            and counts[stem(w)] == 1}


def _counts(toks: tuple[str, ...], start: int, end: int) -> set[float]:
    """The numbers between ``start`` and ``end`` that the text says once (the 236th set)."""
    said = Counter(n for n in map(number, toks) if n is not None)
    return {n for n in map(number, toks[start + 1:end]) if n is not None and said[n] == 1}


#: Endings of nouns and gerunds, not of a verb said of its doer ("suit **collection**: the
#: customer" / "customers **collecting** suits").
_NOT_VERBS = ("ion", "ment", "ing", "ance", "ence", "ness", "ity")


#: Verbs said of both ends alike: "patients **see** Dr Mei Lin" is "Dr Mei Lin **sees**
#: patients" (the eighty-second set).
_BOTH_WAYS = frozenset(["see", "sees", "meet", "meets", "marry", "marries", "join", "joins",
                        "match", "matches", "face", "faces"])


def swapped_ends(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same active verb, said once in each text, has the
    same two things on its two sides the other way round: "**control radios the drivers**" /
    "**Drivers radio control**" (the hundred-and-seventeenth set). A passive ("drivers are
    radioed by control") is no such verb. Else None."""
    return _reversed(_ends(a.tokens), _ends(b.tokens))


@lru_cache(maxsize=256)  # a stored text is read against many requests
def _ends(toks: tuple[str, ...]) -> dict[str, tuple[str, str, str]]:
    """Verb stem → (the stem right before it, the stem of the last word of the noun after it,
    the words) for each word said once that has a content word before it and, after an
    article at most, a content word after it."""
    stems = [stem(t) for t in toks]
    counts = Counter(stems)  # linear: a long text's every word counted once
    out: dict[str, tuple[str, str, str]] = {}
    for i in range(1, len(toks) - 1):
        verb, k = toks[i], _doer_at(toks, i)
        j = _object_at(toks, i)
        before = toks[k] if k >= 0 else ""
        if j >= len(toks) or counts[stems[i]] != 1 or not content_word(verb) \
                or before in AUX or participle(verb) or verb.endswith(_NOT_VERBS) \
                or verb in _BOTH_WAYS \
                or not content_word(before) \
                or not content_word(toks[j]) or toks[j][:1].isdigit():
            continue
        end = phrase_end(toks, j)
        out[stems[i]] = (stems[k], stems[end], " ".join(toks[k:end + 1]))
    return out


def swapped_to(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same verb, said once in each text, has its doer and
    the one it goes "to" the other way round: "Ryan Walsh **reports** bike faults **to** the
    instructors" / "Instructors **report** bike faults **to** head coach Ryan Walsh" (the
    hundred-and-thirty-third set). Else None."""
    return _reversed(_to_ends(a.tokens), _to_ends(b.tokens))


def swapped_from(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where each text takes something "from" what the other's other
    end is, whatever the verbs: "the shop POS **pulls** its inventory **from Discogs**" /
    "the Discogs inventory **syncs from the shop POS**" (the hundred-and-forty-seventh set).
    One "from" in each text, its thing written before the other's "from". Else None."""
    fa, fb = _from_end(a.tokens), _from_end(b.tokens)
    if fa is None or fb is None or fa[0] == fb[0]:
        return None
    if fb[0] in fa[1] and fa[0] in fb[1]:
        return fa[2], fb[2]
    return None


def _from_end(toks: tuple[str, ...]) -> tuple[str, frozenset[str], str] | None:
    """(the stem of the last word after the text's only "from", the stems before it, the
    words), or None."""
    at = [i for i, t in enumerate(toks) if t == "from"]
    if len(at) != 1 or at[0] + 1 >= len(toks):
        return None
    i = at[0]
    j = i + 2 if toks[i + 1] in OBJECT_OPENERS else i + 1
    if j >= len(toks) or not content_word(toks[j]) or toks[j][:1].isdigit():
        return None
    end = phrase_end(toks, j)
    return stem(toks[end]), frozenset(stem(t) for t in toks[:i]), " ".join(toks[i:end + 1])


@lru_cache(maxsize=256)  # as ``_ends``
def _to_ends(toks: tuple[str, ...]) -> dict[str, tuple[str, str, str]]:
    """Verb stem → (its doer's stem, the stem of the last word after its "to" or "from", the
    words), for each verb said once with a content word before it and a "to" or "from" within
    four words after."""
    stems = [stem(t) for t in toks]
    counts = Counter(stems)
    out: dict[str, tuple[str, str, str]] = {}
    for i in range(1, len(toks) - 2):
        verb, k = toks[i], _doer_at(toks, i)
        before = toks[k] if k >= 0 else ""
        to = next((j for j in range(i + 1, min(len(toks), i + 5)) if toks[j] in ("to", "from")),
                  None)  # "… must **get** a signature **from** driver Gary Mills" (the 138th)
        if to is None or counts[stems[i]] != 1 or before in AUX \
                or not (content_word(verb) or verb in ("get", "gets", "got")) \
                or participle(verb) or verb.endswith(_NOT_VERBS) or verb in _BOTH_WAYS \
                or not content_word(before):
            continue
        j = to + 2 if toks[to + 1:to + 2] and toks[to + 1] in OBJECT_OPENERS else to + 1
        end = phrase_end(toks, j)
        if j < len(toks) and content_word(toks[j]) and not toks[j][:1].isdigit():
            out[stems[i]] = (stems[k], stems[end], " ".join(toks[k:end + 1]))
    return out


def _reversed(ends_a: dict[str, tuple[str, str, str]], ends_b: dict[str, tuple[str, str, str]]
              ) -> tuple[str, str] | None:
    """(a's words, b's words) for a verb whose two ends in ``a`` are its two ends in ``b`` the
    other way round, or None."""
    for verb, (x, y, shown) in ends_a.items():
        other = ends_b.get(verb)
        if other is not None and x != y and (x, y) == (other[1], other[0]):
            return shown, other[2]
    return None


def phrase_end(toks: tuple[str, ...], j: int) -> int:
    """The last word of the noun phrase that opens at ``j``: up to four content words, no
    preposition or number ("calls the discharge **lounge** on extension 5520", "radio crew
    leader Dwayne **Okafor** before …")."""
    end = j
    while end + 1 < min(len(toks), j + 4) and content_word(toks[end + 1]) \
            and toks[end + 1] not in PREPOSITIONS and not toks[end + 1][:1].isdigit():
        end += 1
    return end


#: Words between a doer and its verb that leave the doer the doer: "Dwayne Okafor **must**
#: radio …", "the control room **has to** radio …" (the hundred-and-twenty-eighth set).
_MODALS = frozenset("must should shall will would can could may might".split())  # noqa: SIM905
_HAVE_TO = frozenset("has have had need needs ought".split())  # noqa: SIM905
#: Words between a verb and the thing it is done to: "radios **each** field ranger", "radio
#: **in to the** dispatch office".
OBJECT_OPENERS = frozenset("the a an our their his her its this each every all any".split())  # noqa: SIM905


def _doer_at(toks: tuple[str, ...], i: int) -> int:
    """Where the word before the verb at ``i`` stands, past a modal or "has to"."""
    k = i - 1
    if toks[k] in _MODALS:
        k -= 1
    elif toks[k] == "to" and k > 0 and toks[k - 1] in _HAVE_TO:
        k -= 2
    return k


def _object_at(toks: tuple[str, ...], i: int) -> int:
    """Where the thing after the verb at ``i`` starts, past "in to" and one opener."""
    j = i + 1
    if toks[j:j + 2] in (("in", "to"), ("back", "to")):
        j += 2
    elif j < len(toks) and toks[j] in ("into", "to"):
        j += 1
    return j + 1 if j < len(toks) and toks[j] in OBJECT_OPENERS else j


def swapped_order(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("X then Y", "Y then X"): the same two steps in the other order ("brick sessions (**run
    then bike**)" / "(**bike then run**)", the hundred-and-twentieth set). Else None."""
    steps_a, steps_b = _then(a.tokens), _then(b.tokens)
    for x, y in steps_a:
        if (y, x) in steps_b and (x, y) not in steps_b:
            return f"{x} then {y}", f"{y} then {x}"
    around_a = _around(a.tokens, a.names)  # or two names or codes either side of one verb:
    around_b = _around(b.tokens, b.names) if around_a else frozenset()  # "H-6 **replaced**
    for x, verb, y in around_a:  # H-7" / "H-7 replaced H-6" (the 207th set)
        if (y, verb, x) in around_b and (x, verb, y) not in around_b:
            return f"{x} {verb} {y}", f"{y} {verb} {x}"
    return None


@lru_cache(maxsize=1024)  # a stored text is read against every request
def _around(toks: tuple[str, ...], names: frozenset[str]) -> frozenset[tuple[str, str, str]]:
    """(name or code, the one or two words between, name or code) for each such run."""
    marked = [i for i, t in enumerate(toks) if t in names or any(c.isdigit() for c in t)]
    return frozenset((toks[i], " ".join(toks[i + 1:j]), toks[j]) for i in marked
                     for j in marked if 2 <= j - i <= 3 and content_word(toks[i + 1])
                     and all(w in PREPOSITIONS for w in toks[i + 2:j]))


def _then(toks: tuple[str, ...]) -> set[tuple[str, str]]:
    """(the stem before, the stem after) each "then" between two content words."""
    return {(stem(toks[i - 1]), stem(toks[i + 1])) for i in range(1, len(toks) - 1)
            if toks[i] == "then" and content_word(toks[i - 1]) and content_word(toks[i + 1])}
