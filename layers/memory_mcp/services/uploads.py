"""Start an upload (``POST /uploads``) and accept the bytes of a local one.

The document row is created only after every check passed (writable space, allowed type, size),
so a refused request leaves nothing behind. The client then PUTs the bytes to the returned URL:
S3 when hosted (its notification reaches the worker through SQS), or this server locally (which
enqueues the same job on the in-process worker).
"""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

import anyio.to_thread

from memory_mcp.db import documents as documents_db
from memory_mcp.db import processing
from memory_mcp.documents.formats import Format, check_declared, safe_filename
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.errors import (
    AccessDeniedError,
    ConfigurationError,
    ConflictError,
    GrantLostError,
    InvalidInputError,
    NotFoundError,
    TooLargeError,
)
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import audit, ratelimit
from memory_mcp.services import validation as v
from memory_mcp.services.access import checked_at_key_check, write_refusal
from memory_mcp.services.runtime import Conn, Runtime

#: Longest declared content type (``POST /uploads`` validates the same bound).
MAX_CONTENT_TYPE_CHARS = 255


def _storage(rt: Runtime) -> Any:
    if rt.storage is None:
        raise ConfigurationError("Uploads are not configured on this server.")
    return rt.storage


async def create_upload(
    rt: Runtime, principal: Principal, *, filename: str, content_type: str, size: int,
    container_tag: str | None, base_url: str,
) -> dict[str, Any]:
    v.check_text(filename, "filename")
    v.check_text(content_type, "contentType")
    if len(content_type) > MAX_CONTENT_TYPE_CHARS:  # the HTTP route's bound, for the tool too
        raise InvalidInputError(f"contentType is {len(content_type):,} characters; at most "
                                f"{MAX_CONTENT_TYPE_CHARS}.")
    fmt = check_declared(filename, content_type)
    limit = rt.settings.max_upload_bytes
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidInputError("The file is empty: there is nothing to upload." if size == 0
                                and not isinstance(size, bool) else
                                "size must be the file's size in bytes (at least 1).")
    if size > limit:
        raise TooLargeError(f"The file is {size:,} bytes; the limit is {limit:,} bytes.")
    storage = _storage(rt)
    try:  # a Reader, a Read grant or an ungranted space: refused before anything is counted
        space = checked_at_key_check(principal, container_tag, write=True)
        await ratelimit.take_write(rt, principal)
        try:  # opened only if the key may still write there (revoked, deactivated: refused)
            async with rt.transaction(write=[space.space_id], holder=principal.key_id) as conn:
                return await _create(rt, conn, principal, space, storage, fmt, filename, size,
                                     base_url)
        except GrantLostError:
            raise await write_refusal(rt, principal, space) from None
    except AccessDeniedError as exc:
        await audit.record_alone(rt, "write.denied", principal, space_id=exc.space_id,
                                 action="upload", reason=str(exc)[:200])
        raise


async def _create(rt: Runtime, conn: Conn, principal: Principal, space: SpaceAccess,
                  storage: Any, fmt: Format, filename: str, size: int, base_url: str
                  ) -> dict[str, Any]:
    """The document row, last, after every check (so a refusal writes nothing), and its
    audit event in the same transaction, whose first statement checked that the key may
    still write the space."""
    document_id = uuid.uuid4()
    key = f"uploads/{space.key}/{document_id}/{safe_filename(filename)}"
    target = storage.upload_target(key, fmt.content_type, size,
                                   rt.settings.upload_url_ttl_seconds, base_url, str(document_id))
    await documents_db.insert(
        conn, space_id=space.space_id, document_id=document_id, storage_key=key,
        user_id=principal.user_id, title=filename, filename=filename,
        content_type=fmt.content_type, size_bytes=size, status="queued",
        upload_expires_at=target.expires_at, key_id=principal.key_id)
    await audit.record(conn, "upload.accepted", principal, space_id=space.space_id,
                       target_id=document_id, contentType=fmt.content_type, size=size)
    return {
        "documentId": str(document_id),
        "space": space.key,
        "uploadUrl": target.url,
        "method": target.method,
        "headers": target.headers,
        "expiresAt": target.expires_at,
        "status": "queued",
    }


async def accept_local_upload(
    rt: Runtime, document_id: str, *, expires: int, sig: str, content_type: str, body: bytes,
) -> UUID:
    """Check the signed URL against the document, store the bytes, mark it uploaded."""
    storage = _storage(rt)
    if not isinstance(storage, LocalStorage):
        raise NotFoundError("Not found.")
    invalid = AccessDeniedError("The upload URL is not valid for this file.")
    try:
        doc_id = UUID(document_id)
    except ValueError:
        raise invalid from None
    async with rt.transaction(system=True) as conn:
        doc = await processing.by_id(conn, doc_id)
    if doc is None or doc["deleted_at"] is not None:
        raise invalid  # same answer as a bad signature: the URL says nothing about what exists
    storage.check_signature(str(doc_id), int(doc["size_bytes"]), doc["content_type"], expires, sig)
    if content_type.split(";")[0].strip().lower() != doc["content_type"]:
        raise InvalidInputError(f"Content-Type must be {doc['content_type']}, as declared.")
    if len(body) != doc["size_bytes"]:
        raise InvalidInputError(
            f"The body has {len(body):,} bytes but {doc['size_bytes']:,} were declared.")
    async with rt.transaction(system=True) as conn:  # one winner among concurrent PUTs of the same URL
        if not await processing.claim_upload(conn, doc_id):
            raise ConflictError("This document was already uploaded; start a new upload.")
    try:
        await anyio.to_thread.run_sync(storage.write, doc["storage_key"], body)
    except BaseException:
        async with rt.transaction(system=True) as conn:
            await processing.unclaim_upload(conn, doc_id)
        raise
    async with rt.transaction(system=True) as conn:
        now = await processing.by_id(conn, doc_id)
    if now is None or now["deleted_at"] is not None:
        # deleteDocument ran while the bytes were written, and found no file to remove: remove
        # it here (a delete from now on finds it), so no file outlives its document.
        await anyio.to_thread.run_sync(storage.delete, doc["storage_key"])
        raise invalid
    return doc_id
