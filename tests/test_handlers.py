"""The Lambda handlers in functions/ driven with real events against the embedded PostgreSQL.

- ``mcp_http``: API Gateway HTTP API (payload 2.0) events through Mangum into the real app, many
  warm invocations on ONE handler instance (Mangum runs the ASGI lifespan on every invocation:
  the pool must survive it, on one event loop, even when something else ran ``asyncio.run``).
- ``migrate``: the CDK Provider framework's Create / Update / Delete events.
- ``admin``: ``{"args": [...]}`` → the CLI's JSON, errors as payloads, no secrets in logs.

No AWS is involved except through moto (Secrets Manager, for the hosted URL resolution).
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from memory_mcp.config import get_settings

from conftest import ROOT, empty_database, package_logging_restored, settings_for
from lambda_context import FakeContext

FUNCTIONS = ROOT / "functions"
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
TOOLS = {"search_memory", "add_memory", "listDocuments", "getDocument", "listMemories",
         "listSpaces", "whoAmI", "select-space"}




def http_event(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
               ) -> dict[str, Any]:
    """A real API Gateway HTTP API payload-format-2.0 event, as the $default stage sends it."""
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {"host": "abc123.execute-api.eu-west-1.amazonaws.com",
                    "x-forwarded-proto": "https", "x-forwarded-port": "443",
                    "user-agent": "pytest", **(headers or {})},
        "requestContext": {
            "accountId": "123456789012", "apiId": "abc123",
            "domainName": "abc123.execute-api.eu-west-1.amazonaws.com", "domainPrefix": "abc123",
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1",
                     "sourceIp": "203.0.113.7", "userAgent": "pytest"},
            "requestId": uuid.uuid4().hex, "routeKey": f"{method} {path}", "stage": "$default",
            "time": "30/Nov/2026:08:00:00 +0000", "timeEpoch": 1_795_000_000_000,
        },
        "body": None if body is None else json.dumps(body),
        "isBase64Encoded": False,
    }


def response_json(response: dict[str, Any]) -> Any:
    body = response["body"]
    if response.get("isBase64Encoded"):
        body = base64.b64decode(body).decode()
    return json.loads(body)


def load_handler(name: str) -> ModuleType:
    """Import ``functions/<name>/handler.py`` the way the Lambda runtime does (a fresh module)."""
    spec = importlib.util.spec_from_file_location(f"lambda_{name}_{uuid.uuid4().hex[:6]}",
                                                  FUNCTIONS / name / "handler.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", autouse=True)
def _restore_logging() -> Iterator[None]:
    """The handlers route package loggers through Powertools; give other test modules theirs
    back afterwards (propagation to the root logger is what pytest's caplog relies on)."""
    with package_logging_restored():
        yield


async def _seed_member(url: str) -> tuple[str, str, str]:
    """A writer with a key granted ReadWrite on a new space: (email, space key, api key)."""
    from memory_mcp.db.pool import open_pool
    from memory_mcp.embeddings import build_embedder
    from memory_mcp.services import admin
    from memory_mcp.services.runtime import Runtime
    from memory_mcp.services.startup import check_model

    settings = settings_for(url)
    pool = await open_pool(settings, url)
    try:
        rt = Runtime(settings=settings, pool=pool, embedder=build_embedder(settings), storage=None)
        async with rt.transaction(system=True) as conn:
            await check_model(conn, rt.embedder)
        tag = uuid.uuid4().hex[:8]
        user = await admin.create_user(rt, f"{tag}@example.test", f"Lambda {tag}", "writer")
        space = await admin.create_space(rt, f"lambda-{tag}", "Lambda space", "")
        key = await admin.create_key(rt, user["id"], "lambda")
        await admin.set_grant(rt, key["id"], space["key"], "readwrite")
        return user["email"], space["key"], key["key"]
    finally:
        await pool.close()


@dataclass
class McpLambda:
    module: ModuleType
    url: str
    email: str
    space: str
    key: str

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = self.module.handler(event, FakeContext())
        return result

    def rpc(self, method: str, params: dict[str, Any] | None = None, *, key: str | None = None
            ) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex[:8], "method": method, "params": params or {}}
        headers = {**MCP_HEADERS, "authorization": f"Bearer {key or self.key}"}
        return self.invoke(http_event("POST", "/mcp", body, headers))


