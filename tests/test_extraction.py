"""The document building blocks: declared types, magic numbers, extraction, segmentation,
OCR, transcription and LLM fact extraction. Real files are generated here; AWS runs under
moto (or a fake where moto has no behaviour to offer); nothing touches the network."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sys
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import boto3
import httpx
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from memory_mcp.config import Settings
from memory_mcp.documents import formats as formats_module
from memory_mcp.documents import office as office_module
from memory_mcp.documents.extract import (
    OCR_MISSING,
    ExtractionError,
    Limits,
    extract_text,
)
from memory_mcp.documents.formats import ALLOWED, DOCX_TYPE, check_declared, safe_filename
from memory_mcp.documents.llm import (
    BedrockConverseExtractor,
    OfflineExtractor,
    OpenAIChatExtractor,
    build_fact_extractor,
    chunk_text,
    parse_reply,
)
from memory_mcp.documents.ocr import TesseractOcr, TextractOcr, build_ocr
from memory_mcp.documents.office import DOCX_CORRUPT, PDF_CORRUPT
from memory_mcp.documents.segment import split_memories, summarize
from memory_mcp.documents.sniff import detect_kind, image_size, verify
from memory_mcp.documents.storage import transcript_key
from memory_mcp.documents.transcribe import AwsTranscriber, build_transcriber
from memory_mcp.errors import ConfigurationError, InvalidInputError, UpstreamError

from fixtures_docs import (
    ID3_MP3,
    MP3_FRAME,
    WEBM,
    FakeBedrock,
    ftyp,
    gif_header,
    jpeg_header,
    make_docx,
    make_docx_table,
    make_pdf,
    png_bytes,
    text_image,
    wav_bytes,
    webp_header,
    zip_bytes,
)

PDF = ALLOWED["application/pdf"]
REPORT_PAGES = [
    ["Quarterly Report",
     "The company opened a new office in Lisbon in March. Revenue grew by 12.5 percent "
     "compared with the previous quarter, e.g. thanks to the new subscription plans."],
    ["Hiring", "The engineering team hired four new developers. Dr. Chen leads the platform "
     "group since January."],
    ["Outlook", "The board expects revenue to reach 4 million euros next year. A second office "
     "in Porto is planned for the autumn."],
]


def limits(max_chars: int = 100_000, pages: int = 300, seconds: float = 30.0) -> Limits:
    return Limits(max_chars, pages, time.monotonic() + seconds, seconds)


def memories_of(fmt_type: str, data: bytes, filename: str) -> list[str]:
    fmt = ALLOWED[fmt_type]
    verify(fmt, data)
    return split_memories(extract_text(fmt, data, filename, limits()).text, 50)


# --- declared types and filenames ------------------------------------------------------------

@pytest.mark.parametrize(("filename", "content_type", "canonical"), [
    ("notes.md", "text/markdown; charset=utf-8", "text/markdown"),
    ("NOTES.MARKDOWN", "Text/X-Markdown", "text/markdown"),
    ("notes.txt", "text/markdown", "text/markdown"),
    ("README", "text/plain", "text/plain"),
    ("clip.m4a", "audio/x-m4a", "audio/mp4"),
    ("take.wav", "audio/wave", "audio/wav"),
    ("photo.JPG", "image/jpeg", "image/jpeg"),
    ("cv.docx", DOCX_TYPE, DOCX_TYPE),
    ("talk.webm", "audio/webm", "audio/webm"),
])
def test_check_declared_accepts_and_normalises(filename: str, content_type: str,
                                               canonical: str) -> None:
    assert check_declared(filename, content_type).content_type == canonical


@pytest.mark.parametrize(("filename", "content_type", "message"), [
    ("a.zip", "application/zip", "Allowed types: application/pdf"),
    ("a.exe", "", "Unsupported content type"),
    ("", "application/pdf", "must not be empty"),
    ("dir/a.pdf", "application/pdf", "path separators"),
    ("dir\\a.pdf", "application/pdf", "path separators"),
    ("..", "text/plain", "not a valid filename"),
    ("x" * 252 + ".pdf", "application/pdf", "longer than 255"),
    ("bad\x00name.pdf", "application/pdf", "control characters"),
    ("invoice\u202efdp.exe.pdf", "application/pdf", "control characters"),
    ("report.docx", "application/pdf", "ending in .pdf"),
    ("table.csv", "text/plain", "ending in .txt"),
])
def test_check_declared_rejects(filename: str, content_type: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        check_declared(filename, content_type)
    assert message in str(info.value)


def test_safe_filename() -> None:
    assert safe_filename("Résumé (final) v2.PDF") == "Resume_final_v2.pdf"
    assert safe_filename("...hidden.txt") == "hidden.txt"
    assert safe_filename("данные.csv") == "file.csv"
    assert len(safe_filename("a" * 300 + ".md")) == 120
    assert "/" not in safe_filename("../../etc/passwd")


# --- magic numbers ---------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "kind"), [
    (make_pdf([["Hello PDF"]]), "pdf"),
    (b"\n\n\xe2\xe3%PDF-1.4 binary junk first", "pdf"),
    (b"Notes: a PDF starts with %PDF-1.7", "text"),
    (b"ID3 tags store the title of a song.", "text"),
    (zip_bytes({"a.txt": b"x"}), "zip"),
    (make_docx(), "docx"),
    (png_bytes(), "png"),
    (jpeg_header(), "jpeg"),
    (gif_header(), "gif"),
    (webp_header(), "webp"),
    (wav_bytes(), "wav"),
    (ID3_MP3, "mp3"),
    (MP3_FRAME, "mp3"),
    (ftyp(b"M4A "), "m4a"),
    (ftyp(b"isom"), "mp4"),
    (ftyp(b"heic"), "heif"),
    (WEBM, "webm"),
    (b"\x1a\x45\xdf\xa3\x42\x82\x88matroska", "matroska"),
    ("\ufeffcaf\u00e9 au lait".encode(), "text"),
    (b"name,role\nAda,engineer\n", "text"),
    (b"plain\x00binary", None),
    ("caf\u00e9".encode("latin-1"), None),
    (b"\xff\xff\xff\xff", None),
    (b"", None),
])
def test_detect_kind(data: bytes, kind: str | None) -> None:
    assert detect_kind(data) == kind


def test_verify_mismatches_have_human_messages() -> None:
    with pytest.raises(ExtractionError) as info:
        verify(PDF, zip_bytes({"a.txt": b"x"}))
    assert str(info.value) == "The file was declared as PDF but its contents are a ZIP archive."
    with pytest.raises(ExtractionError, match="declared as CSV but its contents are not UTF-8"):
        verify(ALLOWED["text/csv"], "caf\u00e9".encode("latin-1"))
    with pytest.raises(ExtractionError, match="contents are a PNG image"):
        verify(ALLOWED["text/markdown"], png_bytes())
    with pytest.raises(ExtractionError, match="empty"):
        verify(PDF, b"")
    for utf16 in ("UTF-16 fact: the VPN is WireGuard.".encode("utf-16"),  # FF FE: not MP1 audio
                  "Big-endian too.".encode("utf-16-be").join([b"\xfe\xff", b""])):
        verify(ALLOWED["text/plain"], utf16)  # Notepad's "Unicode": the BOM names it
    with pytest.raises(ExtractionError, match="declared as plain text but its contents "
                                              "are UTF-16 text that does not decode"):
        verify(ALLOWED["text/plain"], b"\xff\xfe" + "odd".encode("utf-16-le") + b"\x00")
    docx_type = ALLOWED["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]
    with pytest.raises(ExtractionError, match=r"^The Word document \(\.docx\) is damaged"):
        verify(docx_type, make_docx()[:-200])  # cut short, as by an interrupted download
    with pytest.raises(ExtractionError, match="declared as PDF but its contents are a damaged ZIP"):
        verify(PDF, zip_bytes({"a.txt": b"x"})[:-10])
    verify(ALLOWED["video/mp4"], ftyp(b"M4A "))  # MPEG-4 audio and video share a container
    verify(ALLOWED["audio/mp4"], ftyp(b"isom"))
    verify(ALLOWED["text/csv"], b"a,b\n1,2\n")
    verify(ALLOWED["text/markdown"], b"GIF89a is the animated GIF version.")
    verify(ALLOWED[DOCX_TYPE], make_docx())


def test_image_size_from_headers() -> None:
    assert image_size(png_bytes(3, 4), "png") == (3, 4)
    assert image_size(jpeg_header(640, 480), "jpeg") == (640, 480)
    assert image_size(gif_header(2, 3), "gif") == (2, 3)
    assert image_size(webp_header(5, 7), "webp") == (5, 7)
    assert image_size(b"\x89PNG", "png") is None


# --- extraction: PDF -------------------------------------------------------------------------

def test_pdf_round_trip_into_memories() -> None:
    data = make_pdf(REPORT_PAGES, title="Q3 Report 2024", running_header="ACME Corp Confidential")
    verify(PDF, data)
    extracted = extract_text(PDF, data, "q3.pdf", limits())
    assert (extracted.title, extracted.pages, extracted.truncated) == ("Q3 Report 2024", 3, False)
    memories = split_memories(extracted.text, 50)
    assert memories == [
        "The company opened a new office in Lisbon in March.",
        "Revenue grew by 12.5 percent compared with the previous quarter, e.g. thanks to the new "
        "subscription plans.",
        "Hiring: The engineering team hired four new developers.",
        "Hiring: Dr. Chen leads the platform group since January.",
        "Outlook: The board expects revenue to reach 4 million euros next year.",
        "Outlook: A second office in Porto is planned for the autumn.",
    ]  # running header and "Page N" footers dropped, headings kept as context
    assert summarize(extracted.title, extracted.text).startswith(
        "The company opened a new office in Lisbon in March. Revenue grew")


def test_pdf_title_falls_back_to_filename_and_text_is_truncated() -> None:
    extracted = extract_text(PDF, make_pdf(REPORT_PAGES), "annual_report.pdf", limits(120))
    assert extracted.title == "annual report"
    assert extracted.truncated and len(extracted.text) <= 120


def test_pdf_failures() -> None:
    with pytest.raises(ExtractionError) as info:
        extract_text(PDF, b"%PDF-1.7\n" + b"\x00garbage" * 50, "broken.pdf", limits())
    assert str(info.value) == PDF_CORRUPT
    with pytest.raises(ExtractionError) as info:
        extract_text(PDF, make_pdf(REPORT_PAGES), "big.pdf", limits(pages=2))
    assert str(info.value) == "The PDF has 3 pages; the limit is 2 pages per document."
    with pytest.raises(ExtractionError, match="password-protected"):
        extract_text(PDF, make_pdf(REPORT_PAGES, user_password="s3cret"), "locked.pdf", limits())
    with pytest.raises(ExtractionError, match="scanned document"):
        extract_text(PDF, make_pdf([[""]], footer=False), "blank.pdf", limits())


def test_pdf_with_only_an_owner_password_is_read() -> None:
    data = make_pdf(REPORT_PAGES, user_password="")
    assert "Lisbon" in extract_text(PDF, data, "restricted.pdf", limits()).text


def test_deadline_is_enforced_with_the_budget_in_the_message(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    expired = Limits(100_000, 300, time.monotonic() - 1, 120)
    with pytest.raises(ExtractionError, match="took longer than the 120 s time budget"):
        extract_text(PDF, make_pdf(REPORT_PAGES), "slow.pdf", expired)
    # ...and between pages: the clock runs out after the first page.
    # Only the extractor's clock: ``time.monotonic`` itself is every thread's clock, the live
    # server's event loop included (a finite iterator there would stop that loop).
    clock = iter([0.0, 0.0, 0.0, 999.0, 999.0])
    monkeypatch.setattr(formats_module, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    with pytest.raises(ExtractionError, match="time budget"):
        extract_text(PDF, make_pdf(REPORT_PAGES), "slow.pdf", Limits(100_000, 300, 10.0, 10))


# --- extraction: Word, CSV, Markdown, text ---------------------------------------------------

def test_docx_round_trip_into_memories() -> None:
    extracted = extract_text(ALLOWED[DOCX_TYPE], make_docx(title="Handbook"), "guide.docx",
                             limits())
    assert extracted.title == "Handbook"
    assert split_memories(extracted.text, 50) == [
        "New engineers receive a laptop on their first day.",
        "The security team enables disk encryption before handover.",
        "Contacts: Questions about payroll go to the finance office in Berlin.",
        "Contacts: VPN access is requested through the IT portal",
        "Name: Ada; Role: Engineer",
        "Name: Grace; Role: Admiral",
    ]
    untitled = extract_text(ALLOWED[DOCX_TYPE], make_docx(), "guide.docx", limits())
    assert untitled.title == "Onboarding Guide"  # the first heading


def test_docx_tables_keep_equal_cells_and_count_merged_ones_once() -> None:
    extracted = extract_text(ALLOWED[DOCX_TYPE], make_docx_table(), "pricing.docx", limits())
    assert split_memories(extracted.text, 10) == [
        "Feature: Export; Free: Yes; Pro: Yes",
        "Feature: Support; Free: Email only",
    ]


def test_docx_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = ALLOWED[DOCX_TYPE]
    with pytest.raises(ExtractionError) as info:
        extract_text(fmt, zip_bytes({"word/document.xml": b"<not-xml"}), "bad.docx", limits())
    assert str(info.value) == DOCX_CORRUPT
    monkeypatch.setattr(office_module, "MAX_DOCX_EXPANDED_BYTES", 1000)
    with pytest.raises(ExtractionError, match="expands to more than"):
        extract_text(fmt, make_docx(), "bomb.docx", limits())


def test_csv_rows_become_one_memory_each() -> None:
    data = (b"name,role,notes\nAda,engineer,\"Wrote the first program. Loved maths.\"\n"
            b"Grace,admiral,\n,,\nLin,,Likes tea\n")
    assert memories_of("text/csv", data, "staff.csv") == [
        "name: Ada; role: engineer; notes: Wrote the first program. Loved maths.",
        "name: Grace; role: admiral",
        "name: Lin; notes: Likes tea",
    ]
    assert memories_of("text/csv", b"city;country\nLisbon;Portugal\n", "c.csv") == [
        "city: Lisbon; country: Portugal"]  # sniffed dialect
    assert memories_of("text/csv", b"city\nLisbon\nPorto\n", "c.csv") == [
        "city: Lisbon", "city: Porto"]


def test_csv_failures_and_bounds() -> None:
    fmt = ALLOWED["text/csv"]
    with pytest.raises(ExtractionError, match="no data rows"):
        extract_text(fmt, b"name,role\n", "empty.csv", limits())
    rows = b"n,v\n" + b"".join(b"row%d,value\n" % i for i in range(1000))
    assert extract_text(fmt, rows, "many.csv", limits(200)).truncated
    previous = csv.field_size_limit(10)
    try:
        with pytest.raises(ExtractionError, match="could not be parsed"):
            extract_text(fmt, b"a,b\n" + b"x" * 50 + b",y\n", "wide.csv", limits())
    finally:
        csv.field_size_limit(previous)


def test_markdown_and_text() -> None:
    md = ("\ufeff# Team Handbook\n\nWelcome aboard. Ask **anyone** for help.\n\n## Billing\n\n"
          "Invoices are sent on the 1st of each month. See [the policy](https://x.example/p).\n"
          "Page 3 of 10\n\n---\n").encode()
    extracted = extract_text(ALLOWED["text/markdown"], md, "handbook.md", limits())
    assert extracted.title == "Team Handbook" and not extracted.text.startswith("\ufeff")
    assert split_memories(extracted.text, 10) == [
        "Welcome aboard. Ask anyone for help.",
        "Billing: Invoices are sent on the 1st of each month. See the policy.",
    ]
    plain = extract_text(ALLOWED["text/plain"], b"Just some words here.", "my_notes.txt", limits())
    assert plain.title == "my notes"
    with pytest.raises(ExtractionError, match=r"not valid UTF-8 or UTF-16 text \(invalid byte "
                                              r"at position 3\)"):
        extract_text(ALLOWED["text/plain"], "caf\u00e9".encode("latin-1"), "l.txt", limits())
    windows = "# Réunion\r\n\r\nLe café ouvre à 8 h.\r\n".encode("utf-16")  # Notepad "Unicode"
    read = extract_text(ALLOWED["text/markdown"], windows, "r.md", limits())
    assert read.title == "Réunion" and read.text.strip().endswith("Le café ouvre à 8 h.")
    csv_be = "\ufeffname,role\nAda,engineer\n".encode("utf-16-be")
    assert "name: Ada; role: engineer" in extract_text(ALLOWED["text/csv"], csv_be, "t.csv",
                                                       limits()).text
    with pytest.raises(ExtractionError, match=r"No text could be extracted from 'e\.txt'"):
        extract_text(ALLOWED["text/plain"], b" \n\n ", "e.txt", limits())


# --- extraction: images and media need engines -----------------------------------------------

class FakeOcr:
    def image_text(self, data: bytes, kind: str, deadline: float) -> str:
        return f"Text read from a {kind} image."


class FakeTranscriber:
    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def transcribe(self, *, bucket: str, key: str, media_format: str, job_name: str,
                   deadline: float) -> str:
        self.calls.append({"bucket": bucket, "key": key, "format": media_format, "job": job_name})
        return "Hello from the recording."


def test_images_and_media_need_an_engine() -> None:
    png = ALLOWED["image/png"]
    with pytest.raises(ExtractionError) as info:
        extract_text(png, png_bytes(), "scan.png", limits())
    assert str(info.value) == OCR_MISSING
    assert extract_text(png, png_bytes(), "scan.png", limits(), ocr=FakeOcr()).text == (
        "Text read from a png image.")
    audio = ALLOWED["audio/mp4"]
    with pytest.raises(ExtractionError, match="need Amazon Transcribe"):
        extract_text(audio, ftyp(b"M4A "), "a.m4a", limits())
    fake = FakeTranscriber()
    with pytest.raises(ExtractionError, match="only the hosted deployment"):
        extract_text(audio, ftyp(b"M4A "), "a.m4a", limits(), transcriber=fake)
    source = ("bucket", "uploads/s/d/a.m4a")
    result = extract_text(audio, ftyp(b"isom"), "a.m4a", limits(), transcriber=fake, source=source)
    extract_text(audio, ftyp(b"isom"), "a.m4a", limits(), transcriber=fake, source=source)
    assert result.text == "Hello from the recording."
    assert fake.calls[0]["format"] == "mp4"  # what the bytes are, not what was declared
    assert fake.calls[0]["job"] == fake.calls[1]["job"]  # deterministic: redelivery rejoins
    assert fake.calls[0]["job"].startswith("memory-mcp-") and len(fake.calls[0]["job"]) <= 200


# --- offline segmentation --------------------------------------------------------------------

def test_boilerplate_is_dropped() -> None:
    text = "\n".join([
        "Contents",
        "Introduction .......... 3",
        "Pricing . . . . . 7",
        "The service costs 20 euros per seat and month.",
        "12", "Page 3 of 10", "- 4 -", "iv",
        "Copyright 2024 Example Corp.", "(c) Example Corp", "All rights reserved by the owner.",
        "https://example.com/terms", "* * *", "![logo](logo.png)",
        "Support answers within one business day.",
    ])
    assert split_memories(text, 20) == [
        "The service costs 20 euros per seat and month.",
        "Support answers within one business day.",
    ]


def test_lines_that_differ_in_their_numbers_are_content_not_running_lines() -> None:
    """An inventory printed over four pages: every page opens and closes with host lines that
    differ only in their numbers. They are records, one memory each, all 150 kept; the
    document's real footer ("Inventory, page 2") still goes."""
    hosts = [f"Host db{i:03d} sits in rack {i % 9 + 1} with address 10.20.{i % 7}.{i} and runs "
             f"PostgreSQL {12 + i % 5}" for i in range(1, 151)]
    pages = ["\n".join([*hosts[n:n + 40], f"Inventory, page {n // 40 + 1}"])
             for n in range(0, 150, 40)]
    got = split_memories("\f".join(pages), 500)
    assert got == hosts


