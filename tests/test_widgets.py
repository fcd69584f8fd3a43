"""The MCP Apps widgets, server side: registry, ``_meta.ui``, resources and CSP, text fallbacks,
the app-only upload helpers' checks, the graph, and that the committed builds are fresh.

The views themselves are exercised in a real browser by ``test_widgets_browser.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_documents import NOTES, uploaded

from memory_mcp.config import Settings
from memory_mcp.documents.pipeline import Extractors, process
from memory_mcp.errors import InvalidInputError, NotFoundError
from memory_mcp.mcp import widgets
from memory_mcp.services import graph, memories
from memory_mcp.services import widgets as widget_service
from memory_mcp.services.runtime import Runtime

from mcp_client import call, connect

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[1]
APP_MIME = "text/html;profile=mcp-app"
SOURCE_EXT = (".ts", ".html", ".css", ".mjs", ".json")


def source_hash(root: Path) -> str:
    """The same walk and hash as widgets/build.mjs::sourceHash."""
    files = sorted(
        p.relative_to(root).as_posix() for p in root.rglob("*")
        if p.is_file() and p.name.endswith(SOURCE_EXT)
        and not any(part == "node_modules" or part.startswith(".build")
                    for part in p.relative_to(root).parts)
    )
    outer = hashlib.sha256()
    for name in files:
        inner = hashlib.sha256((root / name).read_bytes()).hexdigest()
        outer.update(f"{name}\0{inner}\n".encode())
    return outer.hexdigest()


def test_committed_views_are_built_from_the_current_sources() -> None:
    ui = ROOT / "layers" / "memory_mcp" / "ui"
    manifest = json.loads((ui / "manifest.json").read_text())
    assert manifest["views"] == sorted(widgets.VIEWS)
    assert manifest["sourceHash"] == source_hash(ROOT / "widgets"), (
        "widgets/ changed since the views were built: run `make widgets` and commit the result")
    for name in widgets.VIEWS:
        html = (ui / f"{name}.html").read_text()
        assert html == widgets.view_html(name) and html != widgets.MISSING_VIEW
        # Self-contained: no script, style or font fetched from anywhere at run time.
        assert not re.search(r"<(script|link)[^>]+(src|href)=", html), name
        assert "<script" in html, name


async def test_every_widget_tool_points_at_a_listed_app_resource(live_server: str,
                                                                 world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    async with connect(live_server, m.key) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        for name, (_, _, view_name, visibility) in widgets.WIDGET_TOOLS.items():
            ui = (tools[name].meta or {})["ui"]
            uri = ui["resourceUri"]
            assert uri == widgets.VIEWS[view_name].uri(view_name) and uri in listed, name
            assert ui.get("visibility") == visibility, name
        for name in ("upload-start", "upload-status"):
            assert (tools[name].meta or {})["ui"]["visibility"] == ["app"]
        for name, view in widgets.VIEWS.items():
            resource = listed[view.uri(name)]
            assert resource.mime_type == APP_MIME
            read = await client.read_resource(view.uri(name))
            (content,) = read.contents
            assert content.mime_type == APP_MIME
            assert getattr(content, "text", "") == widgets.view_html(name)
            csp = (content.meta or {})["ui"]["csp"]
            port = live_server.split(":")[2].split("/")[0]
            if view.uploads:
                assert any(d.endswith(f":{port}") or d.endswith(":8787")
                           for d in csp["connectDomains"])
            else:
                assert csp["connectDomains"] == [], name  # no network at all


def test_upload_origins_follow_the_deployment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    hosted = widgets.upload_origins(Settings(uploads_bucket="mm-uploads"))
    assert hosted == ["https://mm-uploads.s3.eu-west-1.amazonaws.com",
                      "https://mm-uploads.s3.amazonaws.com"]
    local = widgets.upload_origins(Settings(port=9123, public_url="https://mem.example.com/mcp"))
    assert local == ["https://mem.example.com", "http://127.0.0.1:9123", "http://localhost:9123"]


async def test_select_space_picks_without_changing_then_switches(live_server: str,
                                                                 world: Any) -> None:
    a, b = await world.space("pick"), await world.space("pick")
    m = await world.member(grants={a: "readwrite", b: "read"})
    async with connect(live_server, m.key) as client:
        picked = await client.call_tool("select-space", {})
        data = picked.structured_content or {}
        assert data["mode"] == "pick" and data["count"] == 2
        assert [s["key"] for s in data["spaces"]] == sorted([a, b])
        text = picked.content[0].text  # type: ignore[union-attr]
        assert a in text and b in text and "Nothing changed" in text
        who = (await client.call_tool("whoAmI", {})).structured_content or {}
        assert who["activeSpace"]["source"] == "default"

        switched = await client.call_tool("select-space", {"containerTag": b})
        data = switched.structured_content or {}
        assert data["mode"] == "switched" and data["changed"] is True
        assert [s["key"] for s in data["spaces"] if s["active"]] == [b]
        who = (await client.call_tool("whoAmI", {})).structured_content or {}
        assert who["activeSpace"] == {"key": b, "name": f"Space {b}", "access": "Read",
                                      "source": "selected"}


async def test_guided_save_offers_only_writable_spaces_and_saves_nothing(
    live_server: str, world: Any
) -> None:
    rw, ro = await world.space("draft"), await world.space("draft")
    m = await world.member(grants={rw: "readwrite", ro: "read"})
    result = await call(live_server, m.key, "guided-save",
                        {"content": "  Deploys freeze on Fridays  ", "category": "Policy",
                         "containerTag": ro})
    assert not result.is_error
    data = result.structured_content
    assert [s["key"] for s in data["writableSpaces"]] == [rw]
    assert data["canSave"] is True
    assert data["draft"] == {"content": "Deploys freeze on Fridays", "category": "policy",
                             "containerTag": rw}
    assert ro in data["message"] and "not write" in data["message"]
    text = result.content[0].text
    assert "nothing is saved" in text and rw in text and "add_memory" in text
    for space in (rw, ro):  # a draft writes nothing anywhere
        listed = await call(live_server, m.key, "listMemories", {"containerTag": space})
        assert listed.structured_content["total"] == 0

    bad = await call(live_server, m.key, "guided-save", {"category": "not valid!"})
    assert bad.is_error and "category must be" in bad.content[0].text


@pytest.mark.parametrize(("role", "grant", "phrase"), [
    ("reader", "readwrite", "your account is a Reader"),
    ("writer", "read", "can only read its spaces"),
])
async def test_guided_save_and_upload_tell_read_only_keys_there_is_nowhere(
    live_server: str, world: Any, role: str, grant: str, phrase: str
) -> None:
    space = await world.space()
    m = await world.member(role, {space: grant})
    draft = await call(live_server, m.key, "guided-save", {"content": "x"})
    assert not draft.is_error
    assert draft.structured_content["canSave"] is False
    assert draft.structured_content["writableSpaces"] == []
    assert draft.content[0].text.startswith("There is nowhere you can save") and phrase in \
        draft.content[0].text
    form = await call(live_server, m.key, "upload-file", {})
    assert form.structured_content["canUpload"] is False
    assert form.content[0].text.startswith("There is nowhere you can upload")


async def _document_total(url: str, key: str, space: str) -> int:
    listed = await call(url, key, "listDocuments", {"containerTag": space})
    return int(listed.structured_content["total"])


async def test_upload_helper_runs_the_same_checks_and_writes_nothing_when_refused(
    live_server: str, world: Any
) -> None:
    space, other = await world.space("up"), await world.space("up")
    writer = await world.member(grants={space: "readwrite"})
    reader = await world.member("reader", {space: "readwrite"})
    ok = {"filename": "notes.md", "contentType": "text/markdown", "size": 120,
          "containerTag": space}
    form = await call(live_server, writer.key, "upload-file", {})
    data = form.structured_content
    assert data["canUpload"] is True and data["defaultSpace"] == space
    types = {t["extension"]: (t["contentType"], t["label"]) for t in data["types"]}
    assert types[".pdf"] == ("application/pdf", "PDF")
    assert types[".md"] == ("text/markdown", "Markdown") and types[".txt"][0] == "text/plain"
    assert types[".mp4"] == ("video/mp4", "MP4 video") and types[".m4a"][0] == "audio/mp4"
    assert types[".docx"][1] == "Word"
    assert data["maxBytes"] == Settings().max_upload_bytes
    assert "POST /uploads" in form.content[0].text

    refusals = [
        (reader.key, ok, "read-only"),
        (writer.key, {**ok, "containerTag": other}, "was not found"),
        (writer.key, {**ok, "contentType": "application/x-msdownload"}, "Unsupported content"),
        (writer.key, {**ok, "filename": "notes.exe"}, "does not match"),
        (writer.key, {**ok, "size": Settings().max_upload_bytes + 1}, "the limit is"),
        (writer.key, {**ok, "size": 0}, "The file is empty"),
        (writer.key, {**ok, "size": True}, "size: must be a number, not true or false"),
    ]
    for key, args, phrase in refusals:
        result = await call(live_server, key, "upload-start", args)
        assert result.is_error and phrase in result.content[0].text, (args, result.content)
    assert await _document_total(live_server, writer.key, space) == 0

    started = await call(live_server, writer.key, "upload-start", ok)
    info = started.structured_content
    assert info["method"] == "PUT" and info["status"] == "queued"
    port = live_server.split(":")[2].split("/")[0]
    assert info["uploadUrl"].startswith(f"http://127.0.0.1:{port}/uploads/local/")
    assert await _document_total(live_server, writer.key, space) == 1
    status = await call(live_server, writer.key, "upload-status",
                        {"documentId": info["documentId"]})
    assert status.structured_content["document"]["status"] == "queued"
    # a space key in capitals names the space in the widgets' tools as in every other tool
    shouted = await call(live_server, writer.key, "upload-status",
                         {"documentId": info["documentId"], "containerTag": space.upper()})
    assert shouted.structured_content["document"]["status"] == "queued", shouted.content
    for tool in ("upload-file", "guided-save"):
        args = {"containerTag": space.upper()} | ({"content": "x y"} if tool == "guided-save"
                                                   else {})
        named = await call(live_server, writer.key, tool, args)
        assert not named.is_error and "not found" not in named.content[0].text, named.content
    assert "queued" in status.content[0].text
    # Another key that cannot read the space learns nothing about the document.
    outsider = await world.member(grants={other: "readwrite"})
    hidden = await call(live_server, outsider.key, "upload-status",
                        {"documentId": info["documentId"]})
    missing = await call(live_server, outsider.key, "upload-status",
                         {"documentId": "00000000-0000-4000-8000-000000000000"})
    assert hidden.is_error and missing.is_error
    assert hidden.content[0].text.replace(info["documentId"], "<id>") == \
        missing.content[0].text.replace("00000000-0000-4000-8000-000000000000", "<id>")


def test_local_put_route_answers_preflight_and_carries_cors(live_server: str) -> None:
    base = live_server.removesuffix("/mcp")
    pre = httpx.options(f"{base}/uploads/local/abc", headers={
        "Origin": "null", "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "content-type"})
    assert pre.status_code == 204
    assert pre.headers["access-control-allow-origin"] == "*"
    assert "PUT" in pre.headers["access-control-allow-methods"]
    assert "content-type" in pre.headers["access-control-allow-headers"]
    put = httpx.put(f"{base}/uploads/local/abc?expires=1&sig=x", content=b"x",
                    headers={"Origin": "null", "Content-Type": "text/plain"})
    assert put.status_code == 403 and put.headers["access-control-allow-origin"] == "*"
    # Only that route: the MCP endpoint and /uploads stay without CORS.
    other = httpx.options(live_server, headers={"Origin": "https://evil.example",
                                                "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in other.headers


async def test_graph_has_documents_memories_and_both_kinds_of_edge(
    rt: Runtime, world: Any, tools: Extractors
) -> None:
    space = await world.space("graph")
    m = await world.member(grants={space: "readwrite"}, name="Grapher")
    doc_id = await uploaded(rt, m.principal, "launch.md", "text/markdown", NOTES, space)
    assert await process(rt, tools, doc_id) == "done"
    first = await memories.save(rt, m.principal, "The staging database is backed up nightly at "
                                "two in the morning", None, space)
    second = await memories.save(rt, m.principal, "The staging database is backed up nightly at "
                                 "three in the morning", None, space)
    assert second["action"] == "versioned"
    gone = await memories.save(rt, m.principal, "The office plants are watered on Mondays",
                               None, space)
    await memories.forget(rt, m.principal, None, gone["memory"]["id"], space)

    g = await graph.build(rt, m.principal, space)
    docs = [n for n in g["nodes"] if n["kind"] == "document"]
    mems = {n["id"]: n for n in g["nodes"] if n["kind"] == "memory"}
    extracted = [e for e in g["edges"] if e["kind"] == "extracted"]
    assert len(docs) == 1 and docs[0]["id"] == str(doc_id) and docs[0]["text"] == "Launch notes"
    assert len(extracted) == docs[0]["degree"] >= 3
    assert all(e["source"] == str(doc_id) and e["target"] in mems for e in extracted)
    assert [e for e in g["edges"] if e["kind"] == "version"] == [
        {"source": first["memory"]["id"], "target": second["memory"]["id"], "kind": "version"}]
    assert mems[first["memory"]["id"]]["status"] == "superseded"
    assert mems[gone["memory"]["id"]]["status"] == "forgotten"
    assert mems[second["memory"]["id"]]["createdBy"] == "Grapher"
    c = g["counts"]
    assert c["documents"] == 1 and c["memories"] == len(mems) == len(extracted) + 3
    assert (c["superseded"], c["forgotten"]) == (1, 1) and g["truncated"] is False

    live = await graph.build(rt, m.principal, space, include_inactive=False)
    assert {n["status"] for n in live["nodes"] if n["kind"] == "memory"} == {"current"}
    assert not [e for e in live["edges"] if e["kind"] == "version"]


async def test_graph_is_bounded_and_says_so(rt: Runtime, world: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    space = await world.space("graph")
    m = await world.member(grants={space: "readwrite"})
    for fact in ("Alpha ships on Monday", "Bravo uses PostgreSQL 17", "Charlie owns billing",
                 "Delta pages are in Spanish"):
        await memories.save(rt, m.principal, fact, None, space)
    monkeypatch.setattr(graph, "MAX_MEMORIES", 2)
    monkeypatch.setattr(graph, "MAX_TEXT_CHARS", 5)
    g = await graph.build(rt, m.principal, space)
    assert g["truncated"] is True and g["counts"]["memories"] == 2
    assert g["counts"]["totalMemories"] == 4
    assert [n["text"] for n in g["nodes"]] == ["Delta", "Charl"]  # newest first, cut in SQL
    assert all(n["textTruncated"] for n in g["nodes"])


async def test_graph_text_summarises_and_the_tool_respects_space_access(
    live_server: str, world: Any
) -> None:
    space, secret = await world.space("gt"), await world.space("gt")
    m = await world.member(grants={space: "readwrite"})
    await call(live_server, m.key, "add_memory", {"content": "Echo runs in eu-west-1",
                                                  "containerTag": space})
    result = await call(live_server, m.key, "memory-graph", {})
    assert not result.is_error
    text = result.content[0].text
    assert text.startswith(f"Memory graph of {space}") and "1 memories (1 current" in text
    denied = await call(live_server, m.key, "memory-graph", {"containerTag": secret})
    assert denied.is_error and "was not found" in denied.content[0].text


async def test_draft_validation_uses_the_save_rules(rt: Runtime, world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    with pytest.raises(InvalidInputError, match="the limit is"):
        await widget_service.draft(rt, m.principal, "x" * (rt.settings.max_content_chars + 1),
                                   None, None)
    with pytest.raises(NotFoundError):
        await widget_service.draft(rt, m.principal, "x", None, "no-such-space")
    with pytest.raises(InvalidInputError, match="documentId must be an id"):
        await widget_service.upload_status(rt, m.principal, "not-a-uuid", None)


def test_graph_document_nodes_clip_long_titles_and_reasons() -> None:
    """A document's title (an uploader's or a filename) and its status reason have no length
    bound of their own; the graph clips both so its payload stays within its stated bound."""
    row = {"id": "d1", "title": "T" * 5000, "filename": "x.md", "status": "failed",
           "status_reason": "R" * 5000, "content_type": "text/markdown", "created_at": None,
           "updated_at": None, "created_by": None}
    node = graph._document_node(row)
    assert len(node["text"]) == graph.MAX_TITLE_CHARS and node["text"].endswith("…")
    assert len(node["statusReason"]) == graph.MAX_REASON_CHARS
    short = graph._document_node({**row, "title": "Runbook", "status_reason": None})
    assert short["text"] == "Runbook" and short["statusReason"] is None
