"""An upload whose file never arrives says so once its URL has expired (migration 0020)."""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

import pytest
from test_documents import NOTES, put_bytes, start_upload

from memory_mcp.db import documents as documents_db
from memory_mcp.db import processing
from memory_mcp.documents.storage import LocalStorage
from memory_mcp.errors import InvalidInputError
from memory_mcp.mcp import formatting
from memory_mcp.services import documents
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio


async def queued_row(rt: Runtime, principal: Any, space: str, expires: int) -> str:
    """A queued document as createUpload leaves it, with its URL expiring at ``expires``."""
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute("SELECT id FROM spaces WHERE key = %s", (space,))
        row = await cur.fetchone()
        assert row is not None
        doc = await documents_db.insert(
            conn, space_id=row["id"], user_id=principal.user_id, title="notes.md",
            filename="notes.md", content_type="text/markdown", size_bytes=10,
            storage_key=f"uploads/{space}/{expires}/notes.md", upload_expires_at=expires)
    return str(doc["id"])


async def status_row(rt: Runtime, doc: str) -> dict[str, Any]:
    async with rt.transaction(system=True) as conn:
        row = await processing.by_id(conn, UUID(doc))
    assert row is not None
    return row


async def test_a_file_that_never_arrived_says_so_after_its_url_expired(
    rt: Runtime, world: Any
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    stale = await queued_row(rt, m.principal, space, int(time.time()) - 3600)
    fresh = await queued_row(rt, m.principal, space, int(time.time()) + 600)
    just = await queued_row(rt, m.principal, space, int(time.time()) - 60)  # within the grace
    listed = {d["id"]: d for d in
              (await documents.list_page(rt, m.principal, 1, 10, space))["documents"]}
    reason = listed[stale]["statusReason"]
    assert listed[stale]["status"] == "failed"  # final: nothing waits for it any more
    assert reason.startswith("No file arrived: the upload URL expired at ")
    assert "UTC" in reason and "deleteDocument" in reason
    assert listed[fresh]["status"] == listed[just]["status"] == "queued"
    assert listed[fresh]["statusReason"] is None and listed[just]["statusReason"] is None
    assert "No file arrived" in formatting.document_line(listed[stale])
    row = await status_row(rt, stale)  # written once: later reads need no storage lookup
    assert row["status"] == "failed" and row["status_reason"] == reason
    got = await documents.get(rt, m.principal, stale)
    assert got["document"]["statusReason"] == reason
    assert "processing failed" in formatting.document(got)
    deleted = await documents.delete(rt, m.principal, stale)  # what the reason says to do
    assert deleted["forgottenMemories"] == 0 and deleted["fileRemoved"] is False
    with pytest.raises(InvalidInputError, match="no content or summary to page through"):
        await documents.get(rt, m.principal, fresh, offset=1000)


async def test_an_overdue_upload_whose_file_is_stored_is_not_called_missing(
    rt: Runtime, world: Any, storage: LocalStorage
) -> None:
    """On S3 a file that arrived is recorded only when the worker claims it: an overdue row
    whose object is in storage is waiting for the worker, not missing."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    stale = await queued_row(rt, m.principal, space, int(time.time()) - 3600)
    row = await status_row(rt, stale)
    storage.write(row["storage_key"], b"arrived")
    got = await documents.get(rt, m.principal, stale)
    assert got["document"]["status"] == "queued" and got["document"]["statusReason"] is None
    assert (await status_row(rt, stale))["status"] == "queued"


async def test_a_real_upload_records_its_urls_expiry_and_an_arrived_file_says_nothing(
    rt: Runtime, world: Any
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    started = await start_upload(rt, m.principal, "launch.md", "text/markdown", NOTES, space)
    async with rt.transaction(system=True) as conn:
        cur = await conn.execute(
            "SELECT extract(epoch FROM upload_expires_at)::bigint AS at FROM documents "
            "WHERE id = %s", (UUID(started["documentId"]),))
        row = await cur.fetchone()
    assert row is not None and row["at"] == started["expiresAt"]
    await put_bytes(rt, started, "text/markdown", NOTES)
    async with rt.transaction(system=True) as conn:  # as if the URL had expired since
        await conn.execute("UPDATE documents SET upload_expires_at = now() - interval '1 day' "
                           "WHERE id = %s", (UUID(started["documentId"]),))
    got = await documents.get(rt, m.principal, started["documentId"])
    assert got["document"]["status"] == "queued" and got["document"]["statusReason"] is None


def test_s3_storage_tells_a_missing_object_from_a_stored_one() -> None:
    import boto3
    from moto import mock_aws

    from memory_mcp.documents.storage import S3Storage

    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="uploads")
        client.put_object(Bucket="uploads", Key="uploads/s/d/notes.md", Body=b"x")
        s3 = S3Storage("uploads", client)
        assert s3.exists("uploads/s/d/notes.md") is True
        assert s3.exists("uploads/s/d/never.md") is False
