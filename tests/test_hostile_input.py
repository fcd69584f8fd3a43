"""Known hostile inputs answered with readable errors, never a 5xx or an echo of the input:
lone surrogates and NUL characters, oversized space tags, foreign Host headers on every route,
and credentials in query strings kept out of the access log."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from memory_mcp.http.app import create_app
from memory_mcp.http.guards import HideQueryCredentials, hide_query_credentials, host_allowed

from conftest import free_port, settings_for
from mcp_client import call

pytestmark = pytest.mark.anyio

UPLOAD = '{"filename": "notes.md", "contentType": "text/markdown", "size": 10}'


@pytest.mark.parametrize("body", [
    UPLOAD.replace("notes.md", "\\ud800.md"),
    UPLOAD.replace("text/markdown", "text/\\udfff"),
    UPLOAD.replace('"size": 10', '"size": 10, "containerTag": "\\ud800"'),
    UPLOAD.replace('"size": 10', '"size": 10, "extra": "\\ud800"'),
    UPLOAD.replace('"size": 10', '"size": "\\ud800"'),
    '{"filename": "\\ud800"',  # broken JSON too
])
@pytest.mark.parametrize("authorised", [False, True])
async def test_lone_surrogates_in_uploads_get_a_readable_400_and_write_nothing(
    live_server: str, world: Any, body: str, authorised: bool
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    headers = {"Content-Type": "application/json"}
    if authorised:
        headers["Authorization"] = f"Bearer {m.key}"
    base = live_server.removesuffix("/mcp")
    response = httpx.post(f"{base}/uploads", content=body.encode(), headers=headers)
    assert response.status_code in (400, 401), response.text
    if response.status_code == 400:
        message = response.json()["message"]
        assert message and "Traceback" not in message and "\\ud800" not in message
    listed = await call(live_server, m.key, "listDocuments", {"containerTag": space})
    assert listed.structured_content["total"] == 0


@pytest.mark.parametrize("chunked", [False, True])
async def test_an_oversized_upload_request_is_refused_before_it_is_buffered(
    live_server: str, world: Any, chunked: bool
) -> None:
    """``POST /uploads`` read any body whole before parsing it (a 400 MB one cost the server
    1.1 GB); past 16 KB it is a 413 now, by its declared length or as it streams in."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    base = live_server.removesuffix("/mcp")
    huge = UPLOAD.replace('"size": 10', '"size": 10, "containerTag": "' + "a" * 5_000_000 + '"')

    def pieces() -> Any:
        data = huge.encode()
        for i in range(0, len(data), 65536):
            yield data[i:i + 65536]
    response = httpx.post(f"{base}/uploads", content=pieces() if chunked else huge.encode(),
                          headers={"Content-Type": "application/json",
                                   "Authorization": f"Bearer {m.key}"})
    assert response.status_code == 413, response.text
    assert response.json() == {"error": "too_large", "message": "The limit is 16,384 bytes."}
    fine = httpx.post(f"{base}/uploads", content=UPLOAD.replace(
        '"size": 10', f'"size": 10, "containerTag": "{space}"').encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {m.key}"})
    assert fine.status_code == 201, fine.text
    listed = await call(live_server, m.key, "listDocuments", {"containerTag": space})
    assert listed.structured_content["total"] == 1


@pytest.mark.parametrize(("tool", "args", "field"), [
    ("add_memory", {"content": "deploys\x00 on Friday"}, "content"),
    ("add_memory", {"content": "deploys\x00", "action": "forget"}, "content"),
    ("search_memory", {"query": "when\x00 deploys"}, "query"),
    ("search_memory", {"keyword": "dep\x00"}, "keyword"),
    ("guided-save", {"content": "a\x00b"}, "content"),
])
async def test_nul_characters_are_refused_with_the_reason(
    live_server: str, world: Any, tool: str, args: dict[str, Any], field: str
) -> None:
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    result = await call(live_server, m.key, tool, {**args, "containerTag": space})
    assert result.is_error
    assert f"{field} contains a NUL character" in result.content[0].text
    listed = await call(live_server, m.key, "listMemories", {"containerTag": space})
    assert listed.structured_content["total"] == 0


@pytest.mark.parametrize(("tool", "args", "field", "code"), [
    ("add_memory", {"content": "Bell\x07 and escape \x1b[31mred\x1b[0m"}, "content", "0007"),
    ("add_memory", {"content": "deploys on \x1b[2J Friday", "action": "forget"}, "content",
     "001B"),
    ("search_memory", {"query": "when \x9b deploys"}, "query", "009B"),
    ("guided-save", {"content": "a\x7fb"}, "content", "007F"),
])
async def test_control_characters_are_refused_with_where_they_are(
    live_server: str, world: Any, tool: str, args: dict[str, Any], field: str, code: str
) -> None:
    """Stored and echoed, an escape sequence drives the terminal of whoever reads the answer
    or an export; tab and line breaks are text and stay."""
    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    result = await call(live_server, m.key, tool, {**args, "containerTag": space})
    assert result.is_error
    assert f"{field} contains a control character (U+{code}) at position" in \
        result.content[0].text
    listed = await call(live_server, m.key, "listMemories", {"containerTag": space})
    assert listed.structured_content["total"] == 0
    fine = await call(live_server, m.key, "add_memory",
                      {"content": "Steps:\n1.\tpull\r\n2.\tdeploy", "containerTag": space})
    assert not fine.is_error, fine.content
    # controls that read as line breaks (a form feed pasted from a PDF, NEL) are line breaks
    paged = await call(live_server, m.key, "add_memory",
                       {"content": "Page 1 notes\x0cPage 2 notes\x85end", "containerTag": space})
    assert paged.structured_content["memory"]["memory"] == "Page 1 notes\nPage 2 notes\nend"


def test_a_c1_control_says_it_is_probably_mis_decoded_text() -> None:
    from memory_mcp.errors import InvalidInputError
    from memory_mcp.services.validation import content

    with pytest.raises(InvalidInputError, match=r"U\+0093\) at position 9, which is not text "
                                                r"\(often a quote or dash from text decoded"):
        content("He said \x93ship it\x94 on Friday.", 1000)


@pytest.mark.parametrize("tool", ["search_memory", "add_memory", "listMemories", "select-space",
                                  "memory-graph", "guided-save", "upload-file"])
async def test_a_huge_container_tag_is_refused_without_being_echoed(
    live_server: str, world: Any, tool: str
) -> None:
    m = await world.member(grants={await world.space(): "readwrite"})
    args = {"search_memory": {"query": "x"}, "add_memory": {"content": "x"}}.get(tool, {})
    result = await call(live_server, m.key, tool, {**args, "containerTag": "t" * 1_000_000})
    assert result.is_error
    text = result.content[0].text
    assert "at most 63" in text and len(text) < 300


@pytest.fixture(scope="module")
def guarded_server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app with MEMORY_MCP_ALLOWED_HOSTS set, on a free port; yields its base URL."""
    port = free_port()
    settings = settings_for(database_url, allowed_hosts=[f"127.0.0.1:{port}"], port=port,
                            data_dir=tmp_path_factory.mktemp("guarded"))
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/healthz"), ("POST", "/uploads"), ("PUT", "/uploads/local/x?expires=1&sig=s"),
    ("OPTIONS", "/uploads/local/x"), ("POST", "/mcp"),
])
def test_every_route_checks_the_host_when_an_allow_list_is_set(
    guarded_server: str, method: str, path: str
) -> None:
    foreign = httpx.request(method, guarded_server + path, headers={"Host": "evil.example"},
                            content=b"{}")
    assert foreign.status_code == 421, (path, foreign.text)
    assert "evil.example" not in foreign.text
    if path == "/healthz":
        assert httpx.get(guarded_server + path).status_code == 200


def test_host_rule_matches_the_sdk() -> None:
    assert host_allowed("a.example:443", ["a.example:*"])
    assert host_allowed("a.example", ["a.example"])
    assert not host_allowed("b.example:443", ["a.example:*"])
    assert not host_allowed("a.example.evil:80", ["a.example:*"])
    assert host_allowed("anything", ["*"])


@pytest.mark.parametrize("line", [
    "/mcp?api_key=mm_0123456789_secret", "/mcp?token=abc&x=1", "/mcp?x=1&Authorization=Bearer",
    "/uploads/local/d?expires=1&sig=deadbeef", "/x?apiKey=1", "/x?access_token=t",
    "/x?X-Amz-Signature=s&X-Amz-Credential=c", "/x?password=p", "/x?key=k",
])
def test_credentials_in_query_strings_never_reach_the_access_log(line: str) -> None:
    hidden = hide_query_credentials(line)
    assert "[REDACTED]" in hidden
    for secret in ("mm_0123456789_secret", "abc", "deadbeef", "=1&", "=t", "=s", "=c", "=p",
                   "=k"):
        if secret in line and secret not in ("=1&",):
            assert secret not in hidden, (line, hidden)
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d', ("127.0.0.1", "GET", line, "1.1", 401),
                               None)
    assert HideQueryCredentials().filter(record)
    assert record.getMessage().count("[REDACTED]") == hidden.count("[REDACTED]")
    assert hide_query_credentials("/mcp?page=2&monkey=3") == "/mcp?page=2&monkey=3"
