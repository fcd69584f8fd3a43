"""The memory graph of one space: documents, memories, extraction and version edges.

Bounded on purpose (``MAX_DOCUMENTS`` documents and ``MAX_MEMORIES`` memories, newest first,
each memory's text cut to ``MAX_TEXT_CHARS``, a document's title and status reason to
``MAX_TITLE_CHARS`` / ``MAX_REASON_CHARS``) so the view stays responsive and the result bounded
(at most ~4.5 M characters of structuredContent at the bounds: it is the view's payload, not
the model's; the text answer is short); ``truncated`` and the whole space's ``counts`` say what
was left out. Edges only join nodes that are both in
the result, so the view never draws a line to nothing.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from memory_mcp.db import graph as db
from memory_mcp.models import Principal, access_label
from memory_mcp.services.access import resolve_space
from memory_mcp.services.runtime import Runtime

MAX_DOCUMENTS = 500
MAX_MEMORIES = 2000
MAX_TEXT_CHARS = 2000
#: A document node's title and status reason (a filename or an uploader's title can be long).
MAX_TITLE_CHARS = 200
MAX_REASON_CHARS = 300
LABEL_CHARS = 60


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _label(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= LABEL_CHARS else flat[: LABEL_CHARS - 1].rstrip() + "…"


def _clip(text: str | None, limit: int) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def _status(row: dict[str, Any]) -> str:
    if row["is_forgotten"]:
        return "forgotten"
    return "current" if row["is_latest"] else "superseded"


def _document_node(row: dict[str, Any]) -> dict[str, Any]:
    title = _clip(row["title"] or row["filename"] or "Untitled document", MAX_TITLE_CHARS) or ""
    return {
        "id": str(row["id"]), "kind": "document", "label": _label(title), "text": title,
        "status": row["status"], "statusReason": _clip(row["status_reason"], MAX_REASON_CHARS),
        "contentType": row["content_type"], "category": None, "version": None,
        "createdAt": _iso(row["created_at"]), "updatedAt": _iso(row["updated_at"]),
        "createdBy": row["created_by"], "sourceDocumentId": None, "parentMemoryId": None,
    }


def _memory_node(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["id"]), "kind": "memory", "label": _label(row["text"]),
        "text": row["text"], "textTruncated": int(row["text_length"]) > len(row["text"]),
        "status": _status(row), "category": row["category"], "version": row["version"],
        "createdAt": _iso(row["created_at"]), "updatedAt": _iso(row["updated_at"]),
        "createdBy": row["created_by"],
        "sourceDocumentId": str(row["source_document_id"]) if row["source_document_id"] else None,
        "parentMemoryId": str(row["parent_id"]) if row["parent_id"] else None,
    }


async def build(rt: Runtime, principal: Principal, container_tag: str | None,
                include_inactive: bool = True) -> dict[str, Any]:
    """The graph of the named space (else the active/default one) the key may read."""
    async with rt.transaction() as conn:
        space = await resolve_space(conn, principal, container_tag, only=True)
        docs = await db.documents(conn, space.space_id, MAX_DOCUMENTS)
        mems = await db.memories(conn, space.space_id, MAX_MEMORIES, MAX_TEXT_CHARS,
                                 include_inactive)
        totals = await db.totals(conn, space.space_id)
    nodes = [_document_node(d) for d in docs] + [_memory_node(m) for m in mems]
    present = {n["id"] for n in nodes}
    edges: list[dict[str, str]] = []
    for n in nodes:
        if n["sourceDocumentId"] in present:
            edges.append({"source": n["sourceDocumentId"], "target": n["id"], "kind": "extracted"})
        if n["parentMemoryId"] in present:
            edges.append({"source": n["parentMemoryId"], "target": n["id"], "kind": "version"})
    degree: Counter[str] = Counter()
    for e in edges:
        degree[e["source"]] += 1
        degree[e["target"]] += 1
    for n in nodes:
        n["degree"] = degree[n["id"]]
    states = Counter(n["status"] for n in nodes if n["kind"] == "memory")
    shown_memories = len(mems)
    wanted_memories = int(totals["memories"] if include_inactive else totals["current"])
    return {
        "space": {"key": space.key, "name": space.name, "access": access_label(space.effective)},
        "nodes": nodes,
        "edges": edges,
        "counts": {
            "documents": len(docs), "memories": shown_memories,
            "current": states["current"], "superseded": states["superseded"],
            "forgotten": states["forgotten"], "edges": len(edges),
            "totalDocuments": int(totals["documents"]), "totalMemories": int(totals["memories"]),
            "totalCurrent": int(totals["current"]), "totalSuperseded": int(totals["superseded"]),
            "totalForgotten": int(totals["forgotten"]),
        },
        "truncated": len(docs) < int(totals["documents"]) or shown_memories < wanted_memories,
        "includeInactive": include_inactive,
        "limits": {"documents": MAX_DOCUMENTS, "memories": MAX_MEMORIES,
                   "textChars": MAX_TEXT_CHARS},
    }
