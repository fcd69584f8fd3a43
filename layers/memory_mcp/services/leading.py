"""Another thing opening the same sentence: "the **ball return** on lane 7 jams" / "The
**pinsetter** on lane 7 (…) jams", "unsold **bread loaves go** to the" / "Unsold
**viennoiserie goes** to the" (the forty-eighth, fifty-sixth and seventy-seventh sets).

Split from ``aligned``, which reads the same slot inside a sentence: here the slot is the
sentence's subject, before the same preposition or the same verb, so the thing's words and the
verb's agreement with them are read; or a full name the sentence opens with
(``opening_names``).
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX, DETERMINERS, PREPOSITIONS, graded
from memory_mcp.services.stems import agreed, content_word, stem
from memory_mcp.services.wording import PARTICLES

#: Words after the thing that both texts must share, in order (``aligned`` reads as many).
SIDE = 2
#: Words two things hold at least for their last words alone to tell them apart.
_HEADED = 4
#: At most this many words name the thing a text opens with ("teat cup liners").
_THING_MAX = 4  # "the 200-litre steam kettle": a measure's number and unit too
_OPENERS = DETERMINERS | frozenset(["all", "every", "each", "any"])


def leading(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where both texts open with a thing of a few words (a measure's
    number among them: "the 200-litre steam kettle") that share no stem, followed by the same
    preposition and the same two words, or by the same verb (``_before_same_verb``, where a
    word both things open with is left out: "**unsold** bread loaves"): "the **ball
    return** on lane 7 jams" / "The **pinsetter** on lane 7 (…) jams", "the **card readers**
    on CX-300 docks" / "**Locking pins** on CX-300 docks" (the fifty-sixth and forty-eighth
    sets). Another part of the same machine is another fact; the word sets miss it when the
    stored text names more parts, serials and numbers than the request. A word of one text's
    thing that the other text says anywhere ("the pinsetter's ball return on lane 7") or a
    compound's part ("springs" / "mainsprings") is no swap."""
    head_a, head_b = _opening(a.tokens), _opening(b.tokens)
    if head_a is not None and head_b is not None and head_a[1] == head_b[1]:
        found = _apart_things(head_a[0], head_b[0], a, b, headed=False)
        if found is not None:
            return found
    verb = _before_same_verb(a.tokens, b.tokens)
    if verb is None:
        return None
    xs, ys = verb
    while len(xs) > 1 and len(ys) > 1 and stem(xs[0]) == stem(ys[0]):
        xs, ys = xs[1:], ys[1:]  # "**unsold** bread loaves" / "**Unsold** viennoiserie"
    return _apart_things(xs, ys, a, b, headed=True)


def _apart_things(xs: tuple[str, ...], ys: tuple[str, ...], a: Facets, b: Facets,
                  headed: bool) -> tuple[str, str] | None:
    """The two things as read, where neither shares a stem with the other text nor is a part
    of the other's word ("springs" / "mainsprings"), or, before a verb (``headed``), where
    their last words are apart; else None. Before a preposition the last word may be a verb
    ("the manufacturer's load **cap** | at most 150 kg" / "each cargo bike **carries** | at
    most 150 kg")."""
    nx, ny = [x for x in xs if x != "and"], [y for y in ys if y != "and"]
    if headed and _made_of(nx, ny, b):  # the request's compound only: a stored "aquarist
        # **team**" is what a request's "aquarists" means
        return " ".join(xs), " ".join(ys)
    if any(x in y or y in x for x in nx for y in ny):
        return None
    if set(map(stem, nx)) & set(map(stem, b.tokens)) \
            or set(map(stem, ny)) & set(map(stem, a.tokens)):
        # a modifier the other text says elsewhere ("**witness** statements" / "… under the
        # **witness** box", the hundred-and-fourth set) leaves the things apart when their
        # last words, the things named, are not
        said_a, said_b = set(map(stem, a.tokens)), set(map(stem, b.tokens))
        if not headed or len(nx) + len(ny) < _HEADED or stem(nx[-1]) in said_b or stem(ny[-1]) in said_a \
                or set(map(stem, nx)) & set(map(stem, ny)):
            return None
    return " ".join(xs), " ".join(ys)


def _made_of(nx: list[str], ny: list[str], other: Facets) -> bool:
    """Whether ``nx`` names a thing made of or from ``ny``'s: its last word a noun the other
    text never says, ``ny``'s last word one of its modifiers: "**snail caviar** is shipped" /
    "purged **snails** are shipped", "concertina **reed frames** are cut" / "concertina
    **reeds** are cut" (the two-hundred-and-seventy-fourth and sixty-ninth sets). The plural
    as a compound's singular first word shows it; "the rearing **room temperature** is kept
    at" / "the rearing **room** is kept at" is one fact."""
    head, whole = nx[-1], ny[-1]
    return len(nx) > 1 and whole.endswith("s") and whole[:-1] in nx[:-1] and head not in _GROUPS \
        and stem(head) not in {stem(t) for t in other.tokens} \
        and not any(head in t or t in head for t in other.tokens if len(t) > _PART)


