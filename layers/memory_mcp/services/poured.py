"""What is moved into what: "the vac truck empties **the exit pit into the spoils tank**" /
"… empties **the spoils tank into the exit pit**" (the 521st set).

The two texts hold the same words, so the word sets see one fact; only the order around
"into" (or "onto") says which container is emptied and which filled. ``crossed_pairs`` reads
a doer and a "to" or "from"; a thing and its container, turned about, it does not.
"""

from __future__ import annotations

from memory_mcp.services.crossed_pairs import OBJECT_OPENERS, phrase_end
from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem

#: The words that put one thing inside or on top of another.
_INTO = frozenset(["into", "onto"])


def swapped_into(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where each text says once that one thing goes "into" another,
    and the thing moved in one is the container in the other, both ways round. Else None."""
    xa, xb = _moved(a.tokens), _moved(b.tokens)
    if xa is None or xb is None or xa[0] == xa[1]:
        return None
    if xa[0] == xb[1] and xa[1] == xb[0]:
        return xa[2], xb[2]
    return None


def _moved(toks: tuple[str, ...]) -> tuple[str, str, str] | None:
    """(the stem of the word right before the text's only "into", the stem of the last word
    of the phrase after it, the words between), or None."""
    at = [i for i, t in enumerate(toks) if t in _INTO]
    if len(at) != 1 or at[0] == 0 or at[0] + 1 >= len(toks):
        return None
    i = at[0]
    if not content_word(toks[i - 1]) or toks[i - 1][:1].isdigit():
        return None
    j = i + 2 if toks[i + 1] in OBJECT_OPENERS else i + 1
    if j >= len(toks) or not content_word(toks[j]) or toks[j][:1].isdigit():
        return None
    end = phrase_end(toks, j)
    return stem(toks[i - 1]), stem(toks[end]), " ".join(toks[max(0, i - 2):end + 1])
