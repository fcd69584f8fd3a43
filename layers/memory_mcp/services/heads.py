"""Two things before the same place, as the subjects of two texts: "the **alarm code** at Kelsey
Street must be changed …" / "the **combination on the back-office safe** at Kelsey Street must
be changed …", "**bollard plates** for Harrowgate Council are …" / "**street nameplates** for
Harrowgate Council are …" (the two-hundred-and-fifty-seventh and -ninth sets).

The one-word rule reads a swapped noun only where the rest of the two texts lines up; a stored
fact with a clause more hides it. Here only the subjects are read: the same place after their
last preposition, and before their first, things that share no word, each with a word the
other text never says. (Subjects that differ in their last word alone were tried and left
out: "the Brora **team**" / "the Brora **crew**" are one team as often as two things.)
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PREPOSITIONS
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import subject_end


def other_head(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) for two subjects that name other things before the same place;
    else None."""
    sa, sb = a.tokens[:subject_end(a)], b.tokens[:subject_end(b)]
    if not (_SUBJECT <= len(sa) < len(a.tokens) and _SUBJECT <= len(sb) < len(b.tokens)):
        return None  # no verb found: the whole text is no subject
    if sa[-_SUBJECT:] == sb[-_SUBJECT:]:
        return _before_place(sa, sb, a, b)
    return None


def _before_place(sa: tuple[str, ...], sb: tuple[str, ...], a: Facets, b: Facets
                  ) -> tuple[str, str] | None:
    """The words before the first preposition of two subjects that end alike after their
    last, when they share no word and each has one the other text never says."""
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
#: Words a subject needs at least, and the place words both subjects end with.
_SUBJECT = 2
#: How close a word of the other text must be to count as the head said there.
_CLOSE = 0.75
