"""How much of a document becomes searchable, and the plain words saying so when a bound cut it.

Two jobs, both pure (no I/O), so the pipeline, the tests and the benchmark share them:

* ``fit``: a document's statements → at most ``cap`` memories without dropping any. A document
  with more statements than the per-document memory bound gets adjacent statements grouped into
  passages (the smallest passage size that fits, found greedily), so every part of its text
  stays searchable and the bound still caps the rows and embeddings one file can cost. Only
  when even passages of ``max_chars`` do not fit is the tail cut, and ``Fitted`` says how much.
* ``describe``: the numbers recorded on the document row (``Coverage``) and the sentence that
  ``listDocuments`` / ``getDocument`` show: how much was indexed, which bound cut it (with its
  setting) and what to do about it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Bound = Literal["max_extracted_chars", "max_memories_per_document", "job_time_budget"]

#: The environment variable behind each bound, named in every note so an operator can act on it.
SETTINGS: dict[str, str] = {
    "max_extracted_chars": "MEMORY_MCP_MAX_EXTRACTED_CHARS",
    "max_memories_per_document": "MEMORY_MCP_MAX_MEMORIES_PER_DOCUMENT",
    "job_time_budget": "MEMORY_MCP_JOB_TIME_BUDGET_SECONDS",
}
#: Longest passage grouping builds: a few times the local model's 256-token window (what lies
#: beyond it is still found by full-text search) and the offline splitter's record size.
MAX_PASSAGE_CHARS = 2_000
#: Statements of one passage are joined by a newline: records and sentences stay readable.
SEPARATOR = "\n"
#: Passages grow by this factor per round until they fit (about 10 rounds per doubling).
_GROWTH = 1.08


@dataclass
class Fitted:
    """``memories`` (≤ cap, document order) and how much of the statements' text they hold."""

    memories: list[str]
    statements: int
    #: Longest passage grouping was allowed to build; None when every statement is its own memory.
    passage_chars: int | None
    kept_chars: int
    total_chars: int

    @property
    def cut(self) -> bool:
        return self.kept_chars < self.total_chars


def fit(statements: Sequence[str], cap: int, max_chars: int) -> Fitted:
    """At most ``cap`` memories of at most ``max_chars`` each, holding every statement if possible.

    Statements longer than ``max_chars`` are split at a space first (never silently truncated).
    """
    items = [piece for s in statements if s.strip() for piece in _split(s.strip(), max_chars)]
    total = sum(map(len, items))
    if len(items) <= cap:
        return Fitted(items, len(items), None, total, total)
    if cap <= 0:
        return Fitted([], len(items), None, 0, total)
    target = min(max_chars, max(1, math.ceil(total / cap)))
    while True:
        packed = _pack(items, target)
        if len(packed) <= cap or target >= max_chars:
            break
        target = min(max_chars, math.ceil(target * _GROWTH) + 1)
    kept = packed[:cap]
    kept_chars = sum(chars for _, chars in kept)
    return Fitted([text for text, _ in kept], len(items), target, kept_chars, total)


def _pack(items: list[str], target: int) -> list[tuple[str, int]]:
    """Greedy: append the next statement while the passage stays within ``target`` chars."""
    packed: list[tuple[str, int]] = []
    parts: list[str] = []
    size = chars = 0
    for item in items:
        if parts and size + len(SEPARATOR) + len(item) > target:
            packed.append((SEPARATOR.join(parts), chars))
            parts, size, chars = [], 0, 0
        size += (len(SEPARATOR) if parts else 0) + len(item)
        chars += len(item)
        parts.append(item)
    if parts:
        packed.append((SEPARATOR.join(parts), chars))
    return packed