@pytest.fixture(scope="module")
def mcp_lambda(make_database: Any) -> Iterator[McpLambda]:
    """``functions/mcp_http/handler.py`` imported once, configured from the environment as on
    Lambda (the bucket name makes the runtime use S3 storage, as hosted; nothing calls S3 here)."""
    url = make_database()
    email, space, key = asyncio.run(_seed_member(url))
    env = {"DATABASE_URL": url, "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations"),
           "MEMORY_MCP_UPLOADS_BUCKET": "memory-mcp-test-uploads", "MEMORY_MCP_AUTO_MIGRATE": "false",
           "MEMORY_MCP_POOL_MIN_SIZE": "1", "MEMORY_MCP_POOL_MAX_SIZE": "2",
           "POWERTOOLS_METRICS_NAMESPACE": "MemoryMcpTest"}
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        get_settings.cache_clear()
        try:
            module = load_handler("mcp_http")
        finally:
            get_settings.cache_clear()
    yield McpLambda(module, url, email, space, key)
    module.app.close()


def test_mcp_handler_serves_many_warm_invocations(mcp_lambda: McpLambda) -> None:
    init = mcp_lambda.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                         "clientInfo": {"name": "pytest", "version": "1"}})
    assert init["statusCode"] == 200, init
    assert response_json(init)["result"]["serverInfo"]["name"]
    runtime = mcp_lambda.module.app.app.state.runtime
    assert runtime is not None, "the runtime must outlive the invocation's lifespan"

    listed = mcp_lambda.rpc("tools/list")
    assert listed["statusCode"] == 200
    assert {t["name"] for t in response_json(listed)["result"]["tools"]} >= TOOLS

    who = mcp_lambda.rpc("tools/call", {"name": "whoAmI", "arguments": {}})
    assert who["statusCode"] == 200
    assert mcp_lambda.email in json.dumps(response_json(who)["result"])

    # Something else in the process runs (and closes) its own event loop between invocations:
    # the handler must still serve from the loop its pool lives on.
    asyncio.run(asyncio.sleep(0))

    fact = f"Deploys to the Lambda stack happen on Tuesdays ({uuid.uuid4().hex[:6]})"
    saved = mcp_lambda.rpc("tools/call", {"name": "add_memory", "arguments": {"content": fact}})
    assert saved["statusCode"] == 200
    assert not response_json(saved)["result"].get("isError"), saved
    for _ in range(3):  # several more warm calls on the same instance
        found = mcp_lambda.rpc("tools/call", {"name": "search_memory", "arguments": {
            "keyword": "Tuesdays", "includeProfile": False}})
        assert found["statusCode"] == 200
        assert fact in json.dumps(response_json(found)["result"])

    health = mcp_lambda.invoke(http_event("GET", "/healthz"))
    assert health["statusCode"] == 200
    assert response_json(health) == {"status": "ok", "database": True}
    assert mcp_lambda.module.app.app.state.runtime is runtime, "one pool for the whole process"


def test_mcp_handler_without_a_key_is_401(mcp_lambda: McpLambda) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = mcp_lambda.invoke(http_event("POST", "/mcp", body, MCP_HEADERS))
    assert response["statusCode"] == 401
    assert response["headers"]["www-authenticate"] == 'Bearer realm="memory-mcp"'
    assert response_json(response)["error"] == "unauthorized"
    wrong = mcp_lambda.rpc("tools/list", key="mm_0123456789_" + "x" * 43)
    assert wrong["statusCode"] == 401


