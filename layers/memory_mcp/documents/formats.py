"""The upload types the server accepts, the checks on what a client declares, and the small
value types every extractor shares (``ExtractionError``, ``Limits``, ``Extracted``,
``TextBudget``; the ``extract`` module re-exports the first three, and this leaf module keeps
imports acyclic).

Everything downstream (the upload route, the worker, the extractors) keys off one ``Format``
looked up here, so adding a type is one entry in ``ALLOWED`` plus an extractor. The declared
type and filename are only a first gate: the worker re-checks the bytes' real type
(``sniff.verify``), because a client can declare anything.
"""

from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Literal

from memory_mcp.errors import InvalidInputError, MemoryMcpError

if TYPE_CHECKING:
    from memory_mcp.config import Settings

Family = Literal["text", "pdf", "docx", "csv", "image", "audio", "video"]

#: Longest accepted filename, in characters (most filesystems cap a name at 255 bytes or chars).
MAX_FILENAME_CHARS = 255
#: Longest stored filename part of an object key; keys stay well under S3's 1,024-byte limit.
MAX_KEY_NAME_CHARS = 120

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


class ExtractionError(MemoryMcpError):
    """The file cannot be turned into text; the message is the reason shown to the uploader.

    Retrying does not help (the same bytes fail the same way), so the pipeline marks the
    document ``failed`` rather than redelivering it. Defined here, in the package's leaf
    module, so every extractor can raise it; ``extract`` re-exports it.
    """

    http_status = 422


@dataclass
class Limits:
    """Per-job bounds, so a hostile or huge file cannot exhaust a worker."""

    max_chars: int
    max_pdf_pages: int
    deadline: float  # time.monotonic() deadline
    budget_seconds: float = 0.0  # only for messages

    @classmethod
    def from_settings(cls, settings: Settings, started: float) -> Limits:
        """Bounds from settings, for a job that started at ``started`` (``time.monotonic()``)."""
        budget = settings.job_time_budget_seconds
        return cls(settings.max_extracted_chars, settings.max_pdf_pages, started + budget, budget)

    def check(self) -> None:
        """Raise once the deadline has passed (called between pages, rows and blocks)."""
        if time.monotonic() > self.deadline:
            budget = f"{self.budget_seconds:.0f} s " if self.budget_seconds > 0 else ""
            raise ExtractionError(f"Extraction took longer than the {budget}time budget.")


@dataclass
class Extracted:
    """What a file says: a title for listings, the (possibly truncated) text.

    When the character bound cut the text, ``total_chars`` is the full text's length if the
    reader saw all of it (plain text, OCR, transcripts), else None (it stopped reading), and
    ``pages_read`` how many PDF pages were read, so the document can say how much is missing.
    """

    title: str
    text: str
    truncated: bool
    pages: int | None = None
    total_chars: int | None = None
    pages_read: int | None = None


class TextBudget:
    """Accumulates text up to ``max_chars``; ``add`` (after ``sep``) is False once full.

    Every reader fills one, so no format can grow text past the limit, and the cut lands at a
    word boundary where one is near."""

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
            self._parts.append(cut_at_word(piece, room))
            self.truncated = True
            return False
        self._parts.append(piece)
        self._size += len(piece)
        return True

    @property
    def text(self) -> str:
        return "".join(self._parts)


def file_stem(filename: str) -> str:
    """The filename without folder or extension, underscores as spaces: the fallback title."""
    return PurePosixPath(filename).stem.replace("_", " ").strip() or filename