def test_one_record_per_line_without_full_stops_is_one_memory_per_line() -> None:
    """A plain-text list with no punctuation is not one paragraph cut every 500 characters;
    hard-wrapped prose still joins into its sentences."""
    rules = [f"Rule {i} allows tcp port {8000 + i} from 10.1.{i}.0/24 to the web tier"
             for i in range(1, 60)]
    assert split_memories("\n".join(rules), 500) == rules
    wrapped = ("The quarterly audit starts on the second Monday of April and runs\n"
               "for two weeks, during which the finance team freezes all vendor\n"
               "payments above ten thousand euros unless the controller signs off.")
    assert split_memories(wrapped, 500) == [" ".join(wrapped.split())]


def test_an_ordinal_day_before_a_month_is_no_sentence_end() -> None:
    text = ("Die Jahresinventur beginnt am 31. Dezember um acht Uhr. Der Bericht ist am "
            "14. Juli fällig. The limit is 12. Teams must ask before raising it. The team "
            "grew to 12. August was the busiest month of the year.")
    assert split_memories(text, 20) == [
        "Die Jahresinventur beginnt am 31. Dezember um acht Uhr.",
        "Der Bericht ist am 14. Juli fällig.", "The limit is 12.",
        "Teams must ask before raising it.", "The team grew to 12.",
        "August was the busiest month of the year."]


