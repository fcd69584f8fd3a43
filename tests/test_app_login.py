"""The hosted application login: its own secret, its password set by the migrations resource,
row-level security for it, and a pool that survives a rotation of its password.

Real parts only: the session's embedded PostgreSQL, where one test database gets a
``scram-sha-256`` line in ``pg_hba.conf`` for ``memory_mcp_server`` (every other database keeps
trusting the Unix socket), and moto's Secrets Manager. What is not covered here: AWS's rotation
function itself (a SAR application; its ``setSecret`` step is stood in for by the owner setting
the new password, which is what it does in the database) and RDS Proxy.
"""

from __future__ import annotations

import json
import logging
import secrets as token
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import boto3
import psycopg
import pytest
from moto import mock_aws
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from memory_mcp.aws import secrets
from memory_mcp.aws.migrations_resource import handle_migration_event
from memory_mcp.config import Settings
from memory_mcp.db.pool import (
    APP_LOGIN,
    SecretLogin,
    application_url,
    is_refused_login,
    open_pool,
    resolve_database_url,
)
from memory_mcp.errors import ConfigurationError
from memory_mcp.services import memories
from memory_mcp.services.access import readable_spaces
from memory_mcp.services.runtime import Runtime

from conftest import ROOT, World, empty_database

pytestmark = pytest.mark.anyio


class CountingClient:
    """moto's Secrets Manager client, counting the reads the code under test makes."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.reads = 0

    def get_secret_value(self, **kwargs: Any) -> Any:
        self.reads += 1
        return self.client.get_secret_value(**kwargs)


@dataclass
class Hosted:
    """One database that demands a password from the application login, and its two secrets."""

    owner_url: str
    socket: str
    dbname: str
    owner_arn: str
    app_arn: str
    password: str
    sm: CountingClient

    def settings(self, **overrides: Any) -> Settings:
        fields: dict[str, Any] = {
            "database_host": self.socket, "database_sslmode": "prefer",  # a Unix socket
            "migrations_dir": ROOT / "migrations", "auto_migrate": False,
            "pool_min_size": 1, "pool_max_size": 2, "pool_wait_seconds": 10,
            "rate_limit_requests_per_minute": 0, "rate_limit_writes_per_minute": 0, **overrides}
        return Settings(**fields)

    def app_url(self, password: str | None) -> str:
        return make_conninfo(self.owner_url, user=APP_LOGIN, password=password)

    def rotate(self, password: str) -> None:
        """What single-user rotation does: the new password into the database, then into the
        secret's current version."""
        with psycopg.connect(self.owner_url, autocommit=True) as conn:
            verifier = conn.pgconn.encrypt_password(password.encode(), APP_LOGIN.encode(),
                                                    b"scram-sha-256")
            conn.execute(psycopg.sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                psycopg.sql.Identifier(APP_LOGIN), psycopg.sql.Literal(verifier.decode())))
        self.sm.client.put_secret_value(SecretId=self.app_arn, SecretString=self._secret(password))
        self.password = password

    def _secret(self, password: str) -> str:
        return json.dumps({"username": APP_LOGIN, "password": password, "host": "db.invalid",
                           "port": 5432, "dbname": self.dbname, "engine": "postgres"})


@contextmanager
def _hba_demands_a_password(root_url: str, dbname: str) -> Iterator[None]:
    """Prepend ``local <db> memory_mcp_server scram-sha-256`` and wait until the server uses it."""
    with psycopg.connect(root_url, autocommit=True) as conn:
        row = conn.execute("SHOW hba_file").fetchone()
        assert row is not None
        path = str(row[0])
        with open(path) as f:
            original = f.read()
        with open(path, "w") as f:
            f.write(f"local {dbname} {APP_LOGIN} scram-sha-256\n{original}")
        conn.execute("SELECT pg_reload_conf()")
        url = make_conninfo(root_url, dbname=dbname, user=APP_LOGIN)
        for _ in range(200):  # the postmaster reloads asynchronously: wait for the refusal
            try:
                psycopg.connect(url).close()
            except psycopg.OperationalError:
                break
            time.sleep(0.05)
        else:
            pytest.fail("pg_hba.conf was not reloaded")
        try:
            yield
        finally:
            with open(path, "w") as f:
                f.write(original)
            conn.execute("SELECT pg_reload_conf()")


