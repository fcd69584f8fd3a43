"""The migration custom resource: ``migrate`` runs on every deploy whose migrations changed."""

from __future__ import annotations

from aws_cdk import CustomResource
from aws_cdk import custom_resources as cr

from infra.layer_build import MIGRATIONS_DIR
from infra.stacks.common import Base
from infra.stacks.database import Database
from infra.stacks.functions import Functions
from infra.stacks.network import Network
from memory_mcp.aws.migrations_resource import migrations_hash
from memory_mcp.db.migrator import load_migrations


def build_migrations(base: Base, network: Network, database: Database,
                     functions: Functions) -> tuple[CustomResource, cr.Provider]:
    """The resource and its provider (whose framework function cdk-nag asks about)."""
    stack = base.stack
    provider = cr.Provider(stack, "MigrationProvider", on_event_handler=functions.migrate,
                           log_group=base.log_group("MigrationProvider"))
    migrations = CustomResource(
        stack, "Migrations", service_token=provider.service_token,
        resource_type="Custom::MemoryMcpMigrations",
        properties={
            "MigrationsHash": migrations_hash(MIGRATIONS_DIR),
            "Migrations": [m.name for m in load_migrations(MIGRATIONS_DIR)],
            # After migrating, the owner sets the application login's password from it.
            "AppSecretArn": database.app_secret.secret_arn,
        },
    )
    database.app_secret.grant_read(functions.migrate)
    # The function must reach Secrets Manager (endpoint) and the database (ingress rule).
    for dependency in (*network.endpoints.values(), network.endpoint_sg, database.instance,
                       database.db_sg, network.ops_sg):
        migrations.node.add_dependency(dependency)
    # New code starts serving only after the schema it expects exists.
    for fn in (functions.mcp, functions.extract, functions.admin):
        fn.node.add_dependency(migrations)
    # The first rotation (right after the schedule is created) needs the role to exist and
    # to know its current password.
    if database.rotation is not None:
        database.rotation.node.add_dependency(migrations)
    return migrations, provider
