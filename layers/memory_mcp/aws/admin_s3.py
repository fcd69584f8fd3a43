"""S3 objects for the admin Lambda's ``export`` and ``import`` (aws/admin_events.py).

The function has no disk an operator can reach, so the file side of both commands is an S3
object: ``export ... --output s3://bucket/key`` writes the export to the function's ``/tmp``
and uploads it when the command succeeded (never a partial object), and ``import s3://bucket/key
...`` downloads it to ``/tmp`` first. The CLI itself only ever sees local paths. Which buckets
are reachable is the function role's IAM policy; errors name the S3 error code, never a body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse


class TransferArgsError(ValueError):
    """The event's export/import arguments cannot run here; the message says what to pass."""


@dataclass(frozen=True)
class S3Object:
    bucket: str
    key: str

    @classmethod
    def parse(cls, url: str) -> S3Object | None:
        parsed = urlparse(url)
        if parsed.scheme != "s3":
            return None
        key = parsed.path.lstrip("/")
        if not parsed.netloc or not key or key.endswith("/"):
            raise TransferArgsError(f"Not an S3 object URL: {url!r} (use s3://bucket/key).")
        return cls(parsed.netloc, key)

    def __str__(self) -> str:
        return f"s3://{self.bucket}/{self.key}"


def _client() -> Any:
    import boto3

    return boto3.client("s3")


def _code(exc: Exception) -> str:
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code") or type(exc).__name__)
    return type(exc).__name__


def localise(args: list[str], work: Path) -> tuple[list[str], Callable[[], dict[str, str]] | None]:
    """Args with S3 URLs replaced by paths under ``work`` (import: downloaded now), and what to
    run after a successful export (the upload). Other commands pass through unchanged."""
    words = [a for a in args if not a.startswith("-")]
    command = words[0] if words else None
    if command == "import":
        return _import(args, work), None
    if command == "export":
        return _export(args, work)
    return args, None


def _import(args: list[str], work: Path) -> list[str]:
    position = args.index("import") + 1
    if position >= len(args) or args[position].startswith("-"):
        raise TransferArgsError("import needs the file first: "
                                '{"args": ["import", "s3://bucket/key", "--space", "K"]}.')
    source = S3Object.parse(args[position])
    if source is None:
        raise TransferArgsError("In the admin function, import reads an S3 object: pass "
                                "s3://bucket/key as the file.")
    local = work / "import.jsonl"
    try:
        _client().download_file(source.bucket, source.key, str(local))
    except Exception as exc:  # botocore: ClientError and transfer errors
        raise TransferArgsError(f"Cannot read {source} ({_code(exc)}).") from None
    return [*args[:position], str(local), *args[position + 1:]]


def _export(args: list[str], work: Path) -> tuple[list[str], Callable[[], dict[str, str]]]:
    flag = next((i for i, a in enumerate(args) if a in ("--output", "-o")), None)
    target = S3Object.parse(args[flag + 1]) if flag is not None and flag + 1 < len(args) else None
    if target is None:
        raise TransferArgsError("In the admin function, export writes an S3 object: pass "
                                "--output s3://bucket/key.")
    assert flag is not None
    local = work / "export.jsonl"

    def upload() -> dict[str, str]:
        try:
            _client().upload_file(str(local), target.bucket, target.key,
                                  ExtraArgs={"ContentType": "application/x-ndjson"})
        except Exception as exc:
            raise TransferArgsError(f"Cannot write {target} ({_code(exc)}).") from None
        return {"output": str(target)}

    return [*args[:flag + 1], str(local), *args[flag + 2:]], upload
