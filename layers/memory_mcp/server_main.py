"""``memory-mcp serve``: first-run demo, then uvicorn."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import uvicorn

from memory_mcp.config import Settings
from memory_mcp.http.app import create_app
from memory_mcp.http.guards import HideQueryCredentials
from memory_mcp.services.startup import bootstrap_demo, create_runtime

log = logging.getLogger(__name__)

def _banner(demo: dict[str, Any], url: str) -> str:
    key = demo["key"]["key"]
    config = {"mcpServers": {"memory-mcp": {
        "type": "http", "url": url, "headers": {"Authorization": f"Bearer {key}"}}}}
    return "\n".join([
        "",
        "First start on an empty database: created a demo user, space and key.",
        f"  user  : {demo['user']['email']} (Writer)",
        f"  space : {demo['space']['key']} (ReadWrite)",
        f"  key   : {key}",
        "  The key is shown only now. Store it; it cannot be recovered.",
        "",
        "Claude Code:",
        f'  claude mcp add --transport http memory-mcp {url} --header "Authorization: Bearer {key}"',
        "",
        "JSON client config (Cursor, Claude Desktop, …):",
        json.dumps(config, indent=2),
        "",
    ])


def serve(settings: Settings, host: str | None = None, port: int | None = None) -> None:
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    host = host or settings.host
    port = port or settings.port
    url = settings.public_url or f"http://{host}:{port}/mcp"

    async def prepare() -> dict[str, Any] | None:
        rt = await create_runtime(settings)
        try:
            return await bootstrap_demo(rt)
        finally:
            await rt.pool.close()

    demo = asyncio.run(prepare())
    if demo is not None:
        print(_banner(demo, url), flush=True)
    print(f"Memory-MCP listening on {url} (health: http://{host}:{port}/healthz)", flush=True)
    config = uvicorn.Config(create_app(settings), host=host, port=port,
                            log_level=settings.log_level.lower())  # configures uvicorn's loggers
    logging.getLogger("uvicorn.access").addFilter(HideQueryCredentials())
    uvicorn.Server(config).run()
