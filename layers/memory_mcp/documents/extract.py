"""Text out of an uploaded file, bounded in size and time.

``extract_text`` dispatches on the verified ``Format`` family. Every path is bounded: text
stops growing at ``Limits.max_chars`` (readers stop early then), PDFs have a page limit, the
deadline is checked between pages/rows/blocks (not inside one pypdf page: that would need a
subprocess), Word packages are checked for zip bombs, no parser sees the wrong format. A
failure about the file itself is an ``ExtractionError`` (its message is the reason shown to
the uploader); transient trouble in OCR/transcription services is an ``UpstreamError`` raised
by those engines, so the pipeline retries instead of failing the document.
"""

from __future__ import annotations

import csv
import io
import logging
import re
import unicodedata
from pathlib import PurePosixPath
from typing import Any

from memory_mcp.documents.formats import Extracted, ExtractionError, Format, Limits
from memory_mcp.documents.ocr import Ocr
from memory_mcp.documents.sniff import decode_text, zip_expanded_size
from memory_mcp.documents.transcribe import AnyTranscriber, media_text
from memory_mcp.services.validation import without_controls

__all__ = ["Extracted", "ExtractionError", "Limits", "extract_text", "markdown_title"]

log = logging.getLogger(__name__)

#: Separates PDF pages in extracted text (form feed, as pdftotext does); ``segment`` uses it
#: to recognise running headers and footers.
PAGE_BREAK = "\f"
#: Most a Word package may expand to (sum of declared entry sizes): zip-bomb guard.
MAX_DOCX_EXPANDED_BYTES = 100 * 1024 * 1024
MAX_TITLE_CHARS = 200
_CSV_SNIFF_CHARS = 16_384

PDF_CORRUPT = "The PDF could not be read (it may be corrupt)."
DOCX_CORRUPT = "The Word document could not be read (it may be corrupt)."
OCR_MISSING = ("Text in images needs Tesseract locally (apt-get install tesseract-ocr) "
               "or Amazon Textract when hosted.")


class _Text:
    """Accumulates text up to ``max_chars``; ``add`` (after ``sep``) is False once full."""

    def __init__(self, max_chars: int) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._max = max_chars
        self.truncated = False

    def add(self, piece: str, sep: str = "\n") -> bool:
        if self.truncated:
            return False
        if self._parts:
            piece = sep + piece
        room = self._max - self._size
        if len(piece) > room:
            self._parts.append(_cut(piece, room))
            self.truncated = True
            return False
        self._parts.append(piece)
        self._size += len(piece)
        return True

    @property
    def text(self) -> str:
        return "".join(self._parts)


def extract_text(
    fmt: Format, data: bytes, filename: str, limits: Limits, *, ocr: Ocr | None = None,
    transcriber: AnyTranscriber | None = None, source: tuple[str, str] | None = None,
) -> Extracted:
    """The text of ``data`` (already checked by ``sniff.verify``) as the format ``fmt``.

    ``source`` is the object's (bucket, key): Amazon Transcribe reads media from S3 itself (an
    OpenAI-compatible transcriber is sent ``data`` instead).
    """
    limits.check()
    if fmt.family == "text":
        text = _decode(data)
        result = _bounded(text, filename, limits)
        result.title = markdown_title(text) or result.title
    elif fmt.family == "csv":
        result = _csv(data, filename, limits)
    elif fmt.family == "pdf":
        result = _pdf(data, filename, limits)
    elif fmt.family == "docx":
        result = _docx(data, filename, limits)
    elif fmt.family == "image":
        if ocr is None:
            raise ExtractionError(OCR_MISSING)
        result = _bounded(ocr.image_text(data, fmt.kind, limits.deadline), filename, limits)
    else:
        result = _bounded(media_text(fmt, data, filename, transcriber, source,
                                     limits.deadline), filename, limits)
    if not result.text.strip():
        raise ExtractionError(_empty_message(fmt, filename))
    # One Unicode form, as for a saved memory: decomposed "café" (macOS) was stored so, and a
    # keyword typed either way found nothing (full-text search and LIKE compare code points).
    result.text = unicodedata.normalize("NFC", without_controls(result.text, keep="\f"))
    result.title = " ".join(unicodedata.normalize(
        "NFC", without_controls(result.title)).split())[:MAX_TITLE_CHARS] \
        or filename
    return result


