"""The DNS-rebinding guard (``http/guards.py``): on a loopback socket with no allow-list set, only
loopback names (any port) for Host and Origin; with ``MEMORY_MCP_ALLOWED_HOSTS``, that list;
on a public address with none, anything. Refusals never echo what was sent.
"""

from __future__ import annotations

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from memory_mcp.http.guards import HostGuard, is_loopback_address, origin_host
from memory_mcp.http.guards import host_allowed as allowed

EVIL = "evil-rebind.example"
ROUTES = [("GET", "/healthz"), ("POST", "/uploads"), ("POST", "/mcp"),
          ("PUT", "/uploads/local/x?expires=1&sig=s")]


def _base(live_server: str) -> str:
    return live_server.removesuffix("/mcp")


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_a_foreign_host_on_loopback_is_refused_everywhere(live_server: str, method: str,
                                                          path: str) -> None:
    answer = httpx.request(method, _base(live_server) + path, content=b"{}", timeout=10,
                           headers={"Host": f"{EVIL}:8787", "Origin": f"http://{EVIL}:8787"})
    assert answer.status_code == 421, answer.text
    assert answer.json()["error"] == "misdirected_request"
    assert EVIL not in answer.text


@pytest.mark.parametrize("host", ["localhost", "localhost:1", "127.0.0.1:65535", "[::1]:8080",
                                  "LOCALHOST:99"])
def test_loopback_names_on_any_port_are_answered(live_server: str, host: str) -> None:
    answer = httpx.get(_base(live_server) + "/healthz", headers={"Host": host}, timeout=10)
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("origin", [f"http://{EVIL}", "null", "file://", "http://127.0.0.1.evil.example",
                                    "http://user@localhost"])
def test_a_foreign_origin_on_loopback_is_refused(live_server: str, origin: str) -> None:
    for method, path in ROUTES[:3]:
        answer = httpx.request(method, _base(live_server) + path, content=b"{}", timeout=10,
                               headers={"Origin": origin})
        assert answer.status_code == 403, (path, answer.text)
        assert answer.json()["error"] == "forbidden_origin"
        assert origin not in answer.text


def test_loopback_origins_pass_and_the_upload_put_takes_any(live_server: str) -> None:
    base = _base(live_server)
    for origin in ("http://localhost:6274", "http://127.0.0.1:5173", "https://[::1]"):
        assert httpx.get(base + "/healthz", headers={"Origin": origin}, timeout=10
                         ).status_code == 200
    # The upload view PUTs from an opaque sandbox origin; its signed URL is the authorisation
    # (a bad signature is refused by the route, not by the guard).
    put = httpx.put(base + "/uploads/local/x?expires=1&sig=s", content=b"x", timeout=10,
                    headers={"Origin": "null"})
    assert put.status_code != 421 and put.json().get("error") != "forbidden_origin"


@pytest.mark.anyio
async def test_public_address_without_allow_list_is_open_and_a_list_is_enforced() -> None:
    async def ok(scope: Scope, receive: Receive, send: Send) -> None:  # the app behind
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    open_guard = HostGuard(ok, ["*"])
    listed = HostGuard(ok, ["memory.example.com"])
    # httpx's ASGI transport reports the server as the URL's host: a name, as Mangum does.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(open_guard),
                                 base_url="http://memory.example.com") as client:
        answer = await client.get("/healthz", headers={"Host": EVIL, "Origin": f"http://{EVIL}"})
        assert answer.status_code == 204
    async with httpx.AsyncClient(transport=httpx.ASGITransport(listed),
                                 base_url="http://memory.example.com") as client:
        assert (await client.get("/healthz")).status_code == 204
        assert (await client.get("/healthz", headers={"Host": EVIL})).status_code == 421
        refused = await client.get("/healthz", headers={"Origin": f"https://{EVIL}"})
        assert refused.status_code == 403
        fine = await client.get("/healthz", headers={"Origin": "https://memory.example.com"})
        assert fine.status_code == 204


def test_address_and_origin_parsing() -> None:
    for address in ("127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1"):
        assert is_loopback_address(address), address
    unspecified = ".".join("0" * 4)  # the any-address, as a value under test
    for address in ("10.0.0.1", unspecified, "::", "localhost", "memory.example.com", ""):
        assert not is_loopback_address(address), address
    assert origin_host("http://LocalHost:3000") == "localhost:3000"
    assert origin_host("null") is None and origin_host("file:///x") is None
    assert origin_host("http://a@localhost") is None
    assert allowed("localhost:1234", ["localhost:*"]) and not allowed("localhost.evil:1", ["localhost:*"])