def test_wrapped_prose_lists_and_short_answers_are_not_taken_for_one_record_per_line() -> None:
    """What the one-statement-per-line rule must leave alone: prose wrapped at capitals, a
    numbered list under its lead, and question/answer lines whose answers are one word."""
    assert split_memories("The meeting with\nAlice and Bob covered the\nQ3 budget and the new "
                          "hire.", 20) == ["The meeting with Alice and Bob covered the Q3 budget "
                                           "and the new hire."]
    assert split_memories("We moved the database to\nAmsterdam last week. The\nOld cluster "
                          "stays up until May.", 20) == [
        "We moved the database to Amsterdam last week.", "The Old cluster stays up until May."]
    assert split_memories("Colors we use:\n1. Red\n2. Green\n3. Blue", 20) == [
        "Colors we use: Red; Green; Blue"]
    qa = split_memories("Is a VPN required for remote work\nYes\nIs MFA required for the wiki"
                        "\nNo", 20)
    assert "Yes" in " ".join(qa) and "No" in " ".join(qa).split("wiki", 1)[1]


def test_a_changing_figure_on_every_slide_is_content() -> None:
    """A slide deck whose every slide closes with this quarter's figure: the numbers do not
    count pages, so the lines are content, not a footer; "Slide 2 of 4" is a footer."""
    figures = [40, 44, 47, 52]
    slides = [f"Quarter {q} review\nHiring stayed on plan this quarter overall.\n"
              f"Headcount grew to {n} people\nSlide {q} of 4" for q, n in enumerate(figures, 1)]
    got = split_memories("\f".join(slides), 50)
    assert [m for m in got if "Headcount" in m] == [
        f"Headcount grew to {n} people" for n in figures]
    assert not any("Slide" in m for m in got)


