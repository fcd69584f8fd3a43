"""Forward-only SQL migrations, applied in file order and recorded in ``schema_migrations``.

Used by the local server at start, by the ``memory-mcp migrate`` command and by the deploy-time
migration Lambda, so every environment runs exactly the same files. A session-level advisory lock
serialises concurrent runners (two Lambdas, a server and the CLI); each file runs in its own
transaction together with its bookkeeping row, so a failed file leaves nothing behind.

A file whose first line is ``-- migrate: outside a transaction`` runs statement by statement
instead (each ends with ``;`` at the end of a line), for what PostgreSQL refuses inside a
transaction: ``CREATE INDEX CONCURRENTLY``, which builds an index on a large ``memories``
without blocking writes for the length of a table scan. Such a file must be safe to run again
from its start (``CREATE INDEX CONCURRENTLY IF NOT EXISTS``): its bookkeeping row is written
after its last statement, and before it runs, an index it creates that a failed or interrupted
build left invalid is dropped, so a run that timed out resumes with the indexes it had not
finished, keeping those it had.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from memory_mcp.errors import ConfigurationError

log = logging.getLogger(__name__)

_LOCK_ID = 0x4D454D4D4350  # "MEMMCP"
_LOCK_POLL_SECONDS = 0.25
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
MIN_PGVECTOR = (0, 8, 0)
OUTSIDE_TRANSACTION = "-- migrate: outside a transaction"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()

    @property
    def outside_transaction(self) -> bool:
        return self.sql.startswith(OUTSIDE_TRANSACTION)

    def statements(self) -> list[str]:
        """The file's statements, for a file run outside a transaction: split where a line
        ends with ``;``; chunks of comments only are left out. A function body (``$$``) could
        hold such a line, so such a file may not have one."""
        if "$$" in self.sql:
            raise ConfigurationError(f"Migration {self.name} runs outside a transaction and is "
                                     "split at each ';' that ends a line: it may not hold a "
                                     "$$ body.")
        chunks = re.split(r";[ \t]*(?:\r?\n|$)", self.sql)
        return [chunk.strip() for chunk in chunks
                if any(line.strip() and not line.strip().startswith("--")
                       for line in chunk.splitlines())]


def load_migrations(directory: Path) -> list[Migration]:
    """Read ``NNNN_name.sql`` files; refuse gaps, duplicates and stray names."""
    if not directory.is_dir():
        raise ConfigurationError(f"Migrations directory not found: {directory}")
    migrations: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if not match:
            raise ConfigurationError(f"Migration file name must look like 0001_name.sql: {path.name}")
        migrations.append(Migration(int(match.group(1)), path.stem, path.read_text()))
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ConfigurationError(f"Migrations must be numbered 1..n without gaps: {migration.name}")
    return migrations


def migrate(url: str, directory: Path) -> list[str]:
    """Apply pending migrations; return the names applied (empty when up to date)."""
    migrations = load_migrations(directory)
    applied: list[str] = []
    with psycopg.connect(url, autocommit=True, prepare_threshold=None) as conn:
        _lock(conn)
        try:
            conn.execute(
                """CREATE TABLE IF NOT EXISTS schema_migrations (
                       version integer PRIMARY KEY,
                       name text NOT NULL,
                       checksum text NOT NULL,
                       applied_at timestamptz NOT NULL DEFAULT now())"""
            )
            done = {
                row[0]: row[1]
                for row in conn.execute("SELECT version, checksum FROM schema_migrations")
            }
            for migration in migrations:
                if migration.version in done:
                    if done[migration.version] != migration.checksum:
                        log.warning("migration %s changed after it was applied", migration.name)
                    continue
                record = ("INSERT INTO schema_migrations (version, name, checksum) "
                          "VALUES (%s, %s, %s)", (migration.version, migration.name,
                                                  migration.checksum))
                if migration.outside_transaction:
                    statements = migration.statements()
                    _drop_invalid_indexes(conn, statements)
                    for statement in statements:
                        conn.execute(statement.encode())
                    conn.execute(*record)
                else:
                    with conn.transaction():
                        conn.execute(migration.sql.encode())
                        conn.execute(*record)
                log.info("applied migration %s", migration.name)
                applied.append(migration.name)
            _check_pgvector(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_ID,))
    return applied


_CREATES_INDEX = re.compile(
    r"CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+(\w+)", re.IGNORECASE)


def _drop_invalid_indexes(conn: psycopg.Connection[tuple[object, ...]],
                          statements: list[str]) -> None:
    """Drop the indexes these statements create that an earlier, failed build left invalid
    (``IF NOT EXISTS`` would otherwise keep them, unused for ever)."""
    for statement in statements:
        for name in _CREATES_INDEX.findall(statement):
            invalid = conn.execute(
                "SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "WHERE c.relname = %s AND c.relnamespace = current_schema()::regnamespace "
                "AND NOT i.indisvalid", (name,)).fetchone()
            if invalid:
                log.warning("dropping index %s, left invalid by an earlier build", name)
                conn.execute(f'DROP INDEX CONCURRENTLY IF EXISTS "{name}"'.encode())


def _lock(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    """Take the runners' session lock, polling. A runner blocked inside
    ``pg_advisory_lock`` holds a snapshot for as long as it waits, and ``CREATE INDEX
    CONCURRENTLY`` in the runner holding the lock waits for every older snapshot: the two
    deadlock. Between tries this one holds no snapshot and no transaction."""
    waited = 0.0
    while not conn.execute("SELECT pg_try_advisory_lock(%s)", (_LOCK_ID,)).fetchone()[0]:  # type: ignore[index]
        if waited == 0.0:
            log.info("another runner is migrating; waiting for it")
        time.sleep(_LOCK_POLL_SECONDS)
        waited += _LOCK_POLL_SECONDS


def _check_pgvector(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        raise ConfigurationError("The pgvector extension is not installed in this database.")
    version = tuple(int(part) for part in re.findall(r"\d+", str(row[0]))[:3])
    if version < MIN_PGVECTOR:
        raise ConfigurationError(
            f"pgvector {row[0]} is too old: Memory-MCP needs 0.8.0 or newer "
            "(halfvec HNSW and iterative index scans)."
        )
