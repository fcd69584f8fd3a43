"""How much of an agent's context one tool result may take, and the code that keeps it there.

Why: a result is pasted whole into the model's context. Claude Code refuses one above 25,000
tokens by default (``MAX_MCP_OUTPUT_TOKENS``) and other clients simply lose the conversation's
start, so every tool, resource and prompt here has a budget in characters (a token is ~4
characters of English; ``CHARS_PER_TOKEN``), for its text and, separately, for its
``structuredContent`` serialised as compact JSON. Together they stay under 25,000 tokens (the
default budget is 92,000 characters, ~23,000 tokens), so even a client that shows the model
both still fits; structuredContent gets the larger share because its ids, timestamps and field
names are most of a long list (~750 characters per memory before its text).

What keeps a result inside (``bench/result_sizes.py`` prints the largest each can produce,
``tests/test_result_budgets.py`` builds those worst cases through the real service):

* Counts are bounded where the data is fetched: pages of at most 50 (lists), 50 search hits plus
  a 15-memory profile, 20 recent memories (resource), ``SPACES_PAGE`` spaces, the first
  ``MAX_DOCUMENT_MEMORIES`` memories of a document, and getDocument pages of 20,000 characters
  by default and ``MAX_PAGE_CHARS`` at most (services/documents.py).
* Free text is bounded per field: memory texts in text output are snippets (500 characters, fewer
  when a long list would not fit), in structuredContent at most ``MEMORY_CHARS`` each and fewer
  when many would not fit (fair shares; a cut one carries ``memoryChars`` and
  ``memoryTruncated``); names and labels at most ``NAME_CHARS``, titles, file names and emails
  ``TITLE_CHARS``; other free text (descriptions, summaries, reasons, coverage notes) shares the
  room too, each at most ``FIELD_CHARS``.
* getDocument's page is in the text only: structuredContent says where the page lies
  (``page``) instead of repeating it.
* Last, a text still over budget is cut at a line, with a note saying so; structuredContent
  still over budget (only when names and ids alone are too many) leaves items off the end of its
  list and says how many (``omittedForBudget``).

The widget tools are not shaped here: their structuredContent is the view's data (the memory
graph is bounded by services/graph.py instead).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from memory_mcp.mcp import formatting as fmt
from memory_mcp.services.documents import MAX_DOCUMENT_MEMORIES, MAX_PAGE_CHARS, PAGE_CHARS

__all__ = ["BUDGETS", "CHARS_PER_TOKEN", "MAX_DOCUMENT_MEMORIES", "MAX_PAGE_CHARS", "PAGE_CHARS",
           "Budget", "fit_structured", "fit_text", "json_size", "page_items"]

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4
#: Longest memory text in structuredContent: a document passage (coverage.MAX_PASSAGE_CHARS)
#: passes whole; a longer saved memory is cut, with its full length alongside.
MEMORY_CHARS = 2_000
NAME_CHARS = 100
TITLE_CHARS = 200
FIELD_CHARS = 1_000
#: listSpaces pages, and whoAmI lists at most this many granted spaces.
SPACES_PAGE = 30
#: Free text that shares what the budget leaves (each at most its cap): memory texts, and the
#: documents' and spaces' prose. ``content`` (a getDocument page) is bounded by the page limit.
_SHARED = {"memory": MEMORY_CHARS, "summary": FIELD_CHARS, "statusReason": FIELD_CHARS,
           "note": FIELD_CHARS, "description": FIELD_CHARS, "reason": FIELD_CHARS,
           "forgetReason": FIELD_CHARS}
_CAPS = {**dict.fromkeys(("name", "displayName", "label", "createdBy", "updatedBy",
                          "forgottenBy"), NAME_CHARS),
         **dict.fromkeys(("title", "filename", "email", "sourceDocumentTitle"), TITLE_CHARS)}
_SNIPPETS = (fmt.SNIPPET_CHARS, 300, 160, 80)


@dataclass(frozen=True)
class Budget:
    """Most characters a result may have: its text, and its structuredContent as JSON."""

    text: int
    structured: int

    @property
    def tokens(self) -> int:
        """Both together, in approximate tokens (characters / ``CHARS_PER_TOKEN``)."""
        return (self.text + self.structured) // CHARS_PER_TOKEN


DEFAULT = Budget(text=32_000, structured=60_000)
#: The one table of budgets: tools by name, resources by URI, the prompt by name.
BUDGETS: dict[str, Budget] = {
    "search_memory": DEFAULT,
    "add_memory": Budget(text=8_000, structured=16_000),
    "listDocuments": DEFAULT,
    "getDocument": Budget(text=45_000, structured=16_000),
    "deleteDocument": Budget(text=2_000, structured=2_000),
    "listMemories": DEFAULT,
    "listSpaces": DEFAULT,
    "whoAmI": DEFAULT,
    "memory-mcp://profile": Budget(text=DEFAULT.structured, structured=0),
    "memory-mcp://spaces": Budget(text=DEFAULT.structured, structured=0),
    "memory-mcp://memories": Budget(text=DEFAULT.structured, structured=0),
    "context": Budget(text=DEFAULT.text, structured=0),
}


def json_size(data: Any) -> int:
    """Characters of ``data`` as compact JSON, as a client receives structuredContent."""
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str))


def page_items(items: list[Any], page: int, size: int) -> tuple[list[Any], bool]:
    """Items of page ``page`` (from 1) and whether more follow."""
    start = (page - 1) * size
    return items[start:start + size], start + size < len(items)


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, ending on a word and an ellipsis if cut."""
    if len(text) <= limit:
        return text
    head = text[: max(0, limit - 1)]
    space = head.rfind(" ", max(0, len(head) - 40))
    return (head[:space] if space > 0 else head) + "…"


