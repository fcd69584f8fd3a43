"""One word in place of another between the same words: "service slots in the **West** Chapel
are 40 minutes long" / "service slots in the **East** Chapel are 40 minutes long; the West
Chapel is booked in 60-minute slots".

The swapped-word rule (``wording.swap``) compares the words each text has and the other lacks,
so a word the stored text says elsewhere ("the West Chapel is booked …") hides the swap. Read in
order, the two texts share the two words before and the two after, and differ in the one
between: another thing in the same place of the same sentence (the fifty-sixth set). Numbers
are left to the value rules, and a word of the same stem ("chapel" / "chapels") is no swap.

Two more reads of the same kind: another thing of several words opening the same sentence,
before the same preposition or the same verb (``leading``), and another tool or place of
several words between the same words (``between``), where the stored text's extra serials and
model numbers hide the swap from the word sets. ``any_slot`` asks them all, and ``sited`` for
another place the sentence opens with.
"""

from __future__ import annotations

from memory_mcp.services import instruments, means, placed, sited
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import (
    AUX,
    CLAUSE_BREAKS,
    DETERMINERS,
    PREPOSITIONS,
    PRONOUNS,
    SLOT_TOKENS,
    verb_s,
)
from memory_mcp.services.leading import SIDE, leading, noun, opening_names
from memory_mcp.services.lexicon import COMMON_VERBS, ORDINAL
from memory_mcp.services.named_things import THE, other_things, text_stems
from memory_mcp.services.named_things import WHEN as _WHEN
from memory_mcp.services.stems import content_word, stem

#: Words on each side of the swapped one that both texts must share, in order.
_SIDE = SIDE


def any_slot(a: Facets, b: Facets) -> tuple[str, str] | None:
    """The first other thing in the same slot of the same sentence that this module's reads
    find, or another place the sentence opens with (``sited``)."""
    return in_place(a, b) or leading(a, b) or between(a, b) or sited.opened_place(a, b) \
        or with_other(a, b) or placed.other_place(a, b) or opening_names(a, b) \
        or placed.other_destination(a, b) or means.other_means(a, b) \
        or placed.other_store(a, b) or placed.moved_place(a, b) \
        or placed.landmark_as_place(a, b) or instruments.with_phrase(a, b) \
        or instruments.other_head(a, b)


def with_other(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's word, b's word): another bare noun after the same "with", "using" or "by",
    before the same two words or the text's end, where the stored text says more before it:
    "tops up the Hollins Wood feeders **with maize** every Tuesday" / "tops up the pheasant
    feeders on the Hollins Wood drive **with wheat** every Tuesday" (the hundred-and-eighty-
    third set). Another material or tool; the words before differ, so ``in_place`` misses it."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule, as ``between``
    ta, tb = (*a.tokens, *_END), (*b.tokens, *_END)
    stems_a, stems_b = text_stems(a.tokens), text_stems(b.tokens)
    after: dict[str, list[int]] = {}  # "with" → where the stored text's words after it stand
    for j in range(1, len(b.tokens)):
        if tb[j - 1] in _WITH:
            after.setdefault(tb[j - 1], []).append(j)
    for i in range(1, len(a.tokens)):
        x = ta[i]
        if ta[i - 1] not in _WITH or not noun(x) or stem(x) in stems_b or x in _WHEN:
            continue
        for j in after.get(ta[i - 1], ()):
            y = tb[j]
            if ta[i + 1:i + 1 + _SIDE] == tb[j + 1:j + 1 + _SIDE] and noun(y) \
                    and stem(y) not in stems_a and y not in _WHEN \
                    and not (x.startswith(y) or y.startswith(x)):
                return x, y
    return None


