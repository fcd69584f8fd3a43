"""The upload-file view in a real browser (see ``test_widgets_browser.py``): a Markdown file and a
PDF, sent from the sandboxed view and followed until their memories are searchable."""

from __future__ import annotations

import contextlib
import uuid

import pytest
from widgets_host import UI_TIMEOUT_MS, close, open_view
from widgets_server import PROCESSING_TIMEOUT_MS, WidgetServer, call_tool, named_space

from conftest import World
from fixtures_docs import make_pdf

with contextlib.suppress(ImportError):  # without Playwright the fixtures skip (fail under CI)
    from playwright.async_api import Browser, expect

pytest_plugins = ["widgets_fixtures"]
pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.timeout(180)]


MARKDOWN_FILE = """# Warehouse notes ({tag})

The Rotterdam warehouse ships refrigerated orders before 10:00 ({tag}).

Forklift licences are renewed every two years at the Rotterdam warehouse.
"""


def _pdf_file(tag: str) -> bytes:
    return make_pdf([[f"The Lisbon office hosts the quarterly planning week in March ({tag}).",
                      "Visitors to the Lisbon office sign in at the front desk on the ground floor."]],
                    title=f"Lisbon office {tag}")


@pytest.mark.parametrize("kind", ["markdown", "pdf"])
async def test_upload_a_file(browser: Browser, widget_server: WidgetServer, people: World,
                             kind: str) -> None:
    """Pick a file, upload it from the sandboxed view (signed local PUT, CORS, connectDomains),
    follow it to done, and find its memories."""
    space = await named_space(people, "uploads", "Uploads", "")
    member = await people.member(grants={space: "readwrite"})
    tag = uuid.uuid4().hex[:8]
    if kind == "markdown":
        name, mime, body = f"warehouse-{tag}.md", "text/markdown", MARKDOWN_FILE.format(tag=tag).encode()
        sentence, title = "refrigerated orders", f"Warehouse notes ({tag})"
    else:
        name, mime, body = f"lisbon-{tag}.pdf", "application/pdf", _pdf_file(tag)
        sentence, title = "quarterly planning week", f"Lisbon office {tag}"

    hosted = await open_view(browser, widget_server, member.key, "upload-file", {"containerTag": space})
    try:
        assert f"connect-src {widget_server.base}" in await hosted.recorded("__MM_CSP")
        view = hosted.view
        file_input = view.get_by_test_id("file-input")
        await expect(file_input).to_be_attached(timeout=UI_TIMEOUT_MS)
        await file_input.set_input_files({"name": name, "mimeType": mime, "buffer": body})
        await expect(view.get_by_test_id("upload-space")).to_have_value(space)
        await expect(view.get_by_test_id("upload-error")).to_be_hidden()
        await view.get_by_test_id("upload-submit").click()

        progress = view.get_by_test_id("upload-progress")
        await expect(progress).to_have_attribute("data-total", str(len(body)), timeout=UI_TIMEOUT_MS)
        done = view.get_by_test_id("upload-done")
        failed = view.locator("[data-testid=upload-failed], [role=alert]:not([hidden])")
        await expect(done.or_(failed).first).to_be_visible(timeout=PROCESSING_TIMEOUT_MS)
        if not await done.is_visible():
            text = await hosted.frame.evaluate("document.body.innerText")
            raise AssertionError(f"the upload did not finish:\n{text}\n{hosted.diagnostics()}")
        await expect(progress).to_have_attribute("data-sent", str(len(body)))
        await expect(view.get_by_test_id("upload-status")).to_have_attribute("data-status", "done")
        await expect(done).to_contain_text(title)  # the document's own title, not the filename
        count = int(await done.get_attribute("data-memory-count") or "0")
        assert count > 0

        await view.get_by_test_id("show-memories").click()
        items = view.get_by_test_id("memory-item")
        await expect(items.first).to_be_visible()
        assert await items.count() == min(count, 20)
        assert sentence in " ".join(await items.all_inner_texts())

        found = await call_tool(widget_server, member.key, "search_memory", {
            "keyword": sentence, "containerTag": space, "includeProfile": False})
        assert found["results"], found
        hit = found["results"][0]
        assert tag in hit["memory"] and hit["sourceDocumentId"], hit
        calls = [c for c in await hosted.recorded("__MM_TOOL_CALLS") if c["by"] == "view"]
        names = [c["name"] for c in calls]
        assert "upload-start" in names and "upload-status" in names, names
        declared = next(c["arguments"] for c in calls if c["name"] == "upload-start")
        assert (declared["filename"], declared["size"], declared["containerTag"]) == (name, len(body), space)
        assert hit["sourceDocumentId"] in await hosted.model_context_text()
    finally:
        await close(hosted)