def test_running_headers_and_footers_recurring_on_pages_are_dropped() -> None:
    bodies = ["Trains are booked through the travel desk.",
              "Flights need approval from a director.",
              "Hotels are reimbursed up to 150 euros per night.",
              "Taxis are allowed after ten in the evening."]
    pages = [f"Example Corp Handbook\n{body}\nPrinted 2024-01-0{n} page {n}"
             for n, body in enumerate(bodies, 1)]
    assert split_memories("\f".join(pages), 20) == bodies
    two_pages = split_memories("\f".join(pages[:2]), 20)  # too few pages to call it running
    assert "Printed 2024-01-01 page 1" in two_pages


def test_a_long_line_repeated_at_every_page_top_keeps_one_copy() -> None:
    """A status line opening every page, its only change the page's week number, is removed
    from the later pages like a header, but a line that long may be the document's own
    statement: its first copy stays (it had vanished from every page, unreported)."""
    status = "Week {} status: the staging cluster was upgraded to Kubernetes 1.27 without downtime"
    pages = [f"{status.format(n)}\nThe team met on day {n} to review the rollout plans.\n"
             f"Other notes for page {n} follow here." for n in range(1, 5)]
    got = split_memories("\f".join(pages), 500)
    kept = [m for m in got if "staging cluster" in m]
    assert len(kept) == 1 and kept[0].startswith(status.format(1))  # joined to the next line
    assert sum("The team met" in m for m in got) == 4
    # a short header still goes from every page
    short = [f"ACME internal handbook\nRule {n} says laptops lock after {n} minutes." for n
             in range(1, 5)]
    assert not any("ACME" in m for m in split_memories("\f".join(short), 500))


