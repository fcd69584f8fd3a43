"""What a file really is, from its bytes (magic numbers), not from what the client declared.

A client can declare ``application/pdf`` and upload a ZIP or an executable; the worker checks
the bytes before handing them to a parser, so each parser only ever sees the format it was
written for and a mismatch fails with a reason a person understands. Only headers are read —
nothing here decompresses or parses whole files (the ZIP check reads the central directory).
"""

from __future__ import annotations

import io
import struct
import zipfile

from memory_mcp.documents.formats import KIND_LABELS, ExtractionError, Format

#: ISO BMFF major brands of audio-only MPEG-4 files (iTunes audio, audiobooks, protected audio).
_M4A_BRANDS = frozenset({b"M4A ", b"M4B ", b"M4P "})
#: ISO BMFF brands that are still images (HEIC/HEIF/AVIF), not video.
_IMAGE_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1",
                           b"avif", b"avis"})
#: Which detected kinds satisfy each declared kind (MPEG-4 audio and video share a container).
_ACCEPTS: dict[str, frozenset[str]] = {
    "text": frozenset({"text"}), "markdown": frozenset({"text"}), "csv": frozenset({"text"}),
    "m4a": frozenset({"m4a", "mp4"}), "mp4": frozenset({"mp4", "m4a"}),
}
#: Bytes looked at for a ``%PDF-`` header (the PDF spec tolerates leading junk up to 1 KiB).
_PDF_HEADER_WINDOW = 1024


def detect_kind(data: bytes) -> str | None:
    """The kind the bytes are, by magic number, or ``None`` when unrecognised.

    Kinds: pdf, zip, docx, png, jpeg, gif, webp, wav, mp3, m4a, mp4, heif, webm, matroska,
    text (valid UTF-8, BOM allowed, no NUL bytes).
    """
    if not data:
        return None
    head = data[:64]
    pdf_at = data.find(b"%PDF-", 0, _PDF_HEADER_WINDOW)
    if pdf_at == 0 or (pdf_at > 0 and not _is_utf8_text(data)):
        return "pdf"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    if head.startswith(b"RIFF") and head[8:12] == b"WAVE":
        return "wav"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip_kind(data)
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "matroska" if b"matroska" in data[:4096] else "webm"
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in _M4A_BRANDS:
            return "m4a"
        return "heif" if brand in _IMAGE_BRANDS else "mp4"
    if (head.startswith(b"ID3") and head[3:4] in (b"\x02", b"\x03", b"\x04")) \
            or _is_mpeg_audio_frame(head):
        return "mp3"
    if _is_utf8_text(data):
        return "text"
    return None


def verify(fmt: Format, data: bytes) -> None:
    """Raise ``ExtractionError`` unless the bytes are of the declared format."""
    if not data:
        raise ExtractionError("The uploaded file is empty.")
    if fmt.family in ("text", "csv") and decode_text(data) is not None:
        return  # a text that happens to start like another format ("ID3 tags...") is text
    detected = detect_kind(data)
    if detected in _ACCEPTS.get(fmt.kind, frozenset({fmt.kind})):
        return
    declared = KIND_LABELS.get(fmt.kind, fmt.kind)
    if detected == "damaged-zip" and fmt.kind == "docx":
        raise ExtractionError("The Word document (.docx) is damaged: its contents were cut short "
                              "or corrupted (an interrupted download or copy?). Open it in Word, "
                              "save it again and upload the new file.")
    if detected is None:
        found = "not UTF-8 text" if fmt.family in ("text", "csv") else "not a recognised format"
        if fmt.family in ("text", "csv") and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            found = "UTF-16 text that does not decode; save it as UTF-8 and upload it again"
        raise ExtractionError(f"The file was declared as {declared} but its contents are {found}.")
    raise ExtractionError(
        f"The file was declared as {declared} but its contents are {KIND_LABELS[detected]}."
    )


def image_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """Pixel width and height from an image header, or ``None`` when it cannot be read.

    Lets OCR refuse decompression bombs (a few KB of PNG that decode to gigapixels) before
    any decoder allocates memory for them.
    """
    try:
        if kind == "png" and data[12:16] == b"IHDR":
            width, height = struct.unpack(">II", data[16:24])
            return int(width), int(height)
        if kind == "gif":
            width, height = struct.unpack("<HH", data[6:10])
            return int(width), int(height)
        if kind == "webp":
            return _webp_size(data)
        if kind == "jpeg":
            return _jpeg_size(data)
    except (struct.error, IndexError):
        return None
    return None


def _zip_kind(data: bytes) -> str:
    """"docx" for a Word package, "damaged-zip" for a ZIP whose central directory cannot be
    read (every .docx is a ZIP: a truncated one is a damaged Word file, not another type),
    else "zip". Reads only the central directory."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        return "damaged-zip"
    return "docx" if "word/document.xml" in names else "zip"


def zip_expanded_size(data: bytes) -> int | None:
    """Sum of the declared uncompressed sizes of a ZIP's entries (``None``: not a ZIP).

    ``zipfile`` never reads past an entry's declared size, so this bounds what parsing
    the package can inflate to: a zip-bomb check that decompresses nothing.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, OSError, EOFError):
        return None


def _is_mpeg_audio_frame(head: bytes) -> bool:
    """An MPEG-1/2/2.5 audio frame header (raw MP3 without an ID3 tag).

    Checks the sync bits and rejects the reserved version, layer, bitrate and sample-rate
    values, so arbitrary data that starts with 0xFF is not mistaken for audio. Layer I (the
    long-gone MP1) is not taken either: its header FF FE is also UTF-16's byte-order mark, and
    a UTF-16 text file was reported as MP3 audio.
    """
    if len(head) < 4 or head[0] != 0xFF or head[1] & 0xE0 != 0xE0:
        return False
    version = (head[1] >> 3) & 0b11
    layer = (head[1] >> 1) & 0b11
    if layer == 0b11:
        return False
    bitrate = head[2] >> 4
    sample_rate = (head[2] >> 2) & 0b11
    return version != 0b01 and layer != 0b00 and bitrate != 0b1111 and sample_rate != 0b11


#: Byte-order marks that name their encoding beyond doubt (Windows Notepad's "Unicode" is
#: UTF-16 LE with a BOM). 8-bit encodings (Latin-1, Windows-1252) are not guessed: a wrong guess
#: would store mojibake as the document's text.
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def decode_text(data: bytes) -> str | None:
    """The text of ``data``: UTF-8 (a BOM is fine) or UTF-16 with its byte-order mark; None
    when it is neither, or holds NUL characters (a binary file that happens to decode)."""
    encoding, body = "utf-8", data
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding, body = name, data[len(bom):]
            break
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text


def _is_utf8_text(data: bytes) -> bool:
    if b"\x00" in data:
        return False
    try:
        data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return int(width) & 0x3FFF, int(height) & 0x3FFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Walk the JPEG segments to the first start-of-frame marker."""
    pos = 2
    while pos + 9 < len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return int(width), int(height)
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        pos += 2 + int(length)
    return None
