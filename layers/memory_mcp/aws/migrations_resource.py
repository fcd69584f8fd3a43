"""The deploy-time migration custom resource (CDK ``Provider`` framework ``onEvent`` handler).

CloudFormation sends ``Create`` on the first deploy and ``Update`` whenever a resource property
changes; the stack passes ``MigrationsHash`` (``migrations_hash`` of ``migrations/*.sql``), so
every deploy whose migration files changed runs the migrator again, the same
``memory_mcp.db.migrator.migrate`` the local server and ``memory-mcp migrate`` use, against the
database instance (never a proxy: the migrator holds a session-level advisory lock). ``Delete``
keeps the schema and the data: a database is never emptied by removing a resource.

Failures propagate: the framework reports them to CloudFormation, which rolls the deploy back.
A rollback sends ``Update`` with the *previous* template's properties while this function still
runs the *new* layer. Migrations only go forward, so when the template lists an older prefix of
the layer's migrations the update succeeds without applying anything: failing it would leave
the stack in ``UPDATE_ROLLBACK_FAILED``, and re-running a migration that just failed would fail
again.

After migrating (or finding nothing to apply), when the properties name ``AppSecretArn``, the
owner sets the application login's password (``memory_mcp_server``) from that secret's current
version, so the request paths can log in with it. The secret's ARN is a property: a replaced
secret re-runs the resource. Rotations later change the password themselves (single-user
rotation: the role may change its own password); setting it again is idempotent.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from memory_mcp.aws.observability import metrics
from memory_mcp.aws.secrets import read_database_secret
from memory_mcp.config import Settings
from memory_mcp.db.login import set_login_password
from memory_mcp.db.migrator import load_migrations, migrate
from memory_mcp.db.pool import APP_LOGIN, resolve_database_url
from memory_mcp.errors import ConfigurationError

log = logging.getLogger(__name__)

PHYSICAL_ID = "memory-mcp-schema"


def migrations_hash(directory: Path) -> str:
    """SHA-256 over the migration files' names and checksums, in the migrator's order."""
    digest = hashlib.sha256()
    for migration in load_migrations(directory):
        digest.update(f"{migration.name}:{migration.checksum}\n".encode())
    return digest.hexdigest()


def handle_migration_event(event: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    """Create/Update: apply pending migrations; Delete: keep everything. Returns the
    framework's response (``PhysicalResourceId`` and ``Data``)."""
    request = event.get("RequestType")
    physical_id = str(event.get("PhysicalResourceId") or PHYSICAL_ID)
    if request == "Delete":
        log.info("migration resource deleted; the schema and data are kept")
        metrics.add_metric(name="MigrationsApplied", unit=MetricUnit.Count, value=0)
        return {"PhysicalResourceId": physical_id, "Data": {"Applied": "", "AppliedCount": 0}}
    if request not in ("Create", "Update"):
        raise ValueError(f"Unknown custom resource request type {request!r}.")
    try:
        owner_url = resolve_database_url(settings)
        applied, actual = _apply(event, settings, owner_url)
        app_login = _set_app_login(event, owner_url)
    except Exception:
        metrics.add_metric(name="MigrationFailures", unit=MetricUnit.Count, value=1)
        raise
    log.info("migrations applied", extra={"applied": applied, "request": request,
                                          "app_login_password_set": app_login})
    metrics.add_metric(name="MigrationsApplied", unit=MetricUnit.Count, value=len(applied))
    data: dict[str, Any] = {"Applied": ",".join(applied), "AppliedCount": len(applied),
                            "MigrationsHash": actual}
    if app_login:  # only a template that names the application secret asks for it
        data["AppLoginPasswordSet"] = True
    return {"PhysicalResourceId": physical_id, "Data": data}


def _set_app_login(event: Mapping[str, Any], owner_url: str) -> bool:
    """Copy the application secret's password into the database; False when none is named.
    The secret must be for ``memory_mcp_server``: it can never set another role's password."""
    arn = (event.get("ResourceProperties") or {}).get("AppSecretArn")
    if not arn:
        return False
    secret = read_database_secret(str(arn))
    if secret.username != APP_LOGIN:
        raise ConfigurationError(
            f"The application login's secret must be for the role {APP_LOGIN!r}.")
    set_login_password(owner_url, APP_LOGIN, secret.password.get_secret_value())
    return True


def _apply(event: Mapping[str, Any], settings: Settings, owner_url: str
           ) -> tuple[list[str], str]:
    props = event.get("ResourceProperties") or {}
    expected = props.get("MigrationsHash")
    actual = migrations_hash(settings.migrations_dir)
    if expected and expected != actual:
        if event.get("RequestType") == "Update" and _older_prefix(props.get("Migrations"), settings):
            log.warning("the template lists an older prefix of the layer's migrations (a rollback): "
                        "nothing applied, migrations only go forward",
                        extra={"template_migrations": len(props["Migrations"])})
            return [], actual
        raise ConfigurationError(
            f"The layer's migrations (hash {actual[:12]}) differ from the template's "
            f"({str(expected)[:12]}): deploy the layer and the stack from the same checkout."
        )
    return migrate(owner_url, settings.migrations_dir), actual


def _older_prefix(listed: Any, settings: Settings) -> bool:
    """True when ``listed`` (the template's migration names) is a strict prefix of the layer's."""
    names = [m.name for m in load_migrations(settings.migrations_dir)]
    return (isinstance(listed, list) and len(listed) < len(names)
            and [str(name) for name in listed] == names[: len(listed)])
