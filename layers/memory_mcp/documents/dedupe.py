"""Repeated statements of a document, kept once: exact after normalising, or near (token-set
Jaccard >= 0.9) and saying the same thing by the agreement rules.

Apart from the splitter (``segment.py``) because both extractors use it (the offline splitter
and the LLM's facts, ``llm.py``), and it is the one place a statement may be left out: so it
only leaves out what another statement already says. "The database may not be restarted ..."
shares 14 of 15 words with "... may be restarted ..." and was merged into it; now two near
statements that differ in a number, negation, day, month, time, environment or name are both
kept (the facets the agreement rules compare, read from the differing words only).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from memory_mcp.services.lexicon import ENVIRONMENTS, MONTHS, NEGATIONS, STOP_WORDS, TIMES, WEEKDAYS
from memory_mcp.services.stems import singular_weekday

NEAR_DUPLICATE_JACCARD = 0.9
#: Most recent index entries per token compared against (bounds degenerate vocabularies).
_POSTINGS = 500


def dedupe(memories: Iterable[str]) -> list[str]:
    """First occurrences only (exact after normalising, or token-set Jaccard >= 0.9 and no
    differing in nothing that changes what they say (``_telling``): "may not be restarted" is
    not a duplicate of "may be restarted", nor a Friday meeting of a Monday one).

    Near-duplicate candidates come from a prefix-filter index (two sets with Jaccard >= t
    share a token among the first ``n - ceil(t * n) + 1`` of each, in one global order), so
    thousands of memories are not compared pairwise.
    """
    kept: list[str] = []
    seen: set[str] = set()
    token_sets: list[frozenset[str]] = []
    index: dict[str, list[int]] = {}
    for memory in memories:
        normal = key(memory)
        if not normal or normal in seen:
            continue
        tokens = frozenset(normal.split())
        ordered = sorted(tokens, key=lambda token: (-len(token), token))  # rarer (longer) first
        prefix = ordered[: len(ordered) - math.ceil(NEAR_DUPLICATE_JACCARD * len(ordered) - 1e-9) + 1]
        candidates = {i for token in prefix for i in index.get(token, ())[-_POSTINGS:]}
        if any(_near(tokens, token_sets[i]) and not _telling(tokens ^ token_sets[i], memory,
                                                             kept[i])
               for i in sorted(candidates)):
            continue  # the same statement again (not "may not" for "may", Friday for Monday)
        for token in prefix:
            index.setdefault(token, []).append(len(token_sets))
        seen.add(normal)
        token_sets.append(tokens)
        kept.append(memory.strip())
    return kept


def _near(a: frozenset[str], b: frozenset[str]) -> bool:
    small, large = sorted((len(a), len(b)))
    if small < NEAR_DUPLICATE_JACCARD * large:  # sizes alone rule it out: skip the set work
        return False
    common = len(a & b)
    return common >= NEAR_DUPLICATE_JACCARD * (small + large - common)


def _telling(differ: frozenset[str], a: str, b: str) -> bool:
    """Do the words two near-duplicates differ in change what they say? A number, a negation,
    a day, month, time or environment, or a name (a word capitalised in either text, not at
    its start). The agreement rules' facets, read from the few words that differ only: the
    full rules on every near pair cost ~0.5 ms each, and a table whose rows differ only in an
    id made that quadratic (200 rows: 9 s)."""
    for word in differ:
        if any(c.isdigit() for c in word) or word in NEGATIONS or word.endswith("n't") \
                or word in ENVIRONMENTS or word in MONTHS or word in TIMES \
                or singular_weekday(word) in WEEKDAYS:
            return True
        if word not in STOP_WORDS and _capitalised(word, a, b):
            return True
    return False


def _capitalised(word: str, *texts: str) -> bool:
    pattern = re.compile(rf"(?<=\w\W)\b{re.escape(word[:1].upper() + word[1:])}\b")
    return any(pattern.search(text) for text in texts)


def key(text: str) -> str:
    """Lower case, punctuation gone, whitespace collapsed: what "the same text" compares."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
