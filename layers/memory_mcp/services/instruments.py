"""Another tool or material of several words after the same "with": "Tomasz glues the leather
to the boards **with contact cement** and the glue pot is refilled …" / "… to the boards **with
hot hide glue** at 60°C; the glue pot is refilled …" (the 411th set).

``aligned.with_other`` reads one bare noun after "with" before the same two words; here each
text names its tool in a few words and goes on differently ("and …" / "at 60°C; …"), so the
words after differ and a word of the stored tool ("glue") is said elsewhere in the request. What
stays is the three words before "with" (the same action on the same thing) and a tool none of
whose words the stored text says.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS, SLOT_TOKENS, predicates
from memory_mcp.services.lexicon import COMMON_VERBS
from memory_mcp.services.numerals import number
from memory_mcp.services.opposite_words import same_side
from memory_mcp.services.stems import content_word, stem

_WITH = frozenset(["with", "using"])
_BEFORE = 3  # "to the boards **with**": the action and its thing, shared word for word
_LONGEST = 4  # words of a tool: "hot hide glue", "a soft horsehair brush"


def with_phrase(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's tool, b's tool) where both texts say the same three words and then "with" or
    "using", the request's tool has no word the stored text says anywhere, and the stored
    tool has a word the request never says. Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    for i in range(_BEFORE, len(a.tokens)):
        before = a.tokens[i - _BEFORE:i]
        if a.tokens[i] not in _WITH or not any(content_word(w) for w in before):
            continue
        mine = _tool(a.tokens, i + 1)
        if not mine or any(stem(w) in b.stems for w in mine):
            continue
        for j in range(_BEFORE, len(b.tokens)):
            if b.tokens[j] != a.tokens[i] or b.tokens[j - _BEFORE:j] != before:
                continue
            theirs = _tool(b.tokens, j + 1)
            if theirs and any(stem(w) not in a.stems for w in theirs) \
                    and not any(same_side(x, y) for x in mine for y in theirs) \
                    and not _short_form(mine, theirs):
                return " ".join(mine), " ".join(theirs)
    return None


def _short_form(mine: list[str], theirs: list[str]) -> bool:
    """One side a single short word with the other's first letter: "**IPA**" / "**isopropyl
    alcohol**", an abbreviation."""
    for x, y in ((mine, theirs), (theirs, mine)):
        if len(x) == 1 and len(x[0]) <= _ABBREVIATION and x[0][0] == y[0][0] and len(y) > 1:
            return True
    return False


_ABBREVIATION = 4


def _tool(toks: tuple[str, ...], start: int) -> list[str]:
    """The content words of the tool named from ``start``, past an article, up to the first
    other word; empty when a number or a name-like token is among them (the value rules')."""
    while start < len(toks) and toks[start] in DETERMINERS:
        start += 1
    words: list[str] = []
    for tok in toks[start:start + _LONGEST]:
        if not content_word(tok):
            break
        if not tok.isalpha():
            return []
        words.append(tok)
    return words


def other_head(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same word names a kind of two other things, each
    followed by the same two words: "the 1870s **harpoon rack** in Gallery 2 must be dusted" /
    "the Svend Foyn grenade **harpoon cannon** in Gallery 2 must be dusted" (the 413th set).
    Neither text says the other's thing anywhere; a word of one family ("tools" / "toolkit")
    or one side of the lexicon ("shop" / "store") is a rewording. Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None
    ta, tb, verbs_a, verbs_b = a.tokens, b.tokens, predicates(a), predicates(b)
    for i in range(1, len(ta) - _AFTER):
        x, kind = ta[i], ta[i - 1]
        if not (_noun(x) and _noun(kind)) or stem(x) in b.stems \
                or (i > 1 and number(ta[i - 2]) is not None) \
                or {i, i - 1} & verbs_a or ta[i + 1] not in PREPOSITIONS \
                or not _named(a, i + 1 + _AFTER):
            continue
        for j in range(1, len(tb) - _AFTER):
            y = tb[j]
            if tb[j - 1] == kind and tb[j + 1:j + 1 + _AFTER] == ta[i + 1:i + 1 + _AFTER] \
                    and _noun(y) and stem(y) not in a.stems and not same_side(x, y) \
                    and not {j, j - 1} & verbs_b \
                    and not (x.startswith(y) or y.startswith(x)):
                return f"{kind} {x}", f"{kind} {y}"
    return None


_AFTER = 2  # "… rack **in Gallery** 2" / "… cannon **in Gallery** 2"


def _noun(word: str) -> bool:
    return content_word(word) and word.isalpha() and len(word) > _SHORT \
        and word not in COMMON_VERBS and not word.endswith(("ed", "ing"))


def _named(f: Facets, end: int) -> bool:
    """Whether the two words before ``end`` are a preposition and a name ("in **Gallery**
    2"): one thing in one place, not a reworded noun ("the rota **on the** 1st")."""
    return f.tokens[end - 1] in f.names


_SHORT = 2
