"""Who or what a list holds: "**only** Marta Kowalski" against "only Marta Kowalski **and Ben
Okafor**", "Category 1 **and Category 2** calls" against "Category 1 calls", "**only** the 12 mm
glass eyes" against "glass eyes in **10 mm and** 12 mm".

Found by the thirtieth to thirty-second forget sets (bench/forget_quality.py): each near miss
was forgotten in place of the stored fact, because one text's names and numbers all occur in
the other (the numbers rule reads a subset as the same values, the names rule a name missing
from one text as a detail left out). A list member is no such detail: a request adding one
asks about more things than the fact holds of, and a request saying "only" of one member
denies the others the fact names.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.leading import noun as is_noun
from memory_mcp.services.lexicon import COMMON_VERBS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem

#: Words joining two members of a list.
_JOINS = frozenset(["and", "or", "&"])
#: Words saying a request holds of one member alone.
_ALONE = frozenset(["only", "just", "solely", "exclusively"])
#: How far from "and" a member's name or number may stand ("10 **mm** and 12 mm", "Dr **Anna**
#: Brandt and …"), and how far after "only" the member it narrows to ("only **the 12** mm").
_REACH = 2
_AFTER_ALONE = 3


def list_member(a: Facets, b: Facets) -> tuple[str, str] | None:
    """A member of a list in one text that the other leaves out, where that matters: added by
    the request ``a`` ("Category 1 **and Category 2**" / "Category 1"), or left out of the
    stored ``b``'s list by a request that says "only" of the member it keeps ("**only** Marta"
    / "Marta **and Ben**"). A list member left out without "only" may be a rewording that
    names the fact by one of its members, and is let pass."""
    added = _lists(a, b) or _shared_noun(a, b)
    if added:
        return f"and {added[0][0]}", added[0][1]
    if not _ALONE & set(a.tokens):
        return None
    return next(((f"only {kept}", f"and {member}") for member, kept in _lists(b, a)
                 if _narrowed(a, kept)), None)


def _lists(x: Facets, y: Facets) -> list[tuple[str, str]]:
    """Pairs of ``x``'s list members (name or number, around "and"/"or") of which ``y`` has
    exactly one: (the member ``y`` lacks, the member it has)."""
    out = []
    toks, seen = x.tokens, frozenset(y.tokens)  # once: a long text's tokens are thousands
    for i, t in enumerate(toks):
        if t not in _JOINS or i == 0:
            continue
        left = [w for w in toks[max(0, i - _REACH):i] if _item(w, x)]
        right = [w for w in toks[i + 1:i + 1 + _REACH] if _item(w, x)]
        if len(_kinds(right)) == 1 and _kinds(left) != _kinds(right):  # "**Lines** 1 and 2":
            # a label said as a name before the numbers of the list (the 327th set)
            left = [w for w in left if _kinds([w]) == _kinds(right)]
        if not (left and right) or _kinds(left) != _kinds(right) \
                or _RANGES & set(toks[max(0, i - _REACH - 1):i]):
            continue  # "every 6 weeks **and Blaze**": two clauses; "between 6 and 10": a range
        new_right = [w for w in right if w not in left]
        new_left = [w for w in left if w not in right]
        if _found(left, y, seen) and new_right and not any(_found([w], y, seen)
                                                            for w in new_right):
            out.append((" ".join(right), " ".join(left)))
        elif _found(right, y, seen) and new_left and not any(_found([w], y, seen)
                                                              for w in new_left):
            out.append((" ".join(left), " ".join(right)))
    return out


def _shared_noun(a: Facets, b: Facets) -> list[tuple[str, str]]:
    """The same for two words before one noun: "for **school and library** bookings" / "for
    **school** bookings" (the 200th set), where ``b`` has the first word right before that
    noun and never the second."""
    stems_b, runs_b = b.stems, set(zip(("^", *b.tokens), b.tokens, b.tokens[1:], strict=False))
    toks = ("^", *a.tokens)
    for i in range(2, len(toks) - 2):
        before, left, right, noun = toks[i - 2], toks[i - 1], toks[i + 1], toks[i + 2]
        if toks[i] in _JOINS and (before, left, noun) in runs_b and is_noun(right) \
                and is_noun(left) and content_word(noun) and stem(right) not in stems_b \
                and right not in COMMON_VERBS and not right.endswith("ing") \
                and right not in _ANY:  # "… **and send** orders", "… **and anything** later"
            return [(right, left)]
    return []


_ANY = frozenset(["anything", "everything", "something", "nothing", "anyone", "everyone"])


def _item(word: str, f: Facets) -> bool:
    """A word that tells one member from another: a name, or a number the text reads as a
    plain number (not "6" of "6 am", a clock time, nor of "6 weeks", a duration)."""
    return word in f.names or (word[:1].isdigit() and number(word) in f.numbers)


def _kinds(words: list[str]) -> frozenset[bool]:
    """Numbers and names: a list joins members of one kind ("10 mm and 12 mm")."""
    return frozenset(w[:1].isdigit() for w in words)


#: Words before a pair that make it a range, not a list: "between 6 and 10".
_RANGES = frozenset(["between", "from"])


def _found(words: list[str], y: Facets, seen: frozenset[str]) -> bool:
    """Whether ``y`` (whose tokens are ``seen``) has each of ``words`` (a number as the same
    value)."""
    for w in words:
        value = number(w) if w[:1].isdigit() else None
        if not (w in seen or (value is not None and value in y.numbers)):
            return False
    return True


def _narrowed(a: Facets, kept: str) -> bool:
    """Whether ``a`` says "only" just before the member it keeps ("**only** Marta Kowalski",
    "**only the** 12 mm glass eyes") or right after it ("room S3 **only**")."""
    first, last = kept.split()[0], kept.split()[-1]
    toks = a.tokens
    return any(toks[j] in _ALONE for i, t in enumerate(toks) if t == first
               for j in range(max(0, i - _AFTER_ALONE), i)) \
        or any(t == last and toks[i + 1:i + 2] == ("only",)
               and (i + 2 == len(toks) or toks[i + 2] in _AFTER_ONLY)
               for i, t in enumerate(toks))  # "in room S3 **only**", not "S3 only opens …"


#: Words that may follow a member's "only" when it is said after the member ("in room S3
#: only, from 20:30"): a new phrase, not the verb "only" would then narrow.
_AFTER_ONLY = frozenset(["and", "or", "on", "at", "in", "for", "from", "during", "until", "by",
                         "with", "but", "because", "so", "when", "while", "after", "before"])


def all_of_fewer(a: Facets, b: Facets) -> tuple[str, str] | None:
    """"**all** bookings" against "**all corporate** bookings": "all" of one thing, and "all"
    of a narrower kind of it in the other text (a word before the shared noun that the other
    text never says, where the first names no kind at all). Found by the thirty-ninth and
    forty-first sets, whose requests widened the fact's "all corporate bookings" and "all TPN
    bag batches" to every booking and batch."""
    phrases = {id(a): _all_phrases(a), id(b): _all_phrases(b)}  # once each: linear in a text
    for x, y, flip in ((a, b, False), (b, a, True)):
        narrower: dict[str, list[tuple[list[str], str]]] = {}
        for mods_y, head_y in phrases[id(y)]:
            if mods_y:
                narrower.setdefault(stem(head_y), []).append((mods_y, head_y))
        wide = {head_x for mods_x, head_x in phrases[id(x)] if not mods_x}
        for head_x in sorted(wide):  # "every **public** session" / "every public **skating**
            # session" keeps a kind of its own: a detail left out, so only a bare noun
            for mods_y, head_y in narrower.get(stem(head_x), ()):
                extra = [m for m in mods_y if not _said(m, x)]
                if extra:
                    found = (f"all {head_x}", f"all {' '.join(extra)} {head_y}")
                    return (found[1], found[0]) if flip else found
    return None