def test_extracted_text_is_composed_unicode() -> None:
    """A document's text is stored and split in NFC, as a saved memory is: a decomposed
    "café de José" was stored decomposed, and a keyword typed either way found nothing."""
    import unicodedata

    nfd = unicodedata.normalize("NFD", "# Réunion\n\nLe café de José ouvre à huit heures.")
    extracted = extract_text(ALLOWED["text/markdown"], nfd.encode(), "notes.md", limits())
    assert extracted.text == unicodedata.normalize("NFC", nfd) and extracted.title == "Réunion"


def test_control_characters_in_a_document_become_spaces_or_line_breaks() -> None:
    """A document cannot be asked to fix its text: an escape sequence was stored and echoed to
    readers' terminals, and the identical text could then not be saved or forgotten (callers'
    text refuses control characters). Line-break controls read as line breaks."""
    text = ("# Banner\x1b[0m\n\nThe deploy banner prints \x1b[31mFROZEN\x1b[0m in red during "
            "the freeze.\x0bThe pager beeps\x07 twice.\x85Nobody deploys on Fridays.")
    extracted = extract_text(ALLOWED["text/markdown"], text.encode(), "notes.md", limits())
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", extracted.text), extracted.text
    assert "prints  [31mFROZEN [0m in red" in extracted.text
    assert "freeze.\nThe pager beeps  twice.\nNobody deploys" in extracted.text
    assert extracted.title == "Banner [0m"


def test_content_that_looks_like_boilerplate_is_kept() -> None:
    """Found by a new user's upload: each of these was dropped while the document said "Fully
    indexed". A "(c)" clause among "(a)", "(b)"; a clause about copyright; "all rights
    reserved" inside a sentence; a near-duplicate that says the opposite or another day; a short
    fragment that says something; Chinese text (no spaces: one "word" to a whitespace count);
    lines that open every slide but differ in their numbers."""
    legal = ("(a) The seller delivers within 30 days.\n(b) The buyer pays within 14 days.\n"
             "(c) Late delivery costs 2% per week.\n\n"
             "Copyright in all drawings and designs transfers to the buyer on final payment.\n\n"
             "The buyer keeps all rights reserved under the warranty clause for two years.\n\n"
             "© 2024 Acme Inc. All rights reserved.\n\nAcme Inc. All rights reserved.")
    assert split_memories(legal, 20) == [
        "(a) The seller delivers within 30 days.", "(b) The buyer pays within 14 days.",
        "(c) Late delivery costs 2% per week.",
        "Copyright in all drawings and designs transfers to the buyer on final payment.",
        "The buyer keeps all rights reserved under the warranty clause for two years."]
    opposite = ["The database may be restarted during business hours without approval.",
                "The database may not be restarted during business hours without approval.",
                "The vendor meeting is on Monday at ten in room four.",
                "The vendor meeting is on Friday at ten in room four."]
    assert split_memories("\n\n".join(opposite), 20) == opposite
    # items in blocks of their own; a copyright clause without a year, mark or reservation
    items = "(a) One thing happens here.\n\n(b) Another follows it.\n\n(c) Late payment costs two "
    assert split_memories(items + "percent a month.\n\nCopyright in drawings passes to the buyer.",
                          9)[2:] == ["(c) Late payment costs two percent a month.",
                                     "Copyright in drawings passes to the buyer."]
    rows = "\n".join(f"order: {n}; region: eu; status: shipped; carrier: dhl" for n in range(300))
    assert len(split_memories(rows, 500)) == 300  # rows differing only in an id are all kept
    assert split_memories("WiFi: GuestNet\n\nCall Marta.\n\nBudget approved.\n\nThanks!", 9) == [
        "WiFi: GuestNet", "Call Marta.", "Budget approved."]
    assert split_memories("本公司的年度会议在三月举行。所有员工都必须参加。\n\n会议地点在上海总部。", 9) == [
        "本公司的年度会议在三月举行。", "所有员工都必须参加。", "会议地点在上海总部。"]
    slides = [f"Q{q} revenue was {r} million dollars.\nChurn was {c} percent this quarter."
              for q, r, c in ((1, 10, 5), (2, 12, 4), (3, 15, 3), (4, 19, 2))]
    kept = split_memories("\f".join(slides), 20)
    assert [k for k in kept if "revenue" in k] == [s.split("\n")[0] for s in slides]


