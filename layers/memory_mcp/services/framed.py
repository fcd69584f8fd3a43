"""Another number in the same words: "have **at most 8 children per** instructor" / "with
**at most 6 children per** instructor" (the hundred-and-fifth set); another code with the same
opening: "PAS **015:1998**" / "PAS **015:2011**" (the hundred-and-eleventh).

The number rule compares the texts' sets of numbers, and a request that repeats every number
of the stored note ("ages 4-6 … at 4 pm") and adds one reads as saying more, not something
else. Where the added number stands in the very words around one of the stored note's own,
it replaces that number: the stored note still says the other.
"""

from __future__ import annotations

import re

from memory_mcp.services.facets import Facets
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: The words read before and after each number; both sides must be the same in both texts.
_BEFORE, _AFTER = 2, 2


def other_number(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where a number of ``a`` stands between the same two words
    before and two after as another number of ``b``, neither number is in the other text,
    and the words after name what is counted (a content word). Else None."""
    ta, tb = a.tokens, b.tokens
    frames = {(tb[j - _BEFORE:j], tb[j + 1:j + 1 + _AFTER]): tb[j]
              for j in range(_BEFORE, len(tb) - _AFTER) if _NUMBER.fullmatch(tb[j])}
    if not frames:
        return None
    for i in range(_BEFORE, len(ta) - _AFTER):
        if not _NUMBER.fullmatch(ta[i]):
            continue
        before, after = ta[i - _BEFORE:i], ta[i + 1:i + 1 + _AFTER]
        theirs = frames.get((before, after))
        if theirs is not None and theirs != ta[i] and ta[i] not in tb and theirs not in ta \
                and any(content_word(w) for w in after):
            phrase = " ".join(before), " ".join(after)
            return (f"{phrase[0]} {ta[i]} {phrase[1]}", f"{phrase[0]} {theirs} {phrase[1]}")
    return None


#: A code of parts joined by ":", "/" or "." with a digit in it: "015:1998", "BS/7671".
_CODE = re.compile(r"(?=.*\d)([a-z0-9]+(?:[:/.][a-z0-9]+)*)[:/.]([a-z0-9]+)")


def other_code(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's code, b's code) where each text has a code the other lacks, both the same up to
    their last ":", "/" or "." and different after it: another edition of one standard.
    Numbers and clock times ("2.5", "10:30") are the number rules'. Else None."""
    theirs = {m.group(1): t for t in b.tokens if t not in a.tokens and number(t) is None
              and (m := _CODE.fullmatch(t)) is not None}
    if not theirs:
        return None
    for t in a.tokens:
        m = _CODE.fullmatch(t)
        if m is not None and t not in b.tokens and m.group(1) in theirs and number(t) is None:
            return t, theirs[m.group(1)]
    return None