def test_mcp_handler_get_is_405(mcp_lambda: McpLambda) -> None:
    response = mcp_lambda.invoke(http_event("GET", "/mcp", headers={
        "accept": "text/event-stream", "authorization": f"Bearer {mcp_lambda.key}"}))
    assert response["statusCode"] == 405


def test_mcp_handler_recovers_connections_closed_while_idle(mcp_lambda: McpLambda) -> None:
    """RDS Proxy (idle client timeout) or the server may close pooled connections while the
    execution environment is frozen; the first request after a pause must still succeed."""
    assert mcp_lambda.rpc("tools/list")["statusCode"] == 200
    dbname = conninfo_to_dict(mcp_lambda.url)["dbname"]
    with psycopg.connect(mcp_lambda.url, autocommit=True) as conn:
        killed = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()", (dbname,)).fetchone()
    assert killed is not None and killed[0] >= 1
    mcp_lambda.module.app._last_invocation -= 3600  # an hour frozen
    response = mcp_lambda.rpc("tools/call", {"name": "listSpaces", "arguments": {}})
    assert response["statusCode"] == 200
    assert mcp_lambda.space in json.dumps(response_json(response)["result"])


# -- migrate -------------------------------------------------------------------------------------


def _cfn_event(request: str, properties: dict[str, Any], physical_id: str | None = None
               ) -> dict[str, Any]:
    event = {
        "RequestType": request, "ServiceToken": "arn:aws:lambda:eu-west-1:123456789012:function:fw",
        "ResponseURL": "https://example.invalid/response", "StackId": "arn:aws:cloudformation:x",
        "RequestId": uuid.uuid4().hex, "LogicalResourceId": "Migrations",
        "ResourceType": "Custom::MemoryMcpMigrations",
        "ResourceProperties": {"ServiceToken": "arn:fw", **properties},
    }
    if physical_id:
        event["PhysicalResourceId"] = physical_id
    return event


