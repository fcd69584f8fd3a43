"""Checks ``wording.swap`` reads on the two blocks it found apart, before it calls them a
swapped word: one family of words ("formers" / "forming"), a reason's last verb, a subject's
noun read as a verb by its -s, and a noun after its article and modifiers. Apart from
``wording`` so that module keeps to aligning the texts.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PREPOSITIONS, predicates, verb_s
from memory_mcp.services.lexicon import COMMON_VERBS, MEASURES
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem


def opened(f: Facets, xs: list[tuple[int, str]]) -> bool:
    """Whether an article stands right before the words ``xs`` start at, or, after a
    preposition, before one or two modifiers of them: "**with a heat** gun" / "**with the
    heat** pad" (the 386th set), nouns though "gun for two minutes" reads as a verb and its
    argument; not "the cellar team **cleans**", a subject's verb."""
    at, articles = xs[0][0], ("a", "an", "the")
    for gap in range(_MODIFIERS + 1):
        if at - gap < 1 or (gap and not (content_word(f.tokens[at - gap])
                                         and not f.tokens[at - gap].endswith(("ed", "ing")))):
            return False
        if f.tokens[at - gap - 1] in articles:
            return not gap or (at - gap > 1 and f.tokens[at - gap - 2] in PREPOSITIONS
                               and not any(verb_s(w) or w.endswith(("ing", "ed"))
                                           for _, w in xs))
    return False


_MODIFIERS = 2  # "the **iOpener heat** pad"


def family(xs: list[tuple[int, str]], ys: list[tuple[int, str]]) -> bool:
    """Whether a word (or a hyphenated part) of each side is the other's stem plus a
    derivational ending: "peroxide **formers**" / "peroxide-**forming** solvents" ("former" is
    "form" + "er"). Not a compound ("life raft" / "lifejacket") nor a shared piece of two
    identifiers ("ml-models-prod" / "ml-artifacts-prod": identifiers are not split)."""
    def stems_of(side: list[tuple[int, str]]) -> set[str]:
        return {stem(p) for _, w in side if not any(c.isdigit() for c in w)
                for p in w.split("-") if len(p) >= _FAMILY}
    sx, sy = stems_of(xs), stems_of(ys)
    return any(p + end == q or q + end == p for p in sx for q in sy for end in _DERIVED)


_FAMILY = 4
#: Endings that make a word of another class from the same stem ("form" → "former").
_DERIVED = ("er", "ers", "ing", "ed", "ion", "ation", "ment")


def verb_follows(a: Facets, b: Facets, xs: list[tuple[int, str]],
                  ys: list[tuple[int, str]]) -> bool:
    """Both texts have the same verb right after the swapped words, one text's predicate:
    "the aerial **hoop** hangs" / "the aerial **silks** hang", where a plural's -s made the
    noun read as the verb. The swapped words are the subject's, not a reworded verb."""
    i, j = xs[-1][0] + 1, ys[-1][0] + 1
    if i >= len(a.tokens) or j >= len(b.tokens) or not content_word(a.tokens[i]):
        return False
    return stem(a.tokens[i]) == stem(b.tokens[j]) and (i in predicates(a) or j in predicates(b))


def reason_verbs(a: Facets, b: Facets, xs: list[tuple[int, str]],
                  ys: list[tuple[int, str]]) -> bool:
    """One verb against another as the last word of a reason or a purpose, the same words
    before it ("so it doesn't **crack**" / "so it doesn't **sweat**"): what the fact is for,
    not the same verb reworded (the rest of a reworded reason moves with it)."""
    if len(xs) != 1 or len(ys) != 1:
        return False
    (i, _), (j, _) = xs[0], ys[0]
    if i + 1 != len(a.tokens) or j + 1 != len(b.tokens):
        return False
    back = 4  # "so **it doesn't** crack": the clause opens at most this far back
    return any(a.tokens[i - k:i] == b.tokens[j - k:j] and a.tokens[i - k] in _REASONS
               for k in range(2, back + 1) if k <= min(i, j))


#: Words that open a reason or a purpose.
_REASONS = frozenset(["so", "because", "that"])


def starts_other(x: str, y: str) -> bool:
    """True where one word starts the other as a short form of it ("web" / "website"), not as
    the first half of another people's word: "**brides**" / "**bridesmaids**" (the 409th set)
    are other people, dressed alike."""
    short, long_ = sorted((x, y), key=len)
    return long_.startswith(short) and long_[len(short):] not in _OTHER_PEOPLE


_OTHER_PEOPLE = frozenset(["maid", "maids", "girl", "girls", "boy", "boys"])


def counted(a: Facets, b: Facets, xs: list[tuple[int, str]],
            ys: list[tuple[int, str]]) -> bool:
    """Whether each block is one plural noun after the same number: people or things counted
    ("by Owain and **two contractors**" / "… two **volunteers**", the 416th set), not a verb,
    whatever its -s reads as ("£40 **payable**" / "£40 fees **due**" is no swap)."""
    if len(xs) != 1 or len(ys) != 1:
        return False
    (i, x), (j, y) = xs[0], ys[0]
    if any(k > 1 and content_word(f.tokens[k - 2]) for f, k in ((a, i), (b, j))):
        return False  # "route **7** collects", "version **2.3** supersedes": a numbered thing
    return i > 0 and j > 0 and number(a.tokens[i - 1]) is not None \
        and number(a.tokens[i - 1]) == number(b.tokens[j - 1]) \
        and all(w.isalpha() and w.endswith("s") and w not in COMMON_VERBS and w not in MEASURES
                for w in (x, y))


def spelled_apart(a: Facets, b: Facets, x: str, y: str) -> bool:
    """Whether a swapped word is one the other text writes in two ("**roof-level** wind" /
    "wind … at **roof level**", the 23rd set) or a unit the other text gives at another
    scale ("under **a kilometre**" / "below 1 km", read as 1000 meters: the 157th), which
    the value rules compare."""
    for word, own, other in ((x, a, b), (y, b, a)):
        parts = word.split("-")
        if len(parts) > 1 and word not in own.names and all(p in other.tokens for p in parts):
            return True  # not a name: "#support-**general**" / "#support-escalations"
    return any(word in MEASURES and any(t != word and t in MEASURES and word.endswith(t)
                                        for t in other.tokens)
               for word, other in ((x, b), (y, a)))

