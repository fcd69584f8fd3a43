"""Answer-type compatibility: a question that asks *who*, *when*, *how many* or *where* prefers,
among search candidates of similar meaning, the memories that can answer it that way.

Embeddings rank by topic: "Who sets the roadmap for the phone app?" lands closer to "The mobile
app is written in Kotlin" than to "Mia is the product owner for the mobile app". The question's
first words say what kind of answer it wants, and a memory either offers one (a person or team,
a time or day, a number or duration, a place) or does not. That is read from the text with the
same ``facets`` the agreement rules use (names, numbers, clock times, durations, weekdays,
months), plus a few short word lists; no model call, nothing per space, and nothing
cosine-based, so it is the same for every embedding model.

A candidate that offers the type the question asks for, and is not weak, closes ``weight`` of its
gap to 1, the same bounded form as the lexical boost (``db/search.py``): its score stays in
[score, 1] and reads on the same scale. A question that asks for no type (what, which, why, how,
yes/no) is left exactly as fused. The weight is small on purpose: it decides between candidates
that are about equally close; and a weak candidate (below the model's floor) gets nothing, so an
unrelated memory is never made to look relevant and the "honest scores" stay as they were.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from memory_mcp.services.facets import facets
from memory_mcp.services.stems import stem

PERSON, TIME, QUANTITY, PLACE = "person", "time", "quantity", "place"

_LEAD = r"^\s*(?:(?:on|in|at|by|until|till|from|to|for|since|during)\s+)?"
#: What a question's first words ask for. Checked in order; the first match wins.
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(_LEAD + pattern + r"\b", re.IGNORECASE)) for kind, pattern in (
        (PERSON, r"(?:who|whom|whose)"),
        (TIME, r"(?:when|how often|how soon|what time|(?:what|which) (?:day|weekday|date|"
               r"month|year|time of (?:day|year)))"),
        (QUANTITY, r"(?:how (?:many|much|long|far|big|large|old|tall|high|fast))"),
        (PLACE, r"(?:where|(?:what|which) (?:city|country|town|place|office|region|building|"
                r"floor|room|channel|site))"),
    ))

#: Nouns for people and groups of people: what a *who* answer names when it names no one.
_PEOPLE = frozenset("""
person people someone everyone team group committee department staff member lead leader owner
manager champion engineer developer designer admin administrator maintainer chair head director
officer founder author reviewer approver contact expert specialist friend family mother mom
father dad parent sister brother son daughter kid child children husband wife partner colleague
coworker boss mentor neighbor neighbour teacher student
""".split())  # noqa: SIM905
#: Verbs whose subject is a person or team: "Kevin approves ...", "Erin manages ...".
_AGENT_VERBS = frozenset("""
approve own manage lead maintain decide handle supervise coordinate organise organize
""".split())  # noqa: SIM905
#: Auxiliaries after a sentence-initial name: "Ivan is ...", "Frank cannot ..." (a person or a
#: named thing, either can be the answer to *who*).
_AUXILIARIES = frozenset("""
is was has had will can cannot can't should must does did isn't wasn't doesn't prefers likes works
speaks
""".split())  # noqa: SIM905
#: Words that place something in time without a weekday, month or number.
_TIME_WORDS = frozenset("""
today tomorrow yesterday tonight night midnight noon morning evening afternoon weekend weekday
daily weekly monthly quarterly yearly annually hourly nightly minute minutes hour hours day days
week weeks month months year years quarter quarters holiday holidays deadline
""".split())  # noqa: SIM905
#: Nouns for places, physical or digital.
_PLACE_WORDS = frozenset("""
office floor room building city country region site campus street address home channel folder
directory repository repo bucket server drive wiki page portal location
""".split())  # noqa: SIM905
_PLACE_PREPOSITIONS = frozenset(("in", "at", "to", "from", "on", "into", "inside", "near"))
HEAD_CHARS = 400
_DATE = re.compile(r"\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|(?:19|20)\d{2})\b")


def expected(query: str) -> str | None:
    """The answer type a question asks for (``person``, ``time``, ``quantity``, ``place``), or
    None when its first words ask for none of them."""
    for kind, pattern in _ASKS:
        if pattern.match(query):
            return kind
    return None


def head(text: str) -> str:
    """The part of a memory that is read for its answer types: all of a short fact, the first
    ``HEAD_CHARS`` (to a word boundary) of a long one, so reading 40 candidates stays a few
    milliseconds whatever their length (a 1,000-character text costs ~1.5 ms to read)."""
    if len(text) <= HEAD_CHARS:
        return text
    cut = text[:HEAD_CHARS]
    return cut[: cut.rfind(" ")] if " " in cut else cut


@lru_cache(maxsize=8192)
def offers(text: str) -> frozenset[str]:
    """The answer types a memory's text can supply."""
    f = facets(text)
    words, stems = f.tokens, f.stems
    people, agents, places = _stemmed()
    out: set[str] = set()
    raw = re.findall(r"\S+", text)
    first_is_name = bool(raw) and raw[0][:1].isupper() and _bare(raw[0]) in f.names
    if stems & people or stems & agents or (
            first_is_name and len(raw) > 1 and raw[1].lower() in _AUXILIARIES):
        out.add(PERSON)
    clock = any(n < 0 for n in f.numbers)
    if f.weekdays or f.months or f.durations or clock or _DATE.search(text) \
            or any(w in _TIME_WORDS for w in words):
        out.add(TIME)
    if f.durations or any(n >= 0 for n in f.numbers):
        out.add(QUANTITY)
    if stems & places or any(
            w.lower() in _PLACE_PREPOSITIONS and _bare(nxt) in f.names and nxt[:1].isupper()
            for w, nxt in itertools.pairwise(raw)):
        out.add(PLACE)
    return frozenset(out)


@lru_cache(maxsize=1)
def _stemmed() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The word lists as stems, on first use (the stemmer loads lazily, ``stems.stem``)."""
    return (frozenset(map(stem, _PEOPLE)), frozenset(map(stem, _AGENT_VERBS)),
            frozenset(map(stem, _PLACE_WORDS)))


def _bare(token: str) -> str:
    return token.strip(".,;:!?()[]\"'").lower().removesuffix("'s").lstrip("#@")


def answer_type(rows: Iterable[dict[str, Any]], kind: str, weight: float, weak: float,
                limit: int) -> list[dict[str, Any]]:
    """``rows`` (fused candidates with ``score``) re-scored for answer-type compatibility, best
    first, at most ``limit``. ``kind`` is what the question asks for (``expected``, which the
    caller has already asked, to know whether to fetch every candidate). A row whose text offers
    that type, and whose score is at least ``weak`` (the model's floor,
    ``matching.Thresholds.weak``), gets ``score + weight * (1 - score)``; other rows are
    unchanged. So a type match reorders hits
    that are already relevant and never turns a weak hit into a relevant one: which hits are
    weak, and whether a search has a good match at all, is the same with or without it. A
    boosted row carries ``answer_type`` (the kind it fits), so a hit shows why its score is
    above its semantic/lexical mix."""
    out = list(rows)
    if weight > 0:
        for row in out:
            score = float(row["score"])
            if score >= weak and kind in offers(head(str(row["content"]))):
                row["score"] = score + weight * (1.0 - score)
                row["answer_type"] = kind  # shown with the hit: why its score is above the mix
    out.sort(key=lambda r: (-float(r["score"]), str(r["id"])))
    return out[:limit]