def _split(text: str, limit: int) -> list[str]:
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind(" ", limit // 2, limit)
        cut = cut if cut > 0 else limit
        pieces.append(text[:cut].strip())
        text = text[cut:].strip()
    return [*pieces, text] if text else pieces


@dataclass
class Coverage:
    """What the document row records about how much of the file is searchable."""

    source_chars: int | None  # characters of text in the file; None when reading stopped early
    extracted_chars: int  # what the character bound let through (the memories' source)
    indexed_chars: int  # of those, how many the stored memories cover
    memories_created: int
    cut_by: Bound | None
    note: str
    pages_read: int | None = None


def describe(*, source_chars: int | None, extracted_chars: int, truncated: bool, fitted: Fitted,
             embedded: int, created: int, limits: dict[str, float], pages: int | None = None,
             pages_read: int | None = None, corrected: int = 0, forgotten: int = 0) -> Coverage:
    """The document's ``Coverage``.

    ``truncated``: the character bound stopped extraction (``source_chars`` is then the file's
    full text length when known, else None). ``embedded`` of ``fitted.memories`` were committed
    (fewer when the time budget ran out), ``created`` of them were new to the space and
    ``corrected`` were older wordings of facts a person has since corrected, ``forgotten``
    texts a person had forgotten (neither made current again). ``limits``
    are the bounds as applied: ``max_extracted_chars``, ``max_memories_per_document`` and
    ``job_time_budget`` (seconds).
    """
    memories = fitted.memories
    share = fitted.kept_chars / fitted.total_chars if fitted.total_chars else 1.0
    if embedded < len(memories):
        done = sum(map(len, memories[:embedded])) / max(1, sum(map(len, memories)))
        share *= done
    indexed = extracted_chars if share >= 1.0 else int(extracted_chars * share)
    cut_by: Bound | None = None
    if embedded < len(memories):
        cut_by = "job_time_budget"
    elif fitted.cut:
        cut_by = "max_memories_per_document"
    elif truncated:
        cut_by = "max_extracted_chars"
    count = f"{created:,} memor{'y' if created == 1 else 'ies'}"
    repeated = embedded - created - corrected - forgotten
    sentences: list[str] = []
    if cut_by is None:
        sentences.append(f"Fully indexed: all {extracted_chars:,} characters, as {count}.")
    else:
        about = "" if indexed == extracted_chars else "about "
        if source_chars is not None:
            of = f"{about}{indexed:,} of {source_chars:,} characters ({_percent(indexed, source_chars)})"
        elif about:
            of = f"about {indexed:,} of the first {extracted_chars:,} characters read"
        else:
            of = f"the first {extracted_chars:,} characters"
        if pages_read is not None and pages is not None and truncated:
            of += f" (pages 1-{pages_read} of {pages:,})"
        sentences.append(f"Partly indexed: {of}, as {count}.")
    if truncated and cut_by is not None:
        rest = "the rest was not read" if pages_read is None or pages is None else (
            f"pages {pages_read + 1}-{pages} were not read" if pages_read < pages
            else "the rest of the last page was not read")
        sentences.append(
            f"The document exceeds the {limits['max_extracted_chars']:,.0f}-character limit "
            f"({SETTINGS['max_extracted_chars']}); {rest}.")
    if cut_by == "job_time_budget":
        sentences.append(
            f"Embedding stopped at the {limits['job_time_budget']:.0f} s time budget per document "
            f"({SETTINGS['job_time_budget']}) after {embedded:,} of {len(memories):,} memories.")
    if cut_by == "max_memories_per_document":
        sentences.append(
            f"Even grouped into passages of {fitted.passage_chars:,} characters, the text needs "
            f"more than the {limits['max_memories_per_document']:,.0f}-memory limit per document "
            f"({SETTINGS['max_memories_per_document']}).")
    elif fitted.passage_chars is not None:
        sentences.append(
            f"Its {fitted.statements:,} statements were grouped into passages of up to "
            f"{fitted.passage_chars:,} characters to stay within the "
            f"{limits['max_memories_per_document']:,.0f}-memory limit per document "
            f"({SETTINGS['max_memories_per_document']}).")
    if repeated > 0:
        sentences.append(f"{repeated:,} already existed word for word in the space and "
                         f"{'was' if repeated == 1 else 'were'} not stored again.")
    if corrected > 0:
        wording = "is an older wording" if corrected == 1 else "are older wordings"
        sentences.append(f"{corrected:,} {wording} of facts since corrected in the space; the "
                         "corrected versions stay current.")
    if forgotten > 0:
        were, stay = ("was", "stays") if forgotten == 1 else ("were", "stay")
        sentences.append(f"{forgotten:,} {were} forgotten in the space earlier and {stay} "
                         "forgotten (save one by hand to bring it back).")
    if cut_by is not None:
        setting = "" if cut_by == "max_extracted_chars" else (
            " (or ask the operator to raise the time budget)" if cut_by == "job_time_budget"
            else " (or ask the operator to raise the limit)")
        sentences.append(f"To index the rest, split the file and upload the parts{setting}.")
    return Coverage(source_chars, extracted_chars, indexed, created, cut_by, " ".join(sentences),
                    pages_read)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "100%"
