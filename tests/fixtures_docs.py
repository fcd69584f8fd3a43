"""Real document fixtures, generated in the tests (no binary files in the repository).

PDFs are written with fpdf2 (a dev dependency) so pypdf reads a genuine text layer, Word files
with python-docx, images with zlib/struct (or Pillow for rendered text), audio with ``wave``.
Also fakes for the AWS and LLM seams that moto does not cover.
"""

from __future__ import annotations

import io
import struct
import wave
import zipfile
import zlib
from typing import Any

import docx
from fpdf import FPDF


def make_pdf(pages: list[list[str]], *, title: str | None = None,
             running_header: str | None = None, user_password: str | None = None,
             footer: bool = True) -> bytes:
    """One PDF page per entry, each paragraph a wrapped text block; optional running
    header and "Page N" footer on every page, optional password (RC4)."""

    class Document(FPDF):
        def header(self) -> None:
            if running_header:
                self.set_font("helvetica", size=9)
                self.cell(0, 8, running_header, new_x="LMARGIN", new_y="NEXT")

        def footer(self) -> None:
            if not footer:
                return
            self.set_y(-15)
            self.set_font("helvetica", size=9)
            self.cell(0, 10, f"Page {self.page_no()}", align="C")

    pdf = Document()
    if title:
        pdf.set_title(title)
    if user_password is not None:
        pdf.set_encryption(owner_password="owner-secret", user_password=user_password)
    for paragraphs in pages:
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 7, paragraph, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
    return bytes(pdf.output())


def make_docx(*, title: str | None = None) -> bytes:
    """A Word file with a title property, headings, paragraphs, a list and a table."""
    document = docx.Document()
    if title:
        document.core_properties.title = title
    document.add_heading("Onboarding Guide", level=1)
    document.add_paragraph("New engineers receive a laptop on their first day. "
                           "The security team enables disk encryption before handover.")
    document.add_heading("Contacts", level=2)
    document.add_paragraph("Questions about payroll go to the finance office in Berlin.")
    document.add_paragraph("VPN access is requested through the IT portal", style="List Bullet")
    table = document.add_table(rows=3, cols=2)
    for row, (name, role) in zip(table.rows, [("Name", "Role"), ("Ada", "Engineer"),
                                              ("Grace", "Admiral")], strict=True):
        row.cells[0].text = name
        row.cells[1].text = role
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_docx_table() -> bytes:
    """A pricing table with equal neighbouring cells and a merged (gridSpan) cell."""
    document = docx.Document()
    table = document.add_table(rows=3, cols=3)
    rows = [("Feature", "Free", "Pro"), ("Export", "Yes", "Yes"), ("Support", "", "")]
    for row, texts in zip(table.rows, rows, strict=True):
        for cell, text in zip(row.cells, texts, strict=True):
            cell.text = text
    merged = table.cell(2, 1).merge(table.cell(2, 2))
    merged.text = "Email only"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def png_bytes(width: int = 1, height: int = 1) -> bytes:
    """A valid greyscale PNG built by hand (the IHDR may claim any size)."""
    def chunk(kind: bytes, payload: bytes) -> bytes:
        return (struct.pack(">I", len(payload)) + kind + payload
                + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))

    raw = b"".join(b"\x00" + b"\xff" * width for _ in range(min(height, 1)))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0,
                                                               0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def jpeg_header(width: int = 640, height: int = 480) -> bytes:
    """SOI, an APP0 segment and a baseline SOF0: enough for type and size detection."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof0 = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof0 + b"\xff\xd9"


def gif_header(width: int = 2, height: int = 3) -> bytes:
    return b"GIF89a" + struct.pack("<HH", width, height) + b"\x00\x00\x00;"


def webp_header(width: int = 5, height: int = 7) -> bytes:
    payload = b"VP8X" + struct.pack("<I", 10) + b"\x00" * 4 \
        + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(payload)) + b"WEBP" + payload


def wav_bytes(seconds: float = 0.1) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(8000)
        sound.writeframes(b"\x00\x00" * int(8000 * seconds))
    return out.getvalue()


def ftyp(brand: bytes) -> bytes:
    return struct.pack(">I", 24) + b"ftyp" + brand + b"\x00\x00\x02\x00" + brand + b"isom"


MP3_FRAME = b"\xff\xfb\x90\x64" + b"\x00" * 60  # MPEG-1 Layer III, 128 kbit/s, 44.1 kHz
ID3_MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + MP3_FRAME
WEBM = b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm" + b"\x00" * 16


def text_image(lines: list[str]) -> bytes:
    """Black text on white, large enough for Tesseract (needs Pillow, a dev dependency)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=36)
    image = Image.new("L", (1200, 80 + 60 * len(lines)), color=255)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        draw.text((40, 40 + 60 * index), line, fill=0, font=font)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class FakeBedrock:
    """``converse`` answering from a list of canned reply texts (or raising them)."""

    def __init__(self, replies: list[str | Exception]) -> None:
        self.replies = replies
        self.calls: list[dict[str, Any]] = []

    def converse(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return {"output": {"message": {"role": "assistant", "content": [{"text": reply}]}},
                "stopReason": "end_turn"}
