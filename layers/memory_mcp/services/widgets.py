"""What the four widget tools return besides the graph: the space picker, the guided-save
draft, and the upload form with its app-only helpers.

Every function here is read-only except ``select`` (the active space) and ``upload_start``
(the queued document row, created by ``uploads.create_upload`` only after all its checks). The
draft and the upload form list only spaces the key can *write* to, so a Reader is told there is
nowhere to save instead of being refused on submit.
"""

from __future__ import annotations

from typing import Any

from memory_mcp.db import documents as documents_db
from memory_mcp.db import identity
from memory_mcp.db import memories as memories_db
from memory_mcp.documents.formats import ALLOWED
from memory_mcp.errors import NotFoundError
from memory_mcp.models import Principal, SpaceAccess
from memory_mcp.services import documents as documents_service
from memory_mcp.services import spaces as spaces_service
from memory_mcp.services import uploads, views
from memory_mcp.services import validation as v
from memory_mcp.services.access import (
    checked_tag,
    default_space,
    readable_spaces,
    space_not_found,
)
from memory_mcp.services.runtime import Runtime

#: Memories shown by the upload view once a document is done.
STATUS_MEMORIES = 20


async def select(rt: Runtime, principal: Principal, container_tag: str | None) -> dict[str, Any]:
    """With a tag: switch at once. Without: the picker's list; nothing changes."""
    if container_tag is not None and container_tag.strip():
        switched = await spaces_service.select_space(rt, principal, container_tag)
        listed = await spaces_service.list_spaces(rt, principal)  # principal predates the switch
        chosen = switched["activeSpace"]["key"]
        items = [{**s, "active": s["key"] == chosen} for s in listed["spaces"]]
        return {"mode": "switched", **switched, "spaces": items}
    listed = await spaces_service.list_spaces(rt, principal)
    active = next((s for s in listed["spaces"] if s["active"]), None)
    return {"mode": "pick", "spaces": listed["spaces"], "count": listed["count"],
            "activeSpace": None if active is None else
            {"key": active["key"], "name": active["name"], "access": active["access"]}}


async def _writable(rt: Runtime, principal: Principal, container_tag: str | None
                    ) -> tuple[list[dict[str, Any]], str | None, str | None]:
    """(writable space views, the default among them, a note for the person or None)."""
    async with rt.transaction() as conn:
        spaces = await readable_spaces(conn, principal)
        stats = {r["space_id"]: r
                 for r in await identity.space_stats(conn, [s.space_id for s in spaces])}
    active = default_space(principal, spaces)
    writable = sorted((s for s in spaces if s.writable), key=lambda s: s.key)
    items = [views.space(s, stats.get(s.space_id), active is not None
                         and s.space_id == active.space_id) for s in writable]
    if not writable:
        return items, None, _nowhere(principal, spaces)
    chosen: SpaceAccess | None = None
    note = None
    if container_tag is not None and container_tag.strip():
        tag = checked_tag(container_tag)
        requested = next((s for s in spaces if s.key == tag.lower()), None)  # as `granted`
        if requested is None:
            raise space_not_found(tag)
        if requested.writable:
            chosen = requested
        else:
            note = (f"You can read “{requested.name}” ({requested.key}) but not write to it; "
                    "choose one of the spaces below.")
    if chosen is None:
        chosen = active if active is not None and active.writable else writable[0]
    return items, chosen.key, note


def _nowhere(principal: Principal, spaces: list[SpaceAccess]) -> str:
    if principal.role == "reader":
        return ("There is nowhere you can save: your account is a Reader, so every space is "
                "read-only for you. Ask an admin to make you a Writer.")
    if not spaces:
        return "There is nowhere you can save: this key has no spaces. Ask an admin to grant one."
    return ("There is nowhere you can save: this key can only read its spaces "
            f"({', '.join(s.key for s in spaces)}). Ask an admin for ReadWrite on one.")


