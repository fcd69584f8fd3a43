"""Speech in audio and video: through Amazon Transcribe (hosted), or through an OpenAI-compatible
endpoint (``transcribe_openai``, anywhere) when one is configured.

Transcribe reads the media straight from the uploads bucket and writes its JSON result back
into it (``transcripts/<job>.json``): the worker's VPC has no NAT, so the presigned
``TranscriptFileUri`` on the public internet is unreachable, while S3 is reached through a
gateway endpoint. The job name is derived from the object, so a redelivered message finds the
job already started (``ConflictException``) and simply waits for it again.

A job still running when the document's time budget runs out raises ``UpstreamError``, not
``ExtractionError``: the pipeline then retries the document later, and the retry picks up the
same job (probably finished by then) instead of starting over or failing a long recording.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from botocore.exceptions import BotoCoreError, ClientError

from memory_mcp.documents.formats import ExtractionError, Format
from memory_mcp.documents.sniff import detect_kind
from memory_mcp.documents.storage import job_name_for, transcript_key
from memory_mcp.errors import UpstreamError

if TYPE_CHECKING:
    from memory_mcp.config import Settings

log = logging.getLogger(__name__)

#: A transcript larger than this is not read (hours of speech are a few MB of JSON).
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
_RETRY = "Amazon Transcribe is unavailable right now; the document will be retried."
MISSING = ("Audio and video need Amazon Transcribe (hosted deployment) or an OpenAI-compatible "
           "transcription endpoint such as a local Whisper server "
           "(MEMORY_MCP_TRANSCRIPTION_BASE_URL); neither is configured.")


class Transcriber(Protocol):
    """Transcribes the object ``s3://bucket/key`` before ``deadline`` (``time.monotonic()``)."""

    def transcribe(self, *, bucket: str, key: str, media_format: str, job_name: str,
                   deadline: float) -> str: ...


@runtime_checkable
class UploadTranscriber(Protocol):
    """Transcribes the uploaded bytes themselves (an HTTP endpoint: no S3 needed)."""

    def transcribe_upload(self, *, data: bytes, filename: str, content_type: str,
                          deadline: float) -> str: ...


AnyTranscriber = Transcriber | UploadTranscriber


def media_text(fmt: Format, data: bytes, filename: str, transcriber: AnyTranscriber | None,
               source: tuple[str, str] | None, deadline: float) -> str:
    """The audio/video path of ``extract_text``: send the bytes to an endpoint, or have Amazon
    Transcribe read the stored object in place."""
    if transcriber is None:
        raise ExtractionError(MISSING)
    if isinstance(transcriber, UploadTranscriber):
        return transcriber.transcribe_upload(data=data, filename=filename,
                                             content_type=fmt.content_type, deadline=deadline)
    if source is None:
        raise ExtractionError("Transcription reads the file from S3, which only the hosted "
                              "deployment has; audio and video cannot be processed here.")
    bucket, key = source
    detected = detect_kind(data)  # MPEG-4 audio and video share a container: say which it is
    media_format = detected if detected in ("m4a", "mp4") else fmt.kind
    return transcriber.transcribe(bucket=bucket, key=key, media_format=media_format,
                                  job_name=job_name_for(bucket, key), deadline=deadline)


