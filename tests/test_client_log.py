"""The logging utility where a transport can deliver it: the real server (``build_server``) and
the real tools on the real database, reached by the Python SDK client in process (a transport
with a back channel, unlike the product's JSON responses). It proves the level a client sets is
the level it gets, per era, and that only the explicit ``memory_mcp.client`` channel is
forwarded — never the package's other logs.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client

from memory_mcp.mcp.client_log import CLIENT_LOGGER, KeyLevels, mcp_level
from memory_mcp.mcp.request import Caller, current_caller
from memory_mcp.mcp.server import build_server
from memory_mcp.services.runtime import Runtime

from conftest import Member, World


@asynccontextmanager
async def in_process(runtime: Runtime, member: Member, mode: str, **options: Any
                     ) -> AsyncIterator[tuple[Client, list[Any]]]:
    received: list[Any] = []

    async def on_log(params: Any) -> None:
        received.append(params)

    token = current_caller.set(Caller(runtime, member.principal))
    try:
        async with Client(build_server(runtime.settings), mode=mode, logging_callback=on_log,
                          **options) as client:
            yield client, received
    finally:
        current_caller.reset(token)


@pytest.mark.anyio
async def test_handshake_era_sends_what_set_level_asked_for(runtime: Runtime,
                                                            world: World) -> None:
    member = await world.member(grants={await world.space("lg"): "read"})
    async with in_process(runtime, member, "legacy") as (client, received):
        await client.call_tool("whoAmI", {})
        assert received == []  # default: warning and above; a call's own line is debug
        await client.set_logging_level("debug")
        await client.call_tool("whoAmI", {})
        assert [(m.level, m.data) for m in received] == [("debug", "tools/call whoAmI: ok")]
        await client.call_tool("no-such-tool", {})
        assert received[-1].data == "tools/call no-such-tool: error"
        await client.set_logging_level("error")
        received.clear()
        await client.call_tool("whoAmI", {})
        assert received == []


@pytest.mark.anyio
async def test_client_channel_only_at_or_above_the_level(runtime: Runtime, world: World,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    member = await world.member(grants={await world.space("lc"): "read"})
    server = build_server(runtime.settings)

    @server.tool(name="log-probe")
    def probe() -> str:
        logging.getLogger(CLIENT_LOGGER).info("for the client")
        logging.getLogger(CLIENT_LOGGER).debug("too fine")
        logging.getLogger("memory_mcp.services").warning("internal: never forwarded")
        return "ok"

    received: list[Any] = []

    async def on_log(params: Any) -> None:
        received.append(params)

    token = current_caller.set(Caller(runtime, member.principal))
    try:
        async with Client(server, mode="legacy", logging_callback=on_log) as client:
            await client.set_logging_level("info")
            await client.call_tool("log-probe", {})
    finally:
        current_caller.reset(token)
    assert [(m.level, m.data) for m in received] == [("info", "for the client")]
    assert "internal: never forwarded" in caplog.text  # it still reaches the server's own log


@pytest.mark.anyio
async def test_modern_era_follows_the_request_opt_in(runtime: Runtime, world: World) -> None:
    member = await world.member(grants={await world.space("lm"): "read"})
    async with in_process(runtime, member, "2026-07-28") as (client, received):
        await client.call_tool("whoAmI", {})
    assert received == []  # no _meta opt-in: nothing may be sent
    async with in_process(runtime, member, "2026-07-28", log_level="debug") as (client, received):
        await client.call_tool("whoAmI", {})
    assert [(m.level, m.data) for m in received] == [("debug", "tools/call whoAmI: ok")]


def test_levels_map_and_stay_bounded() -> None:
    assert [mcp_level(n) for n in (5, 10, 15, 20, 30, 40, 50, 60)] == [
        "debug", "debug", "debug", "info", "warning", "error", "critical", "critical"]
    levels = KeyLevels(capacity=2)
    levels.set("a", "debug")
    levels.set("b", "error")
    levels.set("c", "info")
    assert (levels.get("a"), levels.get("b"), levels.get("c")) == ("warning", "error", "info")
