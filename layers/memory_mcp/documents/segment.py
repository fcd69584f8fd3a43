"""Deterministic, offline text → memories: the extractor used when no LLM is configured.

The text is cut into blocks (blank lines; ``\\f`` page breaks from PDFs), blocks into units
(prose, list items, records), prose into sentences. The rules, chosen so that each memory is
one readable, self-contained statement and a document never floods a space with noise:

* Boilerplate lines are dropped: page numbers ("12", "Page 3 of 10", "- 4 -", "iv"),
  table-of-contents lines with dot leaders, copyright / "all rights reserved" lines, lines
  that are only a URL, an image or punctuation, code fences, and running headers/footers
  (a line, digits ignored, at the top or bottom of at least half of 3+ pages).
* Headings (Markdown ``#``, or a short unpunctuated line between sentences) are never
  memories themselves; they are context: each sentence under one is stored as
  ``"Heading: sentence"`` unless it already mentions the heading. A heading before any body
  text is the document's title and is not repeated into every memory.
* Records (``key: value`` lines, as CSV rows and tables are rendered) are one memory each,
  never split into sentences nor joined.
* Sentences end at ``.!?`` followed by whitespace and a capital, digit or opening quote,
  except after abbreviations ("e.g.", "Dr.", "Fig.", initials); decimals and URLs contain no
  whitespace after their dots so they never split. Fragments under 4 words are joined to a
  neighbour; a fragment left alone under 3 words is dropped. Sentences over 500 characters
  are split at clause boundaries ("; ", ", ", dashes), then at spaces.
* Near-duplicates (same text after normalising case/punctuation/whitespace, or token-set
  Jaccard >= 0.9) keep their first occurrence; order is preserved; the list is capped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

MAX_MEMORY_CHARS = 500
MAX_RECORD_CHARS = 2_000
MIN_WORDS = 4
MIN_STANDALONE_WORDS = 3
NEAR_DUPLICATE_JACCARD = 0.9
MAX_HEADING_WORDS = 8

#: Words whose trailing "." does not end a sentence ("etc" is not one: before a capital it
#: usually does). Initials ("J.") and dotted forms ("e.g.", "U.S.") are recognised by shape.
_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "mx", "dr", "prof", "sr", "jr", "st", "mt", "vs", "cf", "al", "fig", "figs",
    "no", "nos", "vol", "vols", "pp", "ed", "eds", "approx", "est", "dept", "inc", "ltd", "co",
    "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "ca", "op", "pg", "sec", "ch", "art", "gen", "col", "capt", "lt", "sgt", "rev", "hon", "univ"})
_CHARS = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi",
                        "\ufb04": "ffl", "\u00a0": " ", "\u00ad": "", "\t": " ", "\r": "\n"})
_BOILERPLATE = re.compile(
    r"^(?:(?:page|p\.|pg\.?)\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$"  # 12, Page 3 of 10, 3/10
    r"|^[-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]$|^[ivxlc]{1,6}$"  # - 4 -, roman numbers
    r"|(?:\.{4,}|(?:\.\s){3,}|…{2,}|_{4,})\s*\d{0,4}$"  # table of contents dot leaders
    r"|^(?:©|\(c\)\s|copyright\b)|all rights reserved"
    r"|^<?(?:https?://|www\.)\S+>?$|^!\[[^\]]*\]\([^)]*\)$|^(?:```|~~~)",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^(?:[-*+•▪‣◦●]|\(?\d{1,3}[.)]|[a-z][.)])\s+")
_ATX = re.compile(r"^(#{1,6})\s+(.*?)[\s#]*$")
_KEY_VALUE = re.compile(r"^[^\s:;|.!?][^:;|.!?]{0,59}: \S")
_SECOND_PAIR = re.compile(r"; [^:;|.!?]{1,60}: \S")
_SENTENCE_END = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]]*\s+|[\u3002\uff01\uff1f]+")
_OPENERS = "\"'\u201c\u2018(["


@dataclass
class _Unit:
    text: str
    heading: str | None
    record: bool = False


def split_memories(text: str, max_memories: int) -> list[str]:
    """Up to ``max_memories`` self-contained statements from ``text``, in document order."""
    def candidates() -> Iterator[str]:
        for unit in _units(text):
            if unit.record:
                yield from _split_long(unit.text, MAX_RECORD_CHARS)
                continue
            heading = unit.heading
            for sentence in _sentences(unit.text):
                for part in _split_long(sentence, MAX_MEMORY_CHARS):
                    context = heading and _key(heading) not in _key(part)
                    yield f"{heading}: {part}" if context else part

    return dedupe(candidates(), max_memories) if max_memories > 0 else []


def summarize(title: str, text: str, max_chars: int = 600) -> str:
    """An extractive lead summary: the first meaningful sentences, up to ``max_chars``."""
    title_key = _key(title)
    picked: list[str] = []
    size = 0
    for unit in _units(text):
        pieces = [unit.text] if unit.record else _sentences(unit.text)
        for piece in pieces:
            if _key(piece) == title_key:
                continue
            if piece[-1] not in ".!?\u2026":  # records, list items, headings-less lines
                piece += "."
            if size + len(piece) + 1 > max_chars:
                if not picked:  # one overlong sentence: its beginning, cut at a word
                    cut = piece[: max_chars - 1]
                    space = cut.rfind(" ")
                    picked.append((cut[:space] if space > max_chars // 2 else cut) + "\u2026")
                return " ".join(picked)
            picked.append(piece)
            size += len(piece) + 1
    return " ".join(picked)


def dedupe(memories: Iterable[str], cap: int) -> list[str]:
    """First occurrences only (exact after normalising, or token-set Jaccard >= 0.9), capped."""
    kept: list[str] = []
    seen: set[str] = set()
    token_sets: list[frozenset[str]] = []
    for memory in memories:
        if len(kept) >= cap:
            break
        key = _key(memory)
        if not key or key in seen:
            continue
        tokens = frozenset(key.split())
        if any(min(len(tokens), len(other)) >= NEAR_DUPLICATE_JACCARD * max(len(tokens), len(other))
               and len(tokens & other) >= NEAR_DUPLICATE_JACCARD * len(tokens | other)
               for other in token_sets):  # the size test skips pairs that cannot reach it
            continue
        seen.add(key)
        token_sets.append(tokens)
        kept.append(memory.strip())
    return kept


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _units(text: str) -> Iterator[_Unit]:
    """Blocks → units, boilerplate gone, each unit tagged with its section heading."""
    text = re.sub(r"([a-z])-\n([a-z])", r"\1\2", text.translate(_CHARS))  # de-hyphenate
    pages = text.split("\f")
    running = _running_lines(pages)
    heading: str | None = None
    body_seen = False
    for page in pages:
        for block in re.split(r"\n\s*\n", page):
            lines = [line.strip() for line in block.split("\n")]
            lines = [ln for ln in lines if ln and not _BOILERPLATE.search(ln)
                     and re.search(r"\w", ln) and _line_key(ln) not in running]
            if not lines:
                continue
            if lines[0].startswith("|"):
                lines = _table_records(lines)
            if len(lines) >= 2 and all(_KEY_VALUE.match(ln) for ln in lines):
                body_seen = True
                yield from (_Unit(ln, heading, record=True) for ln in lines)
                continue
            prose: list[str] = []
            in_list = False  # prose[-1] is collecting short list items ("a; b; c")
            for index, line in enumerate(lines):
                level = _heading_level(line, lines, index)
                if level is not None:
                    if prose:
                        yield _Unit(_inline(" ".join(prose)), heading)
                        prose = []
                    text_of = _inline(_ATX.sub(r"\2", line)).strip()
                    if body_seen or level >= 2:
                        heading = text_of or heading
                    continue
                body_seen = True
                bullet = _BULLET.match(line)
                if bullet and prose and _words(line) - 1 < MIN_WORDS:  # short items: one list
                    prose[-1] += ("; " if in_list else " ") + line[bullet.end():]
                    in_list = True
                    continue
                if bullet or (_KEY_VALUE.match(line) and _SECOND_PAIR.search(line)):
                    if prose:
                        yield _Unit(_inline(" ".join(prose)), heading)
                    prose = []
                    if not bullet:
                        yield _Unit(line, heading, record=True)
                        continue
                    line = line[bullet.end():]
                in_list = bool(bullet) and _words(line) < MIN_WORDS
                prose.append(line)
            if prose:
                yield _Unit(_inline(" ".join(prose)), heading)


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
    following = lines[index + 1] if index + 1 < len(lines) else None
    next_starts = following is None or following[0].isupper() or following[0] in "#-*•\"“("
    alone_or_followed = following is not None or len(lines) == 1
    return 0 if previous_ended and next_starts and alone_or_followed else None


def _title_case(words: list[str]) -> bool:
    """"Billing and Payments", "2.1 Scope", "OVERVIEW" — not "Budget approved by Carol"."""
    significant = [w for w in words if w[:1].isalpha() and len(w) > 3]
    if not significant:
        return bool(words) and words[-1][:1].isupper()
    return all(w[0].isupper() for w in significant)


def _running_lines(pages: list[str]) -> set[str]:
    """Header/footer lines: at a page edge on at least half of 3+ pages (digits ignored)."""
    if len(pages) < 3:
        return set()
    counts: Counter[str] = Counter()
    for page in pages:
        lines = [ln.strip() for ln in page.split("\n") if ln.strip()]
        counts.update({_line_key(ln) for ln in lines[:3] + lines[-3:] if len(ln) <= 120})
    return {key for key, n in counts.items() if n >= 3 and n >= len(pages) / 2}


def _line_key(line: str) -> str:
    return re.sub(r"\d+", "#", " ".join(line.lower().split()))


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
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.replace("**", "").replace("__", "").replace("`", "").split())


def _sentences(text: str) -> list[str]:
    """Sentences, short fragments joined to a neighbour, lone fragments dropped."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        following = text[end:end + 1]
        if match.group().strip()[0] in ".!?…" and following and not (
                following.isupper() or following.isdigit() or following in _OPENERS):
            continue
        if match.group().strip() == "." and _is_abbreviation(text[start:match.start()]):
            continue
        pieces.append(text[start:end].strip())
        start = end
    pieces.append(text[start:].strip())
    merged: list[str] = []
    for piece in filter(None, pieces):
        if merged and (_words(piece) < MIN_WORDS or _words(merged[-1]) < MIN_WORDS) and \
                len(merged[-1]) + len(piece) < MAX_MEMORY_CHARS:
            merged[-1] += " " + piece
        else:
            merged.append(piece)
    return [m for m in merged if _words(m) >= MIN_STANDALONE_WORDS]


def _is_abbreviation(before: str) -> bool:
    token = before.rsplit(None, 1)[-1].lstrip("([\"'“").lower() if before.strip() else ""
    return (token in _ABBREVIATIONS or bool(re.fullmatch(r"(?:[a-z]\.)+[a-z]", token))
            or (len(token) == 1 and token.isalpha()))


def _words(text: str) -> int:
    return len(text.split())


def _split_long(text: str, limit: int) -> list[str]:
    """Pieces of at most ``limit`` chars, cut at a clause boundary, else a space."""
    parts: list[str] = []
    while len(text) > limit:
        window = text[:limit]
        cut = -1
        for sep in ("; ", ", ", " \u2013 ", " \u2014 ", ": ", " "):
            found = window.rfind(sep, limit // 2)
            if found > 0:
                cut = found + len(sep.rstrip())
                break
        if cut <= 0:
            cut = limit
        parts.append(text[:cut].strip())
        text = text[cut:].strip()
    return [*parts, text] if text else parts
