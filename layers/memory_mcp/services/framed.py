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
from itertools import pairwise

from memory_mcp.services.facets import Facets
from memory_mcp.services.lexicon import COMPACT_UNITS, STOP_WORDS, UNIT_DAYS
from memory_mcp.services.numerals import number
from memory_mcp.services.stems import content_word
from memory_mcp.services.values import show_number

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: A number as framed rules read it: an ordinal's digits too ("the **2nd** edition of the
#: survey protocol" / "the **3rd** edition of …", the 391st set, where "the second week" puts a
#: 2 in both texts for the value rules).
_FRAMED = re.compile(r"\d+(?:\.\d+)?|\d+(?:st|nd|rd|th)")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
#: The words read before and after each number; both sides must be the same in both texts.
_BEFORE, _AFTER = 2, 2


def other_number(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where a number of ``a`` stands between the same two words
    before and two after as another number of ``b``, ``a``'s number is not in ``b`` and
    ``b``'s is fewer times in ``a``, and the words after name what is counted (a content
    word). Else None."""
    ta, tb = a.tokens, b.tokens
    frames = {(tb[j - _BEFORE:j], tb[j + 1:j + 1 + _AFTER]): tb[j]
              for j in range(_BEFORE, len(tb) - _AFTER) if _FRAMED.fullmatch(tb[j])}
    if not frames:
        return None
    for i in range(_BEFORE, len(ta) - _AFTER):
        if not _FRAMED.fullmatch(ta[i]):
            continue
        before, after = ta[i - _BEFORE:i], ta[i + 1:i + 1 + _AFTER]
        theirs = frames.get((before, after))
        if theirs is not None \
                and (_ORDINAL.fullmatch(theirs) is None) != (_ORDINAL.fullmatch(ta[i]) is None):
            continue  # "by **20th** November" / "by **20** November": one date
        if theirs is not None and theirs != ta[i] and ta[i] not in tb \
                and ta.count(theirs) < tb.count(theirs) \
                and any(content_word(w) for w in after):  # "a tray of **eight**, … £3.80
            # for six" / "a tray of **six**, … £3.80 for six": one six fewer (the 339th set)
            phrase = " ".join(before), " ".join(after)
            return (f"{phrase[0]} {ta[i]} {phrase[1]}", f"{phrase[0]} {theirs} {phrase[1]}")
    return _counted_after(ta, tb)


def _counted_after(ta: tuple[str, ...], tb: tuple[str, ...]) -> tuple[str, str] | None:
    """The same with one word after, which may end the text, where the other text counts that
    word with no other number: "we need **6 volunteers** for the stall" / "stall on 6 December
    … and we need **4 volunteers**" (the 198th set; the stored 6 is a date's)."""
    counted = {(tb[j - _BEFORE:j], tb[j + 1]): tb[j] for j in range(_BEFORE, len(tb) - 1)
               if _NUMBER.fullmatch(tb[j]) and content_word(tb[j + 1])}
    for i in range(_BEFORE, len(ta) - 1):
        theirs = counted.get((ta[i - _BEFORE:i], ta[i + 1]))
        if theirs is not None and _NUMBER.fullmatch(ta[i]) and theirs != ta[i] \
                and theirs not in ta and (ta[i], ta[i + 1]) not in pairwise(tb):
            words = " ".join(ta[i - _BEFORE:i])
            return f"{words} {ta[i]} {ta[i + 1]}", f"{words} {theirs} {ta[i + 1]}"
    values_a, values_b = [number(t) for t in ta], [number(t) for t in tb]
    ended = {tb[j - _LEAD:j]: values_b[j] for j in range(_LEAD, len(tb))
             if values_b[j] is not None and (j + 1 == len(tb) or not content_word(tb[j + 1]))}
    for i in range(_LEAD, len(ta)):  # "for **a tray of eight**, while …" / "… a tray of
        # six, while …" (the 339th set): three words before a number that ends its phrase
        their_value, mine = ended.get(ta[i - _LEAD:i]), values_a[i]
        if their_value is not None and mine is not None and their_value != mine \
                and mine not in values_b \
                and values_a.count(their_value) < values_b.count(their_value) \
                and ta[i - 1] == "of" and content_word(ta[i - 2]):  # a count of things ("a
            # tray of"), not a clock ("opens at 7" / "… at 19:00")
            words = " ".join(ta[i - _LEAD:i])
            return f"{words} {ta[i]}", f"{words} {show_number(their_value)}"
    return None


_LEAD = 3


#: A code of parts joined by ":", "/" or "." with a digit in it: "015:1998", "BS/7671".
_CODE = re.compile(r"(?=.*\d)([a-z0-9]+(?:[:/.][a-z0-9]+)*)[:/.]([a-z0-9]+)")


def other_code(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's code, b's code) where each text has a code the other lacks, both the same up to
    their last ":", "/" or "." and different after it: another edition of one standard.
    Numbers and clock times ("2.5", "10:30") are the number rules'. Else None."""
    theirs = {m.group(1): t for t in b.tokens if t not in a.tokens and (m := _code(t))}
    if not theirs:
        return _lettered(a.tokens, b.tokens)
    for t in a.tokens:
        m = _code(t)
        if m is not None and t not in b.tokens and m.group(1) in theirs:
            return t, theirs[m.group(1)]
    return None


def _lettered(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, str] | None:
    """A number with a letter after it, the letter another in each text: "rule **55(c)**" /
    "rule **55(b)**" (the 544th set; the tokens lost the brackets). Not "a", "i", "s" or "x",
    which are words or "times" as often as a clause's letter."""
    mine, theirs = _sub_letters(a), _sub_letters(b)
    for n, letter in sorted(mine - theirs):
        other = next((m for k, m in sorted(theirs - mine) if k == n), None)
        if other is not None:
            return f"{n}({letter})", f"{n}({other})"
    return None


