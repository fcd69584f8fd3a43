"""Arguments that do not fit a tool's schema get one sentence naming the argument and what to
send, over real HTTP with the official client, instead of pydantic's report (the arguments
echoed back, a class name and a link)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from memory_mcp.mcp.arguments import MAX_QUOTED_CHARS, readable

from mcp_client import call

pytestmark = pytest.mark.anyio


def _error(result: Any) -> str:
    assert result.is_error, result.content
    return str(result.content[0].text)


@pytest.mark.parametrize(("tool", "args", "expected"), [
    ("add_memory", {"action": "save", "category": "note"},
     "Invalid arguments for add_memory: content is required."),
    ("add_memory", {"content": "x", "action": "FORGET"},
     "Invalid arguments for add_memory: action must be 'save' or 'forget' (got 'FORGET')."),
    ("search_memory", {"query": "x", "limit": "many"},
     "Invalid arguments for search_memory: limit: input should be a valid integer, unable to "
     "parse string as an integer (got 'many')."),
    ("search_memory", {"query": "x", "limit": True},  # once read as limit 1
     "Invalid arguments for search_memory: limit: must be a number, not true or false (got "
     "True)."),
])
async def test_a_schema_misfit_is_one_sentence(live_server: str, world: Any, tool: str,
                                               args: dict[str, Any], expected: str) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    text = _error(await call(live_server, m.key, tool, {**args, "containerTag": space}))
    assert text == expected
    assert "pydantic" not in text and "input_value" not in text and "Arguments" not in text


async def test_a_number_sent_as_a_string_is_still_read(live_server: str, world: Any) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    listed = await call(live_server, m.key, "listMemories", {"page": "1", "containerTag": space})
    assert not listed.is_error and listed.structured_content["page"] == 1


async def test_forget_by_memory_id_needs_no_content(live_server: str, world: Any) -> None:
    """The tool's description says "forget by memoryId": a model that sends only that is
    understood (the content would only be the reason recorded)."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    saved = await call(live_server, m.key, "add_memory",
                       {"content": "The wiki moved to Confluence", "containerTag": space})
    memory_id = saved.structured_content["memory"]["id"]
    gone = await call(live_server, m.key, "add_memory",
                      {"action": "forget", "memoryId": memory_id, "containerTag": space})
    assert not gone.is_error, gone.content
    assert gone.structured_content["action"] == "forgotten"
    assert gone.structured_content["memory"]["id"] == memory_id
    missing = await call(live_server, m.key, "add_memory", {"action": "save", "memoryId": memory_id,
                                                            "containerTag": space})
    assert _error(missing) == "Invalid arguments for add_memory: content is required."


def test_a_long_rejected_value_is_quoted_short() -> None:
    class Args(BaseModel):
        limit: int

    with pytest.raises(ValidationError) as caught:
        Args.model_validate({"limit": "x" * 5000})
    text = readable("search_memory", caught.value)
    assert len(text) < 200 and "…" in text
    assert text.count("x") <= MAX_QUOTED_CHARS


async def test_an_argument_the_tool_does_not_take_is_refused_and_nothing_is_written(
        live_server: str, world: Any) -> None:
    """``space`` for ``containerTag`` once saved into the key's active space, where readers of
    that space found it, and a misspelt ``categroy`` saved without a category: both are refused
    now, naming the arguments the tool takes, and nothing is saved."""
    shared, private = await world.space("shared"), await world.space("private")
    m = await world.member(grants={shared: "readwrite", private: "readwrite"})
    wrong_space = await call(live_server, m.key, "add_memory",
                             {"content": "The CFO approved the salary budget.", "space": private})
    text = _error(wrong_space)
    assert text.startswith("Invalid arguments for add_memory: 'space' is not an argument")
    assert "containerTag" in text and "Nothing was done" in text
    typo = _error(await call(live_server, m.key, "add_memory",
                             {"content": "Retros are on Fridays.", "categroy": "decision",
                              "containerTag": shared}))
    assert "'categroy' is not an argument" in typo
    search = _error(await call(live_server, m.key, "search_memory",
                               {"query": "salary", "spaceKey": private, "colour": "red"}))
    assert "'colour', 'spaceKey' are not arguments" in search
    for space in (shared, private):
        listed = await call(live_server, m.key, "listMemories", {"containerTag": space})
        assert listed.structured_content["total"] == 0
    # every tool, widget tools included, refuses the same way
    who = _error(await call(live_server, m.key, "whoAmI", {"verbose": True}))
    assert "(it takes no arguments)" in who


@pytest.mark.parametrize(("page", "total", "limit", "says"), [
    (2, 0, 10, "page 2 is out of range: the list is empty (page 1 shows that)."),
    (2, 10, 10, "page 2 is out of range: there is 1 page of 10 at most."),
    (5, 25, 10, "page 5 is out of range: there are 3 pages of 10 at most."),
])
def test_a_page_past_the_end_says_how_many_there_are(page: int, total: int, limit: int,
                                                     says: str) -> None:
    """An empty listing said "there are 1 page(s)"."""
    from memory_mcp.errors import InvalidInputError
    from memory_mcp.services.validation import check_page_exists

    with pytest.raises(InvalidInputError) as caught:
        check_page_exists(page, total, limit)
    assert str(caught.value) == says
    check_page_exists(1, total, limit)  # page 1 always exists, empty or not
