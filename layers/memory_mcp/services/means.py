"""By what means: "the treasurer sends the raffle proceeds to the Trust **by cheque**" / "… the
treasurer sends the proceeds **by bank transfer** within 14 days", "the fee is paid **by bank
transfer**" / "… paid **via the Eventbrite page**", "taken **with the floating thermometer**" /
"taken **with the digital probe**" (the two-hundred-and-twenty-fifth and -sixth sets).

The one-word rule reads a swapped tool only where the rest of the two texts lines up; a stored
fact with a clause more, or a request with a detail more, hides it. Here the means is read
after the verb both texts use, wherever it stands: two means that share no word, neither said
in the other text, are two facts.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, SLOT_TOKENS, graded, verb_s
from memory_mcp.services.lexicon import MONTHS, TIMES, UNIT_DAYS, WEEKDAYS
from memory_mcp.services.stems import content_word, stem
from memory_mcp.services.voice import participle

#: Words that open a means; "with" only before an article ("**with the** digital probe", not
#: "with frayed stitching") and after a participle or a verb after its subject ("taken with",
#: "Luc Bernard checks every batch with", not "Units with a TNC …").
_MEANS = frozenset(["by", "via", "through", "using", "with"])
#: A verb this many words before its means at most ("sends **the raffle proceeds to the Trust**
#: by cheque").
_REACH = 8
#: A bare means ("with white vinegar") this many words after its verb at most: the verb and
#: its object.
_BARE_REACH = 4
#: Words a bare means has at least: one word alone is as often a short form ("with **IPA**" /
#: "with isopropyl alcohol").
_BARE_WORDS = 2
#: Words after "by" that say when, not how ("by Friday", "by the end of the day").
_WHEN = frozenset([*TIMES, *UNIT_DAYS, *WEEKDAYS, *MONTHS, "end", "noon", "midnight", "close",
                   "then", "now", "hand"])


def other_means(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same verb takes means that share no word and neither
    text says the other's. Else None."""
    ma = _means(a.tokens)
    mb = _means(b.tokens) if ma else {}
    for verb in ma.keys() & mb.keys():
        mine, theirs = ma[verb], mb[verb]  # the verb's own stem is no means: "**gauged** …
        # with the Harlow track **gauge**" (the two-hundred-and-twenty-seventh set)
        if not _said(mine, b, verb) and not _said(theirs, a, verb):
            return " ".join(mine), " ".join(theirs)
    return other_method(a, b)


def other_method(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's compound, b's words) where one text writes how a thing is done as one hyphenated
    word and the other puts another word before the same verb: "every returned petticoat is
    **dry-cleaned**" / "… goes to Crestline Laundry for a **steam clean**" (the 277th set),
    "air-dried" / "tumble dried". Neither text says the other's first word. Else None."""
    if max(len(a.tokens), len(b.tokens)) > SLOT_TOKENS:
        return None  # a short fact's rule: each compound against every word of a long text
    for x, y, flip in ((a, b, False), (b, a, True)):
        for t in x.tokens:
            first, _, done = t.partition("-")
            if not (done.isalpha() and first.isalpha() and len(first) > _SHORT) \
                    or first in y.tokens or not content_word(first):
                continue
            if not participle(done):
                continue  # a way of doing: "dry-**cleaned**", not "full-**day**", "demo-**run**"
            for j in range(1, len(y.tokens)):
                w, m = y.tokens[j], y.tokens[j - 1]
                ends = j + 1 == len(y.tokens) or not content_word(y.tokens[j + 1])
                if stem(w) == stem(done) and m.isalpha() and content_word(m) and ends \
                        and not (m.startswith(first) or first.startswith(m)) \
                        and m not in x.tokens and m not in y.names and not participle(m):
                    # not "auto-rejected" / "automatically rejects", "truffle-scented" / "start
                    # scent work"
                    return (f"{m} {w}", t) if flip else (t, f"{m} {w}")
    return None


_SHORT = 2  # "re-glued", "co-signed": a prefix, not a way of doing it


def _said(words: tuple[str, ...], f: Facets, verb: str) -> bool:
    """Whether the text says any of the words but the verb, as a stem or as written
    ("Schärf-Fix")."""
    return bool(({stem(w) for w in words} - {verb}) & f.stems or set(words) & set(f.tokens))


@lru_cache(maxsize=1024)
def _means(toks: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Verb stem → the content words of the first means after it."""
    out: dict[str, tuple[str, ...]] = {}
    for i, t in enumerate(toks):
        if t not in _MEANS or i + 1 >= len(toks):
            continue
        k = i + 1
        bare = t == "with" and toks[k] not in DETERMINERS and not graded(toks[k])
        while k < len(toks) and (toks[k] in DETERMINERS or graded(toks[k])):
            k += 1  # "with **1200-grit** wet-and-dry paper" (the 272nd set)
        words: list[str] = []
        while k < len(toks) and len(words) < 3 and content_word(toks[k]) \
                and not toks[k][:1].isdigit():
            words.append(toks[k])
            k += 1
        if not words or any(w in _WHEN for w in words):
            continue
        at = _verb_before(toks, i)
        verb = toks[at] if at is not None else None
        if at is not None and verb is not None \
                and not (bare and (participle(verb) or i - at > _BARE_REACH
                                   or len(words) < _BARE_WORDS)):
            # "Lena **cleans the glass bowls with white vinegar**" (the 276th set): bare after
            # an active verb and its object only, not "returned with frayed stitching"
            out.setdefault(stem(verb), tuple(words))
    return out


def _verb_before(toks: tuple[str, ...], i: int) -> int | None:
    """Where the nearest verb before the means at ``i`` stands: a participle, or an -s word; before "with",
    an -s word only after its subject ("Luc Bernard **checks** every batch with …", not
    "**Units** with a TNC …")."""
    for j in range(i - 1, max(-1, i - _REACH - 1), -1):
        w = toks[j]
        if not content_word(w):
            continue
        if participle(w) or (verb_s(w) and (toks[i] != "with"
                                            or (j > 0 and content_word(toks[j - 1])))):
            return j
    return None
