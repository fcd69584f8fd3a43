"""Text out of an uploaded file, bounded in size and time.

``extract_text`` dispatches on the verified ``Format`` family (PDF and Word readers live in
``office``, OCR in ``ocr``, speech in ``transcribe``). Every path is bounded: text
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

from memory_mcp.documents.formats import (
    Extracted,
    ExtractionError,
    Format,
    Limits,
    TextBudget,
    file_stem,
)
from memory_mcp.documents.ocr import Ocr
from memory_mcp.documents.office import read_docx, read_pdf
from memory_mcp.documents.sniff import decode_text
from memory_mcp.documents.transcribe import AnyTranscriber, media_text
from memory_mcp.services.validation import without_controls

__all__ = ["Extracted", "ExtractionError", "Limits", "extract_text", "markdown_title"]

log = logging.getLogger(__name__)

MAX_TITLE_CHARS = 200
_CSV_SNIFF_CHARS = 16_384

OCR_MISSING = ("Text in images needs Tesseract locally (apt-get install tesseract-ocr) "
               "or Amazon Textract when hosted.")


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
        result = read_pdf(data, filename, limits)
    elif fmt.family == "docx":
        result = read_docx(data, filename, limits)
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
    out = TextBudget(limits.max_chars)
    out.add(text.strip())
    return Extracted(title=file_stem(filename), text=out.text, truncated=out.truncated,
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
    out = TextBudget(limits.max_chars)
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
    return Extracted(title=file_stem(filename), text=out.text, truncated=out.truncated)


def _delimiter(text: str) -> str:
    """The most frequent of ``, ; TAB |`` in the header line (ties: that order). Not
    ``csv.Sniffer``: its regular expressions backtrack catastrophically on hostile input."""
    header = text.lstrip("\n")[:_CSV_SNIFF_CHARS].split("\n", 1)[0]
    return max(",;\t|", key=header.count)


def _empty_message(fmt: Format, filename: str) -> str:
    reason = {"pdf": "it may be a scanned document without a text layer (upload the pages as "
                     "images to use OCR)", "image": "the image contains no readable text",
              "audio": "no speech was recognised", "video": "no speech was recognised",
              "csv": "it has no data rows below the header row"}.get(fmt.family, "it is empty")
    return f"No text could be extracted from {filename!r}: {reason}."
