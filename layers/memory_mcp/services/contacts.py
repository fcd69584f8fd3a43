"""Who gets in touch with whom: "**traders** on the waiting list **email Owen**" / "market
manager **Owen** Thackeray allocates pitches and **emails traders** on the waiting list" (the
two-hundred-and-seventeenth set).

``crossed_pairs.swapped_ends`` reads the one word either side of a verb; a name of two words,
a subject with a phrase after it ("traders **on the waiting list**") or a second verb after
"and" puts other words there. Here each side is read as a group: before the verb, the words
of the subject (the sentence's first words when the verb follows "and"); after it, the words
up to a preposition. When one text's sender is the other's receiver and the other way round,
the message goes the other way.
"""

from __future__ import annotations

from functools import lru_cache

from memory_mcp.services.direction import BETWEEN
from memory_mcp.services.facets import Facets
from memory_mcp.services.grammar import DETERMINERS, PREPOSITIONS, verb_s
from memory_mcp.services.stems import content_word, stem, verb_stem
from memory_mcp.services.voice import PASSIVE_AUX, participle

#: Verbs of getting in touch, by stem: one end sends, the other is reached.
_CONTACT = frozenset(verb_stem(w) for w in """email text call phone ring message notify tell
inform contact radio invoice remind alert warn brief update""".split())  # noqa: SIM905
#: Words that close the subject a verb after "and" shares ("Owen allocates pitches **and**
#: emails …").
_OPENERS = frozenset("that when if once whenever while".split())  # noqa: SIM905


def turned_contact(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same verb of getting in touch has one text's sender as
    the other's receiver and its receiver as the other's sender. Else None."""
    ea = _contacts(a.tokens)
    eb = _contacts(b.tokens) if ea else {}
    for verb in ea.keys() & eb.keys():
        for sa, ra, wa in ea[verb]:
            for sb, rb, wb in eb[verb]:
                if sa & rb and ra & sb and not (sa & sb or ra & rb):
                    return wa, wb
    return None


@lru_cache(maxsize=1024)
def _contacts(toks: tuple[str, ...]
              ) -> dict[str, list[tuple[frozenset[str], frozenset[str], str]]]:
    """Verb stem → (sender stems, receiver stems, words) for each active verb of contact."""
    out: dict[str, list[tuple[frozenset[str], frozenset[str], str]]] = {}
    for i, w in enumerate(toks):
        verb = verb_stem(w)
        if verb not in _CONTACT or not i or toks[i - 1] in PASSIVE_AUX \
                or toks[i + 1:i + 2] == ("by",) or participle(w) or w.endswith("ing"):
            continue
        sender, receiver = _before(toks, i), _after(toks, i)
        if sender and receiver:
            out.setdefault(verb, []).append((sender, receiver, f"{' '.join(sorted(sender))} "
                                                               f"{w} {' '.join(sorted(receiver))}"))
    return out


def _before(toks: tuple[str, ...], i: int) -> frozenset[str]:
    """The content stems of the subject of the verb at ``i``: back to the clause's start, or,
    after "and", the words that open the sentence up to its first verb-like gap."""
    k = i - 1
    while k >= 0 and toks[k] in BETWEEN:
        k -= 1
    if k >= 0 and toks[k] == "and":
        k = _first_phrase_end(toks, k)
    words: list[str] = []
    while k >= 0 and toks[k] not in _OPENERS and toks[k] not in PASSIVE_AUX \
            and len(words) < 6:
        if content_word(toks[k]):
            words.append(stem(toks[k]))
        k -= 1
    return frozenset(words)


def _first_phrase_end(toks: tuple[str, ...], k: int) -> int:
    """The last word of the sentence's subject, before the "and" at ``k``: the words before its
    first -s verb ("market manager Owen Thackeray **allocates** pitches and …"); -1 if no such
    verb follows a content word."""
    for j in range(1, k):
        if not content_word(toks[j]) and toks[j] not in DETERMINERS:
            return -1
        if verb_s(toks[j]) and content_word(toks[j - 1]):
            return j - 1
    return -1


def _after(toks: tuple[str, ...], i: int) -> frozenset[str]:
    """The content stems of the phrase after the verb at ``i``, past determiners, up to a
    preposition (at most four words)."""
    words: list[str] = []
    for t in toks[i + 1:i + 6]:
        if t in PREPOSITIONS or (words and not content_word(t)):
            break
        if content_word(t):
            words.append(stem(t))
        if len(words) == 4:
            break
    return frozenset(words)
