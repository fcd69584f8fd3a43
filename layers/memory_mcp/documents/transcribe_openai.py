"""Speech in audio and video through any OpenAI-compatible transcription endpoint.

``POST {base}/v1/audio/transcriptions``, multipart ``file`` + ``model`` (+ ``response_format=json``),
answered ``{"text": "..."}``: OpenAI itself and the servers that copy its API (a local Whisper
server such as faster-whisper-server / speaches, whisper.cpp's server, LocalAI, vLLM). It is how
audio and video work without AWS: the bytes go in the request, so nothing needs S3. Plain httpx,
as in ``embeddings/openai.py``: one request shape does not justify an SDK in the Lambda layer.

Failures follow the pipeline's rule: trouble on the endpoint's side (unreachable, timed out,
429, 5xx) is an ``UpstreamError`` and the document is retried; a refusal of this file (other 4xx)
or an answer without a transcript is an ``ExtractionError``, the document's reason. Neither
carries the endpoint's response body (it may echo the request or internals), and the API key
is only ever a header.
"""

from __future__ import annotations

import json
import logging
import time
from typing import TYPE_CHECKING

import httpx

from memory_mcp.documents.formats import ExtractionError
from memory_mcp.errors import UpstreamError

if TYPE_CHECKING:
    from memory_mcp.config import Settings

log = logging.getLogger(__name__)

#: A transcript larger than this is not read (hours of speech are well under 1 MB of text).
MAX_RESPONSE_BYTES = 16 * 1024 * 1024
_RETRY = "The transcription endpoint is unavailable right now; the document will be retried."


def endpoint(base_url: str) -> str:
    """``{base}/v1/audio/transcriptions``; a base that already ends in ``/v1`` (as the other
    OpenAI-compatible settings do) is accepted too."""
    base = base_url.rstrip("/")
    return (base if base.endswith("/v1") else base + "/v1") + "/audio/transcriptions"


class OpenAITranscriber:
    """Sends the uploaded bytes to the endpoint and returns the transcript's text.

    The ``httpx.Client`` is created once per process; a ``transport`` can be injected for tests.
    """

    def __init__(self, base_url: str, *, model: str, api_key: str | None = None,
                 timeout_seconds: float = 300.0, max_bytes: int = 25 * 1024 * 1024,
                 transport: httpx.BaseTransport | None = None) -> None:
        self._url = endpoint(base_url)
        self._model = model
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_seconds
        self._max_bytes = max_bytes
        self._client = httpx.Client(transport=transport, follow_redirects=False)

    def transcribe_upload(self, *, data: bytes, filename: str, content_type: str,
                          deadline: float) -> str:
        """The transcript of ``data`` before ``deadline`` (``time.monotonic()``)."""
        if len(data) > self._max_bytes:
            raise ExtractionError(
                f"The recording is {_size(len(data))}; the transcription endpoint accepts at "
                f"most {_size(self._max_bytes)} (MEMORY_MCP_TRANSCRIPTION_MAX_BYTES). Split or "
                "compress it and upload it again.")
        remaining = min(self._timeout, deadline - time.monotonic())
        if remaining <= 1:
            raise UpstreamError("No time was left in this attempt to transcribe the recording; "
                                "the document will be retried.")
        try:
            with self._client.stream(
                "POST", self._url, headers=self._headers, timeout=remaining,
                files={"file": (filename, data, content_type)},
                data={"model": self._model, "response_format": "json"},
            ) as response:
                self._check_status(response.status_code)
                body = _read_bounded(response)
        except httpx.HTTPError as exc:  # connect/read errors and timeouts: never the key
            log.warning("transcription request failed: %s", type(exc).__name__)
            raise UpstreamError(_RETRY) from None
        return _transcript(body)

    def _check_status(self, status: int) -> None:
        if status < 300:
            return
        log.warning("transcription endpoint answered HTTP %d", status)
        if status == 429 or status >= 500:
            raise UpstreamError(_RETRY)
        if status in (401, 403):
            raise ExtractionError(f"The transcription endpoint refused the credentials (HTTP "
                                  f"{status}); check MEMORY_MCP_TRANSCRIPTION_API_KEY.")
        if status == 404:
            raise ExtractionError(f"The transcription endpoint was not found (HTTP 404 at "
                                  f"{self._url}); check MEMORY_MCP_TRANSCRIPTION_BASE_URL.")
        raise ExtractionError(f"The transcription endpoint rejected the file (HTTP {status}); "
                              "it may be in an unsupported format or encoding, or the model "
                              "(MEMORY_MCP_TRANSCRIPTION_MODEL) may be unknown to it.")


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n:,} bytes"


def _read_bounded(response: httpx.Response) -> bytes:
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) > MAX_RESPONSE_BYTES:
            raise ExtractionError("The transcription endpoint's answer is too large to process.")
    return bytes(body)


def _transcript(body: bytes) -> str:
    try:
        text = json.loads(body)["text"]
    except (ValueError, KeyError, TypeError):
        text = None
    if not isinstance(text, str):
        raise ExtractionError('The transcription endpoint answered without a transcript (JSON '
                              'with a "text" field was expected).')
    return text.strip()


def build_openai_transcriber(settings: Settings) -> OpenAITranscriber | None:
    """The configured endpoint, or ``None`` when ``transcription_base_url`` is unset."""
    if not settings.transcription_base_url:
        return None
    key = settings.transcription_api_key
    return OpenAITranscriber(settings.transcription_base_url, model=settings.transcription_model,
                             api_key=key.get_secret_value() if key else None,
                             timeout_seconds=settings.transcription_timeout_seconds,
                             max_bytes=settings.transcription_max_bytes)
