"""Readable text for each result; the same data goes out as ``structuredContent``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

#: Longest memory snippet in text results; ``snippets`` lowers it while one result renders, so a
#: long list still fits its budget (mcp/budget.py) without every renderer taking a parameter.
SNIPPET_CHARS = 500
_snippet: ContextVar[int] = ContextVar("snippet", default=SNIPPET_CHARS)


@contextmanager
def snippets(chars: int) -> Iterator[None]:
    token = _snippet.set(chars)
    try:
        yield
    finally:
        _snippet.reset(token)


def _snip(text: str) -> str:
    limit = _snippet.get()
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def memory_line(m: dict[str, Any], *, score: bool = False) -> str:
    bits = []
    if score and m.get("score") is not None:
        signals = f"score {m['score']:.2f}"
        if m.get("relevance"):
            signals = f"{m['relevance']}, {signals}"
        if m.get("semantic") is not None and m.get("lexical") is not None:
            signals += f" (meaning {m['semantic']:.2f}, shared words {m['lexical']:.2f}"
            signals += f", answers a {m['answerType']} question)" if m.get("answerType") else ")"
        if m.get("otherDate"):
            signals += f"; another date: {m['otherDate']}"
        bits.append(signals)
    if m.get("category"):
        bits.append(f"#{m['category']}")
    bits.append(f"v{m['version']}")
    if not m.get("isLatest"):
        bits.append("superseded")
    if m.get("isForgotten"):
        bits.append(f"forgotten by {m.get('forgottenBy')}"
                    + (" with its document"  # db/statements.DOCUMENT_DELETED
                       if m.get("forgetReason") == "source document deleted" else ""))
    if m.get("sourceDocumentId"):
        title = m.get("sourceDocumentTitle")
        if title:
            title = " ".join(title.split())
            title = title if len(title) <= 60 else title[:59] + "…"
        gone = "deleted " if m.get("sourceDocumentDeleted") else ""
        bits.append(f"from {gone}document {title!r} ({m['sourceDocumentId']})" if title
                    else f"{gone}doc {m['sourceDocumentId']}")
    who = m["createdBy"]
    if m["updatedByUserId"] != m["createdByUserId"]:
        who += f", updated by {m['updatedBy']}"
    return f"- {_snip(m['memory'])}\n  [{'; '.join(bits)}; by {who}; id {m['id']}]"


def profile(p: dict[str, Any]) -> str:
    lines = [f"Profile of space {p['space']}:"]
    lines.append("Stable:" if p["stable"] else "Stable: (none yet)")
    lines += [memory_line(m) for m in p["stable"]]
    lines.append("Recent:" if p["recent"] else "Recent: (nothing new lately)")
    lines += [memory_line(m) for m in p["recent"]]
    return "\n".join(lines)


def search(r: dict[str, Any]) -> str:
    asked = ", ".join(f"{k}={r[k]!r}" for k in ("query", "keyword", "category") if r[k])
    head = f"{r['count']} memor{'y' if r['count'] == 1 else 'ies'} in space {r['space']} for {asked}"
    lines = [head + (":" if r["results"] else ".")]
    if r.get("noGoodMatch"):
        lines[0] = (f"No good match in space {r['space']} for {asked}: nothing scores above "
                    f"{r['weakBelow']:.2f}." + (" The closest, all weak:" if r["results"] else ""))
    lines += [memory_line(m, score=True) for m in r["results"]]
    if "profile" in r:
        lines += ["", profile(r["profile"])]
    return "\n".join(lines)


def saved(r: dict[str, Any]) -> str:
    m = r["memory"]
    if r["action"] == "unchanged":
        kept = (f"\nIt came from document {r['keptFromDocument']}; it is now kept as a saved "
                "memory too, so deleting that document no longer forgets it."
                if r.get("keptFromDocument") else "")
        if "categoryWas" in r:
            was = f"'{r['categoryWas']}'" if r["categoryWas"] else "none"
            return (f"Already saved in space {r['space']}; its category is now "
                    f"'{m['category']}' (was {was}): {_snip(m['memory'])} (id {m['id']})"
                    + kept)
        return (f"Already saved in space {r['space']} "
                f"({'kept' if kept else 'no change'}): {_snip(m['memory'])} (id {m['id']})"
                + kept)
    if r["action"] == "versioned":
        old = r["supersedes"]
        return (f"Saved in space {r['space']} as version {m['version']} of an existing memory "
                f"(similarity {old['similarity']:.2f}).\nNow: {_snip(m['memory'])}\n"
                f"Was: {_snip(old['memory'])}\nid {m['id']} (previous {old['id']})")
    text = f"Saved in space {r['space']}: {_snip(m['memory'])} (id {m['id']})"
    if r.get("keptSeparateFrom"):
        k = r["keptSeparateFrom"]
        text += (f"\nKept as a separate memory, not a new version of {_snip(k['memory'])} "
                 f"(id {k['id']}): {k['reason']}.")
        if "memoryId" not in k["reason"]:
            text += " Both stay current; if the new one replaces it, forget that one by memoryId."
    if r.get("mayReplace"):
        k = r["mayReplace"]
        text += (f"\nIt may correct {_snip(k['memory'])} (id {k['id']}, similarity "
                 f"{k['similarity']:.2f}; {'; '.join(k['differs'])}), which is still current. "
                 "If it does, forget that one by memoryId.")
    return text


def forgotten(r: dict[str, Any]) -> str:
    if r["action"] == "nothing_matched":
        text = (f"Nothing was forgotten in space {r['space']}: {r['reason']}. "
                "Forgetting by content acts only on a memory that clearly states the same fact.")
        if r.get("candidates"):
            text += "\nClosest memories (pass memoryId to forget one exactly):"
            for c in r["candidates"]:
                differs = f" — {'; '.join(c['differs'])}" if c["differs"] else ""
                text += (f"\n- {_snip(c['memory'])} (id {c['id']}, similarity "
                         f"{c['similarity']:.2f}){differs}")
        return text
    m = r["memory"]
    if r["action"] == "superseded":
        now = r["current"]
        return (f"Nothing was forgotten in space {r['space']}: {_snip(m['memory'])} (id {m['id']}, "
                f"v{m['version']}) is an older version of a fact that now says "
                f"{_snip(now['memory'])} (id {now['id']}, v{now['version']}), which differs ("
                f"{'; '.join(r['differs'])}). Forget the current version by its memoryId if "
                "that is what should go.")
    if r["action"] == "id_mismatch":
        meant = r["meant"]
        return (f"Nothing was forgotten in space {r['space']}: memoryId {m['id']} is "
                f"{_snip(m['memory'])}, but content means another memory: "
                f"{_snip(meant['memory'])} (id {meant['id']}). Call again with the memoryId of "
                "the one that should go (content may then be left out).")
    if r["action"] == "already_forgotten":
        when = (f" (at {m['forgottenAt']}, by {m['forgottenBy']})"
                if m.get("forgottenAt") and m.get("forgottenBy") else "")
        text = (f"Already forgotten in space {r['space']}{when}: {_snip(m['memory'])} "
                f"(id {m['id']}); nothing changed.")
        if r.get("candidates"):
            text += "\nMemories that still say something close (pass memoryId to forget one):"
            for c in r["candidates"]:
                text += f"\n- {_snip(c['memory'])} (id {c['id']}, similarity {c['similarity']:.2f})"
        return text
    how = {"id": "by id", "exact": "exact match"}.get(r["match"], f"closest match, similarity "
                                                       f"{r.get('similarity', 0):.2f}")
    text = f"Forgot in space {r['space']} ({how}): {_snip(m['memory'])} (id {m['id']})"
    if r.get("stillStated"):
        same = r["stillStated"]
        text += (f"\nAnother memory still says much the same: {_snip(same['memory'])} (id "
                 f"{same['id']}, similarity {same['similarity']:.2f}); forget it by memoryId "
                 "too if it should go.")
    if r.get("reason"):
        text += f"\nYour content was kept as the reason: {_snip(r['reason'])}"
    return text + (f"\n{r['note']}" if r.get("note") else "")


def page_head(r: dict[str, Any], what: str, n: int) -> str:
    return (f"{what} in space {r['space']}: page {r['page']}, {n} of {r['total']}"
            + (" (more on the next page)" if r["hasMore"] else ""))


def memories_page(r: dict[str, Any]) -> str:
    lines = [page_head(r, "Memories", len(r["memories"]))]
    lines += [memory_line(m) for m in r["memories"]]
    return "\n".join(lines)


def document_line(d: dict[str, Any]) -> str:
    text = f"- {d['title'] or d['filename'] or '(untitled)'} [{d['type']}; {d['status']}"
    if d.get("statusReason"):
        text += f": {d['statusReason']}"
    coverage = d.get("coverage")
    if coverage and not coverage["complete"]:
        text += ", PARTLY INDEXED"
    text += f"; {d['memoryCount']} memories; by {d['createdBy']}; {d['createdAt']}; id {d['id']}]"
    if coverage:
        text += f"\n  Coverage: {coverage['note']}"
    if d.get("summary"):
        text += f"\n  Summary: {_snip(d['summary'])}"
    return text


def documents_page(r: dict[str, Any]) -> str:
    lines = [page_head(r, "Documents", len(r["documents"]))]
    lines += [document_line(d) for d in r["documents"]] or ["(no documents yet)"]
    return "\n".join(lines)


def document(r: dict[str, Any]) -> str:
    d, p = r["document"], r["page"]
    lines = [f"Document {d['id']} in space {r['space']}", document_line(d)]
    if d["contentKind"] == "none":
        lines.append("No content: processing failed (the reason is above)." if d["status"] ==
                     "failed" else "No content or summary is available yet.")
    else:
        what = "Content" if d["contentKind"] == "content" else (
            "Content not available; showing the SUMMARY instead")
        whole = p["offset"] == 0 and not p["hasMore"]
        # a file cut by the character bound ends where reading stopped, not where it ends
        cut = (d.get("coverage") or {}).get("cutBy") == "max_extracted_chars"
        read = " that were read; a bound cut the file (see coverage)" if cut else ""
        lines.append(f"{what} (all {p['totalChars']:,} characters{read}):" if whole else
                     f"{what}, characters {p['offset']:,}-{p['end']:,} of {p['totalChars']:,}:")
        lines += [d["content"], ""]
        if p["hasMore"]:
            lines.append(f"[{p['totalChars'] - p['end']:,} more characters. To read on, call "
                         f"getDocument with documentId={d['id']} offset={p['nextOffset']}.]")
        elif cut:
            lines.append("[End of what was read: a bound cut the file here (see coverage).]")
        elif not whole:
            lines.append("[End of the document.]")
    if r["memories"]:
        shown = len(r["memories"])
        lines.append(f"Memories extracted (the first {shown} of {d['memoryCount']} are listed; "
                     "search_memory finds them all):" if d["memoryCount"] > shown
                     else f"Memories extracted ({shown}):")
        lines += [memory_line(m) for m in r["memories"]]
    elif p["offset"] and d["memoryCount"]:
        lines.append(f"({d['memoryCount']} memories were extracted; the first page lists the "
                     "first of them, search_memory finds them all.)")
    return "\n".join(lines)


def deleted_document(r: dict[str, Any]) -> str:
    return (f"Deleted document {r['title']!r} ({r['documentId']}) from space {r['space']}: "
            f"{r['forgottenMemories']} extracted memories forgotten"
            + (f", {r['keptMemories']} kept ({_kept_why(r)})" if r.get("keptMemories") else "")
            + ("; stored file removed." if r["fileRemoved"] else "."))


def _kept_why(r: dict[str, Any]) -> str:
    by_docs = int(r.get("keptByDocuments") or 0)
    by_people = int(r["keptMemories"]) - by_docs
    why = []
    if by_docs:
        why.append(f"{by_docs} stated by another document")
    if by_people:
        why.append(f"{by_people} saved or corrected by a person")
    return ", ".join(why)


def spaces(r: dict[str, Any]) -> str:
    if not r["spaces"]:
        return "This key has no spaces yet."
    shown = len(r["spaces"])
    lines = [f"{r['count']} space(s) (* = active):" if shown == r["count"] else
             f"{r['count']} spaces (* = active); page {r.get('page', 1)}, {shown} shown"
             + (" (more on the next page):" if r.get("hasMore") else ":")]
    for s in r["spaces"]:
        lines.append(f"{'*' if s['active'] else '-'} {s['key']} — {s['name']} [{s['access']}; "
                     f"{s['memoryCount']} memories, {s['documentCount']} documents; last activity "
                     f"{s['lastActivityAt'] or 'never'}]")
    return "\n".join(lines)


def who(r: dict[str, Any]) -> str:
    u, k, a = r["user"], r["key"], r["activeSpace"]
    lines = [f"{u['displayName']} <{u['email']}> — role {u['role']} (user id {u['id']})",
             f"Key: {k['label']} ({k['prefix']}, id {k['id']})",
             "Active space: " + (f"{a['key']} ({a['access']}, {a['source']})" if a else "none"),
             "Scope:"]
    lines += [f"- {s['space']}: {s['access']}" for s in r["scope"]] or ["- (no spaces granted)"]
    hidden = r.get("scopeTotal", len(r["scope"])) - len(r["scope"])
    if hidden > 0:
        lines.append(f"- … and {hidden:,} more (listSpaces pages through them all)")
    return "\n".join(lines)


def context(c: dict[str, Any]) -> str:
    if c["active"] is None:
        return "Memory-MCP: this key has no spaces yet, so there is no context to load."
    parts = ["Memory-MCP context. Active space first; use search_memory for more.", "",
             profile(c["active"])]
    for other in c["others"]:
        parts += ["", "Recently active: " + profile(other)]
    return "\n".join(parts)