def _shares(needs: list[int], room: int) -> list[int]:
    """Water-filling: each field gets what it needs, up to an equal share of what is left."""
    out = [0] * len(needs)
    left = max(0, room)
    order = sorted(range(len(needs)), key=lambda i: needs[i])
    for n, i in enumerate(order):
        out[i] = min(needs[i], left // (len(order) - n))
        left -= out[i]
    return out


def _put(node: dict[str, Any], key: str, text: str, value: str) -> None:
    """Set a shared field; a cut memory says so, with its full length."""
    node[key] = value
    if key == "memory" and "id" in node:
        node.pop("memoryChars", None)
        node.pop("memoryTruncated", None)
        if value != text:
            node.update(memoryChars=len(text), memoryTruncated=True)


def _trim(out: dict[str, Any], limit: int) -> None:
    """Last resort, for lists whose items' fixed fields alone exceed the budget: leave items
    off the end of the longest list, and say how many (``omittedForBudget``)."""
    omitted: dict[str, int] = {}
    while json_size(out) > limit:
        lists = [(k, v) for k, v in out.items() if isinstance(v, list) and v]
        if not lists:
            break
        key, items = max(lists, key=lambda kv: len(kv[1]))
        items.pop()
        omitted[key] = omitted.get(key, 0) + 1
    if omitted:
        out["omittedForBudget"] = omitted
        log.warning("left %s out of a result to fit %d characters", omitted, limit)


def _fits(data: dict[str, Any], limit: int) -> bool:
    """Whether ``fit_structured`` would change nothing: every field within its cap and the
    whole within ``limit`` (then each shared field gets all it needs).

    Asked of every result on the way out, so it walks with a plain stack instead of
    ``_walk``'s nested generators (a search result has a few hundred nodes)."""
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            if "memoryChars" in node or "memoryTruncated" in node:
                return False  # marks the fitting itself rewrites
            for key, value in node.items():
                if isinstance(value, str):
                    if key != "content" and len(value) > _SHARED.get(
                            key, _CAPS.get(key, FIELD_CHARS)):
                        return False
                elif isinstance(value, (dict, list)):
                    stack.append(value)
    return json_size(data) <= limit


def fit_structured(data: dict[str, Any], limit: int, *, trim: bool = True) -> dict[str, Any]:
    """``data`` within ``limit`` JSON characters: names and titles clipped, free text shared out
    fairly (a cut memory marked, with its full length) and, if that is still not enough and
    ``trim``, items left off the end of the longest list. A copy when anything is cut; ``data``
    itself when it already fits (callers never modify the result)."""
    if _fits(data, limit):
        return data  # the common case: nothing to cut, so no copy to make
    out = copy.deepcopy(data)
    shared: list[tuple[dict[str, Any], str, str]] = []
    for node in _walk(out):
        for key, value in node.items():
            if not isinstance(value, str) or key == "content":
                continue
            if key in _SHARED:
                shared.append((node, key, value))
            else:
                node[key] = _cut(value, _CAPS.get(key, FIELD_CHARS))
    for node, key, text in shared:  # the fixed part: every shared field empty (marked if cut)
        _put(node, key, text, "")
    room = limit - json_size(out)
    needs = [min(len(text), _SHARED[key]) for _, key, text in shared]
    for _ in range(4):  # JSON escapes can make text longer than its characters: shrink again
        for (node, key, text), share in zip(shared, _shares(needs, room), strict=True):
            _put(node, key, text, _cut(text, share) if share else "")
        over = json_size(out) - limit
        if over <= 0:
            break
        room -= over + 16 * len(shared)
    if trim:
        _trim(out, limit)
    return out


def fit_text(render: Callable[[dict[str, Any]], str], data: dict[str, Any], limit: int) -> str:
    """``render(data)`` in at most ``limit`` characters: with shorter memory snippets when the
    usual ones would not fit, else cut at a line with a note that says so."""
    text = ""
    for snippet in _SNIPPETS:
        with fmt.snippets(snippet):
            text = render(data)
        if len(text) <= limit:
            return text
    note = (f"\n[Cut here: this result's text is limited to {limit:,} characters. Ask for less "
            "(a smaller limit or page, or a narrower query).]")
    head = text[: max(0, limit - len(note))]
    line = head.rfind("\n")
    log.warning("result text cut from %d to %d characters", len(text), limit)
    return (head[:line] if line > 0 else head) + note