def _decode(data: bytes) -> str:
    """UTF-8, or UTF-16 with its byte-order mark (``sniff.decode_text``): guessing an 8-bit
    encoding would store mojibake."""
    text = decode_text(data)
    if text is None:
        try:
            data.decode("utf-8")
            where = ""
        except UnicodeDecodeError as exc:
            where = f" (invalid byte at position {exc.start:,})"
        raise ExtractionError(f"The file is not valid UTF-8 or UTF-16 text{where}; save it as "
                              "UTF-8 and upload it again.")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _bounded(text: str, filename: str, limits: Limits) -> Extracted:
    out = _Text(limits.max_chars)
    out.add(text.strip())
    return Extracted(title=_stem(filename), text=out.text, truncated=out.truncated,
                     total_chars=len(text.strip()) if out.truncated else None)


def markdown_title(text: str) -> str | None:
    """The first ATX (``# Title``) or setext (``Title`` over ``===``) heading, plain text."""
    match = re.search(r"^ {0,3}#{1,6}[ \t]+(\S.*)|^(\S.*)\n {0,3}=+[ \t]*$", text[:200_000],
                      re.MULTILINE)  # greedy and anchored: linear on hostile input
    if not match:
        return None
    title = re.sub(r"[ \t]+#+[ \t]*$", "", (match.group(1) or match.group(2))[:MAX_TITLE_CHARS])
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    return title.replace("`", "").replace("**", "").replace("__", "").strip() or None


def _csv(data: bytes, filename: str, limits: Limits) -> Extracted:
    """One line per row: ``name: Ada; role: engineer``, keyed by the first (header) row."""
    text = _decode(data)
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    out = _Text(limits.max_chars)
    header: list[str] | None = None
    try:
        for number, row in enumerate(reader):
            if number % 500 == 0:
                limits.check()
            cells = [" ".join(cell.split()) for cell in row]
            if not any(cells):
                continue
            if header is None:
                header = [cell or f"column {i + 1}" for i, cell in enumerate(cells)]
                continue
            keys = header + [f"column {i + 1}" for i in range(len(header), len(cells))]
            if not out.add("; ".join(f"{keys[i]}: {c}" for i, c in enumerate(cells) if c)):
                break
    except csv.Error:
        raise ExtractionError(
            f"The CSV file could not be parsed (near line {reader.line_num:,}); it may be malformed."
        ) from None
    return Extracted(title=_stem(filename), text=out.text, truncated=out.truncated)


def _delimiter(text: str) -> str:
    """The most frequent of ``, ; TAB |`` in the header line (ties: that order). Not
    ``csv.Sniffer``: its regular expressions backtrack catastrophically on hostile input."""
    header = text.lstrip("\n")[:_CSV_SNIFF_CHARS].split("\n", 1)[0]
    return max(",;\t|", key=header.count)


def _pdf(data: bytes, filename: str, limits: Limits) -> Extracted:
    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted and reader.decrypt("") == pypdf.PasswordType.NOT_DECRYPTED:
            raise FileNotDecryptedError("password required")
        count = len(reader.pages)
    except (FileNotDecryptedError, DependencyError):
        raise ExtractionError("The PDF is password-protected or encrypted; remove the "
                              "protection and upload it again.") from None
    except Exception as exc:  # pypdf raises many exception types on malformed input
        log.info("unreadable PDF: %r", exc)
        raise ExtractionError(PDF_CORRUPT) from None
    if count > limits.max_pdf_pages:
        raise ExtractionError(f"The PDF has {count:,} pages; the limit is "
                              f"{limits.max_pdf_pages:,} pages per document.")
    out = _Text(limits.max_chars)
    failed = read = 0
    for index in range(count):
        read = index + 1
        limits.check()
        try:
            page_text = reader.pages[index].extract_text() or ""
        except Exception as exc:  # one broken page should not lose the rest
            failed += 1
            log.info("PDF page %d unreadable: %r", index + 1, exc)
            continue
        if not out.add(page_text.strip(), sep=f"\n{PAGE_BREAK}\n"):
            break
    if count and failed == count:
        raise ExtractionError(PDF_CORRUPT)
    title = _pdf_title(reader) or _stem(filename)
    return Extracted(title=title, text=out.text, truncated=out.truncated, pages=count,
                     pages_read=read if out.truncated else None)


