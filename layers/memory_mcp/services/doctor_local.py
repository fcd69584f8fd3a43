"""``memory-mcp doctor``'s checks that need no database: storage, extractors, signing, hosts.

They are also what the ``serve`` banner summarises, so each must be cheap (no network unless
the storage probe is asked for) and must never raise: a check that cannot run is a finding.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import stat
import uuid
from dataclasses import asdict, dataclass
from typing import Literal

from memory_mcp.config import Settings
from memory_mcp.errors import MemoryMcpError

Status = Literal["ok", "info", "warn", "fail"]
_NAMES = {"AwsTranscriber": "Amazon Transcribe",
          "OpenAITranscriber": "an OpenAI-compatible endpoint (MEMORY_MCP_TRANSCRIPTION_BASE_URL)"}


@dataclass(frozen=True)
class Check:
    """One finding. ``warn``: something users will hit (an upload type that fails); ``fail``:
    the deployment does not work as configured (doctor exits non-zero); ``info``: a choice."""

    name: str
    status: Status
    detail: str
    fix: str = ""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def storage(settings: Settings, probe: bool = True) -> Check:
    """Can uploads be stored? Writes and removes a probe object (never under ``uploads/``, so
    hosted it triggers no extraction)."""
    name = f"doctor/probe-{uuid.uuid4().hex}"
    if settings.uploads_bucket:
        where = f"S3 bucket {settings.uploads_bucket}"
        if not probe:
            return Check("storage", "info", f"{where} (not probed)")
        try:
            import boto3

            s3 = boto3.client("s3")
            s3.put_object(Bucket=settings.uploads_bucket, Key=name, Body=b"memory-mcp doctor")
            s3.delete_object(Bucket=settings.uploads_bucket, Key=name)
        except Exception as exc:  # botocore raises many types; the class name is enough
            return Check("storage", "fail", f"{where}: cannot write ({type(exc).__name__})",
                         "Check the bucket name (MEMORY_MCP_UPLOADS_BUCKET), the region and that "
                         "this role may s3:PutObject and s3:DeleteObject on it.")
        return Check("storage", "ok", f"{where} is writable")
    root = settings.data_dir / "objects"
    if not root.exists():  # doctor creates nothing: the server makes it at first start
        parent = next(p for p in [root, *root.absolute().parents] if p.exists())
        if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
            return Check("storage", "info", f"{root.absolute()} is created at first start")
        return Check("storage", "fail", f"{root.absolute()} cannot be created ({parent} is not "
                     "writable)", "Set MEMORY_MCP_DATA_DIR to a writable folder.")
    try:
        probe_file = root / name.replace("/", "-")
        probe_file.write_bytes(b"memory-mcp doctor")
        probe_file.unlink()
    except OSError as exc:
        return Check("storage", "fail", f"{root} is not writable ({exc.strerror})",
                     f"Make {root} writable for this user, or set MEMORY_MCP_DATA_DIR.")
    return Check("storage", "ok", f"local files in {root.resolve()}")


def extractors(settings: Settings) -> list[Check]:
    """Which upload types this deployment can read beyond text, PDF and Word."""
    from memory_mcp.documents.llm import build_fact_extractor
    from memory_mcp.documents.ocr import build_ocr
    from memory_mcp.documents.transcribe import build_transcriber

    checks: list[Check] = []
    ocr = build_ocr(settings)
    if ocr is None:
        checks.append(Check("ocr", "warn", "no OCR: image uploads (PNG, JPEG, WebP, GIF) fail",
                            "Install Tesseract (e.g. apt install tesseract-ocr, brew install "
                            "tesseract) or point MEMORY_MCP_TESSERACT_CMD at it."))
    else:
        checks.append(Check("ocr", "ok", "Amazon Textract" if settings.uploads_bucket else
                            f"Tesseract ({shutil.which(settings.tesseract_cmd)})"))
    transcriber = build_transcriber(settings)
    if transcriber is None:
        checks.append(Check("transcription", "warn",
                            "no transcription: audio and video uploads fail",
                            "Hosted, set MEMORY_MCP_UPLOADS_BUCKET (Amazon Transcribe); locally, "
                            "set MEMORY_MCP_TRANSCRIPTION_BASE_URL to an OpenAI-compatible "
                            "speech-to-text server (e.g. a local Whisper server)."))
    else:
        kind = type(transcriber).__name__
        checks.append(Check("transcription", "ok", _NAMES.get(kind, kind)))
    try:
        facts = build_fact_extractor(settings)
    except MemoryMcpError as exc:
        checks.append(Check("llm", "fail", str(exc), "Set MEMORY_MCP_LLM_MODEL, or "
                            "MEMORY_MCP_LLM_PROVIDER=none for the offline splitter."))
    else:
        if settings.llm_provider == "none":
            checks.append(Check("llm", "info", "no LLM: documents are split into sentences "
                                "offline", "For atomic facts set MEMORY_MCP_LLM_PROVIDER="
                                "bedrock|openai and MEMORY_MCP_LLM_MODEL."))
        else:
            checks.append(Check("llm", "ok", f"{settings.llm_provider} {settings.llm_model} "
                                f"({type(facts).__name__})"))
    return checks


def upload_signing(settings: Settings) -> Check:
    """Local upload URLs are HMAC-signed; hosted ones are S3 presigned (IAM-signed)."""
    if settings.uploads_bucket:
        return Check("upload signing", "ok", "S3 presigned URLs (signed by the function's role)")
    secret = settings.upload_signing_secret
    if secret is not None:
        if len(secret.get_secret_value()) < 32:
            return Check("upload signing", "warn", "MEMORY_MCP_UPLOAD_SIGNING_SECRET is shorter "
                         "than 32 characters", "Use a long random value, e.g. `python -c "
                         "'import secrets; print(secrets.token_urlsafe(32))'`.")
        return Check("upload signing", "ok", "MEMORY_MCP_UPLOAD_SIGNING_SECRET is set")
    key_file = settings.data_dir / "upload-signing.key"
    if not key_file.exists():
        return Check("upload signing", "info", f"a random key is created at first start in "
                     f"{key_file}")
    mode = stat.S_IMODE(os.stat(key_file).st_mode)
    if mode & 0o077:
        return Check("upload signing", "warn", f"{key_file} is readable by other users "
                     f"(mode {mode:o})", f"chmod 600 {key_file}")
    return Check("upload signing", "ok", f"generated key in {key_file}")


def _loopback(host: str) -> bool:
    if host in ("localhost", "::1"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(settings: Settings) -> Check:
    """The Host-header allow-list (DNS-rebinding guard)."""
    hosts = settings.allowed_hosts
    if hosts != ["*"]:
        return Check("allowed hosts", "ok", ", ".join(hosts))
    if _loopback(settings.host):
        return Check("allowed hosts", "info", f"any Host header (bound to {settings.host})",
                     'Before exposing the server, set MEMORY_MCP_ALLOWED_HOSTS=\'["your.host"]\'.')
    return Check("allowed hosts", "warn", f"any Host header is accepted on {settings.host}",
                 'Set MEMORY_MCP_ALLOWED_HOSTS=\'["memory.example.com"]\' to the names clients use.')


def local_checks(settings: Settings, *, probe_storage: bool = True) -> list[Check]:
    return [storage(settings, probe_storage), *extractors(settings), upload_signing(settings),
            allowed_hosts(settings)]


def missing_summary(checks: list[Check]) -> str | None:
    """One line for the ``serve`` banner: what is missing or failing, or None when nothing."""
    bad = [c for c in checks if c.status in ("warn", "fail")]
    if not bad:
        return None
    return ("Not set up: " + "; ".join(f"{c.name} ({c.detail})" for c in bad)
            + ". Run `memory-mcp doctor` for how to fix.")