class AwsTranscriber:
    """Start (or rejoin) a Transcribe job, poll it with backoff, read the result from S3."""

    def __init__(
        self, client: Any = None, s3: Any = None, *, language: str = "en-US",
        output_bucket: str | None = None, region: str | None = None,
        poll_initial_seconds: float = 2.0, poll_max_seconds: float = 15.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._client = client
        self._s3 = s3
        self._language = language
        self._output_bucket = output_bucket
        self._region = region
        self._poll_initial = poll_initial_seconds
        self._poll_max = poll_max_seconds
        self._sleep = sleep

    def transcribe(self, *, bucket: str, key: str, media_format: str, job_name: str,
                   deadline: float) -> str:
        output_bucket = self._output_bucket or bucket
        self._start(bucket, key, media_format, job_name, output_bucket)
        self._wait(job_name, deadline)
        return self._read(output_bucket, transcript_key(job_name))

    def _start(self, bucket: str, key: str, media_format: str, job_name: str,
               output_bucket: str) -> None:
        try:
            self._transcribe().start_transcription_job(
                TranscriptionJobName=job_name,
                LanguageCode=self._language,
                MediaFormat=media_format,
                Media={"MediaFileUri": f"s3://{bucket}/{key}"},
                OutputBucketName=output_bucket,
                OutputKey=transcript_key(job_name),
            )
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "?")
            if code == "ConflictException":
                log.info("transcription job %s already exists; waiting for it", job_name)
                return
            log.warning("Transcribe StartTranscriptionJob %s failed: %s", job_name, code)
            if code == "BadRequestException":
                raise ExtractionError("Amazon Transcribe rejected the file (it may be in an "
                                      "unsupported encoding).") from None
            raise UpstreamError(_RETRY) from None
        except BotoCoreError as exc:
            log.warning("Transcribe StartTranscriptionJob %s failed: %r", job_name, exc)
            raise UpstreamError(_RETRY) from None

    def _wait(self, job_name: str, deadline: float) -> None:
        delay = self._poll_initial
        while True:
            try:
                job = self._transcribe().get_transcription_job(
                    TranscriptionJobName=job_name)["TranscriptionJob"]
            except (ClientError, BotoCoreError, KeyError) as exc:
                log.warning("Transcribe GetTranscriptionJob %s failed: %r", job_name, exc)
                raise UpstreamError(_RETRY) from None
            status = job.get("TranscriptionJobStatus")
            if status == "COMPLETED":
                return
            if status == "FAILED":
                log.warning("transcription job %s failed: %s", job_name, job.get("FailureReason"))
                raise ExtractionError("Amazon Transcribe could not transcribe the file (it may "
                                      "be corrupt, silent or in an unsupported encoding).")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise UpstreamError("Transcription took longer than this attempt's time budget; "
                                    "the document will be retried and resume waiting for it.")
            self._sleep(min(delay, remaining))
            delay = min(delay * 1.5, self._poll_max)

    def _read(self, bucket: str, key: str) -> str:
        """``results.transcripts[*].transcript`` of the JSON result, joined."""
        try:
            obj = self._storage().get_object(Bucket=bucket, Key=key)
            if int(obj.get("ContentLength", 0)) > MAX_TRANSCRIPT_BYTES:
                raise ExtractionError("The transcript is too large to process.")
            payload = json.loads(obj["Body"].read(MAX_TRANSCRIPT_BYTES + 1))
            transcripts = payload["results"]["transcripts"]
            return "\n".join(str(t.get("transcript", "")) for t in transcripts
                             if isinstance(t, dict)).strip()
        except ExtractionError:
            raise
        except (ClientError, BotoCoreError, ValueError, KeyError, TypeError) as exc:
            log.warning("reading transcript s3://%s/%s failed: %r", bucket, key, exc)
            raise UpstreamError("The transcript could not be read; the document will be "
                                "retried.") from None

    def _transcribe(self) -> Any:
        if self._client is None:
            import boto3

            self._client = boto3.client("transcribe", region_name=self._region)
        return self._client

    def _storage(self) -> Any:
        if self._s3 is None:
            import boto3

            self._s3 = boto3.client("s3", region_name=self._region)
        return self._s3


def build_transcriber(settings: Settings) -> AnyTranscriber | None:
    """The configured OpenAI-compatible endpoint if any (it is the operator's explicit choice),
    else Amazon Transcribe when hosted (an uploads bucket is configured), else ``None``."""
    from memory_mcp.documents.transcribe_openai import build_openai_transcriber

    endpoint = build_openai_transcriber(settings)
    if endpoint is not None:
        return endpoint
    if not settings.uploads_bucket:
        return None
    return AwsTranscriber(language=settings.transcribe_language,
                          output_bucket=settings.uploads_bucket)