def _sub_letters(toks: tuple[str, ...]) -> set[tuple[str, str]]:
    return {(n, t) for n, t in pairwise(toks)
            if n.isdigit() and len(t) == 1 and t.isalpha() and t not in "aisx"}


#: A part code's last letters after a hyphen: "2580-**C**" / "2580-**B**", "ZVA-200-**GR**".
_SUFFIXED = re.compile(r"(?=.*\d)([a-z0-9]+(?:-[a-z0-9]+)*)-([a-z]{1,2}|[a-z]*\d[a-z0-9]*)")


def _code(token: str) -> re.Match[str] | None:
    """``token`` as a code (``_CODE``, not a number or clock time), or as a part code with
    letters after its last hyphen and a letter in it (not a range "6-11" nor "4-hour")."""
    if number(token) is None and (m := _CODE.fullmatch(token)) is not None:
        return m
    m = _SUFFIXED.fullmatch(token)
    return m if m is not None and any(c.isalpha() for c in token) \
        and m.group(2) not in UNIT_DAYS and m.group(2) not in COMPACT_UNITS else None


def swapped_shares(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same numbers go "to" or "for" the same things the
    other way round: "split **60% to the firm and 40% to the adviser**" / "**60% to the
    adviser and 40% to the firm**" (the hundred-and-twenty-seventh set). Else None."""
    shares_a, shares_b = _shares(a.tokens), _shares(b.tokens)
    if len(shares_a) < 2 or shares_a.keys() != shares_b.keys():
        return None
    if shares_a != shares_b and set(shares_a.values()) == set(shares_b.values()):
        n = next(k for k in sorted(shares_a) if shares_a[k] != shares_b[k])
        return f"{n} to {shares_a[n]}", f"{n} to {shares_b[n]}"
    return None


def _shares(toks: tuple[str, ...]) -> dict[str, str]:
    """Each number's "to" / "for" thing: "60% to the **firm**" → {"60%": "firm"}."""
    out: dict[str, str] = {}
    for i in range(len(toks) - 2):
        if not _NUMBER.match(toks[i]) or toks[i + 1] not in ("to", "for"):
            continue
        j = i + 3 if toks[i + 2] in ("the", "a", "an", "our", "their", "each") else i + 2
        if j < len(toks) and content_word(toks[j]) and not toks[j][:1].isdigit():
            out.setdefault(toks[i], toks[j])
    return out


#: Roman numerals that follow a product's name as its edition: "PaintManager **XI**".
_ROMAN = frozenset("ii iii iv vi vii viii ix x xi xii xiii xiv xv".split())  # noqa: SIM905


def other_edition(a: Facets, b: Facets) -> tuple[str, str] | None:
    """(a's words, b's words) where the same name is followed by another Roman numeral:
    "the PPG PaintManager **X** database" / "… PaintManager **XI** database" (the hundred-and-
    twenty-fifth set). Else None."""
    theirs: dict[str, list[str]] = {}
    for p, n in _editions(b.tokens):
        if _roman(p, n) and p.isalpha():
            theirs.setdefault(p, []).append(n)
    for p, n in _editions(a.tokens):
        other = theirs.get(p, [])
        if _roman(p, n) and other and n not in other and p not in STOP_WORDS:
            # "Type I fluid …, and Type IV anti-icing" names both (the fifty-fifth set)
            return f"{p} {n}", f"{p} {other[0]}"
    return _one_marked(a.tokens, b.tokens) or _flip(_one_marked(b.tokens, a.tokens))


def _one_marked(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, str] | None:
    """(a's words, b's) where ``a`` gives a name a mark ("Mk II", "Mark 2") and ``b`` names it
    with no mark anywhere: "the Canon EOS R5 **Mark II** rig" / "the Canon EOS R5 rig" (the
    476th set). A mark the other text puts elsewhere ("the **Mk II** Talus MB-H") is the same
    model reworded."""
    if "mk" in b or "mark" in b:
        return None
    for i in range(1, len(a) - 2):
        name, mark, n = a[i - 1], a[i], a[i + 1]
        if mark in ("mk", "mark") and (n in _ROMAN or n.isdigit()) and not name.isalpha() \
                and name in b:
            j = b.index(name)
            if b[j + 1:j + 2] not in (("mk",), ("mark",)):
                return f"{name} {mark} {n}", name
    return None


def _flip(pair: tuple[str, str] | None) -> tuple[str, str] | None:
    return (pair[1], pair[0]) if pair is not None else None


def _editions(toks: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each pair of words, and each mark written as one word split in two: "Tascam 122
    **MkII**" / "… **MkIII**" (the two-hundred-and-fifty-sixth set)."""
    glued = [(t[:len(p)], t[len(p):]) for t in toks for p in _MARKS
             if t.startswith(p) and t[len(p):] in _ROMAN]
    return [*pairwise(toks), *glued]


def _roman(before: str, n: str) -> bool:
    """Whether ``n`` is an edition's Roman numeral after ``before``: "I" and "V" only after a
    mark ("Minolta MS7000 **Mk I**" / "… **Mk II**", the two-hundred-and-sixty-ninth set), as
    elsewhere they are a pronoun or a letter."""
    return n in _ROMAN or (n in ("i", "v") and before in _MARKS)


#: Words that a Roman numeral follows written as one with them ("mkii").
_MARKS = ("mk", "mark", "gen", "series", "type")
