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
from memory_mcp.services.lexicon import MEASURES, NUMBER_WORDS, UNIT_DAYS, UNIT_SYMBOLS
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
    theirs = _said(b)
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


def _said(f: Facets) -> set[str]:
    """The text's words and their stems, which ``_new`` looks a word up in."""
    return {stem(t) for t in f.tokens} | set(f.tokens)


def _new(word: str, theirs: set[str]) -> bool:
    """Whether a content word or a number is one the other text never writes, nor any content
    part of it ("on-call" / "whoever is on call")."""
    if word in theirs or stem(word) in theirs or not (content_word(word) or word[:1].isdigit()):
        return False
    parts = part_stems(word) if "-" in word else []
    return not (parts and all(p in theirs for p in parts))


_CONDITION = frozenset(["if", "when", "whenever", "once", "after", "before", "until", "while"])


#: Prepositions an "only" binds a thing with: "used **only for** air-sensitive samples".
_ONLY_PREPS = frozenset(["for", "with", "on", "in", "at", "by", "from", "to", "under", "over"])


def other_only(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where both texts keep the fact "only <prep>" one thing, with the
    same preposition, and each names a word there the other never writes: "used **only for
    air-sensitive samples**" / "used **only for samples under 50 milligrams**" (the 450th
    set). The request's new word must be a content word, not a unit or a number ("only for
    samples under fifty mg" rewords the stored limit); the stored text's a number."""
    mine, theirs = _bound(a.tokens), _bound(b.tokens)
    if not mine or not theirs:
        return None
    said_a, said_b = _said(a), _said(b)
    for prep, span in mine.items():
        other = theirs.get(prep)
        if other is None:
            continue
        if any(_new(w, said_b) and w.replace("-", "").isalpha() and not _unit(w)
               for w in span.split()) \
                and any(_new(w, said_a) and w[:1].isdigit() for w in other.split()):
            # a number only the stored limit has: "only for **cuts** under 4 cm" / "only
            # for **lacerations** shorter than 4 cm" names one limit in two words (391st)
            return f"only {prep} {span}", f"only {prep} {other}"
    return None


def _bound(toks: tuple[str, ...]) -> dict[str, str]:
    """Preposition → the words an "only <prep>" binds (up to four, up to a verb or "so")."""
    out: dict[str, str] = {}
    for i, t in enumerate(toks[:-2]):
        prep = toks[i + 1]
        if t != "only" or prep not in _ONLY_PREPS or (i and toks[i - 1] in ("not", "if")):
            continue
        span: list[str] = []
        for w in toks[i + 2:i + 2 + _AFTER]:
            if w in AUX or w in ("so", "to", "and", "or", "when", "if", "unless"):
                break
            span.append(w)
        if span:
            out.setdefault(prep, " ".join(span))
    return out


def _unit(word: str) -> bool:
    """A unit or a spoken number: another wording of the stored text's measure."""
    return word in UNIT_SYMBOLS or word in MEASURES or word in UNIT_DAYS or word in NUMBER_WORDS
