"""Text for the widget tools: what a client that renders no MCP Apps (and the model) reads.

Each says what the view would show and how to do the same with plain tools, so the result is
useful with or without the UI.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from memory_mcp.mcp import formatting as fmt


def select(r: dict[str, Any]) -> str:
    if r["mode"] == "switched":
        a = r["activeSpace"]
        return f"Active space is now {a['key']} ({a['name']}, {a['access']})."
    listed = fmt.spaces(r)
    return (listed + "\nNothing changed. To switch, call select-space with containerTag set to one "
            "of these keys (or pick one in the space picker).")


def _space_list(items: list[dict[str, Any]]) -> str:
    return ", ".join(f"{s['key']} ({s['name']})" for s in items)


def draft(r: dict[str, Any]) -> str:
    if not r["canSave"]:
        return str(r["message"])
    d = r["draft"]
    lines = ["Draft opened for review; nothing is saved until the person submits it.",
             f"Writable spaces: {_space_list(r['writableSpaces'])}; default {d['containerTag']}."]
    if d["content"]:
        lines.append(f"Draft text: {d['content'][:300]}{'…' if len(d['content']) > 300 else ''}")
    if d["category"]:
        lines.append(f"Category: {d['category']}")
    if r["message"]:
        lines.append(r["message"])
    lines.append("Without the form, save with add_memory (content, category, containerTag).")
    return "\n".join(lines)


def upload_form(r: dict[str, Any]) -> str:
    if not r["canUpload"]:
        return str(r["message"])
    types = sorted({t["contentType"] for t in r["types"]})
    lines = ["Upload form opened: the person picks one file and a space; nothing is uploaded "
             "until they do.",
             f"Writable spaces: {_space_list(r['writableSpaces'])}; default {r['defaultSpace']}.",
             f"Up to {r['maxBytes'] / 1024 ** 2:.0f} MB; types: {', '.join(types)}."]
    if r["message"]:
        lines.append(r["message"])
    lines.append("Without the form: POST /uploads with your key (filename, contentType, size, "
                 "containerTag), PUT the bytes to the returned uploadUrl, then watch listDocuments.")
    return "\n".join(lines)


def upload_started(r: dict[str, Any]) -> str:
    return (f"Document {r['documentId']} created in {r['space']} (status queued). PUT the bytes "
            f"to the upload URL before {r['expiresAt']} (Unix time).")


def upload_status(r: dict[str, Any]) -> str:
    d = r["document"]
    line = f"{d['title']} ({d['id']}) in {r['space']}: {d['status']}"
    if d["status"] == "failed" and d["statusReason"]:
        return f"{line} — {d['statusReason']}"
    if d["status"] == "done":
        return f"{line}, {d['memoryCount']} memories."
    return line + "."


def graph(r: dict[str, Any]) -> str:
    c, s = r["counts"], r["space"]
    head = (f"Memory graph of {s['key']} ({s['name']}): {c['totalDocuments']} documents and "
            f"{c['totalMemories']} memories ({c['totalCurrent']} current, "
            f"{c['totalSuperseded']} superseded, {c['totalForgotten']} forgotten).")
    lines = [head]
    if r["truncated"]:
        lines.append(f"The graph shows the newest {c['documents']} documents and {c['memories']} "
                     "memories.")
    nodes = {n["id"]: n for n in r["nodes"]}
    extracted = Counter(e["source"] for e in r["edges"] if e["kind"] == "extracted")
    if extracted:
        lines.append("Most connected documents:")
        lines += [f"- {nodes[d]['text']} ({d}): {n} memories"
                  for d, n in extracted.most_common(5)]
    versions = [nodes[e["target"]] for e in r["edges"] if e["kind"] == "version"]
    versions.sort(key=lambda n: n["createdAt"] or "", reverse=True)
    if versions:
        lines.append("Recent versions:")
        lines += [f"- v{n['version']} {n['label']} ({n['id']})" for n in versions[:5]]
    if not r["nodes"]:
        lines.append("The space is empty: save memories or upload a document to see a graph.")
    return "\n".join(lines)