def in_place(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's word, b's word) where both texts have the same two words before and after and a
    different content word between that names a kind of the content word after it; or
    None."""
    starts: dict[tuple[str, ...], list[int]] = {}
    tb = (*_START, *b.tokens)  # the text's start is a shared "before" too
    for j in range(_SIDE, len(tb) - _SIDE):
        starts.setdefault(tb[j - _SIDE:j], []).append(j)
    ta = (*_START, *a.tokens)
    for i in range(_SIDE, len(ta) - _SIDE):
        before, after, word = ta[i - _SIDE:i], ta[i + 1:i + 1 + _SIDE], ta[i]
        kind = _compared(word) and content_word(after[0]) and before[-1] not in AUX \
            and "^" not in before  # the start only for a subject ("we **buy**" / "we **order**")
        # a word naming a kind of the next ("the **West** Chapel"), not a verb ("is
        # **booked** for", "is **kept** for": rewordings swap verbs freely)
        subject = noun(word) and after[0] in _COPULAS and (content_word(before[-1]) or bool(
            ORDINAL.fullmatch(before[-1]))) and before[-1] not in AUX  # "torn **towels** are
        # bagged" / "torn **sheets** are …", "the 10th **smoothie** is free" / "the 10th **cup** …"
        named = before == _START and word in a.names  # "**Joel** runs front of house" /
        # "**Hannah** runs front of house …; Joel covers weekdays"
        if not (kind or subject or named):
            continue
        for j in starts.get(before, ()):
            other = tb[j]
            if tb[j + 1:j + 1 + _SIDE] == after and _apart(word, other) \
                    and (other in b.names if named else _compared(other) if kind
                         else noun(other)):
                return word, other
    return None


def between(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where, after the same two words ending in a preposition, an
    article, or an article and a word, the texts name two things, at least one of several
    words, that share no stem, before the same two words again or where one text ends and the
    other goes on to another clause: "shaped in July **with shearing knives** to get a dense
    cone" / "… **with the Stihl HS 82 hedge trimmer** to get …", "running on the PC **in the pit
    building**" / "… **in the race control tower**", "its cracked **floor panel**" / "its cracked
    **window**" (the sixty-third, sixty-fourth and sixty-ninth sets). Another tool or place in
    the same slot of the same sentence is another fact; the word sets miss it when the stored
    text's tool is a model name with numbers. Each thing must hold a word the other text lacks
    altogether, so texts that say the same things in another order are left alone."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: a long near copy's every common pair of words
        # (each "of the") tried against every other took seconds
    ta, tb = (*a.tokens, *_END), (*b.tokens, *_END)
    starts: dict[tuple[str, ...], list[int]] = {}
    for j in range(_SIDE, len(tb) - _SIDE):
        if tb[j - 1] in PREPOSITIONS or tb[j - 1] in DETERMINERS or tb[j - 2] in DETERMINERS \
                or tb[j - 2] in _WITH or (tb[j - 1] in _OUT and content_word(tb[j - 2])) \
                or (tb[j - 2] in PREPOSITIONS and "-" in tb[j - 1]) \
                or (tb[j - 2] in _MODALS and content_word(tb[j - 1])) \
                or (verb_s(tb[j - 1]) and content_word(tb[j - 2])
                    and j > _SIDE and tb[j - 3] in DETERMINERS
                    and tb[j - 1] not in b.names and tb[j] not in PRONOUNS):
            # after "the", a noun and its verb: "the instructor **radios** ski patrol on …"
            starts.setdefault(_placed(tb[j - _SIDE:j]), []).append(j)
    for i in range(_SIDE, len(ta) - _SIDE):
        for j in starts.get(_placed(ta[i - _SIDE:i]), ()):
            spans = _spans(ta, i, tb, j)
            if spans is not None and _after_verb(tb, j) \
                    and tb[j + len(spans[1])] not in PREPOSITIONS \
                    and tb[j + len(spans[1])] not in _OUT:
                continue  # after a verb, an object before a place: "radios ski patrol **on**
                # channel 4", not "the grounds **crew cuts** the fairways"
            found = _unshared(spans)
            if found is not None and not other_things(found[0], found[1], a, b):
                found = _heads(found)  # "the **loft** above the shop" / "the drying shed"
            if found is not None and not other_things(found[0], found[1], a, b) \
                    and ta[i - 1] in DETERMINERS and tb[j - 1] in DETERMINERS:
                found = _moved(found, a, b)  # only a thing after its article: a verb's
                # phrase moved is a rewording ("the captain **briefs** …" / "… **reports**")
            if found is not None and other_things(found[0], found[1], a, b) and (
                    tb[j - 1] in PREPOSITIONS or tb[j - 1] in DETERMINERS
                    or not COMMON_VERBS & {*found[0], *found[1]}):  # after "its cracked"
                # a thing, not a verb: "the skatepark **lights go**" / "… **floodlights**"
                return " ".join(found[0]), " ".join(found[1])
    return None


def _after_verb(tb: tuple[str, ...], j: int) -> bool:
    """Whether the slot at ``j`` opens after a verb, not a preposition or an article."""
    return not (tb[j - 1] in PREPOSITIONS or tb[j - 1] in DETERMINERS
                or tb[j - 2] in DETERMINERS or tb[j - 2] in _WITH
                or (tb[j - 2] in PREPOSITIONS and "-" in tb[j - 1]))  # "in **two-tier**"


def _spans(ta: tuple[str, ...], i: int, tb: tuple[str, ...],
           j: int) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The shortest words from ``i`` and from ``j`` (one to six, several on one side at least)
    that the same two words follow in both texts, or None."""
    for size in range(3, 2 * _SPAN_MAX + 1):
        for n in range(max(1, size - _SPAN_MAX), min(size, _SPAN_MAX + 1)):
            k, m = i + n, j + size - n
            if k + _SIDE <= len(ta) and m + _SIDE <= len(tb) \
                    and (ta[k:k + _SIDE] == tb[m:m + _SIDE] or _ended(ta[k], tb[m])):
                return ta[i:k], tb[j:m]
    return None


