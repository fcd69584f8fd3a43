"""Another thing of the same make as the subject: "cracked salt **lamps** are replaced" /
"cracked wall salt **bricks** are replaced" (the two-hundred-and-fifty-fourth set).

The one-word rule reads a swapped noun only where the rest of the two texts lines up; a stored
fact with a clause more hides it. Here only the subjects are read: the same word before
their last, and last words (their heads) that neither text says anywhere else, name two
things, however alike the rest of the sentence.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import subject_end


def other_head(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) for two subjects whose heads differ after the same modifier,
    each head unsaid in the other text; else None."""
    sa, sb = a.tokens[:subject_end(a)], b.tokens[:subject_end(b)]
    if len(sa) < _SUBJECT or len(sb) < _SUBJECT:
        return None
    (ma, ha), (mb, hb) = sa[-2:], sb[-2:]
    if ma != mb or not content_word(ma) or not (content_word(ha) and content_word(hb)) \
            or stem(ha) == stem(hb) or not (ha.isalpha() and hb.isalpha()):
        return None
    if parts_pool(b).has(ha, _CLOSE) or parts_pool(a).has(hb, _CLOSE) \
            or ha[:_PREFIX] == hb[:_PREFIX] or ha.endswith(hb) or hb.endswith(ha):
        return None  # a short form or a compound: "freezer **temp**" / "… **temperatures**",
        # "the south **lift**" / "the south **chairlift**"
    return f"{ma} {ha}", f"{mb} {hb}"


#: Words a subject needs at least: a modifier and its head.
_SUBJECT = 2
#: Letters a short form shares with the word it shortens ("obs" / "observations").
_PREFIX = 3
#: How close a word of the other text must be to count as the head said there.
_CLOSE = 0.75