def cut_at_word(text: str, limit: int) -> str:
    """``text[:limit]``, backed off to a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", max(0, limit - 200))
    return cut[:space] if space > 0 else cut


@dataclass(frozen=True)
class Format:
    """One accepted type.

    ``kind`` is the concrete format ("markdown", "png", "m4a", ...): OCR engines and Amazon
    Transcribe (whose ``MediaFormat`` values are exactly these names) take it as is.
    ``family`` picks the extractor. ``extensions`` are the filename endings accepted for it.
    """

    content_type: str
    kind: str
    family: Family
    extensions: tuple[str, ...]


def _formats() -> dict[str, Format]:
    text = Format("text/plain", "text", "text", (".txt", ".text", ".log", ".md", ".markdown"))
    markdown = Format("text/markdown", "markdown", "text",
                      (".md", ".markdown", ".mdown", ".mkd", ".txt"))
    wav = Format("audio/wav", "wav", "audio", (".wav", ".wave"))
    m4a = Format("audio/mp4", "m4a", "audio", (".m4a", ".m4b", ".mp4"))
    formats = {
        "text/plain": text,
        "text/markdown": markdown,
        "text/x-markdown": markdown,
        "application/pdf": Format("application/pdf", "pdf", "pdf", (".pdf",)),
        DOCX_TYPE: Format(DOCX_TYPE, "docx", "docx", (".docx",)),
        "text/csv": Format("text/csv", "csv", "csv", (".csv",)),
        "image/png": Format("image/png", "png", "image", (".png",)),
        "image/jpeg": Format("image/jpeg", "jpeg", "image", (".jpg", ".jpeg", ".jpe")),
        "image/webp": Format("image/webp", "webp", "image", (".webp",)),
        "image/gif": Format("image/gif", "gif", "image", (".gif",)),
        "audio/mpeg": Format("audio/mpeg", "mp3", "audio", (".mp3",)),
        "audio/wav": wav,
        "audio/x-wav": wav,
        "audio/wave": wav,
        "audio/mp4": m4a,
        "audio/x-m4a": m4a,
        "video/mp4": Format("video/mp4", "mp4", "video", (".mp4", ".m4v")),
        "video/webm": Format("video/webm", "webm", "video", (".webm",)),
        "audio/webm": Format("audio/webm", "webm", "audio", (".webm", ".weba")),
    }
    return formats


#: Accepted types keyed by normalised content type (aliases map to their canonical ``Format``).
ALLOWED: dict[str, Format] = _formats()

#: Human names of the kinds ``sniff.detect_kind`` reports and of the declared kinds.
KIND_LABELS: dict[str, str] = {
    "text": "plain text", "markdown": "Markdown", "csv": "CSV", "pdf": "PDF",
    "docx": "a Word document (.docx)", "zip": "a ZIP archive",
    "damaged-zip": "a damaged ZIP package (cut short or corrupted, as by an interrupted "
                   "download or copy)", "png": "a PNG image",
    "jpeg": "a JPEG image", "gif": "a GIF image", "webp": "a WebP image",
    "heif": "a HEIF/HEIC image", "wav": "WAV audio", "mp3": "MP3 audio", "m4a": "M4A audio",
    "mp4": "MP4 video", "webm": "WebM media", "matroska": "a Matroska (MKV) video",
}

# Bidirectional-override characters can make "invoice\u202Efdp.exe" display as "invoice.exe".pdf.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def allowed_types_text() -> str:
    """The canonical accepted types, for error messages."""
    return ", ".join(sorted({f.content_type for f in ALLOWED.values()}))


def normalise_content_type(content_type: str) -> str:
    """``"Text/Markdown; charset=UTF-8"`` → ``"text/markdown"``."""
    return content_type.split(";", 1)[0].strip().lower()


def check_declared(filename: str, content_type: str) -> Format:
    """Validate what the client declares before any row or upload URL exists.

    Raises ``InvalidInputError`` with a message that says what is accepted, so a person or a
    model can correct the request without reading the docs.
    """
    fmt = ALLOWED.get(normalise_content_type(content_type or ""))
    if fmt is None:
        raise InvalidInputError(
            f"Unsupported content type {content_type[:100]!r}. Allowed types: "
            f"{allowed_types_text()}."
        )
    _check_filename(filename)
    extension = _extension(filename)
    if extension not in fmt.extensions and not (extension == "" and fmt.kind == "text"):
        raise InvalidInputError(
            f"The filename {filename!r} does not match the content type {fmt.content_type}: "
            f"expected a name ending in {', '.join(fmt.extensions)}."
        )
    return fmt


def _check_filename(filename: str) -> None:
    if not filename or not filename.strip():
        raise InvalidInputError("The filename must not be empty.")
    if len(filename) > MAX_FILENAME_CHARS:
        raise InvalidInputError(f"The filename is longer than {MAX_FILENAME_CHARS} characters.")
    if "/" in filename or "\\" in filename:
        raise InvalidInputError("The filename must not contain path separators (/ or \\).")
    if filename.strip() in (".", ".."):
        raise InvalidInputError(f"{filename!r} is not a valid filename.")
    for char in filename:
        if unicodedata.category(char) == "Cc" or char in _BIDI_CONTROLS:
            raise InvalidInputError("The filename must not contain control characters.")


def _extension(filename: str) -> str:
    name = filename.strip().lower()
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


def safe_filename(name: str) -> str:
    """A storage-key-safe version of a (validated) filename: ASCII letters, digits, ``._-``.

    Object keys travel URL-encoded through S3 event notifications and end up in local paths,
    so anything exotic is replaced rather than escaped. The extension is kept (lower-cased)
    so the stored object still says what it is; the result is never empty or hidden.
    """
    def ascii_only(text: str) -> str:
        return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")

    name = name.replace("/", "_").replace("\\", "_")
    extension = _extension(name)
    stem = ascii_only(name[: len(name) - len(extension)] if extension else name)
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", stem)
    stem = re.sub(r"_{2,}", "_", stem).strip("._-")
    extension = re.sub(r"[^a-z0-9.]", "", ascii_only(extension))
    stem = stem[: MAX_KEY_NAME_CHARS - len(extension)] or "file"
    return stem + extension
