"""What ``POST /mcp`` answers to messages the SDK would refuse unreadably (real HTTP, the real
app): a JSON-RPC error saying what to send, as JSON, and no internal names."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.anyio

LIST = b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'


@pytest.mark.parametrize(("content_type", "body", "status", "code", "says"), [
    ("text/plain", LIST, 415, -32600, "send Content-Type: application/json (got 'text/plain')"),
    ("text/plain, text/html", LIST, 415, -32600, "(got 'text/plain, text/html')"),
    ("application/json", b"[" + LIST + b"]", 400, -32600, "batches are not supported"),
    ("application/json", b'"tools/list"', 400, -32600, "one JSON-RPC message"),
    ("application/json", b'{"jsonrpc":"2.0","id":7}', 400, -32600, 'needs a "method"'),
    ("application/json", b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":'
     b'"search_memory","arguments":{"query":"\\ud800 x"}}}', 400, -32700, "unpaired UTF-16"),
    ("application/json", b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":'
     b'"search_memory","arguments":["x"]}}', 200, -32602, "must be a JSON object, got an array"),
])
async def test_unreadable_messages_get_a_readable_json_rpc_error(
        live_server: str, world: Any, content_type: str | None, body: bytes, status: int,
        code: int, says: str) -> None:
    space = await world.space()
    member = await world.member(grants={space: "readwrite"})
    headers = {"Authorization": f"Bearer {member.key}", "MCP-Protocol-Version": "2025-11-25",
               "Accept": "application/json, text/event-stream"}
    if content_type:
        headers["Content-Type"] = content_type
    async with httpx.AsyncClient(timeout=30) as client:
        reply = await client.post(live_server, headers=headers, content=body)
    assert reply.status_code == status and reply.headers["content-type"] == "application/json"
    error = reply.json()["error"]
    assert error["code"] == code and says in error["message"], error
    assert "JSONRPC" not in error["message"] and "pydantic" not in error["message"]


async def test_a_paired_surrogate_escape_is_ordinary_text(live_server: str, world: Any) -> None:
    """Escaped emoji (a surrogate pair) pass: only an unpaired half is refused."""
    space = await world.space()
    member = await world.member(grants={space: "readwrite"})
    body = (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_memory",'
            b'"arguments":{"query":"deploys \\ud83d\\ude80","containerTag":"' + space.encode()
            + b'"}}}')
    async with httpx.AsyncClient(timeout=30) as client:
        reply = await client.post(live_server, content=body, headers={
            "Authorization": f"Bearer {member.key}", "MCP-Protocol-Version": "2025-11-25",
            "Accept": "application/json, text/event-stream", "Content-Type": "application/json"})
    assert reply.status_code == 200 and "result" in reply.json(), reply.text


async def test_what_the_sdk_refuses_in_plain_text_comes_back_as_json(live_server: str,
                                                                    world: Any) -> None:
    """No Content-Type at all is left to the SDK (the 2026 era accepts it); on the 2025 wire it
    refuses in plain text, which reaches the client as a JSON message. A charset parameter or a
    list that includes application/json is accepted."""
    space = await world.space()
    member = await world.member(grants={space: "readwrite"})
    headers = {"Authorization": f"Bearer {member.key}", "MCP-Protocol-Version": "2025-11-25",
               "Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(timeout=30) as client:
        bare = await client.post(live_server, headers=headers, content=LIST)
        charset = await client.post(live_server, content=LIST, headers={
            **headers, "Content-Type": "application/json; charset=utf-8"})
    assert bare.status_code == 400 and bare.headers["content-type"] == "application/json"
    assert bare.json() == {"error": "bad_request", "message": "Invalid Content-Type header"}
    assert charset.status_code == 200 and "result" in charset.json()
