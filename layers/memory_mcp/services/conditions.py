"""The condition an "only" puts on a fact, compared between two texts.

"Fee waivers are available **only for registered charities**" and "… **only for applicants on
income support**" share every other word, and the local model scores them as one fact; so do
"Volunteers under 18 need a consent form" and the same "**but only for overnight events**". An
"only" narrows a fact to what follows it, so when no word of that phrase is in the other text
the two texts hold the fact under different conditions (or one under none): two facts. A
rewording keeps what the "only" names, wherever it puts it ("**only** staff with a blue badge
may enter" / "entry is restricted to staff holding a blue badge").
"""

from __future__ import annotations

import re

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.word_pool import parts_pool
from memory_mcp.services.wording import AUX, CLAUSE_BREAKS

#: Content words read after an "only": the condition's own words, not the clause after it.
_REACH = 4


def only_condition(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text's "only" phrase shares no word with the other
    text; the other side is its own "only" phrase, or "" when it has none."""
    phrases_a, phrases_b = _only_phrases(a), _only_phrases(b)
    for mine, theirs, other, flip in ((phrases_a, phrases_b, b, False),
                                      (phrases_b, phrases_a, a, True)):
        found = parts_pool(other)
        for words, stems, written in mine:
            if stems and not stems & other.stems and not any(found.has(w, 0.75) for w in words):
                # no word of it, nor a longer form ("on-call" / "call")
                shown = (written, " / ".join(t for _, _, t in theirs) or "no such condition")
                return (shown[1], shown[0]) if flip else shown
    return None


def _only_phrases(f: Facets) -> list[tuple[list[str], frozenset[str], str]]:
    """(content words, their stems, the phrase as written) after each "only" (not "not
    only"), to the clause's end."""
    toks, out = f.tokens, []
    for i, t in enumerate(toks):
        if t != "only" or (i and toks[i - 1] == "not"):
            continue
        words: list[str] = []
        end = i + 1
        for w in toks[i + 1:i + 10]:
            if w in CLAUSE_BREAKS or w in AUX or len(words) == _REACH:
                break
            end += 1
            if content_word(w):
                words.append(w)
        stems = frozenset(stem(p) for w in words for p in re.split(r"[\-/]", w) if content_word(p))
        out.append((words, stems, " ".join(toks[i:end])))
    return out