async def draft(rt: Runtime, principal: Principal, content: str | None, category: str | None,
                container_tag: str | None) -> dict[str, Any]:
    """The guided-save form: a prefilled draft and where it may go. Saves nothing."""
    text = (content or "").strip()
    if text:  # an empty draft is fine (the person writes it); a bad one gets the save's error
        v.content(text, rt.settings.max_content_chars)
    tag = v.category(category)
    items, default, note = await _writable(rt, principal, container_tag)
    return {"draft": {"content": text, "category": tag, "containerTag": default},
            "writableSpaces": items, "canSave": bool(items), "message": note,
            "maxChars": rt.settings.max_content_chars}


#: What a person reads in the upload form, per format kind.
TYPE_LABELS = {
    "text": "Plain text", "markdown": "Markdown", "csv": "CSV", "pdf": "PDF", "docx": "Word",
    "png": "PNG", "jpeg": "JPEG", "webp": "WebP", "gif": "GIF", "mp3": "MP3", "wav": "WAV",
    "m4a": "M4A", "mp4": "MP4 video", "webm": "WebM",
}


def accepted_types() -> list[dict[str, str]]:
    """One entry per filename extension, with the content type to declare for it: the format
    that lists the extension first (``.md`` is Markdown, not plain text; ``.mp4`` is video)."""
    best: dict[str, tuple[int, dict[str, str]]] = {}
    for fmt in ALLOWED.values():
        for rank, ext in enumerate(fmt.extensions):
            if ext not in best or rank < best[ext][0]:
                best[ext] = (rank, {"extension": ext, "contentType": fmt.content_type,
                                    "label": TYPE_LABELS.get(fmt.kind, fmt.kind)})
    return sorted((entry for _, entry in best.values()), key=lambda t: t["extension"])


async def upload_form(rt: Runtime, principal: Principal, container_tag: str | None
                      ) -> dict[str, Any]:
    items, default, note = await _writable(rt, principal, container_tag)
    if rt.storage is None:
        items, default, note = [], None, "Uploads are not configured on this server."
    elif not items and note:
        note = note.replace("nowhere you can save", "nowhere you can upload")
    return {"writableSpaces": items, "defaultSpace": default, "canUpload": bool(items),
            "message": note, "maxBytes": rt.settings.max_upload_bytes, "types": accepted_types()}


async def upload_start(rt: Runtime, principal: Principal, *, filename: str, content_type: str,
                       size: int, container_tag: str | None, base_url: str) -> dict[str, Any]:
    """The same checks and result as ``POST /uploads`` (ReadWrite, type, size; row last)."""
    return await uploads.create_upload(rt, principal, filename=filename, content_type=content_type,
                                       size=size, container_tag=container_tag, base_url=base_url)


async def upload_status(rt: Runtime, principal: Principal, document_id: str,
                        container_tag: str | None) -> dict[str, Any]:
    """A document's status and coverage (no content: polled every second), and its first
    memories once done. A document elsewhere is reported exactly like a missing one."""
    doc_id = v.parse_uuid(document_id, "documentId")
    async with rt.transaction() as conn:
        spaces = await readable_spaces(conn, principal)
        if container_tag is not None and container_tag.strip():
            tag = checked_tag(container_tag)
            spaces = [s for s in spaces if s.key == tag.lower()]  # keys are lower case
            if not spaces:
                raise space_not_found(tag)
        row = await documents_db.status(conn, doc_id, [s.space_id for s in spaces])
        if row is None:
            raise NotFoundError(f"Document {doc_id} was not found.")
        memories = [] if row["status"] != "done" else await memories_db.for_document(
            conn, row["space_id"], doc_id, STATUS_MEMORIES)
    space = next(s for s in spaces if s.space_id == row["space_id"])
    row = await documents_service.missing_upload(rt, row)
    return {"space": space.key, "document": views.document(row),
            "memories": [views.memory(m) for m in memories]}
