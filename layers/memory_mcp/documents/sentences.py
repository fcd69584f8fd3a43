"""Prose into sentences, and sentences into pieces a memory can hold.

Split from ``segment`` (which cuts a document into blocks and units) because the sentence rules
are their own concern and carry most of the care for untrusted text: a sentence ends at
``.!?`` + whitespace + a capital, digit or opening quote, except after abbreviations ("e.g.",
"Dr.", initials) and German ordinal dates ("am 31. Dezember"); fragments under four words join
a neighbour; Chinese, Japanese and Korean count two characters a word.
"""

from __future__ import annotations

import re

from memory_mcp.services.lexicon import STOP_WORDS

MAX_MEMORY_CHARS = 500
MIN_WORDS = 4
MIN_STANDALONE_WORDS = 3

#: A trailing "." after these is no sentence end (not "etc"); "J.", "e.g.", "U.S." by shape.
_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "mx", "dr", "prof", "sr", "jr", "st", "mt", "vs", "cf", "al", "fig", "figs",
    "no", "nos", "vol", "vols", "pp", "ed", "eds", "approx", "est", "dept", "inc", "ltd", "co",
    "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "ca", "op", "pg", "sec", "ch", "art", "gen", "col", "capt", "lt", "sgt", "rev", "hon", "univ"})
#: Lone fragments that carry nothing on their own ("Thanks!", "Ok."); any other word keeps one.
_COURTESY = frozenset("""thanks thank you ok okay yes no hi hello hey regards best kind cheers
sincerely bye goodbye please welcome dear all everyone team note notes tbd n a na""".split())  # noqa: SIM905
# Every pattern here runs on untrusted text: none may backtrack quadratically (a match can
# only start at the beginning of a punctuation run; bracketed spans are bounded).
SENTENCE_END = re.compile(
    r"(?<![.!?\u2026])[.!?\u2026]+[\"'\u201d\u2019)\]]*\s+|[\u3002\uff01\uff1f]+")
_OPENERS = "\"'\u201c\u2018(["
_CLAUSE_BREAKS = ("; ", ", ", " \u2013 ", " \u2014 ", ": ", " ")


def sentences(text: str) -> list[str]:
    """Sentences, short fragments joined to a neighbour, lone fragments dropped."""
    pieces: list[str] = []
    start = 0
    for match in SENTENCE_END.finditer(text):
        end = match.end()
        following = text[end:end + 1]
        if match.group().strip()[0] in ".!?…" and following and not (
                following.isupper() or following.isdigit() or following in _OPENERS):
            continue
        if match.group().strip() == "." and (
                _is_abbreviation(text[max(start, match.start() - 40):match.start()])
                or _ordinal_date(text, match.start(), end)):
            continue
        pieces.append(text[start:end].strip())
        start = end
    pieces.append(text[start:].strip())
    merged: list[str] = []
    for piece in filter(None, pieces):
        short = bool(merged) and (word_count(piece) < MIN_WORDS
                                  or word_count(merged[-1]) < MIN_WORDS)
        if short and len(merged[-1]) + len(piece) < MAX_MEMORY_CHARS:
            merged[-1] += " " + piece
        else:
            merged.append(piece)
    return [m for m in merged if word_count(m) >= MIN_STANDALONE_WORDS or _informative(m)]


#: Capitalised month names that follow an ordinal day ("am 31. Dezember"); languages that
#: write months in lower case ("31. desember", "31 grudnia") never looked like a sentence end.
_MONTHS = frozenset("""januar jänner februar märz april mai juni juli august september oktober
november dezember""".split())  # noqa: SIM905
#: German words before an ordinal day ("am 31.", "bis zum 14.", "vom 3."): only then is "N."
#: before a month a date ("The team grew to 12. August was busy" stays two sentences).
_DAY_BEFORE = re.compile(r"(?:^|\s)(?:am|vom|zum|bis|ab|seit|den|dem|der|des|vor|nach|"
                         r"zwischen|und|oder|Am|Vom|Zum|Bis|Ab|Seit|Den|Dem|Der|Vor|Nach)\s+"
                         r"(?:[1-9]|[12]\d|3[01])$")


def _ordinal_date(text: str, dot: int, end: int) -> bool:
    """"31." after a German article or preposition and before a month name is a date, not a
    sentence end ("Die Inventur beginnt am 31. Dezember um acht Uhr.")."""
    following = re.match(r"\w+", text[end:end + 20])
    return (bool(_DAY_BEFORE.search(text[max(0, dot - 20):dot])) and following is not None
            and following.group().lower() in _MONTHS)


def _informative(fragment: str) -> bool:
    """A short fragment that says something ("Budget approved.", "Call Marta.", "WiFi:
    GuestNet"): kept as its own memory; only courtesy and filler ("Thanks!", "Ok.") is not."""
    return any(w not in STOP_WORDS and w not in _COURTESY
               for w in re.findall(r"\w+", fragment.lower()))


def _is_abbreviation(before: str) -> bool:
    token = before.rsplit(None, 1)[-1].lstrip("([\"'“").lower() if before.strip() else ""
    return (token in _ABBREVIATIONS or bool(re.fullmatch(r"(?:[a-z]\.)+[a-z]", token))
            or (len(token) == 1 and token.isalpha()))


#: Scripts written without spaces: about two characters a word.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def word_count(text: str) -> int:
    """Words, counting text in Chinese, Japanese or Korean script at two characters a word
    (whitespace alone made a paragraph of Chinese one "word", dropped as a fragment)."""
    return len(text.split()) + len(_UNSPACED.findall(text)) // 2


def split_long(text: str, limit: int) -> list[str]:
    """Pieces of at most ``limit`` chars, cut at a clause boundary, else a space."""
    parts: list[str] = []
    while len(text) > limit:
        found = ((text.rfind(sep, limit // 2, limit), sep) for sep in _CLAUSE_BREAKS)
        at, sep = next(((i, sep) for i, sep in found if i > 0), (limit, ""))
        cut = at + len(sep.rstrip())
        parts.append(text[:cut].strip())
        text = text[cut:].strip()
    return [*parts, text] if text else parts