def _pdf_title(reader: Any) -> str | None:
    """The metadata title, unless missing or an exporter's placeholder ("Microsoft Word - x")."""
    try:
        title = str(reader.metadata.title or "").strip() if reader.metadata else ""
    except Exception:
        return None
    placeholder = re.search(r"^(untitled|title|document|microsoft word - .*|.*\.(docx?|pdf|"
                            r"pptx?|xlsx?|txt|md|tex))$", title.lower())
    return None if placeholder else title or None


def _docx(data: bytes, filename: str, limits: Limits) -> Extracted:
    """Paragraphs in body order; headings, lists and tables as Markdown (``segment`` reads it)."""
    import docx
    from docx.text.paragraph import Paragraph

    expanded = zip_expanded_size(data)
    if expanded is None:
        raise ExtractionError(DOCX_CORRUPT)
    if expanded > MAX_DOCX_EXPANDED_BYTES:
        raise ExtractionError(f"The Word document expands to more than "
                              f"{MAX_DOCX_EXPANDED_BYTES // 2**20} MB; it cannot be processed.")
    out = _Text(limits.max_chars)
    first_heading: str | None = None
    try:
        document = docx.Document(io.BytesIO(data))
        title = (document.core_properties.title or "").strip()
        for number, block in enumerate(document.iter_inner_content()):
            if number % 200 == 0:
                limits.check()
            if isinstance(block, Paragraph):
                line, heading = _docx_paragraph(block)
                first_heading = first_heading or heading
            else:
                line = _docx_table([_row_texts(row) for row in block.rows])
            if line and not out.add(line, sep="\n\n"):
                break
    except ExtractionError:
        raise
    except Exception as exc:  # python-docx/lxml raise many exception types on bad input
        log.info("unreadable Word document: %r", exc)
        raise ExtractionError(DOCX_CORRUPT) from None
    return Extracted(title=title or first_heading or _stem(filename), text=out.text,
                     truncated=out.truncated)


def _docx_paragraph(paragraph: Any) -> tuple[str, str | None]:
    """The paragraph as a line, and its text again if it is a heading (for the title)."""
    text = " ".join(paragraph.text.split())
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    if not text:
        return "", None
    if style == "Title" or style.startswith("Heading"):
        level = int(style[-1]) if style[-1:].isdigit() else 1
        return "#" * min(level, 6) + " " + text, text
    if "List" in style:
        return "- " + text, None
    return text, None


def _row_texts(row: Any) -> list[str]:
    """Cell texts of a table row; python-docx repeats a merged cell per grid column."""
    cells = list(row.cells)
    return [cell.text for i, cell in enumerate(cells) if i == 0 or cell._tc is not cells[i - 1]._tc]


def _docx_table(rows: list[list[str]]) -> str:
    """A Markdown pipe table (``segment`` turns its rows into ``header: cell`` records)."""
    lines = ["| " + " | ".join(" ".join(c.replace("|", "/").split()) for c in row) + " |"
             for row in rows if any(c.strip() for c in row)]
    if len(lines) >= 2:
        lines.insert(1, "|" + " --- |" * lines[0].count(" | ") + " --- |")
    return "\n".join(lines)


def _empty_message(fmt: Format, filename: str) -> str:
    reason = {"pdf": "it may be a scanned document without a text layer (upload the pages as "
                     "images to use OCR)", "image": "the image contains no readable text",
              "audio": "no speech was recognised", "video": "no speech was recognised",
              "csv": "it has no data rows below the header row"}.get(fmt.family, "it is empty")
    return f"No text could be extracted from {filename!r}: {reason}."


def _stem(filename: str) -> str:
    return PurePosixPath(filename).stem.replace("_", " ").strip() or filename


def _cut(text: str, limit: int) -> str:
    """``text[:limit]``, backed off to a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", max(0, limit - 200))
    return cut[:space] if space > 0 else cut
