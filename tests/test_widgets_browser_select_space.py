"""The select-space view in a real browser (see ``test_widgets_browser.py``): pick a space with
the keyboard and check the server, the view and the model agree on the switch."""

from __future__ import annotations

import contextlib
import uuid

import pytest
from widgets_host import UI_TIMEOUT_MS, close, open_view
from widgets_server import WidgetServer, call_tool, named_space

from conftest import World

with contextlib.suppress(ImportError):  # without Playwright the fixtures skip (fail under CI)
    from playwright.async_api import Browser, expect

pytest_plugins = ["widgets_fixtures"]
pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.timeout(180)]


async def test_pick_a_space_with_the_keyboard(browser: Browser, widget_server: WidgetServer,
                                              people: World) -> None:
    """select-space without containerTag lists both spaces; search, ArrowDown and Enter switch to
    the second, whoAmI shows it active and the model was told."""
    prefix = f"pick{uuid.uuid4().hex[:6]}"
    first_key = await named_space(people, prefix, "Payments", "Card and bank payments.")
    second_key = await named_space(people, prefix, "Search", "The search service.")
    member = await people.member(grants={first_key: "readwrite", second_key: "read"})
    listed = await call_tool(widget_server, member.key, "select-space")
    assert listed["mode"] == "pick"
    order = [s["key"] for s in listed["spaces"]]
    assert sorted(order) == sorted([first_key, second_key])
    first, second = order
    await call_tool(widget_server, member.key, "select-space", {"containerTag": first})

    hosted = await open_view(browser, widget_server, member.key, "select-space")
    try:
        view = hosted.view
        options = view.get_by_test_id("space-option")
        await expect(options).to_have_count(2, timeout=UI_TIMEOUT_MS)
        assert [await o.get_attribute("data-key") for o in await options.all()] == order
        active = view.locator(f'[data-testid=space-option][data-key="{first}"] [data-testid=active-badge]')
        await expect(active).to_be_visible()

        search = view.get_by_test_id("space-search")
        await search.click()
        await search.press_sequentially(prefix, delay=10)
        await expect(options).to_have_count(2)  # both keys start with the prefix
        await search.press("ArrowDown")
        await expect(view.locator(f'[data-testid=space-option][data-key="{second}"]')).to_have_attribute(
            "data-highlighted", "true")
        await search.press("Enter")

        badge = view.locator(f'[data-testid=space-option][data-key="{second}"] [data-testid=active-badge]')
        await expect(badge).to_be_visible(timeout=UI_TIMEOUT_MS)
        await expect(view.get_by_test_id("status")).to_contain_text(second)
        await expect(view.get_by_test_id("active-badge")).to_have_count(1)

        who = await call_tool(widget_server, member.key, "whoAmI")
        assert who["activeSpace"]["key"] == second, who
        assert who["activeSpace"]["source"] == "selected"
        told = await hosted.model_context_text()
        assert second in told, f"the model was not told: {told!r}"
        calls = await hosted.recorded("__MM_TOOL_CALLS")
        assert {"name": "select-space", "arguments": {"containerTag": second}} in [
            {"name": c["name"], "arguments": c["arguments"]} for c in calls if c["by"] == "view"]
    finally:
        await close(hosted)
