"""Connection pool, created once per process, and which login it uses.

``prepare_threshold=None`` disables psycopg's automatic server-side prepared statements: their
generic plans stop using the HNSW index for space-filtered vector queries (measured ~10x slower)
and they pin RDS Proxy connections.

Hosted, the login comes from a Secrets Manager secret that is rotated while execution
environments live on. The URL is read once per process; when the server refuses it (the
password was rotated since), the pool re-reads the secret once and retries with the new one, so
a rotation costs the next new connection one extra secret read instead of failing until every
environment is recycled.
"""

from __future__ import annotations

import asyncio
import logging
import select
import time
from collections.abc import Callable
from typing import Any, Self
from weakref import WeakKeyDictionary

import psycopg
from psycopg import AsyncConnection, OperationalError
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from memory_mcp.config import Settings
from memory_mcp.db.embedded import embedded_database_url

log = logging.getLogger(__name__)

#: The application login, in every mode: a member of memory_mcp_app that owns nothing and
#: bypasses nothing (migrations/0009), so row-level security applies to it. Embedded it logs in
#: without a password over the Unix socket; hosted with the password of its own secret.
APP_LOGIN = "memory_mcp_server"
EMBEDDED_APP_USER = APP_LOGIN


def _secret_url(settings: Settings, arn: str) -> str:
    from memory_mcp.aws.secrets import database_url_from_secret

    return database_url_from_secret(arn, settings.database_host, settings.database_sslmode)


def resolve_database_url(settings: Settings) -> str:
    """``DATABASE_URL``; else the owner secret (hosted migrations and admin); else the
    application secret (a request-path function holds only that one); else the embedded
    server. Blocking (a Secrets Manager call): call it from a thread in async code."""
    if settings.database_url is not None:
        return settings.database_url.get_secret_value()
    arn = settings.database_secret_arn or settings.database_app_secret_arn
    if arn:
        return _secret_url(settings, arn)
    return embedded_database_url(settings.data_dir)


def login_secret_arn(settings: Settings) -> str | None:
    """The secret the server's pool logs in with, if it logs in from a secret at all."""
    if settings.database_url is not None:
        return None
    return settings.database_app_secret_arn or settings.database_secret_arn


def application_url(settings: Settings, url: str) -> str:
    """The URL the server's pool logs in with, given ``url`` from ``resolve_database_url``.

    Embedded: the unprivileged ``memory_mcp_server`` (migrations ran first, as the owner).
    Hosted with an application secret: that login (read here only when ``url`` came from the
    owner secret, i.e. a process that holds both). Otherwise the configured login, which still
    runs every transaction as ``memory_mcp_app`` (``SET LOCAL ROLE``)."""
    if settings.database_url is not None:
        return url
    if settings.database_app_secret_arn:
        if settings.database_secret_arn:
            return _secret_url(settings, settings.database_app_secret_arn)
        return url
    if not settings.database_secret_arn:
        return make_conninfo(url, user=EMBEDDED_APP_USER)
    return url


#: How PostgreSQL (and RDS Proxy) word a refused login; connection errors carry no SQLSTATE.
_REFUSED = ("password authentication failed", "authentication failed")


def is_refused_login(exc: OperationalError) -> bool:
    """True for a connection refused for its credentials, not for a server that is down."""
    message = str(exc).lower()
    return any(marker in message for marker in _REFUSED)