def _said(word: str, f: Facets) -> bool:
    """Whether ``f`` says ``word`` in some form: itself, one of its parts ("post-**ACL**-
    reconstruction", "**Taiwan**-bound") or a particle verb ("**incoming**" / "that **comes
    in**", "**outgoing**" / "going **out**")."""
    if word in f.names or stem(word) in f.stems:
        return True
    parts = [p for p in word.split("-") if content_word(p)]
    if len(parts) > 1 and any(stem(p) in f.stems or p in f.names for p in parts):
        return True
    particle = next((p for p in _PARTICLES if word.startswith(p)), None)
    return particle is not None and particle in f.tokens \
        and stem(word[len(particle):]) in _token_stems(f)


@lru_cache(maxsize=256)
def _token_stems(f: Facets) -> frozenset[str]:
    """The stems of every token of ``f``, stop words too ("going" is "go")."""
    return frozenset(stem(t) for t in f.tokens)


_PARTICLES = ("out", "in", "up", "down", "on")


#: Words that say a statement holds of every one of a kind: "**every** delivery" against
#: "**every controlled-drug** delivery" widens it as "all" does.
_UNIVERSALS = frozenset(["all", "every", "each"])


def _all_phrases(f: Facets) -> list[tuple[list[str], str]]:
    """(the words before the noun, the noun) of each "all" followed by up to four words that
    say something ("all **TPN bag batches**"), each of them read as the noun in turn; none
    where a stop word follows ("all **of** them", "all **are** checked")."""
    toks = f.tokens
    out: list[tuple[list[str], str]] = []
    for i, t in enumerate(toks):
        if t not in _UNIVERSALS:
            continue
        words: list[str] = []
        skip = 1 + (toks[i + 1:i + 2] == ("the",))  # "all **the** paediatric hearing tests"
        for w in toks[i + skip:i + skip + 4]:
            if not content_word(w) or w[:1].isdigit():
                break
            words.append(w)
        # each word may be the noun: "all **batches** made in the unit"
        out.extend((words[:k], words[k]) for k in range(len(words)))
    return out