_PART = 3  # "frames" / "framed": a word inside another names the same thing
#: Heads that name the plural's members or records, not another thing: "the instructor
#: **team**", "show **files**", "incident log **entries**".
_GROUPS = frozenset("""team teams group groups crew crews staff squad unit units entries entry
files file records record list lists length lengths size sizes fares sessions""".split())  # noqa: SIM905


def _opening(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the words of the thing a text opens with, the preposition and two words after it),
    or None: "the ball return | on lane 7"."""
    start = 1 if tokens and tokens[0] in _OPENERS else 0
    for end in range(start + 1, min(start + _THING_MAX, len(tokens) - SIDE - 1) + 1):
        if tokens[end] in PREPOSITIONS:
            thing = tokens[start:end]
            named = all(noun(w) or w.isdigit() for w in thing) and any(map(noun, thing))
            return (thing, tokens[end:end + 1 + SIDE]) if named else None
    return None


def _before_same_verb(ta: tuple[str, ...], tb: tuple[str, ...]
                     ) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(a's words, b's words): the things of a few nouns (joined by "and" too) that both texts
    open (two more words than ``_THING_MAX`` with "and") before the same verb and the same two
    words, the verb agreeing with its things
    ("unsold bread loaves **go to the**" / "Unsold viennoiserie **goes to the**"); or None."""
    sa = 1 if ta and ta[0] in _OPENERS else 0
    sb = 1 if tb and tb[0] in _OPENERS else 0
    for ea in range(sa + 1, min(sa + _THING_MAX + 2, len(ta) - SIDE - 1) + 1):
        if not _nouns(ta[sa:ea]):
            if ta[ea - 1] == "and" or graded(ta[ea - 1]):
                continue
            break
        after = tuple(map(agreed, ta[ea:ea + 1 + SIDE]))
        for eb in range(sb + 1, min(sb + _THING_MAX + 2, len(tb) - SIDE - 1) + 1):
            if not _nouns(tb[sb:eb]):
                if tb[eb - 1] == "and" or graded(tb[eb - 1]):
                    continue
                break
            if after == tuple(map(agreed, tb[eb:eb + 1 + SIDE])) \
                    and (ta[ea] != tb[eb] or ta[ea] in AUX or (
                        after[1] in PREPOSITIONS and ta[ea] not in PARTICLES)):
                # a verb by its form: agreeing with each text's things ("go" / "goes"), an
                # auxiliary ("are wiped"), or one a preposition follows ("smoked hams **go
                # into**"); not a verb's object ("puts **finished crust leather**") nor a
                # particle ("the stag moves: **down to** the winter block")
                return ta[sa:ea], tb[sb:eb]
    return None


def _nouns(words: tuple[str, ...]) -> bool:
    """Nouns, "and" between them: "USB sticks **and** SD cards", "Bibles, Qurans **and
    other** holy books"."""
    return all(noun(w) or (w == "and" and 0 < k < len(words) - 1)
               or (k < len(words) - 1 and graded(w))
               or (w == "other" and k and words[k - 1] == "and") for k, w in enumerate(words))


def noun(word: str) -> bool:
    """A content word that is no number (a plural too)."""
    return content_word(word) and not any(c.isdigit() for c in word)


def opening_names(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's name, b's name) where each text opens with a full name of two or three words,
    the two names share no word, and the same two words follow both: "**Ollie Park** leads the
    foraging team" / "**Sasha Greene** leads the foraging team and Ollie Park is her deputy"
    (the 206th set; ``in_place`` reads a name of one word, and a capital opening a sentence
    may be no name: "**Station** platform doors on the Green Line")."""
    ra, rb = _name_run(a), _name_run(b)
    if len(ra) < 2 or len(rb) < 2 or set(ra) & set(rb):
        return None
    ta, tb = a.tokens[len(ra):len(ra) + SIDE], b.tokens[len(rb):len(rb) + SIDE]
    return (" ".join(ra), " ".join(rb)) if len(ta) == SIDE and ta == tb else None


def _name_run(f: Facets) -> tuple[str, ...]:
    """The names the text opens with, at most three words."""
    run = []
    for t in f.tokens[:4]:
        if t not in f.names:
            break
        run.append(t)
    return tuple(run) if len(run) <= 3 else ()
