"""Deterministic, offline text → memories: the extractor used when no LLM is configured.

Text is cut into blocks (blank lines; ``\\f`` PDF page breaks), blocks into units (prose, list
items, records), prose into sentences, so each memory is one readable, self-contained
statement and a document never floods a space with noise. The rules:

* Dropped lines: page numbers ("12", "Page 3 of 10", "- 4 -", "iv"), table-of-contents dot
  leaders, copyright notices (short, the mark or "all rights reserved" at an end; not a
  clause about copyright, nor a "(c)" item after "(a)"/"(b)"), lines that are only a URL, an
  image, punctuation or a code fence, and running headers/footers (a line that is not a
  sentence, at the top or bottom of at least half of 3+ pages, the same but for at most two
  numbers and at most twice a page; removed only there, at a page's edges).
* Headings (Markdown ``#``, or a short Title Case line between sentences) are context, not
  memories: sentences under one become ``"Heading: sentence"`` unless they mention it. A
  heading before any body text is the document's title and is not repeated.
* Records (``key: value; ...`` lines: CSV rows and tables) are one memory each, never split.
* Sentences end at ``.!?`` + whitespace + a capital, digit or opening quote, except after
  abbreviations ("e.g.", "Dr.", initials); decimals and URLs have no space after their dots.
  Fragments under 4 words join a neighbour; a lone one under 3 words is dropped only if it
  is courtesy or filler ("Thanks!", "Ok."): "Budget approved." stays. Chinese, Japanese and
  Korean count two characters a word. Sentences over 500 characters are split at clause
  boundaries ("; ", ", ", dashes), then spaces.
* Near-duplicates (equal after normalising case/punctuation/whitespace, or token-set
  Jaccard >= 0.9 with no agreement-rule conflict: "may not" is not "may") keep their first
  occurrence; over the cap, passages (``coverage.fit``). Nothing else is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from memory_mcp.documents.coverage import MAX_PASSAGE_CHARS, fit
from memory_mcp.documents.dedupe import dedupe
from memory_mcp.documents.dedupe import key as _key
from memory_mcp.documents.running_lines import without_running_lines
from memory_mcp.documents.sentences import (
    MAX_MEMORY_CHARS,
    MIN_WORDS,
    SENTENCE_END,
    sentences,
    split_long,
    word_count,
)

MAX_RECORD_CHARS = 2_000
MAX_HEADING_WORDS = 8

_CHARS = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi",
                        "\ufb04": "ffl", "\u00a0": " ", "\u00ad": "", "\t": " ", "\r": "\n"})
_BOILERPLATE = re.compile(
    r"^(?:(?:page|p\.|pg\.?)\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$"  # 12, Page 3 of 10, 3/10
    r"|^[-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]$|^[ivxlc]{1,6}$"  # - 4 -, roman numbers
    r"|^<?(?:https?://|www\.)\S+>?$|^!\[[^\]]*\]\([^)]*\)$|^(?:```|~~~)",
    re.IGNORECASE,
)
#: A copyright notice ("© 2024 Acme", "Copyright 2024 Example Corp.", "(c) Example Corp",
#: "Acme Inc. All rights reserved."): short, and the mark or the phrase at its start or end.
#: Not a clause that mentions copyright ("Copyright in all drawings transfers to the buyer")
#: nor a list item "(c)" among "(a)", "(b)".
_NOTICE = re.compile(r"^(?:©|\(c\)|copyright\b)|^all rights reserved|all rights reserved\.?$",
                     re.IGNORECASE)
#: ... and it names a year, the mark or the reservation ("Copyright in all drawings transfers
#: to the buyer." has none of them: a clause).
_NOTICE_SIGN = re.compile(r"©|\(c\)|\b(?:19|20)\d\d\b|all rights reserved", re.IGNORECASE)
_NOTICE_WORDS = 8
_BULLET = re.compile(r"^(?:[-*+•▪‣◦●]|\(?\d{1,3}[.)]|[a-z][.)])\s+")
_ATX = re.compile(r"^(#{1,6})\s")
_KEY_VALUE = re.compile(r"^[^\s:;|.!?][^:;|.!?]{0,59}: \S")
_SECOND_PAIR = re.compile(r"; [^:;|.!?]{1,60}: \S")
_LINK = re.compile(r"!?\[([^\]\n]{0,300})\]\([^)\s]{0,500}\)")
#: Table-of-contents leaders, checked at the end of a line once trailing page numbers are gone.
_LEADERS = ("....", ". . .", "\u2026\u2026", "____")


@dataclass
class _Unit:
    text: str
    heading: str | None
    record: bool = False


def split_memories(text: str, max_memories: int) -> list[str]:
    """At most ``max_memories`` memories of ``text`` in order, grouped (``fit``), never cut."""
    return fit(statements(text), max_memories, MAX_PASSAGE_CHARS).memories


def statements(text: str) -> list[str]:
    """Every self-contained statement of ``text`` (near-duplicates dropped), in document order."""
    return dedupe(_candidates(text))


def _candidates(text: str) -> Iterator[str]:
    for unit in _units(text):
        if unit.record:
            yield from split_long(unit.text, MAX_RECORD_CHARS)
            continue
        for sentence in sentences(unit.text):
            for part in split_long(sentence, MAX_MEMORY_CHARS):
                context = unit.heading and _key(unit.heading) not in _key(part)
                yield f"{unit.heading}: {part}" if context else part


def summarize(title: str, text: str, max_chars: int = 600) -> str:
    """An extractive lead summary: the first meaningful sentences, up to ``max_chars``."""
    title_key = _key(title)
    picked: list[str] = []
    for unit in _units(text):
        pieces = [unit.text] if unit.record else sentences(unit.text)
        for piece in pieces:
            if _key(piece) == title_key:
                continue
            if piece[-1] not in ".!?\u2026":  # records, list items, headings-less lines
                piece += "."
            if sum(map(len, picked)) + len(picked) + len(piece) > max_chars:
                if not picked:  # one overlong sentence: its beginning, cut at a word
                    cut = piece[: max_chars - 1]
                    space = cut.rfind(" ")
                    picked.append((cut[:space] if space > max_chars // 2 else cut) + "\u2026")
                return " ".join(picked)
            picked.append(piece)
    return " ".join(picked)


def _units(text: str) -> Iterator[_Unit]:
    """Blocks → units, boilerplate gone, each unit tagged with its section heading."""
    text = re.sub(r"([a-z])-\n([a-z])", r"\1\2", text.translate(_CHARS))  # de-hyphenate
    pages = without_running_lines(text.split("\f"))
    lettered = bool(re.search(r"(?m)^[ \t]*\((?:a|b)\)\s", text, re.IGNORECASE))
    heading: str | None = None
    body_seen = False
    for block in (b for page in pages for b in re.split(r"\n\s*\n", page)):
        raw_lines = [raw.strip() for raw in block.split("\n")]
        lines = [ln for ln in raw_lines if ln
                 and re.search(r"\w", ln) and not _BOILERPLATE.search(ln)
                 and not _is_notice(ln, lettered)
                 and not ln.rstrip("0123456789 ").endswith(_LEADERS)]
        if lines and lines[0].startswith("|"):
            lines = _table_records(lines)
        if len(lines) >= 2 and all(_KEY_VALUE.match(ln) for ln in lines):
            body_seen = True
            yield from (_Unit(ln, heading, record=True) for ln in lines)
            continue
        units: list[tuple[list[str], str | None, bool]] = []  # (text parts, heading, record)
        joinable = in_list = False  # may the next line continue units[-1]; is it a short list
        line_wise = _one_per_line(lines)
        for index, line in enumerate(lines):
            level = _heading_level(line, lines, index)
            if level is not None:
                if body_seen or level >= 2:  # a heading before any body text is the title
                    heading = _inline(line.lstrip("#").strip().rstrip("#")) or heading
                joinable = False
                continue
            body_seen = True
            bullet = _BULLET.match(line)
            item = line[bullet.end():] if bullet else line
            short = bool(bullet) and word_count(item) < MIN_WORDS
            if joinable and not line_wise and (not bullet or short):  # continuation, or
                # "a; b; c" list items
                units[-1][0].append(("; " if bullet and in_list else " ") + item)
                in_list = in_list or short
                continue
            record = not bullet and bool(_KEY_VALUE.match(line) and _SECOND_PAIR.search(line))
            units.append(([item], heading, record))
            joinable, in_list = not record, short
        yield from (_Unit("".join(parts) if record else _inline("".join(parts)), head, record)
                    for parts, head, record in units)


def _one_per_line(lines: list[str]) -> bool:
    """A block of one statement per line with no punctuation between them (an inventory, a
    rule list, a log): 3+ lines of at least four words each, none a list item, none with a
    sentence end in or after it, and at least 80 % of them starting with a capital or a digit.
    Hard-wrapped prose has a full stop somewhere and starts a line with a capital about as
    often as its words start with one, so its lines still join."""
    if len(lines) < 3 or any(_BULLET.match(ln) or word_count(ln) < MIN_WORDS
                             or ln[-1] in ".!?\u2026" or SENTENCE_END.search(ln)
                             for ln in lines):
        return False
    starts = sum(1 for ln in lines if ln[0].isupper() or ln[0].isdigit())
    return starts >= 0.8 * len(lines)


def _is_notice(line: str, lettered: bool) -> bool:
    """A copyright notice, not a clause or a "(c)" list item (``lettered``: the document has
    "(a)" or "(b)" items, in any block)."""
    if lettered and line[:3].lower() == "(c)":
        return False
    return (bool(_NOTICE.search(line)) and bool(_NOTICE_SIGN.search(line))
            and len(line.split()) <= _NOTICE_WORDS)


def _heading_level(line: str, lines: list[str], index: int) -> int | None:
    """Markdown level for ``#`` headings, 0 for a short unpunctuated line between sentences."""
    atx = _ATX.match(line)
    if atx:
        return len(atx.group(1))
    words = line.split()
    if (len(words) > MAX_HEADING_WORDS or len(line) > 80 or line[-1] in ".!?,;:…"
            or not (line[0].isupper() or line[0].isdigit()) or _KEY_VALUE.match(line)
            or _BULLET.match(line) or not _title_case(words)):
        return None
    previous_ended = index == 0 or lines[index - 1][-1] in ".!?:…\"”"
    following = lines[index + 1][0] if index + 1 < len(lines) else None  # None: block's end
    next_ok = len(lines) == 1 if following is None else following.isupper() or following in "#-*•\"“("
    return 0 if previous_ended and next_ok else None


def _title_case(words: list[str]) -> bool:
    """"Billing and Payments", "2.1 Scope", "OVERVIEW" — not "Budget approved by Carol"."""
    significant = [w for w in words if w[:1].isalpha() and len(w) > 3] or words[-1:]
    return all(w[0].isupper() for w in significant)


def _table_records(lines: list[str]) -> list[str]:
    """A Markdown table → ``header: cell; ...`` lines (other lines pass through)."""
    rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in lines
            if ln.startswith("|") and not re.fullmatch(r"[|:\-\s]+", ln)]
    rest = [ln for ln in lines if not ln.startswith("|")]
    if len(rows) < 2:
        return ["; ".join(c for c in row if c) for row in rows] + rest
    header = rows[0]
    return ["; ".join(f"{header[i] if i < len(header) else f'column {i + 1}'}: {c}"
                      for i, c in enumerate(row) if c) for row in rows[1:]] + rest


def _inline(text: str) -> str:
    """Markdown links/emphasis/code marks → plain text."""
    return " ".join(_LINK.sub(r"\1", text).replace("**", "").replace("__", "").replace("`", "")
                    .split())
