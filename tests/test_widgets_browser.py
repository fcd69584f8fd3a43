"""The four MCP Apps views in a real browser: headless Chromium against a live server, through
the small test host (``widgets/test-host`` built into ``tests/widgets/host.html``). This module
checks the host's sandbox and that every view renders in both themes; each view's own scenarios
are in ``test_widgets_browser_<view>.py``. The shared pieces: ``widgets_host`` (Chromium, the host
page), ``widgets_server`` (the live server, helpers that call its API), ``widgets_fixtures`` (the
session-scoped fixtures, loaded as a plugin).

Without Chromium or Playwright these tests skip, except under ``CI`` where they fail.
``MEMORY_MCP_SCREENSHOTS=1`` also writes light-theme screenshots to ``docs/widgets/<view>.png``
and prints each view's time to first paint in the test host.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from widgets_host import (
    CLICKABLE_NODE_JS,
    LOOK_JS,
    ROOT,
    SCREENSHOT_DIR,
    SCREENSHOTS,
    UI_TIMEOUT_MS,
    VIEWS,
    Hosted,
    close,
    open_view,
)
from widgets_server import Showcase, WidgetServer

with contextlib.suppress(ImportError):  # without Playwright the fixtures skip (fail under CI)
    from playwright.async_api import Browser, expect

pytest_plugins = ["widgets_fixtures"]
pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.timeout(180)]


async def test_host_sandbox_is_real(browser: Browser, widget_server: WidgetServer,
                                    showcase: Showcase) -> None:
    """The view runs with an opaque origin under its resource's CSP: without a connectDomains
    entry it reaches nothing, not even the server that served it."""
    hosted = await open_view(browser, widget_server, showcase.key, "select-space", via_query=True)
    try:
        policy = await hosted.recorded("__MM_CSP")
        assert "connect-src 'none'" in policy, policy
        assert await hosted.frame.evaluate("self.origin") == "null"
        assert "allow-same-origin" not in (await hosted.page.get_attribute("#view", "sandbox") or "")
        blocked = await hosted.frame.evaluate(
            """(url) => fetch(url).then(() => "reached", (e) => "blocked: " + e.message)""",
            f"{widget_server.base}/healthz")
        assert blocked.startswith("blocked"), blocked
        assert await hosted.frame.evaluate(
            "() => { try { return String(window.parent.document.title); } catch { return 'isolated'; } }"
        ) == "isolated"
    finally:
        await close(hosted)


async def _settle(hosted: Hosted, name: str) -> None:
    """Wait until a view shows its real content (not the loading state)."""
    view = hosted.view
    if name == "select-space":
        await expect(view.get_by_test_id("space-option").first).to_be_visible(timeout=UI_TIMEOUT_MS)
    elif name == "guided-save":
        await expect(view.get_by_test_id("draft-submit")).to_be_enabled(timeout=UI_TIMEOUT_MS)
    elif name == "upload-file":
        await expect(view.get_by_test_id("upload-submit")).to_be_visible(timeout=UI_TIMEOUT_MS)
    else:
        await expect(view.get_by_test_id("graph-node").first).to_be_attached(timeout=UI_TIMEOUT_MS)


def _view_args(name: str, showcase: Showcase) -> dict[str, Any]:
    if name == "guided-save":
        return {"content": "Code freeze starts two days before each quarterly release.",
                "category": "policy", "containerTag": showcase.space}
    if name in ("upload-file", "memory-graph"):
        return {"containerTag": showcase.space}
    return {}


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_every_view_renders_in_both_themes(browser: Browser, widget_server: WidgetServer,
                                                 showcase: Showcase, theme: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Each view follows the host's theme and never shows a blank frame or an error. With
    MEMORY_MCP_SCREENSHOTS=1 the light run writes docs/widgets/<view>.png."""
    timings: dict[str, dict[str, float]] = {}
    for name in VIEWS:
        hosted = await open_view(browser, widget_server, showcase.key, name,
                                 _view_args(name, showcase), theme=theme)
        try:
            await _settle(hosted, name)
            look = await hosted.frame.evaluate(LOOK_JS)
            assert len(look["text"]) > 20, f"{name} ({theme}) looks blank: {look!r}"
            assert not look["alerts"], f"{name} ({theme}) shows an error: {look['alerts']}"
            assert look["theme"] == theme, f"{name} did not apply the host theme: {look!r}"
            assert look["background"] is not None
            dark_page = look["background"] < 0.5
            light_text = look["foreground"] > 0.5
            assert dark_page == (theme == "dark") and light_text == (theme == "dark"), (
                f"{name} is not readable in the {theme} theme: {look!r}")
            timings[name] = await hosted.recorded("__MM_TIMING")
            if SCREENSHOTS and theme == "light":
                if name == "memory-graph":
                    target = await hosted.frame.evaluate(CLICKABLE_NODE_JS, showcase.ids["staging"])
                    if target:
                        await hosted.view.locator(f'[data-testid=graph-node][data-id="{target}"]').click()
                        await expect(hosted.view.get_by_test_id("node-detail")).to_be_visible()
                await hosted.page.wait_for_timeout(300)  # the last size change and any transition
                SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
                await hosted.page.locator("#view").screenshot(path=str(SCREENSHOT_DIR / f"{name}.png"))
        finally:
            await close(hosted)

    lines = [f"time to first paint in the test host ({theme} theme, ms from iframe creation):",
             f"  {'view':<14} {'initialized':>11} {'first paint':>11} {'with result':>11} {'tool call':>9}"]
    for name, t in timings.items():
        first = t.get("firstPaintMs", -1)
        lines.append(f"  {name:<14} {t.get('initializedMs', -1):>11.0f} {first:>11.0f} "
                     f"{t.get('contentPaintMs', first):>11.0f} {t.get('toolCallMs', -1):>9.0f}")
    report = "\n".join(lines)
    if SCREENSHOTS:
        with capsys.disabled():
            print("\n" + report)
            if theme == "light":
                print(f"  screenshots written to {SCREENSHOT_DIR.relative_to(ROOT)}/")
    else:
        print(report)