@pytest.fixture
def hosted(pg_root_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hosted]:
    owner_url = empty_database(pg_root_url)
    parts = conninfo_to_dict(owner_url)
    for name, value in {"AWS_DEFAULT_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing"}.items():
        monkeypatch.setenv(name, value)
    for name in ("DATABASE_URL", "MEMORY_MCP_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    with mock_aws():
        sm = CountingClient(boto3.client("secretsmanager"))
        monkeypatch.setattr(secrets, "_client", lambda: sm)
        dbname = str(parts["dbname"])
        owner_arn = sm.client.create_secret(Name="memory-mcp/owner", SecretString=json.dumps({
            "username": parts.get("user", "postgres"), "password": "trusted-socket",
            "host": "db.invalid", "port": 5432, "dbname": dbname, "engine": "postgres"}))["ARN"]
        hosted = Hosted(owner_url, str(parts["host"]), dbname, owner_arn, "", "", sm)
        hosted.password = token.token_urlsafe(24)
        hosted.app_arn = sm.client.create_secret(
            Name="memory-mcp/app", SecretString=hosted._secret(hosted.password))["ARN"]
        with _hba_demands_a_password(pg_root_url, dbname):
            yield hosted


def _our_logs(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the package logged, with every extra field (botocore's own DEBUG wire logs
    show secret values by design; Lambda runs libraries at WARNING)."""
    return "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records
                     if r.name.startswith("memory_mcp"))


def _migrate(hosted: Hosted, app_arn: str) -> dict[str, Any]:
    event = {"RequestType": "Create", "LogicalResourceId": "Migrations",
             "ResourceProperties": {"ServiceToken": "arn:fw", "AppSecretArn": app_arn}}
    return handle_migration_event(event, hosted.settings(database_secret_arn=hosted.owner_arn))


@pytest.fixture
async def app_runtime(hosted: Hosted, embedder: Any) -> AsyncIterator[Runtime]:
    """Migrated, the password set, and a runtime whose pool logs in from the app secret."""
    assert _migrate(hosted, hosted.app_arn)["Data"]["AppLoginPasswordSet"] is True
    settings = hosted.settings(database_app_secret_arn=hosted.app_arn)
    pool = await open_pool(settings)  # no URL given: resolved from the app secret, as hosted
    try:
        yield Runtime(settings=settings, pool=pool, embedder=embedder)
    finally:
        await pool.close()


def test_the_migrations_resource_sets_the_app_password(hosted: Hosted,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(psycopg.OperationalError):  # the role exists only after migrating
        psycopg.connect(hosted.app_url(hosted.password)).close()
    caplog.set_level(logging.DEBUG, logger="memory_mcp")
    result = _migrate(hosted, hosted.app_arn)
    assert result["Data"]["AppLoginPasswordSet"] is True and result["Data"]["AppliedCount"] >= 9
    assert hosted.password not in _our_logs(caplog) and hosted.password not in json.dumps(result)
    for wrong in (None, "not-the-password"):
        with pytest.raises(psycopg.OperationalError, match="password"):
            psycopg.connect(hosted.app_url(wrong)).close()
    with psycopg.connect(hosted.app_url(hosted.password)) as conn:
        row = conn.execute("SELECT session_user, current_setting('is_superuser'),"
                           " (SELECT count(*) FROM pg_tables WHERE tableowner = session_user)"
                           ).fetchone()
        assert row == (APP_LOGIN, "off", 0)
        stored = conn.execute("SELECT count(*) FROM memories").fetchone()
        assert stored == (0,), "no request scope: no space data"
    # Again (a later deploy): idempotent, and no migration left to apply.
    again = _migrate(hosted, hosted.app_arn)
    assert again["Data"]["AppliedCount"] == 0 and again["Data"]["AppLoginPasswordSet"] is True
    psycopg.connect(hosted.app_url(hosted.password)).close()


def test_the_resource_sets_no_password_from_a_secret_for_another_role(hosted: Hosted) -> None:
    """A misconfigured secret naming the owner cannot be used to change the owner's password."""
    owner_user = str(conninfo_to_dict(hosted.owner_url).get("user", "postgres"))
    wrong = hosted.sm.client.create_secret(Name="memory-mcp/wrong", SecretString=json.dumps({
        "username": owner_user, "password": "attacker-chosen", "host": "db.invalid"}))["ARN"]

    def stored() -> Any:
        with psycopg.connect(hosted.owner_url) as conn:
            return conn.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s",
                                (owner_user,)).fetchone()

    before = stored()
    with pytest.raises(ConfigurationError, match=APP_LOGIN):
        _migrate(hosted, wrong)
    assert stored() == before


async def test_the_app_login_sees_only_what_row_security_allows(app_runtime: Runtime) -> None:
    rt, world = app_runtime, World(app_runtime)
    a, b = await world.space("login"), await world.space("login")
    member = await world.member(grants={a: "readwrite"})
    other = await world.member(grants={b: "readwrite"})
    await memories.save(rt, member.principal, "Space A ships on Mondays", None, a)
    await memories.save(rt, other.principal, "Space B's vault code is 1234", None, b)
    async with rt.transaction() as conn:
        readable = await readable_spaces(conn, member.principal)
        cur = await conn.execute("SELECT session_user AS login, current_user AS role")
        assert await cur.fetchone() == {"login": APP_LOGIN, "role": "memory_mcp_app"}
        cur = await conn.execute("SELECT content FROM memories")  # no space filter at all
        assert [r["content"] for r in await cur.fetchall()] == ["Space A ships on Mondays"]
        cur = await conn.execute("SELECT id FROM spaces WHERE key = %s", (b,))
        b_id = (await cur.fetchone() or {})["id"]
        assert b_id not in readable
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        async with rt.transaction() as conn:
            await readable_spaces(conn, member.principal)
            await conn.execute("UPDATE memories SET space_id = %s", (b_id,))


async def test_the_pool_rereads_a_rotated_password_once(app_runtime: Runtime, hosted: Hosted,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    rt = app_runtime
    async with rt.transaction(system=True) as conn:
        await conn.execute("SELECT 1")
    reads = hosted.sm.reads
    hosted.rotate(token.token_urlsafe(24))
    with psycopg.connect(hosted.owner_url, autocommit=True) as owner:  # the pooled ones go
        # ... and are gone before the next request (the timeout waits for each backend to exit):
        # a connection ended while a request is already taking it fails that one request with a
        # retryable error by design (db/pool.py), which is not what this test is about.
        ended = owner.execute("SELECT bool_and(pg_terminate_backend(pid, 5000))"
                              " FROM pg_stat_activity WHERE usename = %s AND datname = %s",
                              (APP_LOGIN, hosted.dbname)).fetchone()
        assert ended == (True,)
    caplog.set_level(logging.DEBUG, logger="memory_mcp")
    async with rt.transaction(system=True) as conn:  # a new connection, with the old URL first
        cur = await conn.execute("SELECT session_user AS login")
        assert await cur.fetchone() == {"login": APP_LOGIN}
    assert hosted.sm.reads == reads + 1, "the secret is read again exactly once"
    assert "re-read" in _our_logs(caplog) and hosted.password not in _our_logs(caplog)
    async with rt.transaction(system=True) as conn:  # the new login is kept: no more reads
        await conn.execute("SELECT 1")
    assert hosted.sm.reads == reads + 1


async def test_a_refused_login_whose_secret_did_not_change_fails_after_one_read(
        app_runtime: Runtime, hosted: Hosted) -> None:
    url = resolve_database_url(hosted.settings(database_app_secret_arn=hosted.app_arn))
    stale = SecretLogin(url, lambda: secrets.database_url_from_secret(
        hosted.app_arn, hosted.socket, "prefer"))
    # The database has a password the secret does not know (a rotation that failed half-way).
    with psycopg.connect(hosted.owner_url, autocommit=True) as owner:
        owner.execute(psycopg.sql.SQL("ALTER ROLE {} PASSWORD {}").format(
            psycopg.sql.Identifier(APP_LOGIN), psycopg.sql.Literal(uuid.uuid4().hex)))
    reads = hosted.sm.reads
    with pytest.raises(psycopg.OperationalError) as refused:
        await stale.connection_class().connect(url)
    assert is_refused_login(refused.value)
    assert hosted.sm.reads == reads + 1 and stale.rereads == 1


async def test_a_server_that_is_down_is_not_a_refused_login(tmp_path: Any) -> None:
    missing = make_conninfo(host=str(tmp_path), dbname="x", user=APP_LOGIN, connect_timeout=2)
    calls: list[str] = []

    def reread() -> str:
        calls.append("read")
        return missing

    with pytest.raises(psycopg.OperationalError) as down:
        await SecretLogin(missing, reread).connection_class().connect(missing)
    assert not is_refused_login(down.value)
    assert calls == [], "no secret read for an unreachable server"


def test_which_login_each_hosted_function_uses(hosted: Hosted) -> None:
    """migrate/admin: the owner secret; mcp_http/extract: the app secret only; a process
    holding both migrates as the owner and serves as the application login."""
    owner = hosted.settings(database_secret_arn=hosted.owner_arn)
    app = hosted.settings(database_app_secret_arn=hosted.app_arn)
    both = hosted.settings(database_secret_arn=hosted.owner_arn,
                           database_app_secret_arn=hosted.app_arn)
    owner_user = conninfo_to_dict(hosted.owner_url).get("user", "postgres")
    assert conninfo_to_dict(resolve_database_url(owner))["user"] == owner_user
    assert conninfo_to_dict(application_url(owner, resolve_database_url(owner)))["user"] == owner_user
    assert conninfo_to_dict(resolve_database_url(app))["user"] == APP_LOGIN
    assert conninfo_to_dict(application_url(app, resolve_database_url(app)))["user"] == APP_LOGIN
    assert conninfo_to_dict(resolve_database_url(both))["user"] == owner_user
    assert conninfo_to_dict(application_url(both, resolve_database_url(both)))["user"] == APP_LOGIN
