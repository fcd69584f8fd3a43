"""Where uploaded bytes live: S3 when hosted, the data directory locally.

Both hand the client an upload target that behaves like a presigned URL (a PUT that expires and
is bound to the document's size and type), so the upload widget and scripts need one code path.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlencode

from memory_mcp.errors import AccessDeniedError, InvalidInputError, NotFoundError

#: Where Amazon Transcribe writes its results, in the uploads bucket (never under ``uploads/``,
#: so results do not trigger extraction).
TRANSCRIPT_PREFIX = "transcripts/"


def job_name_for(bucket: str, key: str) -> str:
    """Deterministic per object, so a redelivered job finds its transcription already started."""
    return "memory-mcp-" + hashlib.sha256(f"{bucket}/{key}".encode()).hexdigest()[:48]


def transcript_key(job_name: str) -> str:
    """Where a job's JSON result is written in the output bucket."""
    return f"{TRANSCRIPT_PREFIX}{job_name}.json"


def derived_keys(storage: ObjectStorage, key: str) -> list[str]:
    """Objects made from an upload that must go when it goes (a Transcribe result)."""
    location = storage.location(key)
    return [] if location is None else [transcript_key(job_name_for(*location))]


@dataclass(frozen=True)
class UploadTarget:
    url: str
    method: str
    headers: dict[str, str]
    expires_at: int  # unix seconds


class ObjectStorage(Protocol):
    def upload_target(self, key: str, content_type: str, size: int, expires_in: int,
                      base_url: str, document_id: str) -> UploadTarget: ...

    def read(self, key: str, max_bytes: int) -> bytes: ...

    def delete(self, key: str) -> None: ...

    def exists(self, key: str) -> bool:
        """Whether the object is stored; True when that cannot be told (never claim a file is
        missing on a guess)."""
        ...

    def location(self, key: str) -> tuple[str, str] | None:
        """``(bucket, key)`` when the object is in S3 (for Transcribe), else None."""
        ...


class S3Storage:
    """Presigned PUTs to the uploads bucket. ContentType and ContentLength are signed, so the
    client cannot upload a different type or size than it declared."""

    def __init__(self, bucket: str, client: Any = None) -> None:
        self.bucket = bucket
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3
            from botocore.config import Config

            self._client = boto3.client("s3", config=Config(signature_version="s3v4"))
        return self._client

    def upload_target(self, key: str, content_type: str, size: int, expires_in: int,
                      base_url: str, document_id: str) -> UploadTarget:
        url = self.client.generate_presigned_url(
            "put_object",
            Params={"Bucket": self.bucket, "Key": key, "ContentType": content_type,
                    "ContentLength": size},
            ExpiresIn=expires_in,
        )
        return UploadTarget(url, "PUT", {"Content-Type": content_type},
                            int(time.time()) + expires_in)

    def read(self, key: str, max_bytes: int) -> bytes:
        try:
            obj = self.client.get_object(Bucket=self.bucket, Key=key)
        except self.client.exceptions.NoSuchKey:
            raise NotFoundError("The uploaded file is missing from storage.") from None
        if int(obj.get("ContentLength", 0)) > max_bytes:
            raise InvalidInputError(f"The file is larger than the {max_bytes:,}-byte limit.")
        data: bytes = obj["Body"].read(max_bytes + 1)
        if len(data) > max_bytes:
            raise InvalidInputError(f"The file is larger than the {max_bytes:,}-byte limit.")
        return data

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=key)

    def exists(self, key: str) -> bool:
        """By listing the key's own prefix: ``s3:ListBucket`` limited to ``uploads/`` tells
        present from absent without the right to read any stored bytes (a HEAD needs
        ``s3:GetObject``, and answers 403, not 404, for a missing key without ListBucket)."""
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            found = self.client.list_objects_v2(Bucket=self.bucket, Prefix=key, MaxKeys=1)
        except (ClientError, BotoCoreError):
            return True
        return any(item.get("Key") == key for item in found.get("Contents", []))

    def location(self, key: str) -> tuple[str, str] | None:
        return self.bucket, key


class LocalStorage:
    """Files under ``<data_dir>/objects`` and HMAC-signed, expiring upload URLs on this server.

    The signature covers document id, size, content type and expiry, exactly like the fields an
    S3 presigned PUT binds, so a URL cannot be replayed for another document or a bigger file.
    """

    def __init__(self, root: Path, secret: bytes) -> None:
        self.root = root
        self.secret = secret

    @classmethod
    def from_data_dir(cls, data_dir: Path, secret: str | None) -> LocalStorage:
        root = data_dir / "objects"
        root.mkdir(parents=True, exist_ok=True)
        if secret:
            return cls(root, secret.encode())
        key_file = data_dir / "upload-signing.key"
        if not key_file.exists():  # first start: a random secret, readable only by us
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(32))
        return cls(root, key_file.read_text().strip().encode())

    def signature(self, document_id: str, size: int, content_type: str, expires: int) -> str:
        message = f"{document_id}\n{size}\n{content_type}\n{expires}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()

    def upload_target(self, key: str, content_type: str, size: int, expires_in: int,
                      base_url: str, document_id: str) -> UploadTarget:
        expires = int(time.time()) + expires_in
        query = urlencode({"expires": expires,
                           "sig": self.signature(document_id, size, content_type, expires)})
        url = f"{base_url.rstrip('/')}/uploads/local/{document_id}?{query}"
        return UploadTarget(url, "PUT", {"Content-Type": content_type}, expires)

    def check_signature(self, document_id: str, size: int, content_type: str, expires: int,
                        sig: str) -> None:
        expected = self.signature(document_id, size, content_type, expires)
        # bytes, not str: compare_digest refuses non-ASCII text, and a URL can carry anything
        if not hmac.compare_digest(expected.encode(), sig.encode("utf-8", "replace")):
            raise AccessDeniedError("The upload URL is not valid for this file.")
        if expires < time.time():
            raise AccessDeniedError("The upload URL has expired; request a new one.")

    def path(self, key: str) -> Path:
        target = (self.root / key).resolve()
        if self.root.resolve() not in target.parents:
            raise InvalidInputError("Invalid storage key.")
        return target

    def write(self, key: str, data: bytes) -> None:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        partial.write_bytes(data)
        partial.replace(target)  # atomic: a reader never sees half a file

    def read(self, key: str, max_bytes: int) -> bytes:
        target = self.path(key)
        if not target.exists():
            raise NotFoundError("The uploaded file is missing from storage.")
        if target.stat().st_size > max_bytes:
            raise InvalidInputError(f"The file is larger than the {max_bytes:,}-byte limit.")
        return target.read_bytes()

    def delete(self, key: str) -> None:
        """Remove the file and the folders it leaves empty (``uploads/<space>/<document>/``),
        up to the storage root."""
        target, root = self.path(key), self.root.resolve()
        target.unlink(missing_ok=True)
        folder = target.parent
        while folder != root and folder.is_relative_to(root):
            try:
                folder.rmdir()  # only when empty
            except OSError:
                break
            folder = folder.parent

    def exists(self, key: str) -> bool:
        return self.path(key).exists()

    def location(self, key: str) -> tuple[str, str] | None:
        return None