def test_sentences_respect_abbreviations_decimals_and_urls() -> None:
    text = ("Dr. Smith moved to Berlin, e.g. for the new lab. The rate is 3.5 percent per year. "
            "See https://example.com/a.b?c=d for the details. Mr. J. R. Tolkien wrote it.")
    assert split_memories(text, 10) == [
        "Dr. Smith moved to Berlin, e.g. for the new lab.",
        "The rate is 3.5 percent per year.",
        "See https://example.com/a.b?c=d for the details.",
        "Mr. J. R. Tolkien wrote it.",
    ]


def test_short_fragments_join_and_long_sentences_split() -> None:
    assert split_memories("Yes. The deployment runs every night at two.", 5) == [
        "Yes. The deployment runs every night at two."]
    assert split_memories("Thanks!\n\nOk.", 5) == []  # lone fragments carry nothing
    clause = "the pipeline validates every record against the schema"
    long_sentence = "; ".join(f"{clause} number {n}" for n in range(20)) + "."
    parts = split_memories(long_sentence, 50)
    assert len(parts) > 1 and all(len(p) <= 500 for p in parts)
    assert all(p.endswith(";") for p in parts[:-1])  # cut at clause boundaries
    assert " ".join(parts) == long_sentence


def test_near_duplicates_merge_order_is_kept_and_the_cap_groups() -> None:
    text = ("The office opens at nine on weekdays.\n\n"
            "Parking is free for all employees on site.\n\n"
            "the office opens at NINE on weekdays!\n\n"
            "The main office opens at nine on weekdays, the staff said today, as always before.\n\n"
            "Badges must be worn inside the building at all times, every day, by all staff.\n\n"
            "Badges must be worn inside the building at all times, every day, by all the staff.")
    assert split_memories(text, 10) == [
        "The office opens at nine on weekdays.",
        "Parking is free for all employees on site.",
        "The main office opens at nine on weekdays, the staff said today, as always before.",
        "Badges must be worn inside the building at all times, every day, by all staff.",
    ]
    # Over the cap nothing is dropped: adjacent statements are grouped into passages.
    grouped = split_memories(text, 2)
    assert len(grouped) == 2 and "\n".join(grouped) == "\n".join(split_memories(text, 10))
    assert split_memories(text, 0) == []


def test_lists_and_tables_in_markdown() -> None:
    text = ("## Stack\n\nWe use these languages:\n- Python\n- Go\n"
            "- Every service is deployed with GitHub Actions.\n\n"
            "| Name | Role |\n|---|---|\n| Ada | Engineer |\n| Grace | Admiral |\n")
    assert split_memories(text, 10) == [
        "Stack: We use these languages: Python; Go",
        "Stack: Every service is deployed with GitHub Actions.",
        "Name: Ada; Role: Engineer",
        "Name: Grace; Role: Admiral",
    ]


@pytest.mark.parametrize("hostile", [
    "." * 100_000 + "x", "A. " * 30_000, "[" * 100_000, "![a](" * 20_000, "# " * 50_000,
    "Ab Cd\n" * 20_000, "- x\n" * 25_000, "| a | b |\n" * 10_000, "word " * 20_000,
])
def test_segmentation_stays_fast_on_pathological_text(hostile: str) -> None:
    started = time.monotonic()
    split_memories(hostile, 200)
    summarize("t", hostile)
    assert time.monotonic() - started < 5  # quadratic backtracking would take minutes


def test_summarize_is_an_extractive_lead() -> None:
    text = "# Travel Policy\n\n" + " ".join(
        f"Rule {n} says that trips over {n} days need approval." for n in range(1, 40))
    summary = summarize("Travel Policy", text, max_chars=200)
    assert summary.startswith("Rule 1 says that trips over 1 days need approval. Rule 2")
    assert len(summary) <= 200 and summary.endswith(".")
    assert summarize("t", "A" * 50 + " " + "word " * 300, max_chars=100).endswith("\u2026")
    assert summarize("Title", "") == ""


# --- OCR -------------------------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
@pytest.mark.parametrize(("pillow_format", "content_type"), [
    ("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")])
