"""The browser side of the browser tests (``tests/test_widgets_browser*.py``): headless Chromium
(Debian's, driven by Playwright through ``executable_path``) and the small test host
(``widgets/test-host`` built into ``tests/widgets/host.html``). The host does what a client that
renders apps does: an MCP client with a bearer key, the real ``AppBridge``, the view in a
sandboxed iframe with an opaque origin under the CSP its resource declares.

The host page is served by the live app itself on a test-only route (``/__test_host``), so the
host's MCP client talks to ``/mcp`` from the same origin; the view, with its opaque origin,
reaches nothing but what its CSP allows and the target answers with CORS.

Without Chromium or Playwright these tests skip, except under ``CI`` where they fail
(``require_browser``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from widgets_server import WidgetServer

try:
    from playwright.async_api import Browser, ConsoleMessage, Frame, FrameLocator, Page

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - reported by the browser fixture
    HAVE_PLAYWRIGHT = False

ROOT = Path(__file__).resolve().parents[1]
HOST_HTML = ROOT / "tests" / "widgets" / "host.html"
CHROMIUM = Path(os.environ.get("MEMORY_MCP_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SCREENSHOTS = os.environ.get("MEMORY_MCP_SCREENSHOTS", "") not in ("", "0")
SCREENSHOT_DIR = ROOT / "docs" / "widgets"
VIEWS = ("select-space", "guided-save", "upload-file", "memory-graph")
UI_TIMEOUT_MS = 15_000


# --------------------------------------------------------------------------- availability


def _missing() -> list[str]:
    problems = []
    if not HAVE_PLAYWRIGHT:
        problems.append("Playwright for Python is not installed (pip install -e '.[dev]')")
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        problems.append(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    if not HOST_HTML.is_file():
        problems.append(f"{HOST_HTML.relative_to(ROOT)} is missing (make widgets)")
    return problems


def require_browser() -> None:
    """Skip when the browser tests cannot run here; under ``CI`` fail instead."""
    problems = _missing()
    if not problems:
        return
    reason = "the browser tests cannot run: " + "; ".join(problems)
    if os.environ.get("CI"):
        pytest.fail(f"{reason} — under CI they must run, not skip", pytrace=False)
    pytest.skip(reason)


# --------------------------------------------------------------------------- the host page


@dataclass
class Hosted:
    """One view opened in the test host."""

    page: Page
    frame: Frame
    console: list[str]

    @property
    def view(self) -> FrameLocator:
        return self.page.frame_locator("#view")

    async def recorded(self, name: str) -> Any:
        return await self.page.evaluate(f"window.{name}")

    async def model_context_text(self) -> str:
        entries = await self.recorded("__MM_MODEL_CONTEXT")
        return "\n".join(block.get("text", "") for entry in entries
                         for block in entry.get("content") or [])

    def diagnostics(self) -> str:
        """The page's and the view's console, without the bridge's per-message debug lines."""
        return "\n".join([line for line in self.console if not line.startswith("[debug]")][-30:])


async def open_view(browser: Browser, server: WidgetServer, key: str, tool: str,
                    args: dict[str, Any] | None = None, theme: str = "light",
                    via_query: bool = False) -> Hosted:
    """Open ``tool``'s view in the test host as a model call with ``args`` would, and wait
    until the host has sent the view the tool input and result. The host reads its settings
    from ``window.__MM_CONFIG`` or (``via_query``) from its query string."""
    context = await browser.new_context(viewport={"width": 860, "height": 1000})
    page = await context.new_page()
    console: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        console.append(f"[{message.type}] {message.text}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: console.append(f"[pageerror] {exc}"))
    config = {"key": key, "tool": tool, "args": json.dumps(args or {}), "theme": theme, "width": "760"}
    if via_query:
        await page.goto(f"{server.host_page}?{urlencode(config)}")
    else:
        await page.add_init_script(
            f"window.__MM_CONFIG = {json.dumps({**config, 'args': args or {}, 'width': 760})};")
        await page.goto(server.host_page)
    await page.wait_for_function("window.__MM_READY || window.__MM_ERROR", timeout=UI_TIMEOUT_MS)
    error = await page.evaluate("window.__MM_ERROR")
    assert error is None, f"the test host failed: {error}\n" + "\n".join(console)
    handle = await page.query_selector("#view")
    assert handle is not None
    frame = await handle.content_frame()
    assert frame is not None
    return Hosted(page, frame, console)


async def close(hosted: Hosted) -> None:
    await hosted.page.context.close()


# JS run inside the view: its visible text and the luminance of its text and background.
LOOK_JS = """() => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = (p) => (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255;
  let node = document.body, bg = null;
  while (node) {
    const p = parse(getComputedStyle(node).backgroundColor);
    if (p.length >= 3 && (p.length < 4 || p[3] > 0)) { bg = p; break; }
    node = node.parentElement;
  }
  return {
    text: document.body.innerText.trim(),
    background: bg ? lum(bg) : null,
    foreground: lum(parse(getComputedStyle(document.body).color)),
    theme: document.documentElement.getAttribute("data-theme"),
    alerts: Array.from(document.querySelectorAll('[role=alert]'))
      .filter((n) => !n.hidden && n.textContent.trim()).map((n) => n.textContent.trim()),
  };
}"""

# JS run inside the view: a memory node of the graph whose centre is not covered by another.
CLICKABLE_NODE_JS = """(wanted) => {
  const nodes = Array.from(document.querySelectorAll('[data-testid=graph-node]'));
  const order = nodes.filter((n) => n.dataset.id === wanted).concat(nodes);
  for (const n of order) {
    if (n.dataset.kind !== 'memory' || n.dataset.status !== 'current') continue;
    const box = n.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest('[data-testid=graph-node]') === n) return n.dataset.id;
  }
  return null;
}"""
