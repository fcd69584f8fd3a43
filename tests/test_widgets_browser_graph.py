"""The memory-graph view in a real browser (see ``test_widgets_browser.py``): the seeded showcase
space drawn as a graph, a node's details, search and hiding inactive memories."""

from __future__ import annotations

import contextlib

import pytest
from widgets_host import CLICKABLE_NODE_JS, UI_TIMEOUT_MS, close, open_view
from widgets_server import Showcase, WidgetServer

with contextlib.suppress(ImportError):  # without Playwright the fixtures skip (fail under CI)
    from playwright.async_api import Browser, expect

pytest_plugins = ["widgets_fixtures"]
pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.timeout(180)]


async def test_memory_graph(browser: Browser, widget_server: WidgetServer, showcase: Showcase) -> None:
    """The graph of a seeded space draws every document and memory it holds, marks superseded
    and forgotten ones, and a click on a memory shows its text."""
    hosted = await open_view(browser, widget_server, showcase.key, "memory-graph",
                             {"containerTag": showcase.space})
    try:
        view = hosted.view
        result = (await hosted.recorded("__MM_TOOL_RESULT"))["structuredContent"]
        counts = result["counts"]
        assert (counts["documents"], counts["memories"]) == (1, showcase.memories), counts
        assert (counts["current"], counts["superseded"], counts["forgotten"]) == (
            showcase.current, 1, 1), counts

        nodes = view.get_by_test_id("graph-node")
        await expect(nodes).to_have_count(1 + showcase.memories, timeout=UI_TIMEOUT_MS)
        docs = view.locator("[data-testid=graph-node][data-kind=document]")
        mems = view.locator("[data-testid=graph-node][data-kind=memory]")
        assert await docs.count() == counts["documents"] == 1
        assert await mems.count() == counts["memories"]
        assert await docs.get_attribute("data-id") == showcase.document_id
        forgotten = view.locator("[data-testid=graph-node][data-status=forgotten]")
        superseded = view.locator("[data-testid=graph-node][data-status=superseded]")
        assert [await n.get_attribute("data-id") for n in await forgotten.all()] == [showcase.ids["lunch"]]
        assert [await n.get_attribute("data-id") for n in await superseded.all()] == [
            showcase.ids["deploy_v1"]]
        await expect(view.get_by_test_id("graph-counts")).to_contain_text(f"{showcase.memories} memories")

        wanted = showcase.ids["staging"]
        target = await hosted.frame.evaluate(CLICKABLE_NODE_JS, wanted)
        assert target, "no memory node can be clicked without hitting another"
        await view.locator(f'[data-testid=graph-node][data-id="{target}"]').click()
        detail = view.get_by_test_id("node-detail")
        await expect(detail).to_have_attribute("data-id", target)
        texts = {node["id"]: node["text"] for node in result["nodes"]}
        await expect(detail).to_contain_text(texts[target])
        await expect(detail).to_contain_text(showcase.user_name)

        await view.get_by_test_id("graph-search").fill("PostgreSQL 16")
        await expect(view.get_by_test_id("graph-match-count")).to_have_text("1 match")
        await view.get_by_test_id("graph-toggle-inactive").uncheck()
        await expect(forgotten).to_be_hidden()
        await expect(superseded).to_be_hidden()
        newest = view.locator(f'[data-testid=graph-node][data-id="{showcase.ids["deploy_v2"]}"]')
        await expect(newest).to_be_visible()
    finally:
        await close(hosted)
