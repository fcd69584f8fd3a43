"""How often, by the clock or by the work: "cleaned down **once a day**" / "cleaned down
**between every lot**" (the 413th set).

One text paces a task by a period ("once a day", "weekly"), the other by an event of the work
("between every lot", "after each batch"); the period rules compare two periods and see one.
A task done after each lot is done as often as there are lots, not daily: another rule.
"""

from __future__ import annotations

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import UNIT_DAYS, WEEKDAYS
from memory_mcp.services.periods import PERIOD_ADVERBS
from memory_mcp.services.stems import content_word, singular_weekday, stem

_PACE = frozenset(["between", "after", "before"])
_EACH = frozenset(["every", "each"])


def by_period_or_event(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where one text says a period and no event, and the other an event
    the first never names ("between every lot") and no period. Else None."""
    for x, y, flip in ((a, b, False), (b, a, True)):
        event = _event(y)
        period = _period(x)
        if event is not None and period is not None and _period(y) is None \
                and stem(event.split()[-1]) not in x.stems and _event(x) is None:
            found = period, event
            return (found[1], found[0]) if flip else found
    return None


def _event(f: Facets) -> str | None:
    """"between every lot", "after each batch": the first event a task is paced by."""
    toks = f.tokens
    for i in range(len(toks) - 2):
        if toks[i] in _PACE and toks[i + 1] in _EACH:
            noun = toks[i + 2]
            if content_word(noun) and noun.isalpha() and noun not in UNIT_DAYS \
                    and singular_weekday(noun) not in WEEKDAYS:
                return " ".join(toks[i:i + 3])
    return None


def _period(f: Facets) -> str | None:
    """The words of ``f`` that say how often by the clock ("once a day", "every week",
    "daily"); None when it says none ("taking about 20 minutes" is how long, not how often)."""
    toks = f.tokens
    for i, t in enumerate(toks):
        if t in PERIOD_ADVERBS or (t in UNIT_DAYS and i and toks[i - 1] in _PER and (
                toks[i - 1] not in ("a", "an") or toks[i - 2:i - 1] in _TIMES)):
            return " ".join(toks[max(0, i - 2):i + 1])
    return None


_PER = frozenset(["a", "an", "per", "every", "each"])
#: Before "a day": how often ("**once** a day"), not how long ("three-quarters of **an hour**").
_TIMES = frozenset([("once",), ("twice",), ("thrice",), ("times",)])
