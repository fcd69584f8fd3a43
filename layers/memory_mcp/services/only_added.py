"""A request that keeps its fact to a thing the stored text never names: "the first ten parts
after every die change **on line 4 only** are measured …" / "the first ten parts after every
die change are measured …", "**only implants on mobile devices** must self-delete …" /
"implants must self-delete …" (the 428th and 429th sets).

The stored text says no "only" and names none of the words the request's "only" binds: a
narrower rule, not the stored one reworded. Words the stored text writes ("only Ana fires the
kiln" / "Ana fires the kiln") are a rewording's emphasis and are left alone.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import AUX
from memory_mcp.services.stems import content_word, part_stems, stem

#: Words that keep a rule to some things, as "only" does.
_ONLY = frozenset(["only", "solely", "exclusively", "just"])
_AFTER = 4  # "only **implants on mobile devices**"
_BEFORE = 3  # "**on line 4** only"
_NEW = 2  # words the stored text never writes, one of them may be a number


def added_only(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(the request's "only" words, "") where the request ``a`` binds "only" to two words
    (a thing and a number, or two things) the stored ``b`` never writes, ``b`` saying no
    "only" at all. Else None."""
    if _ONLY & set(b.tokens) or "only" not in a.tokens or any("only" in t for t in b.tokens):
        return None  # "BMX-only sessions" / "the park is BMX only" says it too
    theirs = {stem(t) for t in b.tokens} | set(b.tokens)
    ta = a.tokens
    for i, t in enumerate(ta):
        if t != "only" or (i and ta[i - 1] == "not") \
                or (i + 1 < len(ta) and ta[i + 1] in _CONDITION):
            continue  # "not only", and "only if" is a condition's rule
        for span, said in ((ta[i + 1:i + 1 + _AFTER], "only {}"),
                           (ta[max(0, i - _BEFORE):i], "{} only")):
            if said == "only {}":  # up to its verb: "only implants on mobile devices **must**"
                span = span[:next((k for k, w in enumerate(span) if w in AUX), len(span))]
            new = [w for w in span if _new(w, theirs)]
            if len(new) >= _NEW and any(content_word(w) for w in new):
                return said.format(" ".join(span)), ""
    return None


def _new(word: str, theirs: set[str]) -> bool:
    """Whether a content word or a number is one the other text never writes, nor any content
    part of it ("on-call" / "whoever is on call")."""
    if word in theirs or stem(word) in theirs or not (content_word(word) or word[:1].isdigit()):
        return False
    parts = part_stems(word) if "-" in word else []
    return not (parts and all(p in theirs for p in parts))


_CONDITION = frozenset(["if", "when", "whenever", "once", "after", "before", "until", "while"])
