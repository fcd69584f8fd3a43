"""The MCP Apps widgets: four ``ui://`` views and the tools that open or serve them.

Our server is stateless, so on protocol 2025-11-25 it cannot see whether the client renders
apps (``client_supports_apps`` is always False there). Every widget tool therefore always
carries its ``_meta.ui`` and always returns readable text and ``structuredContent``: a client
without apps reads the text, one with apps opens the view. ``upload-start`` and
``upload-status`` are app-only (``visibility ["app"]``): the model uploads through
``POST /uploads``; the view, which has no bearer key, through these.

The services behind the tools (``services/widgets.py``, ``services/graph.py`` and the upload
checks they use) are imported on a tool's first call: a Lambda cold start of an MCP request
that opens no widget does not import them.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Annotated
from urllib.parse import urlsplit

from mcp.server.apps import Apps, ResourceCsp, Visibility
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from memory_mcp.config import Settings
from memory_mcp.mcp import widget_text as text
from memory_mcp.mcp.arguments import NO_BOOL
from memory_mcp.mcp.request import caller
from memory_mcp.mcp.tools import READ, ContainerTag, run

WRITE_ONCE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                             open_world_hint=False)
SWITCH = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                         open_world_hint=False)


async def select_space(
    containerTag: Annotated[str | None, Field(
        description="Key of the space to make active. Omit to open the space picker.")] = None,
) -> CallToolResult:
    """Switch the active space for future requests made with this key (persisted), or, without
    containerTag, open a searchable space picker (nothing changes until the person picks). To
    use another space for one request only, pass containerTag to that tool instead."""
    c = caller()
    from memory_mcp.services import widgets
    return await run(lambda: widgets.select(c.runtime, c.principal, containerTag), text.select)


async def guided_save(
    content: Annotated[str | None, Field(description="Suggested memory text to prefill.")] = None,
    category: Annotated[str | None, Field(description="Suggested category to prefill.")] = None,
    containerTag: Annotated[str | None, Field(
        description="Suggested space (must be writable; else the person picks one).")] = None,
) -> CallToolResult:
    """Open an editable memory draft for the person to review, edit and save into a space they
    can write to. Nothing is saved until they submit it; use add_memory to save directly."""
    c = caller()
    from memory_mcp.services import widgets
    return await run(lambda: widgets.draft(c.runtime, c.principal, content, category,
                                           containerTag), text.draft)


async def upload_file(containerTag: ContainerTag = None) -> CallToolResult:
    """Open a file picker to upload one local file (text, Markdown, PDF, Word, CSV, images,
    audio, video) into a writable space; its text then becomes memories. The person picks the
    file; follow it with listDocuments."""
    c = caller()
    from memory_mcp.services import widgets
    return await run(lambda: widgets.upload_form(c.runtime, c.principal, containerTag),
                     text.upload_form)


async def upload_start(
    filename: Annotated[str, Field(description="The file's name, with its extension.")],
    contentType: Annotated[str, Field(description="The declared content type.")],
    size: Annotated[int, NO_BOOL, Field(description="The file's size in bytes.")],
    containerTag: ContainerTag = None,
) -> CallToolResult:
    """For the upload view: the same checks as POST /uploads (ReadWrite, type, size), then a
    signed upload URL for the browser to PUT the bytes to."""
    c = caller()
    from memory_mcp.services import widgets
    return await run(lambda: widgets.upload_start(
        c.runtime, c.principal, filename=filename, content_type=contentType, size=size,
        container_tag=containerTag, base_url=c.base_url), text.upload_started)


async def upload_status(
    documentId: Annotated[str, Field(description="Id returned by upload-start.")],
    containerTag: ContainerTag = None,
) -> CallToolResult:
    """For the upload view: a document's processing status, coverage and first memories."""
    c = caller()
    from memory_mcp.services import widgets
    return await run(lambda: widgets.upload_status(c.runtime, c.principal, documentId,
                                                   containerTag), text.upload_status)