def _tables(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()
    return {row[0] for row in rows}


def test_migrate_handler_create_update_delete(pg_root_url: str, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    from memory_mcp.aws.migrations_resource import migrations_hash

    url = empty_database(pg_root_url)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("MEMORY_MCP_MIGRATIONS_DIR", str(ROOT / "migrations"))
    handler = load_handler("migrate").handler
    migrations = sorted(p.stem for p in (ROOT / "migrations").glob("*.sql"))
    props = {"MigrationsHash": migrations_hash(ROOT / "migrations"), "Migrations": migrations}

    created = handler(_cfn_event("Create", props), FakeContext())
    assert created["Data"]["Applied"].split(",") == migrations
    assert created["Data"]["AppliedCount"] == len(migrations)
    physical_id = created["PhysicalResourceId"]
    assert {"schema_migrations", "memories", "users"} <= _tables(url)

    updated = handler(_cfn_event("Update", props, physical_id), FakeContext())
    assert updated == {"PhysicalResourceId": physical_id,
                       "Data": {"Applied": "", "AppliedCount": 0, "MigrationsHash": props["MigrationsHash"]}}

    deleted = handler(_cfn_event("Delete", props, physical_id), FakeContext())
    assert deleted["PhysicalResourceId"] == physical_id
    assert {"schema_migrations", "memories", "users"} <= _tables(url), "Delete keeps the data"

    with pytest.raises(Exception, match="differ from the template"):
        handler(_cfn_event("Update", {**props, "MigrationsHash": "0" * 64}, physical_id), FakeContext())

    # A rollback: the previous template (one migration fewer, its own hash) while the function
    # still runs the new layer. Nothing to undo or apply; failing would wedge the rollback.
    older = {"MigrationsHash": "1" * 64, "Migrations": migrations[:-1]}
    rolled_back = handler(_cfn_event("Update", older, physical_id), FakeContext())
    assert rolled_back["Data"]["AppliedCount"] == 0
    for foreign in ({**older, "Migrations": [*migrations[:-2], "9999_elsewhere"]},  # not a prefix
                    {**older, "Migrations": migrations}):  # same names, other contents
        with pytest.raises(Exception, match="differ from the template"):
            handler(_cfn_event("Update", foreign, physical_id), FakeContext())
    with pytest.raises(Exception, match="differ from the template"):  # only an Update rolls back
        handler(_cfn_event("Create", older), FakeContext())


def test_migrate_handler_reads_the_database_secret(pg_root_url: str, monkeypatch: pytest.MonkeyPatch
                                                   ) -> None:
    """Hosted path: no DATABASE_URL, the RDS-style secret (via moto's Secrets Manager) plus the
    instance endpoint in MEMORY_MCP_DATABASE_HOST."""
    boto3 = pytest.importorskip("boto3")
    moto = pytest.importorskip("moto")

    from memory_mcp.aws import secrets

    url = empty_database(pg_root_url)
    parts = conninfo_to_dict(url)
    for name, value in {"AWS_DEFAULT_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing", "MEMORY_MCP_DATABASE_SSLMODE": "prefer",
                        "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations")}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("MEMORY_MCP_DATABASE_URL", raising=False)
    secrets._client.cache_clear()
    try:
        with moto.mock_aws():
            arn = boto3.client("secretsmanager").create_secret(
                Name="memory-mcp/db", SecretString=json.dumps({
                    "username": parts.get("user", "postgres"), "password": parts.get("password") or "x",
                    "host": "database.invalid", "port": int(parts.get("port") or 5432),
                    "dbname": parts["dbname"], "engine": "postgres"}))["ARN"]
            monkeypatch.setenv("MEMORY_MCP_DATABASE_SECRET_ARN", arn)
            monkeypatch.setenv("MEMORY_MCP_DATABASE_HOST", str(parts["host"]))  # the instance endpoint
            created = load_handler("migrate").handler(_cfn_event("Create", {}), FakeContext())
    finally:
        secrets._client.cache_clear()
    assert created["Data"]["AppliedCount"] >= 3
    assert "memories" in _tables(url)


# -- admin ---------------------------------------------------------------------------------------


@pytest.fixture
def admin_handler(make_database: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("DATABASE_URL", make_database())
    monkeypatch.setenv("MEMORY_MCP_MIGRATIONS_DIR", str(ROOT / "migrations"))
    monkeypatch.setenv("MEMORY_MCP_UPLOADS_BUCKET", "memory-mcp-test-uploads")
    return load_handler("admin").handler


def test_admin_handler_runs_cli_commands(admin_handler: Any, capsys: pytest.CaptureFixture[str],
                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    email = f"{uuid.uuid4().hex[:8]}@example.test"
    invocation = FakeContext()
    user = admin_handler({"args": ["users", "create", "--email", email, "--name", "Ops Person",
                                   "--role", "writer"]}, invocation)
    assert user["ok"] is True and user["command"] == "users create"
    assert user["result"]["email"] == email
    # its audit event names the invocation (CloudTrail's Invoke record names who made it)
    trail = admin_handler({"args": ["audit", "--since", "10m"]}, FakeContext())["result"]
    created = next(e for e in trail if e["kind"] == "user.created"
                   and str(e["target_id"]) == user["result"]["id"])
    assert created["detail"]["operator"] == f"admin Lambda: request {invocation.aws_request_id}"

    space = f"ops-{uuid.uuid4().hex[:6]}"
    assert admin_handler({"args": ["spaces", "create", "--key", space, "--name", "Ops"]},
                         FakeContext())["ok"]
    key = admin_handler({"args": ["keys", "create", "--user", email, "--label", "laptop"]},
                        FakeContext())
    assert key["ok"] is True
    secret = key["result"]["key"]
    assert secret.startswith("mm_"), "the new key is returned once, in the response"
    granted = admin_handler({"args": ["grants", "set", "--key", key["result"]["id"], "--space", space,
                                      "--access", "readwrite"]}, FakeContext())
    assert granted["ok"] and granted["result"]["access"] == "readwrite"

    listed = admin_handler({"args": ["keys", "list", "--user", email]}, FakeContext())
    assert listed["ok"] and [k["label"] for k in listed["result"]] == ["laptop"]
    assert secret not in json.dumps(listed), "listings never show the key"

    captured = capsys.readouterr()
    logged = captured.out + captured.err + caplog.text
    # the secret part may itself contain "_" (even start with one): split off prefix only
    assert secret not in logged and secret.split("_", 2)[2] not in logged, "no key in any log"
    assert "admin command finished" in logged


def test_admin_handler_reports_errors_as_payloads(admin_handler: Any) -> None:
    missing = admin_handler({"args": ["keys", "create", "--user", "nobody@example.test",
                                      "--label", "x"]}, FakeContext())
    assert missing == {"ok": False, "command": "keys create",
                       "error": "No user with id or email 'nobody@example.test'."}

    usage = admin_handler({"args": ["users", "create", "--email", "a@example.test"]}, FakeContext())
    assert usage["ok"] is False and "required" in usage["error"]

    bad: dict[str, Any]
    for bad in ({}, {"args": "users list"}, {"args": []}, {"args": ["users", 3]}):
        result = admin_handler(bad, FakeContext())
        assert result["ok"] is False and '{"args"' in result["error"]

    serve = admin_handler({"args": ["serve"]}, FakeContext())
    assert serve["ok"] is False and "not available" in serve["error"]

    helped = admin_handler({"args": ["--help"]}, FakeContext())
    assert helped["ok"] is True and "usage" in helped["output"]


def test_admin_handler_reports_an_unreachable_database_without_secrets(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An unreachable database: the CLI's one-line reason in the payload (as on a terminal),
    never the password."""
    password = "s3cr3t-pass-word"
    monkeypatch.setenv("DATABASE_URL",
                       f"postgresql://memory:{password}@127.0.0.1:1/memory?connect_timeout=1")
    monkeypatch.setenv("MEMORY_MCP_UPLOADS_BUCKET", "memory-mcp-test-uploads")
    result = load_handler("admin").handler({"args": ["users", "list"]}, FakeContext())
    assert result["ok"] is False
    assert result["error"].startswith("the database could not be reached (connection failed")
    assert password not in json.dumps(result)
    assert password not in capsys.readouterr().out


# -- redaction -----------------------------------------------------------------------------------


def test_log_redaction() -> None:
    from memory_mcp.aws.observability import REDACTED, RedactingFormatter, redact

    key = "mm_0123456789_" + "A" * 43
    record = {
        "message": f"called with {key} and Bearer {key}",
        "headers": {"Authorization": f"Bearer {key}", "Host": "example.com"},
        "url": "postgresql://memory:hunter2@db:5432/memory",
        "dsn": "host=db password='hunter 2' user=memory",
        "items": [{"password": "pw"}, "X-Amz-Signature=abcdef&X-Amz-Security-Token=tok"],
        "count": 3,
    }
    out = redact(record)
    text = json.dumps(out)
    for secret in ("A" * 43, "hunter2", "hunter 2", "abcdef", "tok&", '"pw"'):
        assert secret not in text, secret
    assert out["headers"] == {"Authorization": REDACTED, "Host": "example.com"}
    assert "mm_0123456789_" in out["message"], "the public prefix stays, for support"
    assert out["count"] == 3

    formatter = RedactingFormatter()
    line = formatter.format(logging.LogRecord("memory_mcp.test", logging.INFO, __file__, 1,
                                              "key %s", (key,), None))
    assert "A" * 43 not in line and json.loads(line)["message"] == f"key mm_0123456789_{REDACTED}"
