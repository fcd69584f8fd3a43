"""Connection pool, created once per process.

``prepare_threshold=None`` disables psycopg's automatic server-side prepared statements: their
generic plans stop using the HNSW index for space-filtered vector queries (measured ~10x slower)
and they pin RDS Proxy connections.
"""

from __future__ import annotations

from psycopg import AsyncConnection
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from memory_mcp.config import Settings
from memory_mcp.db.embedded import embedded_database_url


def resolve_database_url(settings: Settings) -> str:
    """``DATABASE_URL``; else the Secrets Manager secret (hosted); else the embedded server."""
    if settings.database_url is not None:
        return settings.database_url.get_secret_value()
    if settings.database_secret_arn:
        from memory_mcp.aws.secrets import database_url_from_secret

        return database_url_from_secret(settings.database_secret_arn, settings.database_host,
                                        settings.database_sslmode)
    return embedded_database_url(settings.data_dir)


#: The login the application pool uses on the embedded server: a member of memory_mcp_app that
#: owns nothing and bypasses nothing (migrations/0009), so row-level security applies to it.
EMBEDDED_APP_USER = "memory_mcp_server"


def application_url(settings: Settings, url: str) -> str:
    """The URL the server's pool logs in with. On the embedded server that is the unprivileged
    ``memory_mcp_server`` (migrations run first, as the owner); elsewhere the configured login,
    which still runs every transaction as ``memory_mcp_app`` (``SET LOCAL ROLE``)."""
    if settings.database_url is None and not settings.database_secret_arn:
        return make_conninfo(url, user=EMBEDDED_APP_USER)
    return url


async def _configure(conn: AsyncConnection) -> None:
    await conn.set_autocommit(False)


async def open_pool(settings: Settings, url: str | None = None) -> AsyncConnectionPool:
    """Open an async pool whose connections return rows as dicts."""
    pool = AsyncConnectionPool(
        url or resolve_database_url(settings),
        min_size=settings.pool_min_size,
        max_size=settings.pool_max_size,
        kwargs={"prepare_threshold": None, "row_factory": dict_row,
                "connect_timeout": settings.db_connect_timeout_seconds},
        timeout=settings.pool_wait_seconds,  # then PoolTimeout: a 503, not a hung request
        configure=_configure,
        # Check a connection before handing it out: RDS Proxy and idle timeouts close them.
        check=AsyncConnectionPool.check_connection,
        open=False,
    )
    await pool.open(wait=True, timeout=30)
    return pool
