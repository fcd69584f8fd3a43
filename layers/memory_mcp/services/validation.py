"""Input bounds shared by every adapter, so MCP, HTTP and CLI reject the same things."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from uuid import UUID

from memory_mcp.errors import InvalidInputError

MAX_PAGE_LIMIT = 50
MAX_PAGE = 1_000_000
DEFAULT_PAGE_LIMIT = 10
MAX_CATEGORY_CHARS = 64
#: Separators a category may use after its first character, besides letters, digits and marks.
_CATEGORY_SEPARATORS = frozenset(" _./:-")
_WS = re.compile(r"\s+")


def parse_uuid(value: str, what: str) -> UUID:
    try:
        return UUID(str(value).strip())
    except ValueError:
        raise InvalidInputError(
            f"{what} must be an id like 3f2b…-…, got {str(value)[:60]!r}.") from None


def check_text(value: str, what: str) -> str:
    """Refuse what PostgreSQL cannot store in ``text`` (NUL) and what is not Unicode at all
    (an unpaired UTF-16 surrogate, e.g. a JSON string escape of U+D800), with a message saying which, so the
    caller can fix it; otherwise the failure would surface as an opaque database error."""
    if "\x00" in value:
        raise InvalidInputError(f"{what} contains a NUL character (U+0000), which cannot be "
                                "stored; remove it.")
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise InvalidInputError(f"{what} contains an unpaired surrogate (U+D800-U+DFFF), which "
                                "is not valid Unicode text; send UTF-8 text.")
    control = _CONTROL.search(value)
    if control is not None:  # ESC, BEL, ...: stored and echoed, they drive the terminal of
        # whoever reads the answer or the export ("\x1b[31m"); tab and line breaks are text
        code = ord(control.group())
        hint = (" (often a quote or dash from text decoded with the wrong encoding)"
                if 0x80 <= code <= 0x9F else "")
        raise InvalidInputError(
            f"{what} contains a control character (U+{code:04X}) at position "
            f"{control.start() + 1}, which is not text{hint}; remove it.")
    return value


#: C0 and C1 control characters, apart from tab, line feed and carriage return.
_CONTROL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: Controls that Unicode (and Python's ``splitlines``) read as line breaks: vertical tab, form
#: feed, the file, group and record separators, next line. Text pasted from a PDF has them.
_BREAK_CONTROLS = "\x0b\x0c\x1c\x1d\x1e\x85"
_BREAKS = str.maketrans(dict.fromkeys(_BREAK_CONTROLS, "\n"))


def without_controls(text: str, *, keep: str = "") -> str:
    """A document's text without control characters: line-break controls become line breaks,
    any other a space (nobody can be asked to fix a document; ``check_text`` refuses them in
    what a caller sends). ``keep`` names controls the caller still needs (PDF page breaks)."""
    table = {ord(c): "\n" for c in _BREAK_CONTROLS if c not in keep}
    cleaned = text.translate(table)
    return _CONTROL.sub(lambda m: m.group() if m.group() in keep else " ", cleaned)


def content(text: str | None, max_chars: int, what: str = "content") -> str:
    """Trimmed, non-blank, bounded text in Unicode's composed form (NFC).

    "Zoë" typed on macOS often arrives decomposed (e + combining diaeresis): the same text to a
    reader and to the model, but other characters to a hash, to PostgreSQL's full-text search
    and to the agreement rules, which then kept the two as different facts. One form for
    everything stored and compared."""
    cleaned = (text or "").translate(_BREAKS).strip()
    if not cleaned:
        raise InvalidInputError(f"{what} must not be empty.")
    check_text(cleaned, what)
    cleaned = unicodedata.normalize("NFC", cleaned)
    if len(cleaned) > max_chars:
        hint = " Split it into smaller memories." if what == "content" else ""
        raise InvalidInputError(
            f"{what} is {len(cleaned):,} characters; the limit is {max_chars:,}.{hint}")
    return cleaned


def category(value: str | None) -> str | None:
    """Categories are case-insensitive tags: stored and matched trimmed and lower-cased."""
    if value is None or not value.strip():
        return None
    tag = _WS.sub(" ", unicodedata.normalize("NFC", value).strip().lower())
    if len(tag) > MAX_CATEGORY_CHARS or not _category_chars(tag):
        raise InvalidInputError(
            f"category must be 1-{MAX_CATEGORY_CHARS} characters of letters, digits, space "
            "or _ . / : - (e.g. 'preference', 'decision'); got "
            f"{value[:80]!r}."
        )
    return tag


def _category_chars(tag: str) -> bool:
    """Letters and digits of any script ("préférence", "決定", "हिंदी": its vowel signs are
    combining marks), then also marks and ``_CATEGORY_SEPARATORS``."""
    def word_char(ch: str) -> bool:
        return ch.isalnum() or unicodedata.category(ch).startswith("M")
    return tag[:1].isalnum() and all(word_char(ch) or ch in _CATEGORY_SEPARATORS for ch in tag)


def content_hash(text: str) -> bytes:
    """Identity of a memory's text: composed (NFC), whitespace-collapsed and case-folded, so
    trivially reformatted re-saves are recognised as the same memory, whichever path (a save,
    a document, an import) wrote it."""
    folded = _WS.sub(" ", unicodedata.normalize("NFC", text).strip()).casefold()
    return hashlib.sha256(folded.encode()).digest()


def like_pattern(keyword: str) -> str:
    """ILIKE pattern for a literal substring (escapes %, _ and the escape char)."""
    escaped = keyword.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def paging(page: int | None, limit: int | None) -> tuple[int, int, int]:
    """Validated ``(page, limit, offset)``: page >= 1, 1 <= limit <= 50 (default 10)."""
    page = 1 if page is None else page
    limit = DEFAULT_PAGE_LIMIT if limit is None else limit
    if not 1 <= page <= MAX_PAGE:
        raise InvalidInputError(f"page must be between 1 and {MAX_PAGE:,}, got {page}.")
    if not 1 <= limit <= MAX_PAGE_LIMIT:
        raise InvalidInputError(f"limit must be between 1 and {MAX_PAGE_LIMIT}, got {limit}.")
    return page, limit, (page - 1) * limit


def check_page_exists(page: int, total: int, limit: int) -> None:
    """Page 1 of an empty list is fine; any other page past the end is an error."""
    if page > 1 and (page - 1) * limit >= total:
        if total == 0:
            raise InvalidInputError(f"page {page} is out of range: the list is empty (page 1 "
                                    "shows that).")
        last = -(-total // limit)
        pages = "1 page" if last == 1 else f"{last} pages"
        raise InvalidInputError(f"page {page} is out of range: there {'is' if last == 1 else 'are'}"
                                f" {pages} of {limit} at most.")