def test_tesseract_reads_a_rendered_image(pillow_format: str, content_type: str) -> None:
    from PIL import Image

    image = io.BytesIO()
    Image.open(io.BytesIO(text_image(["Invoice number 4711", "Total amount 250 EUR"]))).save(
        image, format=pillow_format)
    ocr = TesseractOcr()
    assert TesseractOcr.available()
    fmt = ALLOWED[content_type]
    verify(fmt, image.getvalue())
    extracted = extract_text(fmt, image.getvalue(), "invoice.img", limits(), ocr=ocr)
    assert "4711" in extracted.text and "Total amount" in extracted.text
    with pytest.raises(ExtractionError, match="could not be read by OCR"):
        ocr.image_text(png_bytes()[:30], "png", time.monotonic() + 30)


def test_tesseract_missing_binary_and_bounds() -> None:
    missing = TesseractOcr("/nonexistent/tesseract")
    assert not TesseractOcr.available("/nonexistent/tesseract")
    with pytest.raises(ExtractionError, match="apt-get install tesseract-ocr"):
        missing.image_text(png_bytes(), "png", time.monotonic() + 30)
    with pytest.raises(ExtractionError, match="100,000 x 100,000 pixels"):
        missing.image_text(png_bytes(100_000, 100_000), "png", time.monotonic() + 30)
    with pytest.raises(ExtractionError, match="time budget"):
        missing.image_text(png_bytes(), "png", time.monotonic() - 1)


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    with mock_aws():
        yield


def test_textract_joins_line_blocks(aws: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from moto.textract.models import TextractBackend

    monkeypatch.setattr(TextractBackend, "BLOCKS", [
        {"BlockType": "PAGE", "Id": "p"},
        {"BlockType": "LINE", "Text": "Meeting notes", "Id": "1"},
        {"BlockType": "WORD", "Text": "Meeting", "Id": "2"},
        {"BlockType": "LINE", "Text": "Budget approved", "Id": "3"},
    ])
    ocr = TextractOcr(boto3.client("textract", region_name="us-east-1"))
    assert ocr.image_text(png_bytes(), "png", time.monotonic() + 30) == (
        "Meeting notes\nBudget approved")
    from PIL import Image

    gif = io.BytesIO()
    Image.new("P", (4, 4)).save(gif, format="GIF")
    assert "Budget approved" in ocr.image_text(gif.getvalue(), "gif", time.monotonic() + 30)


def test_textract_errors_and_pillow_absence(monkeypatch: pytest.MonkeyPatch) -> None:
    client = boto3.client("textract", region_name="us-east-1", aws_access_key_id="x",
                          aws_secret_access_key="x")
    ocr = TextractOcr(client)
    with Stubber(client) as stub:
        stub.add_client_error("detect_document_text", "ThrottlingException")
        stub.add_client_error("detect_document_text", "BadDocumentException")
        with pytest.raises(UpstreamError):  # transient: the pipeline retries
            ocr.image_text(png_bytes(), "png", time.monotonic() + 30)
        with pytest.raises(ExtractionError, match="could not be read by OCR"):
            ocr.image_text(png_bytes(), "png", time.monotonic() + 30)
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ExtractionError, match="upload the image as PNG or JPEG"):
        ocr.image_text(webp_header(), "webp", time.monotonic() + 30)


def test_build_ocr_and_transcriber_follow_the_deployment() -> None:
    hosted = Settings(uploads_bucket="uploads-bucket")
    assert isinstance(build_ocr(hosted), TextractOcr)
    assert isinstance(build_transcriber(hosted), AwsTranscriber)
    local = Settings(uploads_bucket=None, tesseract_cmd="/nonexistent/tesseract")
    assert build_ocr(local) is None and build_transcriber(local) is None


# --- transcription ---------------------------------------------------------------------------

def test_aws_transcriber_reads_the_result_from_s3_and_rejoins_jobs(aws: None) -> None:
    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket="uploads")
    s3.put_object(Bucket="uploads", Key="uploads/s/d/talk.mp3", Body=ID3_MP3)
    job = "memory-mcp-test-job"
    s3.put_object(Bucket="uploads", Key=transcript_key(job), Body=json.dumps(
        {"results": {"transcripts": [{"transcript": "Welcome to the quarterly review."}]}}))
    waits: list[float] = []
    transcriber = AwsTranscriber(boto3.client("transcribe", region_name="us-east-1"), s3,
                                 output_bucket="uploads", sleep=waits.append)
    kwargs: dict[str, Any] = {"bucket": "uploads", "key": "uploads/s/d/talk.mp3",
                              "media_format": "mp3", "job_name": job,
                              "deadline": time.monotonic() + 30}
    assert transcriber.transcribe(**kwargs) == "Welcome to the quarterly review."
    assert waits and waits == sorted(waits)  # polled with growing waits
    assert transcriber.transcribe(**kwargs) == "Welcome to the quarterly review."  # Conflict
    described = boto3.client("transcribe", region_name="us-east-1").get_transcription_job(
        TranscriptionJobName=job)["TranscriptionJob"]
    assert described["Media"]["MediaFileUri"] == "s3://uploads/uploads/s/d/talk.mp3"


class FakeTranscribeClient:
    def __init__(self, statuses: list[str]) -> None:
        self.statuses = statuses

    def start_transcription_job(self, **kwargs: Any) -> dict[str, Any]:
        return {}

    def get_transcription_job(self, **kwargs: Any) -> dict[str, Any]:
        status = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        return {"TranscriptionJob": {"TranscriptionJobStatus": status,
                                     "FailureReason": "internal details"}}


