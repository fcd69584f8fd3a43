"""The guided-save view in a real browser (see ``test_widgets_browser.py``): edit a draft and
save it in another space; keys that cannot write get a plain message instead of a form."""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

import pytest
from widgets_host import UI_TIMEOUT_MS, close, open_view
from widgets_server import WidgetServer, call_tool, named_space

from conftest import World

with contextlib.suppress(ImportError):  # without Playwright the fixtures skip (fail under CI)
    from playwright.async_api import Browser, expect

pytest_plugins = ["widgets_fixtures"]
pytestmark = [pytest.mark.anyio, pytest.mark.browser, pytest.mark.timeout(180)]


async def test_guided_save_edits_and_saves(browser: Browser, widget_server: WidgetServer,
                                           people: World) -> None:
    """The draft arrives prefilled; the person edits text and category, picks a space and
    submits; search_memory finds exactly the edited text there, written by that person."""
    first = await named_space(people, "drafts", "Drafts", "")
    second = await named_space(people, "ops", "Operations", "")
    member = await people.member(grants={first: "readwrite", second: "readwrite"}, name="Rosa Park")
    tag = uuid.uuid4().hex[:8]
    suggested = f"The nightly backup runs at 02:00 ({tag})"
    edited = f"The nightly backup of the billing database runs at 03:30 UTC ({tag})"
    hosted = await open_view(browser, widget_server, member.key, "guided-save", {
        "content": suggested, "category": "note", "containerTag": first})
    try:
        view = hosted.view
        content = view.get_by_test_id("draft-content")
        await expect(content).to_have_value(suggested, timeout=UI_TIMEOUT_MS)
        await expect(view.get_by_test_id("draft-category")).to_have_value("note")
        submit = view.get_by_test_id("draft-submit")
        await expect(submit).to_be_enabled(timeout=UI_TIMEOUT_MS)
        await expect(view.get_by_test_id("draft-space")).to_have_value(first)

        await content.fill(edited)
        await view.get_by_test_id("draft-category").fill("operations")
        await view.get_by_test_id("draft-space").select_option(second)
        await submit.click()

        outcome = view.get_by_test_id("save-result")
        await expect(outcome).to_be_visible(timeout=UI_TIMEOUT_MS)
        await expect(outcome).to_have_attribute("data-action", "saved")
        memory_id = await outcome.get_attribute("data-memory-id")
        assert memory_id, hosted.diagnostics()
        await expect(outcome).to_contain_text(memory_id)

        found = await call_tool(widget_server, member.key, "search_memory", {
            "keyword": tag, "containerTag": second, "includeProfile": False})
        assert [(h["id"], h["memory"]) for h in found["results"]] == [(memory_id, edited)], found
        hit = found["results"][0]
        assert hit["createdBy"] == "Rosa Park" and hit["category"] == "operations", hit
        elsewhere = await call_tool(widget_server, member.key, "search_memory", {
            "keyword": tag, "containerTag": first, "includeProfile": False})
        assert elsewhere["results"] == [], "nothing may be saved in the prefilled space"
        assert memory_id in await hosted.model_context_text()
    finally:
        await close(hosted)

async def _submit_as_drafted(view: Any, action: str) -> Any:
    """Press "Save memory" on the draft as it came and wait for the outcome ``action``."""
    submit = view.get_by_test_id("draft-submit")
    await expect(submit).to_be_enabled(timeout=UI_TIMEOUT_MS)
    await submit.click()
    outcome = view.get_by_test_id("save-result")
    await expect(outcome).to_have_attribute("data-action", action, timeout=UI_TIMEOUT_MS)
    return outcome


async def test_the_same_text_with_a_new_category_says_what_changed(
    browser: Browser, widget_server: WidgetServer, people: World
) -> None:
    """Saving a stored text again under a new category re-tags it: the view says so instead of
    "Nothing changed", and tells the model."""
    space = await named_space(people, "retag", "Retag", "")
    member = await people.member(grants={space: "readwrite"}, name="Ines Moreau")
    text = f"Release notes go to the #announce channel ({uuid.uuid4().hex[:8]})"
    first = await call_tool(widget_server, member.key, "add_memory",
                            {"content": text, "category": "note", "containerTag": space})
    hosted = await open_view(browser, widget_server, member.key, "guided-save", {
        "content": text, "category": "process", "containerTag": space})
    try:
        view = hosted.view
        outcome = await _submit_as_drafted(view, "unchanged")
        await expect(outcome).to_have_attribute("data-memory-id", first["memory"]["id"])
        await expect(outcome).not_to_contain_text("Nothing changed")
        await expect(view.get_by_test_id("changed-in-place")).to_contain_text(
            "its category is now “process” (was “note”)")
        assert "so only this changed" in await hosted.model_context_text()
    finally:
        await close(hosted)


async def test_a_correction_too_different_to_version_names_the_memory_it_may_correct(
    browser: Browser, widget_server: WidgetServer, people: World
) -> None:
    """The person saves a reworded correction: it becomes a new memory, and the view says which
    current memory it may correct, with what differs, and tells the model its id."""
    space = await named_space(people, "limits", "Limits", "")
    member = await people.member(grants={space: "readwrite"}, name="Omar Haddad")
    old = await call_tool(widget_server, member.key, "add_memory", {
        "content": "The API rate limit is 600 requests per minute.", "containerTag": space})
    correction = "The rate limit for the API was raised to 1000 requests a minute."
    hosted = await open_view(browser, widget_server, member.key, "guided-save", {
        "content": correction, "containerTag": space})
    try:
        view = hosted.view
        await _submit_as_drafted(view, "saved")
        hint = view.get_by_test_id("may-replace")
        await expect(hint).to_contain_text("The API rate limit is 600 requests per minute.")
        await expect(hint).to_contain_text("numbers differ: 1000 vs 600")
        note = await hosted.model_context_text()
        assert f"It may correct memory {old['memory']['id']}" in note, note
    finally:
        await close(hosted)


@pytest.mark.parametrize("who", ["reader-role", "read-grants-only"])
async def test_nowhere_to_save(browser: Browser, widget_server: WidgetServer, people: World,
                               who: str) -> None:
    """A Reader, or a key with only Read grants, gets a plain message instead of a form."""
    space = await named_space(people, "readonly", "Read only", "")
    if who == "reader-role":
        member = await people.member(role="reader", grants={space: "readwrite"})
    else:
        member = await people.member(grants={space: "read"})
    hosted = await open_view(browser, widget_server, member.key, "guided-save", {
        "content": "Something worth keeping", "containerTag": space})
    try:
        view = hosted.view
        panel = view.get_by_test_id("nowhere-to-save")
        await expect(panel).to_be_visible(timeout=UI_TIMEOUT_MS)
        assert len((await panel.inner_text()).strip()) > 20, "the panel must say why"
        for selector in ("form", "textarea", "[data-testid=draft-submit]", "[data-testid=draft-content]"):
            await expect(view.locator(selector)).to_have_count(0)
        result = await hosted.recorded("__MM_TOOL_RESULT")
        assert result["structuredContent"]["canSave"] is False
    finally:
        await close(hosted)
