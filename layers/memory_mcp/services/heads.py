"""Another thing of the same make as the subject: "cracked salt **lamps** are replaced" /
"cracked wall salt **bricks** are replaced" (the two-hundred-and-fifty-fourth set).

The one-word rule reads a swapped noun only where the rest of the two texts lines up; a stored
fact with a clause more hides it. Here only the subjects are read: the same word before
their last, and last words (their heads) that neither text says anywhere else, name two
things, however alike the rest of the sentence.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PREPOSITIONS
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import subject_end


def other_head(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) for two subjects whose heads differ after the same modifier,
    each head unsaid in the other text; else None."""
    sa, sb = a.tokens[:subject_end(a)], b.tokens[:subject_end(b)]
    if not (_SUBJECT <= len(sa) < len(a.tokens) and _SUBJECT <= len(sb) < len(b.tokens)):
        return None  # no verb found: the whole text is no subject
    if sa[-_SUBJECT:] == sb[-_SUBJECT:]:
        return _before_place(sa, sb, a, b)
    (ma, ha), (mb, hb) = sa[-2:], sb[-2:]
    if ma == mb and content_word(ma) and _apart(ha, hb, a, b):
        return f"{ma} {ha}", f"{mb} {hb}"
    return None


def _apart(x: str, y: str, a: Facets, b: Facets) -> bool:
    """Two nouns, each unsaid in the other text, that are no short form or compound of one
    another ("freezer **temp**" / "… **temperatures**", "the south **lift**" / "the south
    **chairlift**")."""
    if not (content_word(x) and content_word(y) and x.isalpha() and y.isalpha()) \
            or stem(x) == stem(y):
        return False
    return not (parts_pool(b).has(x, _CLOSE) or parts_pool(a).has(y, _CLOSE)
                or x[:_PREFIX] == y[:_PREFIX] or x.endswith(y) or y.endswith(x))


def _before_place(sa: tuple[str, ...], sb: tuple[str, ...], a: Facets, b: Facets
                  ) -> tuple[str, str] | None:
    """Two subjects that end alike after a preposition and name, before it, things that share
    no word and that neither text says elsewhere: "the **alarm code** at Kelsey Street" / "the
    **combination on the back-office safe** at Kelsey Street" (the 257th set)."""
    ka = next((k for k, t in enumerate(sa) if k and t in PREPOSITIONS), None)
    kb = next((k for k, t in enumerate(sb) if k and t in PREPOSITIONS), None)
    la = max((k for k, t in enumerate(sa) if t in PREPOSITIONS), default=None)
    lb = max((k for k, t in enumerate(sb) if t in PREPOSITIONS), default=None)
    if ka is None or kb is None or la is None or lb is None or sa[la:] != sb[lb:] \
            or not any(content_word(t) and t.isalpha() for t in sa[la + 1:]):
        return None  # the same place after the last preposition of both (not "at 4 am")
    xs = [t for t in sa[:ka] if content_word(t)]
    ys = [t for t in sb[:kb] if content_word(t)]
    if _ANYONE & {*xs, *ys}:
        return None  # "**anyone** on warfarin" / "**patients** on warfarin"
    pool_a, pool_b = parts_pool(a), parts_pool(b)
    if xs and ys and not {stem(x) for x in xs} & {stem(y) for y in ys} \
            and not all(pool_b.has(x, _CLOSE) for x in xs) \
            and not all(pool_a.has(y, _CLOSE) for y in ys):  # "**bollard** plates for
        # Harrowgate Council" / "street nameplates for …": "plates" is near "nameplates"
        return " ".join(xs), " ".join(ys)
    return None


_ANYONE = frozenset(["anyone", "everyone", "someone", "anybody", "everybody", "somebody"])
#: Words a subject needs at least: a modifier and its head.
_SUBJECT = 2
#: Letters a short form shares with the word it shortens ("obs" / "observations").
_PREFIX = 3
#: How close a word of the other text must be to count as the head said there.
_CLOSE = 0.75
