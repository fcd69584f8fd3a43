"""The live app and its MCP client for ``bench/search_latency.py``.

The end-to-end timings go through the real ``create_app`` under uvicorn and the official MCP
client, exactly as an agent would call ``search_memory``; starting and reaching that server is
plumbing the measurements should not have to carry.

The app runs in its own process, as ``memory-mcp serve`` and the Lambda do, so the CPU the
server spends can be read apart from the client's (``_search_cpu.py``). (An earlier scratch
comparison found a server thread in the client's process timing the same as a server process.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass

import _common as common
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from memory_mcp.config import Settings

#: The child: the product's app factory under uvicorn, configured from MEMORY_MCP_* like a
#: deployment (``Settings()`` reads them), on the port given as its one argument, with the
#: SDK's per-request INFO line off as ``memory-mcp serve`` has it.
_SERVE = ("import logging, sys, uvicorn\n"
          "from memory_mcp.config import Settings\n"
          "from memory_mcp.http.app import create_app\n"
          "app = create_app(Settings())\n"
          "logging.getLogger('mcp').setLevel(logging.WARNING)\n"
          "uvicorn.run(app, host='127.0.0.1', port=int(sys.argv[1]),"
          " log_level='warning')\n")


def settings_env(settings: Settings) -> dict[str, str]:
    """The settings the bench chose, as the environment a deployment would give the server."""
    env: dict[str, str] = {}
    for name, value in settings.model_dump().items():
        if value is None:
            continue
        if hasattr(value, "get_secret_value"):
            value = value.get_secret_value()
        if isinstance(value, bool):
            value = "true" if value else "false"
        if isinstance(value, (list, tuple, dict)):
            value = json.dumps(value)  # pydantic-settings reads complex fields as JSON
        env[f"MEMORY_MCP_{name.upper()}"] = str(value)
    return env


@dataclass(frozen=True)
class ServerProcess:
    url: str  # the MCP endpoint
    pid: int


@contextmanager
def running_server(settings: Settings, timeout_s: float = 180) -> Iterator[ServerProcess]:
    """Start the app in a child process; yield its MCP URL and pid; stop it (SIGTERM, then
    kill)."""
    port = common.free_port()
    # Only the bench's settings: a MEMORY_MCP_* or DATABASE_URL (which config.py prefers) of
    # the caller's shell must not point the server elsewhere.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MEMORY_MCP_") and k != "DATABASE_URL"}
    env.update(settings_env(settings))
    proc = subprocess.Popen([sys.executable, "-c", _SERVE, str(port)], env=env)  # noqa: S603 (our own code)
    try:
        common.wait_until_healthy(proc, f"http://127.0.0.1:{port}", timeout_s,
                                  lambda: f"the app exited with {proc.returncode} before serving")
        yield ServerProcess(f"http://127.0.0.1:{port}/mcp", proc.pid)
    finally:
        common.stop_child(proc)


@asynccontextmanager
async def mcp_client(url: str, key: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60,
                              trust_env=False)
    async with http, Client(streamable_http_client(url, http_client=http)) as client:
        yield client
