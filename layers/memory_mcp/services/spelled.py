"""Initials spelled out by the other text: "once the **DPO** has signed off" / "… the **data
protection officer** approves" (the 520th set), "sends it to the **EA**" / "… to the
**Environment Agency**", "German **FTO** searches" / "**freedom-to-operate** searches" (the
522nd-533rd sets' rewordings).

A team's notes shorten the names of their own trade as they please, and the lexicon's fixed
list (``lexicon.ABBREVIATIONS``) can only hold the shortenings of every trade. Here a pair of
texts is read together: a word in capitals that one text writes and the other does not is
read as the run of the other text's words whose first letters spell it, when there is
exactly one such run. Both texts then name the thing in the same words, and every rule reads
them as one fact. Initials the other text does not spell ("the **HSE**" / "the Environment
Agency") stay a name of their own; initials that happen to spell another thing of the same
letters ("the **EA**" / "the Energy Authority") are read as it, which a team writing both in
one space would have to spell out.
"""

from __future__ import annotations

import re

#: A word in capitals, of two to six letters, with a plural "s" allowed: "DPO", "CPOs", and
#: before a word it qualifies ("**WNV**-positive"). Not a code's prefix ("job numbers starting
#: **SR-**", "account **LS**-044") nor a unit after a number ("20 **MB**").
_CAPITALS = re.compile(r"(?<![-\w])(?<!\d )([A-Z]{2,6})(s?)(?!\w)(?!-(?![a-z]))")
#: Roman numerals: "Mark **III**" / "Mark II" is another model, not initials.
_ROMAN = re.compile(r"[IVX]+")
#: A capital word and a word after it: the start of a name.
_NAMED = re.compile(r" ([A-Z][\w'-]*)( [A-Z])?")
#: A word of the other text, its hyphenated parts read as words ("freedom-to-operate").
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
#: Small words an acronym may skip ("Royal Borough **of** Kensington **and** Chelsea") or
#: spell ("freedom-**to**-operate"): read both ways.
_SMALL = frozenset(["of", "and", "the", "for", "to", "on", "in", "&"])


def spelled_out(request: str, stored: str) -> tuple[str, str]:
    """The two texts, each capitals word the other spells out replaced by those words."""
    return _expand(request, stored), _expand(stored, request)


def _expand(text: str, other: str) -> str:
    """``text`` with each capitals word that ``other`` does not write, and spells out in
    exactly one run of words, replaced by that run."""
    lowered = other.lower()
    found = list(_WORD.finditer(other))
    words = [m.group(0) for m in found]

    def swap(m: re.Match[str]) -> str:
        letters = m.group(1).lower()
        if _ROMAN.fullmatch(m.group(1)) or _in_name(text, m.end()):
            return m.group(0)
        if re.search(rf"\b{letters}s?\b", lowered):
            return m.group(0)  # both texts write it
        runs = {other[found[k].start():found[k + n - 1].end()]
                for k, n in _runs(words, letters)}  # as the other writes it: "freedom-to-operate"
        if len(runs) != 1:
            return m.group(0)
        run = runs.pop()
        return run + m.group(2) if not run.endswith("s") else run  # "LSTs": "… techs"

    return _CAPITALS.sub(swap, text)


def _runs(words: list[str], letters: str) -> list[tuple[int, int]]:
    """(where, how many words) for every run of ``words`` whose first letters spell
    ``letters``, small words skipped or spelled, opening on a word that is not small and at
    least two words long."""
    out = []
    for start, first in enumerate(words):
        if first.lower() in _SMALL or first[0].lower() != letters[0]:
            continue
        run = _spell(words, start, letters)
        if run is not None and len(run) >= 2:
            out.append((start, len(run)))
    return out


def _spell(words: list[str], k: int, letters: str) -> list[str] | None:
    """The words from ``k`` that spell ``letters`` (each small word either spells its letter or
    is skipped), or None."""
    if not letters:
        return []
    if k >= len(words):
        return None
    word = words[k]
    small = word.lower() in _SMALL
    if word[0].lower() == letters[0]:
        rest = _spell(words, k + 1, letters[1:])
        if rest is not None and (not small or letters[1:]):
            return [word, *rest]
    if small:
        rest = _spell(words, k + 1, letters)
        if rest is not None and rest:
            return [word, *rest]
    return None


def _in_name(text: str, end: int) -> bool:
    """Whether the initials ending at ``end`` open a product's name: one capital word after
    them ("**TT** Leagues" / "Table Tennis 365", the 120th set), not a title before a person's
    two names ("**DS** Aoife Brennan", "**NP** Fatima Al-Sayed")."""
    after = _NAMED.match(text, end)
    return after is not None and after.group(2) is None
