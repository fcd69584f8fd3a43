"""MCP tools: validate input, call one service, shape text + structured content.

Tool names and inputs follow the product spec exactly (``search_memory``, ``add_memory``,
``listDocuments``, ``getDocument``, ``listMemories``, ``listSpaces``, ``whoAmI``); the widget
tools (``select-space`` and the other views) live in ``widgets``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from memory_mcp.errors import AccessDeniedError, InvalidInputError, MemoryMcpError
from memory_mcp.mcp import formatting as fmt
from memory_mcp.mcp.arguments import NO_BOOL
from memory_mcp.mcp.budget import (
    BUDGETS,
    MAX_PAGE_CHARS,
    PAGE_CHARS,
    SPACES_PAGE,
    Budget,
    fit_structured,
    fit_text,
    page_items,
)
from memory_mcp.mcp.request import caller
from memory_mcp.services import audit, documents, memories, ratelimit, spaces

log = logging.getLogger(__name__)

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                       open_world_hint=False)
ContainerTag = Annotated[
    str | None,
    Field(description="Key of the space to use for this request only (see listSpaces). "
                      "Omit to use the active space."),
]
Page = Annotated[int, NO_BOOL, Field(description="Page number, from 1.")]
Limit = Annotated[int, NO_BOOL, Field(description="Items per page, 1-50 (default 10).")]


async def run(call: Callable[[], Awaitable[dict[str, Any]]],
              render: Callable[[dict[str, Any]], str], *, budget: Budget | None = None,
              compact: Callable[[dict[str, Any]], dict[str, Any]] | None = None
              ) -> CallToolResult:
    """Translate package errors into tool errors the model can read; nothing else leaks.

    With a ``budget`` (mcp/budget.py) the text and structuredContent are fitted to it;
    ``compact`` first drops from structuredContent what the text already carries.
    """
    try:
        data = await call()
    except AccessDeniedError as exc:  # a refused write is worth an audit line
        c = caller()
        await audit.record_alone(c.runtime, "write.denied", c.principal, space_id=exc.space_id,
                                 reason=str(exc)[:200])
        raise ToolError(str(exc)) from None
    except MemoryMcpError as exc:
        raise ToolError(str(exc)) from None
    if budget is None:
        return CallToolResult(content=[TextContent(text=render(data))], structured_content=data)
    structured = fit_structured(compact(data) if compact else data, budget.structured)
    note = ""
    if "omittedForBudget" in structured:
        note = (f"\n[structuredContent leaves the last {sum(structured['omittedForBudget'].values())}"
                " item(s) out to stay within this result's budget; ask for a smaller limit to get "
                "them all.]")
    # The text renders the full data fitted to the larger budget; when structuredContent is that
    # same data and already fits (the common case), fitting it again would change nothing.
    shown = (structured if compact is None and structured is data
             else fit_structured(data, max(budget.text, budget.structured), trim=False))
    text = fit_text(render, shown, budget.text - len(note)) + note
    return CallToolResult(content=[TextContent(text=text)], structured_content=structured)


async def search_memory(
    query: Annotated[str | None, Field(description="Natural-language question for semantic "
                                                   "recall (ranked by meaning).")] = None,
    keyword: Annotated[str | None, Field(description="Literal text that must appear in the "
                                                     "memory (case-insensitive substring).")] = None,
    category: Annotated[str | None, Field(description="Only memories tagged with this "
                                                      "category.")] = None,
    includeProfile: Annotated[bool, Field(description="Also return the space's stable and "
                                                      "recent profile context.")] = True,
    containerTag: ContainerTag = None,
    limit: Annotated[int | None, NO_BOOL, Field(description="Max results, 1-50 (default 10).")] = None,
) -> CallToolResult:
    """Recall memories from one space to answer a question from remembered context.

    Give at least one of query (meaning), keyword (exact text) or category (tag); combined, they
    intersect, e.g. a keyword within a category. Only current memories are returned (not
    superseded or forgotten ones). By default the space's profile (durable and recent facts) is
    included; set includeProfile=false when only the matches are needed.
    """
    c = caller()
    return await run(lambda: memories.search(
        c.runtime, c.principal, query=query, keyword=keyword, category=category,
        include_profile=includeProfile, container_tag=containerTag, limit=limit), fmt.search,
        budget=BUDGETS["search_memory"])


async def add_memory(
    content: Annotated[str, Field(description="The fact to save (self-contained, max 100,000 "
                                              "characters), or for forget: the fact to remove.")],
    action: Annotated[Literal["save", "forget"], Field(description="save (default) or forget.")]
    = "save",
    category: Annotated[str | None, Field(description="Optional tag such as preference, "
                                                      "decision, convention.")] = None,
    containerTag: ContainerTag = None,
    memoryId: Annotated[str | None, Field(description="With action=forget: forget exactly this "
                                                      "memory id.")] = None,
) -> CallToolResult:
    """Save information to memory, or forget information that is outdated or wrong.

    save: stores content in the space (re-saving identical text changes nothing but its
    category, when one is given; a close rewording of an existing memory about the same
    subject becomes its new version). forget:
    removes exactly the memory named by memoryId, else the one matching content exactly, else
    the one content clearly means (close, and agreeing on names, numbers, dates, negation and
    environment). When unsure nothing is forgotten and the closest memories come back with
    their ids: confirm with the user, then forget by memoryId. Needs ReadWrite access.
    """
    c = caller()
    try:
        await ratelimit.take_write(c.runtime, c.principal)  # saves and forgets share one budget
    except MemoryMcpError as exc:
        raise ToolError(str(exc)) from None
    if action == "forget":
        return await run(lambda: memories.forget(c.runtime, c.principal, content, memoryId,
                                                  containerTag), fmt.forgotten,
                         budget=BUDGETS["add_memory"])
    if memoryId:
        raise ToolError("memoryId is only used with action='forget'.")
    return await run(lambda: memories.save(c.runtime, c.principal, content, category,
                                            containerTag), fmt.saved, budget=BUDGETS["add_memory"])


async def listDocuments(
    page: Page = 1, limit: Limit = 10, containerTag: ContainerTag = None
) -> CallToolResult:
    """Browse the source documents stored in a space: ids, titles, types, status, dates and
    summaries. Use getDocument to read one, page by page."""
    c = caller()
    return await run(lambda: documents.list_page(c.runtime, c.principal, page, limit,
                                                  containerTag), fmt.documents_page,
                     budget=BUDGETS["listDocuments"])


async def getDocument(
    documentId: Annotated[str, Field(description="Id of the document (from listDocuments).")],
    containerTag: ContainerTag = None,
    offset: Annotated[int, NO_BOOL, Field(description="Character position to read from (0 = the "
                                             "start; use the nextOffset of the previous page).")]
    = 0,
    limit: Annotated[int, NO_BOOL, Field(description=f"Characters to read, 1-{MAX_PAGE_CHARS:,} "
                                            f"(default {PAGE_CHARS:,}).")] = PAGE_CHARS,
) -> CallToolResult:
    """Read one source document, a page at a time: metadata, summary, coverage, `limit`
    characters of its content from `offset` (pages end at a paragraph where possible) and, with
    the first page, the first memories extracted from it. The result says how many characters
    there are in all and, when more follow, the nextOffset to pass to read on. When only a
    summary exists it is labelled as such."""
    c = caller()
    return await run(lambda: documents.get(c.runtime, c.principal, documentId, containerTag,
                                           offset, limit),
                     fmt.document, budget=BUDGETS["getDocument"], compact=_without_page_text)


def _without_page_text(data: dict[str, Any]) -> dict[str, Any]:
    """structuredContent of getDocument: the page's text is in the text block only (``page``
    says where it lies), so the result does not carry it twice."""
    return {**data, "document": {k: v for k, v in data["document"].items() if k != "content"}}


async def deleteDocument(
    documentId: Annotated[str, Field(description="Id of the document to delete.")],
    containerTag: ContainerTag = None,
) -> CallToolResult:
    """Delete an uploaded source document: it disappears from listDocuments, every memory
    extracted from it is marked forgotten (except facts another document in the space also
    states, and memories a person saved), and the stored file is removed. Needs ReadWrite
    access in the document's space. To forget a single memory use add_memory action=forget."""
    c = caller()
    return await run(lambda: documents.delete(c.runtime, c.principal, documentId, containerTag),
                     fmt.deleted_document, budget=BUDGETS["deleteDocument"])