class SecretLogin:
    """The pool's current login, re-read from its secret when the server refuses it."""

    def __init__(self, url: str, reread: Callable[[], str]) -> None:
        self._url = url
        self._reread = reread
        self._lock = asyncio.Lock()
        #: How often the secret was read again (tests and logs; never the URL itself).
        self.rereads = 0

    async def conninfo(self) -> str:
        """The pool's ``conninfo`` callable: the login as last read."""
        return self._url

    async def refresh(self, refused: str) -> bool:
        """After ``refused`` was refused: read the secret once (concurrent failures share one
        read) and say whether there is a different login to try."""
        async with self._lock:
            if self._url != refused:  # another attempt already read the new one
                return True
            fresh = await asyncio.to_thread(self._reread)
            self.rereads += 1
            if fresh == refused:
                return False
            self._url = fresh
        log.warning("database login refused; re-read it from its secret (rotated?) and retrying")
        return True

    def connection_class(self) -> type[AsyncConnection[Any]]:
        """An ``AsyncConnection`` whose ``connect`` retries once with the re-read login."""
        login = self

        class SecretLoginConnection(AsyncConnection[Any]):
            @classmethod
            async def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
                try:
                    return await super().connect(conninfo, **kwargs)
                except OperationalError as exc:
                    if not is_refused_login(exc) or not await login.refresh(conninfo):
                        raise
                return await super().connect(await login.conninfo(), **kwargs)

        return SecretLoginConnection


async def _configure(conn: AsyncConnection) -> None:
    await conn.set_autocommit(False)


#: A connection returned to the pool less than this long ago, with nothing from the server
#: waiting on its socket, is handed out again without the round trip that checks it: at a few
#: milliseconds a request, that check is one round trip of about a dozen. A server that ends a
#: connection (a restart, a failover, ``pg_terminate_backend``, an idle timeout) says so on the
#: socket first, which ``_has_input`` sees without a round trip; a connection idle longer, or
#: whose socket shows anything, is checked as before. One that broke silently anyway fails its
#: transaction with a retryable error, and then every idle connection is checked again
#: (``distrust_idle``).
RECENT_SECONDS = 5.0
_returned: WeakKeyDictionary[AsyncConnection[Any], float] = WeakKeyDictionary()


def note_idle(conn: AsyncConnection[Any]) -> None:
    """Call as a connection goes back to the pool after a committed transaction. (Not the pool's
    ``reset`` callback: with one, psycopg_pool returns every connection through a worker task,
    which costs more than the check saves.)"""
    # Wall-clock time, not monotonic: a frozen Lambda environment's monotonic clock may not
    # advance while it is frozen, its wall clock is set right when it thaws.
    _returned[conn] = time.time()


def _has_input(conn: AsyncConnection[Any]) -> bool:
    """Whether the server sent anything to this idle connection (nothing is expected)."""
    try:
        readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.Error):
        return True
    return bool(readable)


async def _check_unless_recent(conn: AsyncConnection[Any]) -> None:
    """The pool's ``check`` callback: a round trip only for a connection idle a while or one
    the server has said something to."""
    returned = _returned.pop(conn, None)
    if (returned is not None and 0 <= time.time() - returned < RECENT_SECONDS
            and not _has_input(conn)):
        return
    await AsyncConnectionPool.check_connection(conn)


def distrust_idle() -> None:
    """After a connection failed: check every pooled connection again before it is used."""
    _returned.clear()


async def open_pool(settings: Settings, url: str | None = None) -> AsyncConnectionPool:
    """Open an async pool whose connections return rows as dicts. When the login comes from a
    secret (``login_secret_arn``), a refused login is re-read from it once per failure."""
    conninfo: str = url if url else await asyncio.to_thread(resolve_database_url, settings)
    arn = login_secret_arn(settings)
    login = None
    if arn is not None:
        secret_arn = arn

        def reread() -> str:
            return _secret_url(settings, secret_arn)

        login = SecretLogin(conninfo, reread)
    pool: AsyncConnectionPool = AsyncConnectionPool(
        login.conninfo if login else conninfo,
        connection_class=login.connection_class() if login else AsyncConnection,
        min_size=settings.pool_min_size,
        max_size=settings.pool_max_size,
        kwargs={"prepare_threshold": None, "row_factory": dict_row,
                "connect_timeout": settings.db_connect_timeout_seconds},
        timeout=settings.pool_wait_seconds,  # then PoolTimeout: a 503, not a hung request
        configure=_configure,
        # Check a connection before handing it out (RDS Proxy and idle timeouts close them),
        # unless it was in use moments ago.
        check=_check_unless_recent,
        open=False,
    )
    await pool.open(wait=True, timeout=30)
    return pool
