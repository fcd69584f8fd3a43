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
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from memory_mcp.aws.observability import metrics
from memory_mcp.config import Settings
from memory_mcp.db.migrator import load_migrations, migrate
from memory_mcp.db.pool import resolve_database_url
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
        applied, actual = _apply(event, settings)
    except Exception:
        metrics.add_metric(name="MigrationFailures", unit=MetricUnit.Count, value=1)
        raise
    log.info("migrations applied", extra={"applied": applied, "request": request})
    metrics.add_metric(name="MigrationsApplied", unit=MetricUnit.Count, value=len(applied))
    return {
        "PhysicalResourceId": physical_id,
        "Data": {"Applied": ",".join(applied), "AppliedCount": len(applied), "MigrationsHash": actual},
    }


def _apply(event: Mapping[str, Any], settings: Settings) -> tuple[list[str], str]:
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
    return migrate(resolve_database_url(settings), settings.migrations_dir), actual


def _older_prefix(listed: Any, settings: Settings) -> bool:
    """True when ``listed`` (the template's migration names) is a strict prefix of the layer's."""
    names = [m.name for m in load_migrations(settings.migrations_dir)]
    return (isinstance(listed, list) and len(listed) < len(names)
            and [str(name) for name in listed] == names[: len(listed)])
