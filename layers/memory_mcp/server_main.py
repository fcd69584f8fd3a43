"""``memory-mcp serve``: first-run demo, then uvicorn.

What the terminal shows before requests arrive is kept short: the embedded PostgreSQL's own
output goes to a log file (db/embedded.py), the demo banner appears once, and what this
deployment cannot do (no OCR, no transcription, ...) is one line pointing at ``memory-mcp doctor``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from typing import Any

import uvicorn

from memory_mcp.config import Settings
from memory_mcp.http.app import create_app
from memory_mcp.http.guards import HideQueryCredentials
from memory_mcp.services.doctor_local import local_checks, missing_summary
from memory_mcp.services.startup import bootstrap_demo, create_runtime

log = logging.getLogger(__name__)

def _banner(demo: dict[str, Any], url: str) -> str:
    key = demo["key"]["key"]
    config = {"mcpServers": {"memory-mcp": {
        "url": url, "headers": {"Authorization": f"Bearer {key}"}}}}
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
        "JSON client config (Cursor, and clients with an mcpServers url/headers block; "
        "Claude Desktop, VS Code: see the README):",
        json.dumps(config, indent=2),
        "",
    ])


class _MigrationsInOneLine(logging.Handler):
    """Collects the migrator's one-line-per-file messages during startup, so a first start
    reports "applied 10 migration(s): ..." once instead of ten lines before the banner."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.names: list[str] = []
        self._logger = logging.getLogger("memory_mcp.db.migrator")
        self._propagate = self._logger.propagate

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg == "applied migration %s" and record.args:
            self.names.append(str(record.args[0]))  # type: ignore[index]  # a tuple here
        elif record.levelno >= logging.WARNING:  # anything else keeps reaching the terminal
            logging.getLogger().handle(record)

    def __enter__(self) -> _MigrationsInOneLine:
        self._logger.addHandler(self)
        self._logger.propagate = False
        return self

    def __exit__(self, *exc: object) -> None:
        self._logger.removeHandler(self)
        self._logger.propagate = self._propagate


def _exit_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM ends ``serve`` like Ctrl-C does: by unwinding, so exit handlers run.

    uvicorn shuts down gracefully on SIGTERM and then raises the signal again under the handler
    that was installed before it; with the default one the process dies on the spot, and the
    embedded PostgreSQL's exit handler (which stops the postmaster when its last user leaves)
    never runs: the server kept running after ``kill`` and every later start attached to it
    under a stale process id, so no later exit stopped it either."""
    raise SystemExit(0)


def serve(settings: Settings, host: str | None = None, port: int | None = None) -> None:
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.log_level.upper() != "DEBUG":  # the SDK logs a line per request at INFO
        logging.getLogger("mcp").setLevel(logging.WARNING)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    host = host or settings.host
    port = port or settings.port
    # The app reads them too: the upload view's CSP names the origin it PUTs to (this one).
    settings = settings.model_copy(update={"host": host, "port": port})
    url = settings.public_url or f"http://{host}:{port}/mcp"

    async def prepare() -> dict[str, Any] | None:
        rt = await create_runtime(settings)
        try:
            return await bootstrap_demo(rt)
        finally:
            await rt.pool.close()

    with _MigrationsInOneLine() as migrations:
        demo = asyncio.run(prepare())
    if migrations.names:
        log.info("applied %d migration(s): %s", len(migrations.names),
                 ", ".join(migrations.names))
    if demo is not None:
        print(_banner(demo, url), flush=True)
    try:
        missing = missing_summary(local_checks(settings, probe_storage=False))
    except Exception:  # a summary must never stop the server; doctor reports it properly
        log.warning("could not summarise the setup; run `memory-mcp doctor`", exc_info=True)
        missing = None
    if missing:
        print(missing, flush=True)
    print(f"Memory-MCP listening on {url} (health: http://{host}:{port}/healthz)", flush=True)
    config = uvicorn.Config(create_app(settings), host=host, port=port,
                            log_level=settings.log_level.lower())  # configures uvicorn's loggers
    logging.getLogger("uvicorn.access").addFilter(HideQueryCredentials())
    uvicorn.Server(config).run()
