"""Rows to the JSON shapes clients see (camelCase, ids as strings, ISO timestamps)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from memory_mcp.documents.coverage import SETTINGS
from memory_mcp.models import SpaceAccess, access_label

Row = dict[str, Any]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _id(value: Any) -> str | None:
    return str(value) if value is not None else None


def attribution(row: Row) -> dict[str, Any]:
    return {
        "createdByUserId": _id(row["created_by_user_id"]),
        "createdBy": row["created_by"],
        "updatedByUserId": _id(row["updated_by_user_id"]),
        "updatedBy": row["updated_by"],
        "createdAt": _iso(row["created_at"]),
        "updatedAt": _iso(row["updated_at"]),
    }


def memory(row: Row) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": str(row["id"]),
        "memory": row["content"],
        "category": row["category"],
        "version": row["version"],
        "isLatest": row["is_latest"],
        "isForgotten": row["is_forgotten"],
        "parentMemoryId": _id(row["parent_id"]),
        "sourceDocumentId": _id(row["source_document_id"]),
        **attribution(row),
    }
    source = row.get("source_document") if row["source_document_id"] is not None else None
    if source:  # [title, deleted]: a fact kept from a deleted document still names it
        if source[0]:
            view["sourceDocumentTitle"] = source[0]
        if source[1]:
            view["sourceDocumentDeleted"] = True
    if row["is_forgotten"]:
        view["forgottenAt"] = _iso(row["forgotten_at"])
        view["forgottenByUserId"] = _id(row["forgotten_by_user_id"])
        view["forgottenBy"] = row["forgotten_by"]
        view["forgetReason"] = row["forget_reason"]
    for signal in ("semantic", "lexical", "score"):  # search hits: the signals behind the rank
        if signal in row:
            view[signal] = round(float(row[signal]), 4) if row[signal] is not None else None
    if row.get("answer_type"):  # the score includes the answer-type bonus (services/rerank.py)
        view["answerType"] = row["answer_type"]
    return view


#: How long past its upload URL's expiry a PUT that started in time may still be arriving.
UPLOAD_GRACE = timedelta(minutes=5)


def upload_overdue(row: Row) -> bool:
    """A queued document whose upload URL expired (plus ``UPLOAD_GRACE``) with no arrival
    recorded. Not proof that no file arrived: on S3 arrival is recorded only when the
    extraction worker claims the file, so the caller checks storage
    (``documents.missing_upload``)."""
    expires = row.get("upload_expires_at")
    return (row["status"] == "queued" and row.get("uploaded_at") is None and expires is not None
            and datetime.now(UTC) > expires + UPLOAD_GRACE)


def document(row: Row, *, with_content: bool = False) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": str(row["id"]),
        "title": row["title"],
        "filename": row["filename"],
        "type": row["content_type"],
        "sizeBytes": row["size_bytes"],
        "status": row["status"],
        "statusReason": row["status_reason"],
        "summary": row["summary"],
        "memoryCount": row["memory_count"],
        "coverage": coverage(row),
        **attribution(row),
    }
    if with_content:
        view["content"] = row.get("content")
    return view


def coverage(row: Row) -> dict[str, Any] | None:
    """How much of a processed document is searchable and, if a bound cut it, which one (its
    setting) and what to do: ``note`` says it in plain words. None before processing finishes,
    and for documents processed before coverage was recorded."""
    if row.get("extracted_chars") is None:
        return None
    cut_by = row["cut_by"]
    return {
        "complete": cut_by is None,
        "sourceChars": row["source_chars"],
        "extractedChars": row["extracted_chars"],
        "indexedChars": row["indexed_chars"],
        "memoriesCreated": row["memories_created"],
        "pages": row["pages"],
        "pagesRead": row["pages_read"],
        "cutBy": cut_by,
        "setting": SETTINGS.get(cut_by) if cut_by else None,
        "note": row["coverage_note"],
    }


def space(access: SpaceAccess, stats: Row | None, active: bool) -> dict[str, Any]:
    return {
        "key": access.key,
        "containerTag": access.key,
        "name": access.name,
        "description": access.description,
        "access": access_label(access.effective),
        "grantedAccess": access_label(access.grant),
        "documentCount": int(stats["document_count"]) if stats else 0,
        "memoryCount": int(stats["memory_count"]) if stats else 0,
        "lastActivityAt": _iso(stats["last_activity_at"]) if stats else None,
        "active": active,
    }
