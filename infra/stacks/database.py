"""RDS PostgreSQL 17, its two logins in Secrets Manager and, where configured, RDS Proxy.

Two secrets of the same shape: the master user's (the schema owner, for migrate and admin) and
the application login's (``memory_mcp_server``, owns nothing, for mcp_http and extract). The
application secret is rotated by Secrets Manager's single-user PostgreSQL rotation (the role
changes its own password); the owner's is rotated by hand at deploy time (see SMG4 below).
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Duration
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_rds as rds
from aws_cdk import aws_secretsmanager as secretsmanager

from infra.stacks.common import (
    APP_DB_USER,
    APP_SECRET_ROTATION_DAYS,
    DB_NAME,
    DB_USER,
    REMOVAL,
    Base,
    acknowledge,
)
from infra.stacks.network import Network


@dataclass(frozen=True)
class Database:
    instance: rds.DatabaseInstance
    db_sg: ec2.SecurityGroup
    #: The master user's secret (the schema owner): migrations and admin.
    owner_secret: secretsmanager.ISecret
    #: The application login's secret (``memory_mcp_server``): mcp_http and extract.
    app_secret: secretsmanager.ISecret
    #: Its rotation (the Secrets Manager single-user PostgreSQL rotation function); none in a
    #: ``sam local`` template, whose functions use docker-compose's database.
    rotation: secretsmanager.SecretRotation | None
    proxy: rds.DatabaseProxy | None
    #: The instance endpoint: operator paths connect here, never through the proxy.
    instance_host: str
    #: Where the request paths connect: the proxy if there is one, else the instance.
    app_host: str


def build_database(base: Base, network: Network) -> Database:
    stack, db = base.stack, base.config.database
    engine = rds.DatabaseInstanceEngine.postgres(version=rds.PostgresEngineVersion.VER_17)
    # The secret carries dbname too (RDS's attachment adds only host, port and engine), so
    # every function connects to memory_mcp, not the default "postgres" database.
    credentials = rds.DatabaseSecret(stack, "DatabaseSecret", username=DB_USER, dbname=DB_NAME)
    db_sg = ec2.SecurityGroup(stack, "DatabaseSg", vpc=network.vpc, allow_all_outbound=False,
                              description="PostgreSQL: only from the functions or the proxy")
    instance = rds.DatabaseInstance(
        stack, "Database", engine=engine,
        instance_type=ec2.InstanceType(db.instance_type),
        vpc=network.vpc, vpc_subnets=network.subnets, security_groups=[db_sg],
        credentials=rds.Credentials.from_secret(credentials),
        database_name=DB_NAME, port=5432,
        storage_encrypted=True, storage_type=rds.StorageType.GP3,
        allocated_storage=db.allocated_storage_gib,
        max_allocated_storage=db.max_allocated_storage_gib,
        multi_az=db.multi_az, deletion_protection=db.deletion_protection,
        backup_retention=Duration.days(db.backup_retention_days),
        removal_policy=REMOVAL[db.removal_policy],
        parameter_group=rds.ParameterGroup(stack, "DatabaseParameters", engine=engine,
                                           parameters={"rds.force_ssl": "1"}),
        cloudwatch_logs_exports=["postgresql"], cloudwatch_logs_retention=base.retention,
        auto_minor_version_upgrade=True, publicly_accessible=False,
        copy_tags_to_snapshot=True,
    )
    secret = instance.secret
    assert secret is not None
    # Same shape as the owner's; attached to the instance so it carries host, port and engine
    # (the rotation function reads them). The migrations resource sets the role's password.
    app_credentials = rds.DatabaseSecret(stack, "AppDatabaseSecret", username=APP_DB_USER,
                                         dbname=DB_NAME)
    app_secret = app_credentials.attach(instance)
    instance.connections.allow_default_port_from(network.ops_sg, "migrate and admin")
    instance_host = instance.db_instance_endpoint_address
    proxy: rds.DatabaseProxy | None = None
    if db.rds_proxy:
        proxy_sg = ec2.SecurityGroup(stack, "ProxySg", vpc=network.vpc, allow_all_outbound=False,
                                     description="RDS Proxy: from mcp_http and extract")
        proxy = instance.add_proxy(
            "Proxy", secrets=[secret, app_secret], vpc=network.vpc, vpc_subnets=network.subnets,
            security_groups=[proxy_sg], require_tls=True, iam_auth=False,
            idle_client_timeout=Duration.minutes(15),
        )
        instance.connections.allow_default_port_from(proxy_sg, "RDS Proxy")
        proxy.connections.allow_from(network.app_sg, ec2.Port.tcp(5432), "mcp_http and extract")
        app_host = proxy.endpoint
    else:
        instance.connections.allow_default_port_from(network.app_sg, "mcp_http and extract")
        app_host = instance_host

    rotation = None if base.sam_local else _rotation(base, network, instance, app_secret)
    if rotation is None:
        acknowledge(app_credentials, "AwsSolutions-SMG4",
                    "A template for `sam local` only, never deployed: its functions use "
                    "docker-compose's database; there is no RDS instance whose password a "
                    "rotation could change.")
    acknowledge(credentials, "AwsSolutions-SMG4",
                "The owner (RDS master user) is rotated by hand at deploy time, not on a "
                "schedule: only migrate (during deploys) and admin (operators) use it, a "
                "scheduled rotation function would hold the master password in the VPC, and a "
                "rotation could race a running migration. The request paths log in with the "
                "application secret, which Secrets Manager rotates.")
    _acknowledge(base, instance)
    return Database(instance, db_sg, secret, app_secret, rotation, proxy, instance_host,
                    app_host)


def _rotation(base: Base, network: Network, instance: rds.DatabaseInstance,
              app_secret: secretsmanager.ISecret) -> secretsmanager.SecretRotation:
    """Single-user rotation of the application login, in the isolated subnets: it may reach
    only the database and the Secrets Manager endpoint."""
    sg = ec2.SecurityGroup(base.stack, "AppSecretRotationSg", vpc=network.vpc,
                           allow_all_outbound=False,
                           description="Secrets Manager rotation of the application login")
    # The endpoint has private DNS: the function's default Secrets Manager hostname reaches it
    # (CDK's endpoint-specific URL is not needed).
    sg.add_egress_rule(ec2.Peer.any_ipv4(), ec2.Port.tcp(443),
                       "HTTPS to the Secrets Manager endpoint only (no internet route)")
    network.endpoint_sg.add_ingress_rule(sg, ec2.Port.tcp(443), "HTTPS from the rotation")
    return secretsmanager.SecretRotation(
        base.stack, "AppSecretRotation",
        application=secretsmanager.SecretRotationApplication.POSTGRES_ROTATION_SINGLE_USER,
        secret=app_secret, target=instance, vpc=network.vpc, vpc_subnets=network.subnets,
        security_group=sg,
        automatically_after=Duration.days(APP_SECRET_ROTATION_DAYS),
    )


def _acknowledge(base: Base, instance: rds.DatabaseInstance) -> None:
    db = base.config.database
    acknowledge(instance, "AwsSolutions-RDS6",
                "Password authentication from Secrets Manager over TLS (rds.force_ssl=1); "
                "IAM database authentication's 200 new connections/s limit and 15-minute "
                "tokens do not suit Lambda connection pools.")
    acknowledge(instance, "AwsSolutions-RDS11",
                "The default PostgreSQL port: the instance is in isolated subnets and its "
                "security group admits only the functions and the proxy; a different port "
                "adds no protection.")
    if not db.multi_az:
        acknowledge(instance, "AwsSolutions-RDS3",
                    f"Environment {base.config.name!r} is single-AZ by design (cdk.json "
                    "multiAz=false): a development database, restorable from backups.")
    if not db.deletion_protection:
        acknowledge(instance, "AwsSolutions-RDS10",
                    f"Environment {base.config.name!r} is disposable (cdk.json "
                    "deletionProtection=false); prod enables deletion protection.")
