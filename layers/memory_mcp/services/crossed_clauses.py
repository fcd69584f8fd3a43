"""Two clauses that keep their words but trade what each is said of: "the Hydro-Max
**hot-water trailer is for timber decks** and the **cold-water unit is for driveways**" /
"the **hot-water trailer** rig … **is for driveways**; the **cold-water unit is for timber
decks**" (the hundred-and-sixty-fifth set), "Jade Okafor covers the **south**-side routes and
Tomasz the **north** side" / "… Jade Okafor covers the **north**-side routes and Tomasz the
**south** side" (the hundred-and-fifty-ninth).

Every word of one text is in the other and each clause is reworded at most lightly, so the word
sets and the one-clause rules agree; what changed is which clause each word stands in. Read
clause by clause, each word both texts say in one clause only ties a
clause of one text to a clause of the other. When two clauses of one text each share words with
the same two clauses of the other, the texts pair their things the other way round.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memory_mcp.services.clauses import pieces
from memory_mcp.services.facets import facets
from memory_mcp.services.grammar import DETERMINERS, verb_s
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.voice import participle

#: Where a clause ends, past the semicolons and sentence ends ``clauses.pieces`` reads (not a
#: colon, which mostly closes a heading: "muirburn at Hartside: burning only from …"): a comma
#: and a joining word ("… on the WhatsApp group**, and** volunteers confirm …", the
#: hundred-and-sixty-fifth set), or a joining word before a new subject ("… timber decks **and
#: the** cold-water unit …", "… per gig **and each** musician gets £220"; not "tretinoin **and
#: the like**").
_BREAK = re.compile(r",\s+(?:and|but|while|whereas)\s+"
                    r"|\s+(?:and|but|while|whereas)\s+"
                    r"(?=(?:the|we|they|our|their|each|every)\s(?!like\b))"
                    r"|\s+(?:while|whereas)\s+"
                    r"|\s+and\s+(?=[a-z]+\s+(?:at|in)\s+(?:the|our|their|its)\s)"
                    r"|\s+and\s+(?=[a-z]+s\s+(?:the|them|it)\s)")
#: … and a joining word before a second verb and its object, the subject left out: "delivers
#: clean towels … on Tuesdays **and collects the** dirty ones on Fridays" (the 280th set).
#: … and a joining word before a second thing and its place, the verb left out: "we interview
#: clients at our Mayfair office **and candidates at** their own residences" (the 270th set).
#: "and" before a name that does something opens a clause too ("… group **and Hannah Okafor
#: confirms** …"); not before a name in a list ("county dispatch **and Pine Hollow school**").
_AND_NAME = re.compile(r"\s+and\s+(?=(?:[A-Z][\w'-]*\s+){1,3}[a-z]+[^s\W]s\b)")


def crossed_clauses(ra: str, rb: str) -> tuple[str, str] | None:
    """(a's two words, b's two words) from two clauses of ``ra`` whose words stand crosswise in
    two clauses of ``rb``, or None. Short texts only, as the other clause rules."""
    ca, cb = _clause_of(ra), _clause_of(rb)
    if len(set(ca.values())) < 2 or len(set(cb.values())) < 2:
        return None  # most texts: one clause
    tied: dict[tuple[int, int], str] = {}
    for word in sorted(ca.keys() & cb.keys(), key=lambda w: (w[:1].isdigit(), w)):
        tied.setdefault((ca[word], cb[word]), word)
    for (i, j), w in tied.items():
        for i2, k in tied:
            if i2 == i or k == j:
                continue
            x, y = tied.get((i, k)), tied.get((i2, j))
            if x is not None and y is not None:
                return f"{w} with {x}", f"{w} with {y}"
    return None


@lru_cache(maxsize=1024)
def _clause_of(text: str) -> dict[str, int]:
    """Stem → the index of the one clause it stands in, for the content words and numbers the
    text says in one clause only; a hyphenated word counts as each of its parts ("the
    **south-side** routes")."""
    seen: dict[str, set[int]] = {}
    parts = [p for sentence in pieces(text) for piece in _BREAK.split(sentence)
             for p in _AND_NAME.split(piece)]
    verbs = frozenset().union(*map(_verbs, parts))
    for k, part in enumerate(parts):
        for tok in facets(part).tokens:
            for piece in tok.split("-") if "-" in tok[1:] else (tok,):
                if (content_word(piece) and stem(piece) not in verbs) \
                        or number(piece) is not None:
                    seen.setdefault(stem(piece), set()).add(k)
    return {w: next(iter(ks)) for w, ks in seen.items() if len(ks) == 1}


def _verbs(text: str) -> frozenset[str]:
    """The stems of the words the text uses as verbs, which a rewording trades between clauses
    freely ("the contractor **closes** it …, and it stays **shut**" / "… **shuts** it …; the
    block stays **closed**"): participles, and an -s word before its object ("closes **it**",
    "signs **the** log")."""
    toks = facets(text).tokens  # one clause's: "… for driveways; the …" is no object
    return frozenset(stem(t) for i, t in enumerate(toks)
                     if participle(t) or (verb_s(t) and toks[i + 1:i + 2]
                                          and toks[i + 1] in _OBJECTS))


#: Words that open a verb's object.
_OBJECTS = frozenset([*DETERMINERS, "it", "them", "him", "us", "each", "every", "all", "any"])


#: Three or more steps joined by arrows: "rotating **A -> B -> C**", "C → B → A".
_ARROWS = re.compile(r"\b(\w+)((?:\s*(?:->|→|=>|>)\s*\w+){2,})")


def reversed_steps(ra: str, rb: str) -> tuple[str, str] | None:
    """(a's steps, b's steps) where both texts give the same steps joined by arrows in
    another order: "lift attendants rotate **C -> B -> A**" / "… rotating **A -> B -> C**"
    (the two-hundred-and-seventy-ninth set). Else None."""
    steps_a, steps_b = _steps(ra), _steps(rb)
    for x in steps_a:
        for y in steps_b:
            if x != y and sorted(x) == sorted(y):
                return " -> ".join(x), " -> ".join(y)
    return None


def _steps(text: str) -> list[tuple[str, ...]]:
    return [tuple(w.lower() for w in re.findall(r"\w+", m.group(0)))
            for m in _ARROWS.finditer(text)]
