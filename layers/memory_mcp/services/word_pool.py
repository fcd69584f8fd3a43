"""Does a word match any word of another text? The index the agreement rules ask it through.

Apart from ``agreement.py`` because it is a data structure with its own cost story: comparing
two long texts word by word was quadratic, and the index (with its caches, sized so one writer's
long texts cannot fill memory) is what keeps a save of a long text cheap.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.stems import content_word, stem


def same_word(a: str, b: str, ratio: float) -> bool:
    """Equal, the same stem, or one a prefix making up most of the other (Postgres/PostgreSQL).

    The rules ask it through ``Pool.has`` (indexed); this plain form is its definition, which
    ``tests/test_agreement_pool.py`` checks the pool against."""
    if a == b or stem(a) == stem(b):
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 3 and long_.startswith(short) and len(short) >= ratio * len(long_)


_SCAN = 64


@dataclass(frozen=True)
class Pool:
    """The words of the other text, indexed so that "does ``x`` match any of them"
    (``same_word``) costs a few set lookups and one sorted-range scan instead of a comparison
    with every word: comparing two long texts word by word was quadratic (46 s for two 10,000-
    character texts), and any writer could make a save pay that."""

    words: frozenset[str]
    stems: frozenset[str]
    ordered: tuple[str, ...]
    lengths: frozenset[int]  # of the words: only prefixes of these lengths can be one

    def has(self, x: str, ratio: float) -> bool:
        if x in self.words or stem(x) in self.stems:
            return True
        # x the shorter one: words starting with x, x making up at least `ratio` of them
        if len(x) >= 3:  # at most _SCAN of them: past that, "no match" (the side that refuses)
            i = bisect.bisect_right(self.ordered, x)
            for w in self.ordered[i : i + _SCAN]:
                if not w.startswith(x):
                    break
                if len(x) >= ratio * len(w):
                    return True
        # x the longer one: a prefix of x (3+ characters, at least `ratio` of x) is a word; only
        # the lengths the pool has are tried (a 100,000-character "word" hashed all its
        # prefixes: a second per comparison)
        low = max(3, math.ceil(ratio * len(x)))
        return any(x[:k] in self.words for k in self.lengths if low <= k < len(x))


def pool(words: frozenset[str]) -> Pool:
    """Cached, a long text's pool apart (as ``facets``: a few entries of up to megabytes)."""
    return (_short_pool if len(words) <= _LONG_POOL else _long_pool)(words)


def _new_pool(words: frozenset[str]) -> Pool:
    return Pool(words, frozenset(stem(w) for w in words), tuple(sorted(words)),
                 frozenset(len(w) for w in words))


_LONG_POOL = 150  # distinct words: about what a text of facets.CACHED_CHARS holds
_short_pool = lru_cache(maxsize=1024)(_new_pool)
_long_pool = lru_cache(maxsize=16)(_new_pool)


def parts_pool(f: Facets) -> Pool:
    """A text's words, the parts of its hyphenated ones ("on-call": on-call, on, call), the
    hyphenated ones written together ("wi-fi": wifi) and its ``short_forms``."""
    return pool(_parts(f.tokens))


@lru_cache(maxsize=16)  # as the long pools: a few texts of up to megabytes
def _parts(tokens: tuple[str, ...]) -> frozenset[str]:
    """Cached by the tokens (a tuple hashes in C): the rules ask for one text's pool several
    times a comparison, and a long text's set took a tenth of a second to build."""
    joined = {x + y for x, y in pairwise(tokens) if x.isalpha() and y.isalpha()}  # "clean
    # room" for "cleanroom", "help desk" for "helpdesk"
    return frozenset(p for t in tokens for p in (t, *re.split(r"[\-/]", t), t.replace("-", ""))
                     ) | short_forms(tokens) | joined


@lru_cache(maxsize=16)  # as ``_parts``: a long text's tuple is megabytes
def short_forms(tokens: tuple[str, ...]) -> frozenset[str]:
    """The initials of three or four words in a row ("advance reader copies": arc): what
    another text may write for them, also with a small word kept in the middle ("pilot in
    command": pic), and the two parts of a hyphenated word ("quality-control": qc). Two
    separate words' initials, or a letter and a number ("T2" for "terminal 2"), are not read:
    they match too much by chance ("tower 2", "track 2", "server 3" / "S3")."""
    ok = [t.isalpha() and content_word(t) for t in tokens]  # each word read once
    out: set[str] = set()
    for i in range(len(tokens)):
        for n in (3, 4):
            if i + n <= len(tokens) and all(ok[i:i + n]):
                out.add("".join(w[0] for w in tokens[i:i + n]))
        if i + 3 <= len(tokens) and ok[i] and ok[i + 2] and tokens[i + 1] in _JOINING:
            out.add(tokens[i][0] + tokens[i + 1][0] + tokens[i + 2][0])  # "pilot in command"
        parts = tokens[i].split("-")
        if len(parts) == 2 and all(len(p) >= 3 and p.isalpha() and content_word(p)
                                   for p in parts):
            out.add(parts[0][0] + parts[1][0])  # "quality-control": qc
    return frozenset(out)


#: Small words whose initial an acronym keeps ("pilot **in** command": PIC, "point **of**
#: sale": POS).
_JOINING = frozenset(["in", "of", "on", "at", "for", "and", "to"])
