"""Repeated statements of a document, kept once: exact after normalising, or near (token-set
Jaccard >= 0.9) and saying the same thing by the agreement rules.

Apart from the splitter (``segment.py``) because both extractors use it (the offline splitter
and the LLM's facts, ``llm.py``), and it is the one place a statement may be left out: so it
only leaves out what another statement already says. "The database may not be restarted ..."
shares 14 of 15 words with "... may be restarted ..." and was merged into it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from memory_mcp.services.agreement import conflicts

NEAR_DUPLICATE_JACCARD = 0.9
#: Most recent index entries per token compared against (bounds degenerate vocabularies).
_POSTINGS = 500


def dedupe(memories: Iterable[str]) -> list[str]:
    """First occurrences only (exact after normalising, or token-set Jaccard >= 0.9 and no
    conflict by the agreement rules: "may not be restarted" is not a duplicate of "may be
    restarted", nor a Friday meeting of a Monday one).

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
        if any(_near(tokens, token_sets[i]) and not conflicts(memory, kept[i])
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


def key(text: str) -> str:
    """Lower case, punctuation gone, whitespace collapsed: what "the same text" compares."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
