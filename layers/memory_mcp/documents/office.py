"""Text out of PDF and Word files: the two packaged formats, each with its own guards.

Split from ``extract`` because these readers carry their own failure modes (encrypted and
corrupt PDFs, pages that fail alone, Word packages that are zip bombs) and their own shaping:
PDF pages are separated by a form feed so ``segment`` can find running headers and footers;
Word headings, lists and tables come out as Markdown, which ``segment`` already reads.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

from memory_mcp.documents.formats import (
    Extracted,
    ExtractionError,
    Limits,
    TextBudget,
    file_stem,
)
from memory_mcp.documents.sniff import zip_expanded_size

log = logging.getLogger(__name__)

#: Separates PDF pages in extracted text (form feed, as pdftotext does); ``segment`` uses it
#: to recognise running headers and footers.
PAGE_BREAK = "\f"
#: Most a Word package may expand to (sum of declared entry sizes): zip-bomb guard.
MAX_DOCX_EXPANDED_BYTES = 100 * 1024 * 1024

PDF_CORRUPT = "The PDF could not be read (it may be corrupt)."
DOCX_CORRUPT = "The Word document could not be read (it may be corrupt)."


def read_pdf(data: bytes, filename: str, limits: Limits) -> Extracted:
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
    out = TextBudget(limits.max_chars)
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
    title = _pdf_title(reader) or file_stem(filename)
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


def read_docx(data: bytes, filename: str, limits: Limits) -> Extracted:
    """Paragraphs in body order; headings, lists and tables as Markdown (``segment`` reads it)."""
    import docx
    from docx.text.paragraph import Paragraph

    expanded = zip_expanded_size(data)
    if expanded is None:
        raise ExtractionError(DOCX_CORRUPT)
    if expanded > MAX_DOCX_EXPANDED_BYTES:
        raise ExtractionError(f"The Word document expands to more than "
                              f"{MAX_DOCX_EXPANDED_BYTES // 2**20} MB; it cannot be processed.")
    out = TextBudget(limits.max_chars)
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
    return Extracted(title=title or first_heading or file_stem(filename), text=out.text,
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
