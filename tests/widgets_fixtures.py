"""Fixtures for the browser tests, loaded as a pytest plugin by each ``test_widgets_browser*.py``
module (``pytest_plugins = ["widgets_fixtures"]``). They are session-scoped, so all those modules
share one live server, one Chromium, one pool and one seeded showcase space.

``widget_server`` and ``browser`` skip when Chromium or Playwright is missing, and fail under
``CI`` (``widgets_host.require_browser``)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import uvicorn
from fastapi.responses import HTMLResponse
from widgets_host import CHROMIUM, CHROMIUM_ARGS, HOST_HTML, require_browser
from widgets_server import Showcase, WidgetServer, call_tool, named_space, upload_document

from memory_mcp.db.pool import open_pool
from memory_mcp.embeddings import Embedder
from memory_mcp.http.app import create_app
from memory_mcp.services.runtime import Runtime

from conftest import World, free_port, settings_for

with contextlib.suppress(ImportError):  # without Playwright require_browser skips (fails under CI)
    from playwright.async_api import Browser, async_playwright


# --------------------------------------------------------------------------- the live server


@pytest.fixture(scope="session")
def widget_server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WidgetServer]:
    """The real app with local upload storage under uvicorn, plus the test host page on a
    test-only route (added here; the shipped app has no such route)."""
    require_browser()
    port = free_port()
    data_dir = tmp_path_factory.mktemp("widget-data")
    app = create_app(settings_for(database_url, data_dir=data_dir, host="127.0.0.1", port=port))
    host_html = HOST_HTML.read_text(encoding="utf-8")

    @app.get("/__test_host", include_in_schema=False)
    async def serve_test_host() -> HTMLResponse:
        return HTMLResponse(host_html, headers={"Cache-Control": "no-store"})

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("widget server did not start")
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    httpx.get(f"{base}/healthz", timeout=10).raise_for_status()
    yield WidgetServer(base)
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
async def people(database_url: str, embedder: Embedder) -> AsyncIterator[World]:
    """Users, spaces, keys and grants for the browser tests (one pool for all of them)."""
    settings = settings_for(database_url)
    pool = await open_pool(settings, database_url)
    try:
        yield World(Runtime(settings=settings, pool=pool, embedder=embedder))
    finally:
        await pool.close()


# --------------------------------------------------------------------------- a seeded space


ON_CALL_MD = b"""# On-call handbook

The primary on-call engineer answers every page within 15 minutes.

Incidents are declared in the incidents channel by whoever notices them first.

Postmortems are written within five working days of an incident.
"""
REVIEWS = "Code reviews need one approval from a code owner before merging."
STAGING = "The staging database runs PostgreSQL 16 in eu-west-1."
LUNCH = "The team lunch is on Wednesdays at noon in the small kitchen."
DEPLOY_V1 = "The team deploys to production every Friday afternoon"
DEPLOY_V2 = "The team deploys to production every Thursday afternoon"


@pytest.fixture(scope="session")
async def showcase(widget_server: WidgetServer, people: World) -> Showcase:
    space = await named_space(people, "platform", "Platform team",
                              "How the platform team works: on-call, releases and conventions.")
    releases = await named_space(people, "releases", "Release notes",
                                 "What shipped, when, and what to watch for.")
    handbook = await named_space(people, "handbook", "Company handbook",
                                 "Policies everyone follows.")
    member = await people.member(grants={space: "readwrite", releases: "readwrite", handbook: "read"},
                                 name="Dana Reyes")
    key = member.key
    await call_tool(widget_server, key, "select-space", {"containerTag": space})
    got = await upload_document(widget_server, key, space, "on-call.md", "text/markdown", ON_CALL_MD)
    document_memories = int(got["document"]["memoryCount"])
    assert document_memories > 0, got
    ids: dict[str, str] = {}
    for name, content, category in (("reviews", REVIEWS, "convention"), ("staging", STAGING, None),
                                    ("lunch", LUNCH, None), ("deploy_v1", DEPLOY_V1, "convention")):
        saved = await call_tool(widget_server, key, "add_memory", {
            "content": content, "containerTag": space, **({"category": category} if category else {})})
        assert saved["action"] == "saved", saved
        ids[name] = saved["memory"]["id"]
    v2 = await call_tool(widget_server, key, "add_memory", {"content": DEPLOY_V2, "containerTag": space})
    assert v2["action"] == "versioned" and v2["supersedes"]["id"] == ids["deploy_v1"], v2
    ids["deploy_v2"] = v2["memory"]["id"]
    await call_tool(widget_server, key, "add_memory", {"action": "forget", "content": LUNCH,
                                                       "memoryId": ids["lunch"], "containerTag": space})
    await call_tool(widget_server, key, "add_memory", {
        "content": "Version 2.4 moved the search index to the new cluster.", "containerTag": releases})
    return Showcase(key=key, user_name="Dana Reyes", space=space, other_spaces=[releases, handbook],
                    document_id=got["document"]["id"], document_memories=document_memories, ids=ids)


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    require_browser()
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                           args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