def all_of_listed(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("every pitch: main, training", "training pitch") where one text says all of a thing
    and lists two kinds of it ("every **pitch, main and training alike**", "all **must** at
    the press, **reds as well as whites**") and the other names the thing with one of the
    kinds and not the other ("the **training pitches**", "**all white must**"): the fifty-second
    and fifty-third sets' wider requests. ``all_of_fewer`` leaves a wide text that names kinds
    alone."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        for head, kinds in _listed(x):
            pairs = None
            for kind in kinds:
                pairs = pairs or _stem_pairs(y.tokens)  # read once, where a list is found
                others = {stem(k) for k in kinds} - {stem(kind)}
                if (stem(kind), stem(head)) in pairs and not others & _token_stems(y):
                    found = (f"every {head}: {', '.join(kinds)}", f"{kind} {head}")
                    return (found[1], found[0]) if flip else found
    return None


@lru_cache(maxsize=64)
def _stem_pairs(tokens: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """The stems of each two tokens in a row: linear in a long text, read once."""
    stems = [stem(t) for t in tokens]
    return frozenset(pairwise(stems))


#: Words that join two kinds in a list ("main **and** training", "reds **as well as** whites").
_LIST_JOINS = ("and", "as well as")


def _listed(f: Facets) -> list[tuple[str, list[str]]]:
    """(noun, the two kinds) for each universal noun followed at once (a word between at
    most) by two content words joined by "and" or "as well as"; (noun, the one kind) where
    "… or not" follows it."""
    toks, out = f.tokens, []
    for i, t in enumerate(toks[:-1]):
        head = toks[i + 1]
        if t not in _UNIVERSALS or not content_word(head):
            continue
        window = toks[i + 2:i + 7]
        if len(window) > 2 and window[1:3] == ("or", "not") and content_word(window[0]):
            out.append((head, [window[0]]))  # "ridges on **all buildings, listed or not**"
        for k in range(1, min(3, len(window) - 1)):  # the list right after its noun
            for join in _LIST_JOINS:
                n = len(join.split())
                if " ".join(window[k:k + n]) == join and k + n < len(window) \
                        and content_word(window[k - 1]) and content_word(window[k + n]):
                    out.append((head, [window[k - 1], window[k + n]]))
    return out


def only_one_of_two(a: Facets, b: Facets) -> tuple[str, str] | None:
    """("only end", "start and end") where the request says "only" of a thing ("count the
    float **only at the end** of the shift") that the stored text pairs with another by "and"
    ("at the **start and end** of every shift"; the ninety-sixth set), and the request never
    names the other: one of two times, places or things, not both. Names and numbers are
    ``list_member``'s."""
    toks = a.tokens
    kept = {stem(toks[j]) for i, t in enumerate(toks) if t in _ALONE
            for j in range(i + 1, min(i + 1 + _AFTER_ALONE, len(toks)))
            if content_word(toks[j]) and toks[j] not in a.names}
    if not kept:
        return None
    yt = b.tokens
    for i in (k for k, t in enumerate(yt) if t == "and" and 0 < k < len(yt) - 1):
        left = [w for w in yt[max(0, i - _REACH):i] if content_word(w)]
        right = [w for w in yt[i + 1:i + 1 + _REACH] if content_word(w)]
        for mine, other in ((left, right), (right, left)):
            if mine and other and stem(mine[0]) in kept and not {stem(w) for w in other} \
                    & a.stems:
                return f"only {mine[0]}", f"{left[0]} and {right[0]}"
    return None
