"""Stored originals in an import (``--with-files`` exports carry them base64 in the document).

An imported file is stored under ``imports/<space>/<document>/<name>``, never under
``uploads/``: hosted, objects created under ``uploads/`` trigger the extraction pipeline, and an
imported document is already extracted (its memories come from the file being imported).
``ObjectStorage`` has no write of its own (clients upload through signed URLs), so this module
writes with what each backend offers: the local store's atomic ``write``, or an S3 PUT.
"""

from __future__ import annotations

import base64
from uuid import UUID

from memory_mcp.documents.formats import safe_filename
from memory_mcp.documents.storage import LocalStorage, ObjectStorage, S3Storage
from memory_mcp.errors import ConfigurationError, UpstreamError

IMPORT_PREFIX = "imports/"


class StorageWriteError(UpstreamError):
    """Storing an imported original failed; the batch that carried it is rolled back."""


def storage_key_for(space_key: str, document_id: UUID, filename: str | None) -> str:
    return f"{IMPORT_PREFIX}{space_key}/{document_id}/{safe_filename(filename or 'file')}"


def put_file(storage: ObjectStorage | None, key: str, data_b64: str,
             content_type: str | None) -> None:
    """Store one original (the first pass already checked its base64, size and sha256)."""
    data = base64.b64decode(data_b64)
    if not isinstance(storage, LocalStorage | S3Storage):
        raise ConfigurationError("This export carries files, but no upload storage is set up "
                                 "to keep them (MEMORY_MCP_UPLOADS_BUCKET or the data dir).")
    try:
        if isinstance(storage, LocalStorage):
            storage.write(key, data)
        else:
            storage.client.put_object(Bucket=storage.bucket, Key=key, Body=data,
                                      ContentType=content_type or "application/octet-stream")
    except Exception as exc:  # OSError locally; botocore's many types on S3
        raise StorageWriteError(f"the original could not be stored ({type(exc).__name__})"
                                ) from exc