def _unshared(found: tuple[tuple[str, ...], tuple[str, ...]] | None
              ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The two things without the words they open with alike: "the **Tern 21** deck" /
    "the **Tern 21** hull" (the hundred-and-twelfth set) are a deck and a hull."""
    if found is None:
        return None
    xs, ys = (w[:-1] if len(w) > 1 and w[-1] in _JOINED else w for w in found)  # "on
    # **sticky notes and** speaking even once …" / "on **mini whiteboards**; speaking …"
    if min(len(xs), len(ys)) >= 2:  # (the 324th set): the clause's "and" is no word of the
        found = xs, ys  # thing; one word left is as often a verb reworded ("before **going
        # and** the office …" / "before **leaving**, and …")
    k = 0
    while k < min(len(xs), len(ys)) - 1 and xs[k] == ys[k]:
        k += 1
    # a model's name and number ("Tern 21"), not a verb's object ("tracks the balloon" /
    # "follows the balloon": the verbs are the swapped-word rule's)
    if any(c.isdigit() for w in xs[:k] for c in w) and not AUX & set(xs[:k]) \
            and all(map(_compared, xs[k:] + ys[k:])):
        return xs[k:], ys[k:]
    return found  # "bay 2 **is kept**" / "bay 2 **is reserved**": verbs, the swapped-word
    # rule's (which knows their synonyms)


def _heads(found: tuple[tuple[str, ...], tuple[str, ...]]
           ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each thing up to the place word that goes on to say where it is: "the **loft** above
    the shop" (the hundred-and-ninety-first set), so that a place named with its own place is
    still a thing the other text lacks."""
    def cut(words: tuple[str, ...]) -> tuple[str, ...]:
        k = next((n for n, w in enumerate(words[:-1]) if n and w in _WHERE
                  and words[n + 1] in THE), len(words))  # "above **the** shop", not "over 10 t"
        return words[:k]
    return cut(found[0]), cut(found[1])


def _moved(found: tuple[tuple[str, ...], tuple[str, ...]], a: Facets, b: Facets
           ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each thing without a phrase after it that the other text says elsewhere: "on a **phone
    timer app** in club tournaments" / "In club tournaments … on the **chess clock**" (the
    305th set): the phrase moved, the tool did not."""
    def cut(words: tuple[str, ...], other: Facets, slot: tuple[str, ...]) -> tuple[str, ...]:
        said, there = text_stems(other.tokens), {stem(x) for x in slot}
        k = next((n for n, w in enumerate(words[:-1]) if n and w in PREPOSITIONS
                  and all(stem(x) in said for x in words[n + 1:])
                  and not any(stem(x) in there for x in words[n + 1:])), len(words))
        return words[:k]  # not a phrase the other text says in the slot itself: "the hatch
        # flags almonds **in the mole**" / "… lists almonds in the **mole** sauce"
    xs, ys = cut(found[0], b, found[1]), cut(found[1], a, found[0])
    return (xs, ys) if min(len(xs), len(ys)) >= 2 else found  # two things of several words
    # each: a single word left is as often a synonym ("as **a spare**" / "as **a backup**")


_JOINED = frozenset(["and", "or", "but", "so"])
_WHERE = frozenset(["above", "below", "behind", "beside", "under", "underneath", "near",
                    "next", "opposite", "outside", "inside", "beneath", "over"])


def _placed(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words with "at", "on" and "inside" read as "in": "left charging overnight **at**
    the till counter" / "… overnight **in** the back office" (the ninety-sixth set) put
    things in the same slot."""
    return tuple(_IN.get(w, w) for w in words)


_IN = {"at": "in", "on": "in", "inside": "in", "an": "the", "a": "the", "into": "to",
       "onto": "to"}  # "with **an** infrared thermometer" / "with **a** thermocouple probe",
# "with **a** tape measure" / "with **the** steel calliper" (the 308th set); "go from the
# greenhouse **into** the polytunnel" / "… **to** the open field" (the 335th)
#: Prepositions before a word and the thing ("fed **with unpasteurised** cider" / "… red
#: wine", the hundred-and-sixty-first set).
_WITH = frozenset(["with", "using", "by"])
#: A verb's particle before its object: "guides hand **out** electrolyte sachets at the second
#: stop" / "… hand **out** bottled water at …" (the 308th set).
_OUT = frozenset(["out", "up", "off", "down"])
#: A modal before a verb and its object: "clients **must take** aerosols, candles and
#: houseplants out of the flat" / "… **must take** their pets out of …" (the 313th set).
_MODALS = frozenset(["must", "should", "can", "may", "will", "shall"])


def _ended(x: str, y: str) -> bool:
    """Whether one text ends where the other goes on to another clause: "… goggles in the
    **bottling hall**" / "… goggles in the **grinding room**, because capsaicin dust …"."""
    return (x == "$" and y in _ON) or (y == "$" and x in _ON)




_START = ("^", "^")
_END = ("$", "$")
_NEXT = CLAUSE_BREAKS | frozenset(["never", "not"])
#: Words the longer text may go on with where the other ends: another clause, or a time or
#: a place after the thing ("with a thermocouple probe" / "with an infrared thermometer
#: **before** anyone walks", the hundred-and-ninetieth set).
_ON = _NEXT | frozenset(["before", "after", "until", "from", "with", "at", "in", "on", "by",
                         "for", "to"])
#: At most this many words make either thing ``between`` compares.
_SPAN_MAX = 6
_COPULAS = frozenset(["is", "are"])


def _compared(word: str) -> bool:
    """A content word that is no number, nor a verb's form ("**sends** garment counts",
    "a **booked** slot"): a kind's word before a noun is bare."""
    return noun(word) and not word.endswith(("s", "ed"))


def _apart(word: str, other: str) -> bool:
    """Two words, not one word's forms or short form ("prod" / "production") nor a part of
    the other ("booked" / "pre-booked")."""
    return stem(word) != stem(other) and not (word.startswith(other) or other.startswith(word)) \
        and word not in other.split("-") and other not in word.split("-")