async def memory_graph(
    containerTag: ContainerTag = None,
    includeInactive: Annotated[bool, Field(
        description="Also show superseded and forgotten memories (default true).")] = True,
) -> CallToolResult:
    """Show a space (the active one unless containerTag names another; resolve a space's name
    with listSpaces) as an interactive graph of its source documents and memories: which
    document each memory came from and which memory replaced which."""
    c = caller()
    from memory_mcp.services import graph
    return await run(lambda: graph.build(c.runtime, c.principal, containerTag, includeInactive),
                     text.graph)


@dataclass(frozen=True)
class View:
    """One ``ui://`` view: its built HTML file and whether it talks to the upload origin."""

    title: str
    description: str
    uploads: bool = False

    def uri(self, name: str) -> str:
        return f"ui://memory-mcp/{name}.html"


#: name -> view. The one registry of widgets; tests list it.
VIEWS: dict[str, View] = {
    "select-space": View("Choose a space", "Searchable picker of this key's spaces."),
    "guided-save": View("Save a memory", "Review and edit a memory, then save it."),
    "upload-file": View("Upload a file", "Pick a file and watch it become memories.",
                        uploads=True),
    "memory-graph": View("Memory graph", "Documents and memories of a space as a graph."),
}

Tool = Callable[..., Awaitable[CallToolResult]]
#: tool name -> (function, annotations, view, visibility or None for model and app).
WIDGET_TOOLS: dict[str, tuple[Tool, ToolAnnotations, str, list[Visibility] | None]] = {
    "select-space": (select_space, SWITCH, "select-space", None),
    "guided-save": (guided_save, READ, "guided-save", None),
    "upload-file": (upload_file, READ, "upload-file", None),
    "upload-start": (upload_start, WRITE_ONCE, "upload-file", ["app"]),
    "upload-status": (upload_status, READ, "upload-file", ["app"]),
    "memory-graph": (memory_graph, READ, "memory-graph", None),
}


MISSING_VIEW = """<!doctype html><html lang="en"><meta charset="utf-8"><body>
<p>This view has not been built on this server. Run <code>make widgets</code>.</p></body></html>"""


def view_html(name: str) -> str:
    """The built, self-contained HTML of a view (committed; ``make widgets`` rebuilds it).

    A missing file serves a page that says so rather than stopping the server: every tool
    still answers in text (tests/test_widgets.py fails on a missing or stale build)."""
    path = resources.files("memory_mcp") / "ui" / f"{name}.html"
    return path.read_text(encoding="utf-8") if path.is_file() else MISSING_VIEW


def upload_origins(settings: Settings) -> list[str]:
    """Where the upload view's browser PUT goes: the S3 bucket when hosted, else this server.

    A view's only network is its CSP ``connectDomains``, so these must match the URLs
    ``upload-start`` returns (S3 presigned URLs use the virtual-hosted style).
    """
    if settings.uploads_bucket:
        bucket = settings.uploads_bucket
        region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
        found = [f"https://{bucket}.s3.amazonaws.com"]
        if region:
            found.insert(0, f"https://{bucket}.s3.{region}.amazonaws.com")
        return found
    origins = [f"http://{settings.host}:{settings.port}"]
    if settings.host in ("127.0.0.1", "localhost", "0.0.0.0"):  # noqa: S104 (a comparison)
        origins = [f"http://127.0.0.1:{settings.port}", f"http://localhost:{settings.port}"]
    if settings.public_url:
        parts = urlsplit(settings.public_url)
        origins.insert(0, f"{parts.scheme}://{parts.netloc}")
    return origins


def build_apps(settings: Settings) -> Apps:
    apps = Apps()
    for name, view in VIEWS.items():
        csp = ResourceCsp(connect_domains=upload_origins(settings) if view.uploads else [],
                          resource_domains=[])
        apps.add_html_resource(view.uri(name), view_html(name), name=name, title=view.title,
                               description=view.description, csp=csp, prefers_border=True)
    for tool_name, (fn, hints, view_name, visibility) in WIDGET_TOOLS.items():
        apps.tool(resource_uri=VIEWS[view_name].uri(view_name), visibility=visibility,
                  name=tool_name, annotations=hints, structured_output=False)(fn)
    return apps
