"""Who acts on whom, said in either voice: "belt 5 **is fed by** the sorter" against "belt 5
**feeds** the sorter". A passive with its doer after "by" and an active verb with its object
after it hold the same words; only the voice says which thing acts.

Split from ``direction`` (which reads where things go) so that each module keeps to one
question; ``PASSIVE_AUX`` and ``participle`` are the pieces many rules share to find a
passive.
"""

from __future__ import annotations

import bisect

from memory_mcp.services.direction import REACH
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import PREPOSITIONS
from memory_mcp.services.stems import PARTICIPLES, content_word, stem, verb_stem

#: Words before a participle that make it passive ("is fed", "gets thrown").
PASSIVE_AUX = frozenset("is are was were be been being get gets got".split())  # noqa: SIM905


def participle(word: str) -> bool:
    """"fed", "approved", "driven": not "due", "close" or "payable" before a "by"."""
    return word in PARTICIPLES or word.endswith(("ed", "en"))


def _nominal(word: str, before: str) -> bool:
    """A noun made of the verb: "expense **approval**", "site **inspections**", "contract
    **signing**" say who acts with a "by" of their own, not with an object."""
    return word.endswith(_NOUN_ENDINGS) or (word.endswith("ing") and content_word(before))


_NOUN_ENDINGS = ("al", "als", "tion", "tions", "sion", "sions", "ment", "ments", "ance", "ence",
                 "er", "ers", "or", "ors", "ew", "ews")


def turned_voice(a: Facets, b: Facets) -> tuple[str, str] | None:
    """One text passive, the other active, with the things in the same order: "belt 5 **is fed
    by** the sorter" / "belt 5 **feeds** the sorter" swap who acts on whom, where a rewording
    turns the order round too ("invoices are approved by Alice" / "Alice approves
    invoices"). The active verb's object must follow it within a few words, with no
    preposition between ("approval **from** Tomasz" says the passive's "by").

    Linear in the texts: the other text's verbs and the first and last place of each stem are
    read once, and for each passive only the active form nearest before its doer is asked."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        toks, yt = x.tokens, y.tokens
        passives = {(toks[i + 1], i) for i in range(1, len(toks) - 2)
                    if toks[i] in PASSIVE_AUX and toks[i + 2] == "by"
                    and participle(toks[i + 1])}
        if not passives:
            continue
        active: dict[str, list[int]] = {}
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        for j, w in enumerate(yt):
            st = stem(w)
            first.setdefault(st, j)
            last[st] = j
            if not (j and yt[j - 1] in PASSIVE_AUX) and yt[j + 1:j + 2] != ("by",) \
                    and not _nominal(w, yt[j - 1] if j else ""):
                active.setdefault(verb_stem(w), []).append(j)
        asked: set[tuple[str, str, str]] = set()
        for verb, i in sorted(passives, key=lambda p: p[1]):
            doer = next((stem(t) for t in toks[i + 3:i + 3 + REACH] if content_word(t)), None)
            done = next((stem(t) for t in reversed(toks[max(0, i - REACH):i])
                         if content_word(t)), None)
            key = (verb_stem(verb), str(done), str(doer))
            if doer is None or done is None or done == doer or key in asked:
                continue
            asked.add(key)
            at, places = first.get(doer, -1), active.get(key[0], [])
            k = bisect.bisect_left(places, at) - 1  # the active form nearest before the doer
            if k < 0:
                continue
            j = places[k]
            if last.get(done, len(yt)) < j and at - j <= REACH \
                    and not any(t in PREPOSITIONS for t in yt[j + 1:at]):
                found = (" ".join(toks[i:i + 3]), yt[j])
                return (found[1], found[0]) if flip else found
    return None
