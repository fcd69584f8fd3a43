"""Text in images: Tesseract locally, Amazon Textract when hosted.

Both engines sit behind the ``Ocr`` protocol so the pipeline never cares which one runs, and
tests can pass a fake. Tesseract is run as a subprocess (no Python binding to install, and a
timeout that really stops it); Textract is called synchronously (``DetectDocumentText``),
which takes PNG and JPEG bytes up to 10 MB, so GIF and WebP are converted with Pillow when it
is installed. Both refuse images whose header claims more pixels than ``MAX_IMAGE_PIXELS``
before any decoder allocates memory for them.
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import subprocess
import time
from typing import TYPE_CHECKING, Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from memory_mcp.documents.formats import ExtractionError
from memory_mcp.documents.sniff import image_size
from memory_mcp.errors import UpstreamError

if TYPE_CHECKING:
    from memory_mcp.config import Settings

log = logging.getLogger(__name__)

#: Largest image (width x height) handed to an OCR engine: 50 megapixels.
MAX_IMAGE_PIXELS = 50_000_000
#: Amazon Textract's limit for synchronous operations on raw bytes.
TEXTRACT_MAX_BYTES = 10 * 1024 * 1024
_TEXTRACT_KINDS = frozenset({"png", "jpeg"})
#: Textract errors that are about the image itself (anything else is treated as transient).
_TEXTRACT_BAD_INPUT = frozenset({
    "UnsupportedDocumentException", "BadDocumentException", "DocumentTooLargeException",
    "InvalidParameterException",
})
_UNREADABLE = "The image could not be read by OCR (it may be corrupt or in an unsupported format)."


class Ocr(Protocol):
    """Reads the text in one image (``kind``: png, jpeg, gif or webp) before ``deadline``."""

    def image_text(self, data: bytes, kind: str, deadline: float) -> str: ...


def check_pixels(data: bytes, kind: str) -> None:
    """Refuse decompression bombs: a small file whose header claims a gigantic canvas."""
    size = image_size(data, kind)
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise ExtractionError(
            f"The image is {size[0]:,} x {size[1]:,} pixels; the limit is "
            f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels."
        )


def _remaining(deadline: float) -> float:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise ExtractionError("Extraction took longer than the time budget (OCR did not start).")
    return remaining


class TesseractOcr:
    """The ``tesseract`` command-line program: image on stdin, text on stdout."""

    def __init__(self, cmd: str = "tesseract", language: str = "eng") -> None:
        self._cmd = cmd
        self._language = language

    @staticmethod
    def available(cmd: str = "tesseract") -> bool:
        """Whether the binary is on PATH (or at the configured path)."""
        return shutil.which(cmd) is not None

    def image_text(self, data: bytes, kind: str, deadline: float) -> str:
        check_pixels(data, kind)
        timeout = _remaining(deadline)
        # One thread: Tesseract's OpenMP build is much slower with threads on small machines.
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        try:
            done = subprocess.run(  # noqa: S603 - fixed argv, no shell
                [self._cmd, "stdin", "stdout", "-l", self._language],
                input=data, capture_output=True, timeout=timeout, check=False, env=env,
            )
        except FileNotFoundError:
            raise ExtractionError(
                f"Tesseract ({self._cmd}) is not installed; install it "
                "(apt-get install tesseract-ocr) to extract text from images."
            ) from None
        except subprocess.TimeoutExpired:
            raise ExtractionError("OCR took longer than the time budget for this document.") from None
        if done.returncode != 0:
            log.warning("tesseract exited %d: %s", done.returncode,
                        done.stderr.decode("utf-8", "replace")[-500:])
            raise ExtractionError(_UNREADABLE)
        return done.stdout.decode("utf-8", "replace").replace("\f", "").strip()


class TextractOcr:
    """Amazon Textract ``DetectDocumentText`` on the image bytes; LINE blocks joined."""

    def __init__(self, client: Any = None, *, region: str | None = None,
                 timeout_seconds: float = 30.0) -> None:
        self._client = client
        self._region = region
        self._timeout = timeout_seconds

    def image_text(self, data: bytes, kind: str, deadline: float) -> str:
        check_pixels(data, kind)
        if kind not in _TEXTRACT_KINDS:
            data = _to_png(data, kind)
        if len(data) > TEXTRACT_MAX_BYTES:
            raise ExtractionError("The image is larger than the 10 MB that Amazon Textract "
                                  "accepts; upload a smaller or more compressed image.")
        _remaining(deadline)
        try:
            response = self._textract().detect_document_text(Document={"Bytes": data})
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "?")
            log.warning("Textract DetectDocumentText failed: %s", code)
            if code in _TEXTRACT_BAD_INPUT:
                raise ExtractionError(_UNREADABLE) from None
            raise UpstreamError("Amazon Textract failed; the document will be retried.") from None
        except BotoCoreError as exc:
            log.warning("Textract DetectDocumentText failed: %r", exc)
            raise UpstreamError("Amazon Textract failed; the document will be retried.") from None
        lines = [str(block.get("Text", "")) for block in response.get("Blocks", [])
                 if block.get("BlockType") == "LINE"]
        return "\n".join(line for line in lines if line.strip())

    def _textract(self) -> Any:
        if self._client is None:
            import boto3
            from botocore.config import Config

            config = Config(connect_timeout=10, read_timeout=self._timeout,
                            retries={"max_attempts": 3, "mode": "standard"})
            self._client = boto3.client("textract", region_name=self._region, config=config)
        return self._client


def _to_png(data: bytes, kind: str) -> bytes:
    """GIF/WebP → PNG (first frame) for Textract, which reads only PNG and JPEG."""
    try:
        from PIL import Image
    except ImportError:
        raise ExtractionError(
            f"{kind.upper()} images cannot be sent to Amazon Textract without Pillow on the "
            "server; upload the image as PNG or JPEG instead."
        ) from None
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.seek(0)
            converted = image.convert("RGBA" if "A" in image.getbands() else "RGB")
            out = io.BytesIO()
            converted.save(out, format="PNG", optimize=True)
    except Exception as exc:  # Pillow raises many types (and DecompressionBombError) on bad input
        log.info("image conversion failed: %r", exc)
        raise ExtractionError(_UNREADABLE) from None
    return out.getvalue()


def build_ocr(settings: Settings) -> Ocr | None:
    """Textract when hosted (an uploads bucket is configured), else Tesseract if installed.

    ``None`` means images cannot be read here; extraction then fails with a reason that says
    what to install.
    """
    if settings.uploads_bucket:
        return TextractOcr()  # the function's own region (AWS_REGION)
    if TesseractOcr.available(settings.tesseract_cmd):
        return TesseractOcr(settings.tesseract_cmd)
    return None