async def listMemories(
    page: Page = 1, limit: Limit = 10, containerTag: ContainerTag = None
) -> CallToolResult:
    """Inspect the stored memory entries themselves, newest first and in any state (current,
    superseded, forgotten): ids, text, versions, categories, source document ids, authors."""
    c = caller()
    return await run(lambda: memories.list_page(c.runtime, c.principal, page, limit,
                                                 containerTag), fmt.memories_page,
                     budget=BUDGETS["listMemories"])


async def listSpaces(
    page: Annotated[int, NO_BOOL, Field(description=f"Page number, from 1 ({SPACES_PAGE} spaces a "
                                           "page).")] = 1,
) -> CallToolResult:
    """List the spaces this key can use, with each one's key (use it as containerTag), name,
    effective access (Read/ReadWrite), document and memory counts, last activity and which is
    active. Use it to resolve a space's name to its key."""
    c = caller()

    async def paged() -> dict[str, Any]:
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise InvalidInputError(f"page must be a whole number from 1, got {page!r}.")
        data = await spaces.list_spaces(c.runtime, c.principal)
        shown, more = page_items(data["spaces"], page, SPACES_PAGE)
        if page > 1 and not shown:
            last = max(1, -(-data["count"] // SPACES_PAGE))
            raise InvalidInputError(f"page {page} is past the end: there are {data['count']} "
                                    f"spaces, {last} page(s) of {SPACES_PAGE}.")
        return {**data, "spaces": shown, "page": page, "hasMore": more}

    return await run(paged, fmt.spaces, budget=BUDGETS["listSpaces"])


async def whoAmI() -> CallToolResult:
    """Show the authenticated user (id, email, display name, Writer/Reader role), the key in
    use, every granted space with its effective access, and the active space."""
    c = caller()

    async def bounded() -> dict[str, Any]:
        data = await spaces.who_am_i(c.runtime, c.principal)
        return {**data, "scope": data["scope"][:SPACES_PAGE], "scopeTotal": len(data["scope"])}

    return await run(bounded, fmt.who, budget=BUDGETS["whoAmI"])


#: name -> (function, annotations). The one registry of tools; tests list it.
TOOLS: dict[str, tuple[Callable[..., Awaitable[CallToolResult]], ToolAnnotations]] = {
    "search_memory": (search_memory, READ),
    "add_memory": (add_memory, ToolAnnotations(read_only_hint=False, destructive_hint=True,
                                               idempotent_hint=False, open_world_hint=False)),
    "listDocuments": (listDocuments, READ),
    "getDocument": (getDocument, READ),
    "deleteDocument": (deleteDocument, ToolAnnotations(read_only_hint=False, destructive_hint=True,
                                                       idempotent_hint=True, open_world_hint=False)),
    "listMemories": (listMemories, READ),
    "listSpaces": (listSpaces, READ),
    "whoAmI": (whoAmI, READ),
}


def register(server: MCPServer[Any]) -> None:
    for name, (fn, hints) in TOOLS.items():
        server.add_tool(fn, name=name, annotations=hints, structured_output=False)