def test_aws_transcriber_failure_and_deadline() -> None:
    args: dict[str, Any] = {"bucket": "b", "key": "k", "media_format": "wav", "job_name": "j"}
    failed = AwsTranscriber(FakeTranscribeClient(["IN_PROGRESS", "FAILED"]), object(),
                            sleep=lambda _: None)
    with pytest.raises(ExtractionError, match="could not transcribe") as info:
        failed.transcribe(**args, deadline=time.monotonic() + 30)
    assert "internal details" not in str(info.value)
    slow = AwsTranscriber(FakeTranscribeClient(["IN_PROGRESS"]), object(), sleep=time.sleep,
                          poll_initial_seconds=0.01)
    with pytest.raises(UpstreamError, match="will be retried"):  # the retry rejoins the job
        slow.transcribe(**args, deadline=time.monotonic() + 0.05)


# --- LLM fact extraction ---------------------------------------------------------------------

DOC = ("Ada Lovelace wrote the first published algorithm. She worked with Charles Babbage "
       "on the Analytical Engine.")


def openai_extractor(handler: Any, **kwargs: Any) -> OpenAIChatExtractor:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    return OpenAIChatExtractor("https://llm.test/v1/", "sk-test", "gpt-test", client, **kwargs)


def chat_reply(content: str) -> httpx.Response:
    return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})


def test_openai_extractor_uses_json_mode_and_parses_facts() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return chat_reply(json.dumps({"summary": "About Ada.", "facts": [
            "Ada Lovelace wrote the first published algorithm.",
            "Ada Lovelace worked with Charles Babbage on the Analytical Engine.",
            "ada lovelace wrote the first published algorithm!", 42]}))

    summary, facts = openai_extractor(handler).extract("Ada", DOC, 10)
    assert summary == "About Ada."
    assert facts == ["Ada Lovelace wrote the first published algorithm.",
                     "Ada Lovelace worked with Charles Babbage on the Analytical Engine."]
    body = json.loads(requests[0].content)
    assert str(requests[0].url) == "https://llm.test/v1/chat/completions"
    assert requests[0].headers["authorization"] == "Bearer sk-test"
    assert body["model"] == "gpt-test" and body["response_format"] == {"type": "json_object"}
    assert DOC in body["messages"][1]["content"]


@pytest.mark.parametrize("response", [
    chat_reply("Sure! Here are some facts: Ada was great."),
    chat_reply('{"summary": "x", "facts": "not a list"}'),
    httpx.Response(500, text="upstream stack trace"),
])
def test_openai_extractor_falls_back_offline(response: httpx.Response,
                                             caplog: pytest.LogCaptureFixture) -> None:
    result = openai_extractor(lambda request: response).extract("Ada", DOC, 10)
    assert result == OfflineExtractor().extract("Ada", DOC, 10)
    assert "offline extractor" in caplog.text and "stack trace" not in caplog.text


def test_openai_extractor_retries_without_json_mode_on_400() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        if "response_format" in bodies[-1]:
            return httpx.Response(400, json={"error": "response_format unsupported"})
        return chat_reply('```json\n{"summary": "s", "facts": ["Ada wrote code."]}\n```')

    assert openai_extractor(handler).extract("Ada", DOC, 10) == ("s", ["Ada wrote code."])
    assert len(bodies) == 2 and "response_format" not in bodies[1]


def test_llm_calls_are_bounded_and_the_rest_is_split_offline() -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.content.decode())
        return chat_reply(json.dumps({"summary": "s", "facts": [f"LLM fact {len(calls)}."]}))

    paragraphs = [f"Paragraph {n} says that team {n} owns service number {n}." for n in range(6)]
    extractor = openai_extractor(handler, chunk_chars=120, max_calls=2)
    _, facts = extractor.extract("t", "\n\n".join(paragraphs), 50)
    assert len(calls) == 2
    assert facts[:2] == ["LLM fact 1.", "LLM fact 2."]
    assert facts[-1] == paragraphs[-1]  # past the call budget: offline
    _, facts = extractor.extract("t", DOC, 50, deadline=time.monotonic() + 1)
    assert len(calls) == 2 and facts == split_memories(DOC, 50)  # too close to the deadline


def test_bedrock_converse_extractor() -> None:
    good = '{"summary": "About Ada.", "facts": [{"fact": "Ada Lovelace was a mathematician."}]}'
    client = FakeBedrock([good, RuntimeError("throttled")])
    extractor = BedrockConverseExtractor("amazon.nova-lite-v1:0", client)  # type: ignore[arg-type]
    assert extractor.extract("Ada", DOC, 5) == ("About Ada.", ["Ada Lovelace was a mathematician."])
    call = client.calls[0]
    assert call["modelId"] == "amazon.nova-lite-v1:0" and "JSON" in call["system"][0]["text"]
    assert call["inferenceConfig"]["temperature"] == 0.0
    assert extractor.extract("Ada", DOC, 5) == OfflineExtractor().extract("Ada", DOC, 5)


def test_parse_reply_and_chunking() -> None:
    assert parse_reply('noise {"facts": ["A b c."], "summary": 3} noise') == ("", ["A b c."])
    assert parse_reply("[1, 2]") is None and parse_reply("{broken") is None
    text = "\n\n".join(["x" * 50] * 5) + "\n\n" + "Sentence one. " * 20
    chunks = chunk_text(text, 120)
    assert all(len(c) <= 120 for c in chunks) and "".join(chunks).count("x") == 250


def test_build_fact_extractor() -> None:
    assert isinstance(build_fact_extractor(Settings(llm_provider="none")), OfflineExtractor)
    with pytest.raises(ConfigurationError, match="MEMORY_MCP_LLM_MODEL"):
        build_fact_extractor(Settings(llm_provider="bedrock", llm_model=None))
    assert isinstance(build_fact_extractor(Settings(llm_provider="bedrock", llm_model="m")),
                      BedrockConverseExtractor)
    assert isinstance(build_fact_extractor(Settings(llm_provider="openai", llm_model="m")),
                      OpenAIChatExtractor)
