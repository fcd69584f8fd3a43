"""``MemoryMcpStack``: the whole hosted service in one stack.

Network: a VPC with private isolated subnets only (no NAT, no internet gateway) and VPC endpoints
for everything the functions call. Database: RDS PostgreSQL 17, encrypted, credentials in Secrets
Manager; prod adds Multi-AZ, deletion protection and RDS Proxy. Functions (one shared layer):
``mcp_http`` behind an API Gateway HTTP API, ``extract`` on the uploads queue, ``migrate`` as a
custom resource on every deploy whose migrations changed, ``admin`` for operators. Every function
gets only the permissions it uses; every nag finding left is acknowledged with its reason.
"""

from __future__ import annotations

import json
from typing import Any

import jsii
from aws_cdk import (
    Acknowledgment,
    Annotations,
    CfnElement,
    CfnOutput,
    CustomResource,
    Duration,
    RemovalPolicy,
    Stack,
    Tags,
    Validations,
)
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as event_sources
from aws_cdk import aws_logs as logs
from aws_cdk import aws_rds as rds
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_notifications as s3n
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from aws_cdk import custom_resources as cr
from constructs import Construct, IConstruct

from infra.config import SAM_LOCAL_DATABASE_URL, EnvironmentConfig
from infra.layer_build import MIGRATIONS_DIR, ROOT
from infra.stacks.layer import layer_code
from memory_mcp.aws.migrations_resource import migrations_hash
from memory_mcp.db.migrator import load_migrations

FUNCTIONS_DIR = ROOT / "functions"
UPLOADS_PREFIX = "uploads/"
#: Where Amazon Transcribe writes its results (memory_mcp.documents.transcribe.TRANSCRIPT_PREFIX).
TRANSCRIPTS_PREFIX = "transcripts/"
DB_NAME = "memory_mcp"
DB_USER = "memory_mcp"
SERVICE = "memory-mcp"
METRICS_NAMESPACE = "MemoryMcp"
RUNTIME = lambda_.Runtime.PYTHON_3_12
#: ``extract`` messages stay invisible for at least this many function timeouts (AWS guidance).
VISIBILITY_TIMEOUT_FACTOR = 6

_RETENTION = {
    1: logs.RetentionDays.ONE_DAY, 3: logs.RetentionDays.THREE_DAYS,
    5: logs.RetentionDays.FIVE_DAYS, 7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS, 30: logs.RetentionDays.ONE_MONTH,
    60: logs.RetentionDays.TWO_MONTHS, 90: logs.RetentionDays.THREE_MONTHS,
    120: logs.RetentionDays.FOUR_MONTHS, 180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR, 731: logs.RetentionDays.TWO_YEARS,
}
_REMOVAL = {"destroy": RemovalPolicy.DESTROY, "retain": RemovalPolicy.RETAIN,
            "snapshot": RemovalPolicy.SNAPSHOT}


#: One JSON object per request; no headers (so never the Authorization header), no bodies.
ACCESS_LOG_FORMAT = json.dumps({
    "requestId": "$context.requestId", "ip": "$context.identity.sourceIp",
    "requestTime": "$context.requestTime", "method": "$context.httpMethod",
    "routeKey": "$context.routeKey", "status": "$context.status",
    "protocol": "$context.protocol", "responseLength": "$context.responseLength",
    "integrationLatency": "$context.integration.latency",
    "integrationError": "$context.integrationErrorMessage",
})


@jsii.implements(apigwv2.IAccessLogSettings)
class _AccessLogs:
    """HTTP API access logs: JSON lines into a CloudWatch log group."""

    def __init__(self, log_group: logs.ILogGroup) -> None:
        self._destination = apigwv2.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigwv2.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigw.AccessLogFormat:
        return apigw.AccessLogFormat.custom(ACCESS_LOG_FORMAT)


def acknowledge(scope: IConstruct, rule: str, reason: str) -> None:
    """Acknowledge one cdk-nag finding on ``scope`` (and its children), with the reason."""
    Validations.of(scope).acknowledge(Acknowledgment(id=rule, reason=reason))


class MemoryMcpStack(Stack):
    """Memory-MCP on AWS for one environment (``dev``, ``prod``, ... from cdk.json)."""

    def __init__(self, scope: Construct, construct_id: str, *, config: EnvironmentConfig,
                 bundle: bool = True, sam_local: bool = False, **kwargs: Any) -> None:
        super().__init__(scope, construct_id, **kwargs)
        self.config = config
        self.sam_local = sam_local
        if sam_local:
            Annotations.of(self).add_warning_v2(
                "memory-mcp:samLocal", "A template for `sam local start-api` only: its functions "
                "use docker-compose's database. Never deploy it.")
        if config.log_retention_days not in _RETENTION:
            raise ValueError(f"cdk.json: logRetentionDays must be one of {sorted(_RETENTION)}")
        self._retention = _RETENTION[config.log_retention_days]
        self._log_removal = RemovalPolicy.RETAIN if config.name == "prod" else RemovalPolicy.DESTROY
        # DBProxyTargetGroup takes no Tags (CloudFormation's schema), though CDK would add them.
        untaggable = ["AWS::RDS::DBProxyTargetGroup"]
        Tags.of(self).add("project", SERVICE, exclude_resource_types=untaggable)
        Tags.of(self).add("environment", config.name, exclude_resource_types=untaggable)

        self._network()
        self._database()
        self._uploads()
        self._alarm_topic()
        self.layer = lambda_.LayerVersion(
            self, "PackageLayer", code=layer_code(bundle), compatible_runtimes=[RUNTIME],
            compatible_architectures=[lambda_.Architecture.X86_64],
            description="memory_mcp, its migrations and its runtime dependencies (CPython 3.12)",
        )
        self._functions()
        self._migrations()
        self._api()
        self._alarms()
        self._outputs()
        self._acknowledge_stack_wide()

    # -- network -----------------------------------------------------------------------------

    def _network(self) -> None:
        self.vpc = ec2.Vpc(
            self, "Vpc", max_azs=2, nat_gateways=0,
            subnet_configuration=[ec2.SubnetConfiguration(
                name="isolated", subnet_type=ec2.SubnetType.PRIVATE_ISOLATED, cidr_mask=24)],
        )
        self.subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED)
        flow_logs = self._log_group("VpcFlowLogs")
        self.vpc.add_flow_log("FlowLog", destination=ec2.FlowLogDestination.to_cloud_watch_logs(
            flow_logs), traffic_type=ec2.FlowLogTrafficType.REJECT)
        self.vpc.add_gateway_endpoint("S3Endpoint", service=ec2.GatewayVpcEndpointAwsService.S3,
                                      subnets=[self.subnets])
        # Functions serving requests (mcp_http, extract) and operator functions (migrate,
        # admin) get separate groups, so the database and proxy rules say who reaches what.
        self.app_sg = self._lambda_sg("AppFunctions", "mcp_http and extract")
        self.ops_sg = self._lambda_sg("OpsFunctions", "migrate and admin")
        endpoint_sg = ec2.SecurityGroup(self, "EndpointsSg", vpc=self.vpc, allow_all_outbound=False,
                                        description="Interface VPC endpoints: HTTPS from the functions")
        self.endpoint_sg = endpoint_sg
        for sg in (self.app_sg, self.ops_sg):
            endpoint_sg.add_ingress_rule(sg, ec2.Port.tcp(443), "HTTPS from the functions")
        self.endpoints: list[ec2.InterfaceVpcEndpoint] = []
        for service in self.config.interface_endpoints:
            endpoint_id = "".join(part.title() for part in service.replace(".", "-").split("-"))
            self.endpoints.append(self.vpc.add_interface_endpoint(
                f"{endpoint_id}Endpoint", service=ec2.InterfaceVpcEndpointAwsService(service),
                subnets=self.subnets, security_groups=[endpoint_sg], private_dns_enabled=True,
                open=False,
            ))

    def _lambda_sg(self, name: str, who: str) -> ec2.SecurityGroup:
        sg = ec2.SecurityGroup(self, f"{name}Sg", vpc=self.vpc, allow_all_outbound=False,
                               description=f"Lambda functions {who}")
        # Isolated subnets have no route to the internet: HTTPS can only reach the VPC
        # endpoints (interface endpoints and the S3 gateway endpoint's prefix list).
        sg.add_egress_rule(ec2.Peer.any_ipv4(), ec2.Port.tcp(443),
                           "HTTPS to VPC endpoints only (no internet route)")
        return sg

    # -- database ----------------------------------------------------------------------------

    def _database(self) -> None:
        db = self.config.database
        engine = rds.DatabaseInstanceEngine.postgres(version=rds.PostgresEngineVersion.VER_17)
        # The secret carries dbname too (RDS's attachment adds only host, port and engine), so
        # every function connects to memory_mcp, not the default "postgres" database.
        credentials = rds.DatabaseSecret(self, "DatabaseSecret", username=DB_USER, dbname=DB_NAME)
        db_sg = ec2.SecurityGroup(self, "DatabaseSg", vpc=self.vpc, allow_all_outbound=False,
                                  description="PostgreSQL: only from the functions or the proxy")
        self.db_sg = db_sg
        self.database = rds.DatabaseInstance(
            self, "Database", engine=engine,
            instance_type=ec2.InstanceType(db.instance_type),
            vpc=self.vpc, vpc_subnets=self.subnets, security_groups=[db_sg],
            credentials=rds.Credentials.from_secret(credentials),
            database_name=DB_NAME, port=5432,
            storage_encrypted=True, storage_type=rds.StorageType.GP3,
            allocated_storage=db.allocated_storage_gib,
            max_allocated_storage=db.max_allocated_storage_gib,
            multi_az=db.multi_az, deletion_protection=db.deletion_protection,
            backup_retention=Duration.days(db.backup_retention_days),
            removal_policy=_REMOVAL[db.removal_policy],
            parameter_group=rds.ParameterGroup(self, "DatabaseParameters", engine=engine,
                                               parameters={"rds.force_ssl": "1"}),
            cloudwatch_logs_exports=["postgresql"], cloudwatch_logs_retention=self._retention,
            auto_minor_version_upgrade=True, publicly_accessible=False,
            copy_tags_to_snapshot=True,
        )
        secret = self.database.secret
        assert secret is not None
        self.db_secret = secret
        self.database.connections.allow_default_port_from(self.ops_sg, "migrate and admin")
        self.instance_host = self.database.db_instance_endpoint_address
        self.proxy: rds.DatabaseProxy | None = None
        if db.rds_proxy:
            proxy_sg = ec2.SecurityGroup(self, "ProxySg", vpc=self.vpc, allow_all_outbound=False,
                                         description="RDS Proxy: from mcp_http and extract")
            self.proxy = self.database.add_proxy(
                "Proxy", secrets=[secret], vpc=self.vpc, vpc_subnets=self.subnets,
                security_groups=[proxy_sg], require_tls=True, iam_auth=False,
                idle_client_timeout=Duration.minutes(15),
            )
            self.database.connections.allow_default_port_from(proxy_sg, "RDS Proxy")
            self.proxy.connections.allow_from(self.app_sg, ec2.Port.tcp(5432), "mcp_http and extract")
            self.app_host = self.proxy.endpoint
        else:
            self.database.connections.allow_default_port_from(self.app_sg, "mcp_http and extract")
            self.app_host = self.instance_host

        acknowledge(credentials, "AwsSolutions-SMG4",
                    "No automatic rotation: the functions build their connection string from the "
                    "secret once per process, so a rotation would break new connections until "
                    "every execution environment is recycled. Rotate during a deploy instead.")
        acknowledge(self.database, "AwsSolutions-RDS6",
                    "Password authentication from Secrets Manager over TLS (rds.force_ssl=1); "
                    "IAM database authentication's 200 new connections/s limit and 15-minute "
                    "tokens do not suit Lambda connection pools.")
        acknowledge(self.database, "AwsSolutions-RDS11",
                    "The default PostgreSQL port: the instance is in isolated subnets and its "
                    "security group admits only the functions and the proxy; a different port "
                    "adds no protection.")
        if not db.multi_az:
            acknowledge(self.database, "AwsSolutions-RDS3",
                        f"Environment {self.config.name!r} is single-AZ by design (cdk.json "
                        "multiAz=false): a development database, restorable from backups.")
        if not db.deletion_protection:
            acknowledge(self.database, "AwsSolutions-RDS10",
                        f"Environment {self.config.name!r} is disposable (cdk.json "
                        "deletionProtection=false); prod enables deletion protection.")

    # -- uploads -----------------------------------------------------------------------------

    def _uploads(self) -> None:
        uploads = self.config.uploads
        self.access_logs = s3.Bucket(
            self, "AccessLogs", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
            minimum_tls_version=1.2, block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            lifecycle_rules=[s3.LifecycleRule(id="expire-access-logs",
                                              expiration=Duration.days(365))],
            removal_policy=RemovalPolicy.RETAIN,
        )
        acknowledge(self.access_logs, "AwsSolutions-S1",
                    "This is the server access log bucket of the uploads bucket; logging its "
                    "own accesses would recurse.")
        self.uploads = s3.Bucket(
            self, "Uploads", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
            minimum_tls_version=1.2, block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            server_access_logs_bucket=self.access_logs, server_access_logs_prefix="uploads/",
            cors=[s3.CorsRule(allowed_methods=[s3.HttpMethods.PUT],
                              allowed_origins=list(uploads.cors_allowed_origins),
                              allowed_headers=["*"], exposed_headers=["ETag"], max_age=3000)],
            lifecycle_rules=[
                s3.LifecycleRule(id="abort-incomplete-uploads",
                                 abort_incomplete_multipart_upload_after=Duration.days(1)),
                s3.LifecycleRule(id="infrequent-access", transitions=[s3.Transition(
                    storage_class=s3.StorageClass.INFREQUENT_ACCESS,
                    transition_after=Duration.days(uploads.infrequent_access_after_days))]),
            ],
            removal_policy=RemovalPolicy.RETAIN,
        )
        self.dlq = sqs.Queue(
            self, "ExtractDlq", encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True,
            retention_period=Duration.days(14),
        )
        acknowledge(self.dlq, "AwsSolutions-SQS3",
                    "This queue is the dead-letter queue of the extraction queue.")
        extract = self.config.extract
        self.queue = sqs.Queue(
            self, "ExtractQueue", encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True,
            visibility_timeout=Duration.seconds(VISIBILITY_TIMEOUT_FACTOR * extract.timeout_seconds
                                                + extract.max_batching_window_seconds),
            retention_period=Duration.days(4),
            dead_letter_queue=sqs.DeadLetterQueue(queue=self.dlq,
                                                  max_receive_count=extract.max_receive_count),
        )
        self.uploads.add_event_notification(
            s3.EventType.OBJECT_CREATED, s3n.SqsDestination(self.queue),
            s3.NotificationKeyFilter(prefix=UPLOADS_PREFIX),
        )
        # The notification's allow is conditioned on the bucket ARN only; a bucket name can be
        # taken by another account once deleted, so S3 may send for this account alone.
        self.queue.add_to_resource_policy(iam.PolicyStatement(
            effect=iam.Effect.DENY, principals=[iam.ServicePrincipal("s3.amazonaws.com")],
            actions=["sqs:SendMessage"], resources=[self.queue.queue_arn],
            conditions={"StringNotEquals": {"aws:SourceAccount": self.account}}))

    def _alarm_topic(self) -> None:
        key = kms.Key(self, "AlarmsKey", enable_key_rotation=True,
                      description="Encrypts the Memory-MCP alarm topic",
                      removal_policy=RemovalPolicy.DESTROY, pending_window=Duration.days(7))
        # CloudWatch alarms publish to the encrypted topic: they need the key.
        key.grant(iam.ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt",
                  "kms:GenerateDataKey*")
        self.alarm_topic = sns.Topic(self, "Alarms", master_key=key, enforce_ssl=True,
                                     display_name=f"Memory-MCP {self.config.name} alarms")
        if self.config.alarms.email:
            self.alarm_topic.add_subscription(subscriptions.EmailSubscription(self.config.alarms.email))

    # -- functions ---------------------------------------------------------------------------

    def _log_group(self, name: str) -> logs.LogGroup:
        return logs.LogGroup(self, f"{name}Logs", retention=self._retention,
                             removal_policy=self._log_removal)

    def _function(self, name: str, directory: str, *, sg: ec2.ISecurityGroup, memory_mib: int,
                  timeout_seconds: int, environment: dict[str, str],
                  reserved_concurrency: int | None = None, snap_start: bool = False,
                  description: str) -> lambda_.Function:
        fn = lambda_.Function(
            self, name, runtime=RUNTIME, architecture=lambda_.Architecture.X86_64,
            handler="handler.handler",
            code=lambda_.Code.from_asset(str(FUNCTIONS_DIR / directory),
                                         exclude=["__pycache__", "*.pyc"]),
            layers=[self.layer], vpc=self.vpc, vpc_subnets=self.subnets, security_groups=[sg],
            memory_size=memory_mib, timeout=Duration.seconds(timeout_seconds),
            reserved_concurrent_executions=reserved_concurrency,
            tracing=lambda_.Tracing.ACTIVE, log_group=self._log_group(name),
            snap_start=lambda_.SnapStartConf.ON_PUBLISHED_VERSIONS if snap_start else None,
            description=description,
            environment={
                "POWERTOOLS_SERVICE_NAME": SERVICE,
                "POWERTOOLS_METRICS_NAMESPACE": METRICS_NAMESPACE,
                "POWERTOOLS_LOG_LEVEL": self.config.log_level,
                "MEMORY_MCP_LOG_LEVEL": self.config.log_level,
                "MEMORY_MCP_DATABASE_SECRET_ARN": self.db_secret.secret_arn,
                # The only writable place on Lambda, should anything need a data directory.
                "MEMORY_MCP_DATA_DIR": "/tmp/memory-mcp",  # noqa: S108
                **environment,
                **(self._sam_local_env() if self.sam_local else {}),
            },
        )
        self.db_secret.grant_read(fn)
        return fn

    @staticmethod
    def _sam_local_env() -> dict[str, str]:
        """Declared so that `sam local --env-vars` may override them (SAM only overrides
        variables the template declares): docker-compose's database, migrated on start, and an
        OpenAI-compatible endpoint as the offline alternative to Bedrock."""
        return {"DATABASE_URL": SAM_LOCAL_DATABASE_URL, "MEMORY_MCP_AUTO_MIGRATE": "true",
                "MEMORY_MCP_OPENAI_BASE_URL": "https://api.openai.com/v1"}

    def _embedding_env(self) -> dict[str, str]:
        embedding = self.config.embedding
        return {
            "MEMORY_MCP_EMBEDDING_PROVIDER": "bedrock",
            "MEMORY_MCP_EMBEDDING_MODEL": embedding.model,
            "MEMORY_MCP_EMBEDDING_DIMENSIONS": str(embedding.dimensions),
            # The deploy-time custom resource migrates; request paths never run DDL.
            "MEMORY_MCP_AUTO_MIGRATE": "false",
            # One request at a time per execution environment: a tiny pool suffices.
            "MEMORY_MCP_POOL_MIN_SIZE": "1",
            "MEMORY_MCP_POOL_MAX_SIZE": "2",
        }

    def _grant_bedrock(self, fn: lambda_.Function, *models: str | None) -> None:
        """bedrock:InvokeModel (which also covers Converse) on exactly these foundation models."""
        arns = [self.format_arn(service="bedrock", account="", resource="foundation-model",
                                resource_name=model) for model in models if model]
        fn.add_to_role_policy(iam.PolicyStatement(actions=["bedrock:InvokeModel"], resources=arns))

    def _functions(self) -> None:
        cfg = self.config
        uploads = self.uploads.arn_for_objects(f"{UPLOADS_PREFIX}*")
        # Every runtime builds its object storage: S3 when the bucket is set (the functions
        # get S3 permissions only where they use them).
        app_env = {**self._embedding_env(), "MEMORY_MCP_UPLOADS_BUCKET": self.uploads.bucket_name,
                   "MEMORY_MCP_DATABASE_HOST": self.app_host}

        self.mcp_fn = self._function(
            "McpHttp", "mcp_http", sg=self.app_sg, memory_mib=cfg.mcp.memory_mib,
            timeout_seconds=cfg.mcp.timeout_seconds, reserved_concurrency=cfg.mcp.reserved_concurrency,
            snap_start=cfg.mcp.snap_start,
            # Bedrock is called with up to 3 attempts: all of them must fit in one request,
            # so a slow provider ends as a clean tool error, not a Lambda timeout (a 5xx).
            environment={**app_env, "MEMORY_MCP_EMBEDDING_TIMEOUT_SECONDS":
                         str(max(5, cfg.mcp.timeout_seconds // 4))},
            description="Memory-MCP: POST /mcp, GET /healthz, POST /uploads",
        )
        # SnapStart serves published versions only: API Gateway then invokes an alias.
        self.mcp_target: lambda_.IFunction = self.mcp_fn
        if cfg.mcp.snap_start:
            self.mcp_target = lambda_.Alias(self, "McpHttpLive", alias_name="live",
                                            version=self.mcp_fn.current_version)
            Annotations.of(self.mcp_fn).acknowledge_warning(
                "@aws-cdk/aws-lambda:snapStartRequirePublish",
                "Every deploy publishes a version (current_version) behind the live alias.")
        self._grant_bedrock(self.mcp_fn, cfg.embedding.model)
        # Presigned upload URLs are signed with this role: s3:PutObject under uploads/ only.
        # deleteDocument removes the stored file and any Transcribe result of it: s3:DeleteObject
        # under uploads/ and transcripts/. No read: the API never serves stored bytes back.
        transcripts = self.uploads.arn_for_objects(f"{TRANSCRIPTS_PREFIX}*")
        self.mcp_fn.add_to_role_policy(iam.PolicyStatement(actions=["s3:PutObject"],
                                                           resources=[uploads]))
        self.mcp_fn.add_to_role_policy(iam.PolicyStatement(actions=["s3:DeleteObject"],
                                                           resources=[uploads, transcripts]))

        extract = cfg.extract
        self.extract_fn = self._function(
            "Extract", "extract", sg=self.app_sg, memory_mib=extract.memory_mib,
            timeout_seconds=extract.timeout_seconds, reserved_concurrency=extract.reserved_concurrency,
            environment={
                **app_env,
                # Give up on a job (and record why) before Lambda kills the function.
                "MEMORY_MCP_JOB_TIME_BUDGET_SECONDS": str(max(30, extract.timeout_seconds - 30)),
                "MEMORY_MCP_PROCESSING_LEASE_SECONDS": str(extract.timeout_seconds + 60),
                **({"MEMORY_MCP_LLM_PROVIDER": "bedrock", "MEMORY_MCP_LLM_MODEL": cfg.extraction.llm_model}
                   if cfg.extraction.llm_model else {}),
            },
            description="Memory-MCP: uploads queue → documents and memories",
        )
        self._grant_bedrock(self.extract_fn, cfg.embedding.model, cfg.extraction.llm_model)
        # It reads the uploads the queue names, and removes one whose document is gone (an upload
        # URL replayed after deleteDocument) so nothing is left that will never be processed.
        self.extract_fn.add_to_role_policy(iam.PolicyStatement(
            actions=["s3:GetObject", "s3:DeleteObject"], resources=[uploads]))
        if cfg.extraction.textract:
            # DetectDocumentText on bytes: Textract has no resource-level permissions.
            self.extract_fn.add_to_role_policy(iam.PolicyStatement(
                actions=["textract:DetectDocumentText"], resources=["*"]))
        if cfg.extraction.transcribe:
            self.extract_fn.add_to_role_policy(iam.PolicyStatement(
                actions=["transcribe:StartTranscriptionJob", "transcribe:GetTranscriptionJob"],
                resources=[self.format_arn(service="transcribe", resource="transcription-job",
                                           resource_name="*")]))
            # Transcribe reads the media and writes its result with the caller's permissions.
            self.extract_fn.add_to_role_policy(iam.PolicyStatement(
                actions=["s3:PutObject", "s3:GetObject"], resources=[transcripts]))
        self.extract_fn.add_event_source(event_sources.SqsEventSource(
            self.queue, batch_size=extract.batch_size, report_batch_item_failures=True,
            max_batching_window=(Duration.seconds(extract.max_batching_window_seconds)
                                 if extract.max_batching_window_seconds else None),
            max_concurrency=extract.max_concurrency,
        ))

        # Operator paths connect to the instance itself (no proxy session pinning for the
        # migrator's advisory lock and DDL).
        ops_env = {"MEMORY_MCP_DATABASE_HOST": self.instance_host}
        self.migrate_fn = self._function(
            # A migration that builds an index on a large table takes minutes; stay under the
            # custom-resource framework's own 900 s so it can still report the outcome.
            "Migrate", "migrate", sg=self.ops_sg, memory_mib=512, timeout_seconds=840,
            environment=ops_env, description="Memory-MCP: applies migrations/*.sql (custom resource)",
        )
        self.admin_fn = self._function(
            "Admin", "admin", sg=self.ops_sg, memory_mib=cfg.admin.memory_mib,
            timeout_seconds=cfg.admin.timeout_seconds,
            reserved_concurrency=cfg.admin.reserved_concurrency,
            environment={**app_env, **ops_env},
            description="Memory-MCP: the admin CLI's commands, for operators (aws lambda invoke)",
        )
        self._grant_bedrock(self.admin_fn, cfg.embedding.model)  # `reembed` embeds again

    def _migrations(self) -> None:
        provider = cr.Provider(self, "MigrationProvider", on_event_handler=self.migrate_fn,
                               log_group=self._log_group("MigrationProvider"))
        self.migrations = CustomResource(
            self, "Migrations", service_token=provider.service_token,
            resource_type="Custom::MemoryMcpMigrations",
            properties={
                "MigrationsHash": migrations_hash(MIGRATIONS_DIR),
                "Migrations": [m.name for m in load_migrations(MIGRATIONS_DIR)],
            },
        )
        # The function must reach Secrets Manager (endpoint) and the database (ingress rule).
        for dependency in (*self.endpoints, self.endpoint_sg, self.database, self.db_sg,
                           self.ops_sg):
            self.migrations.node.add_dependency(dependency)
        # New code starts serving only after the schema it expects exists.
        for fn in (self.mcp_fn, self.extract_fn, self.admin_fn):
            fn.node.add_dependency(self.migrations)
        self._provider = provider

    # -- API ---------------------------------------------------------------------------------

    def _api(self) -> None:
        api_cfg = self.config.api
        self.api = apigwv2.HttpApi(self, "Api", api_name=f"memory-mcp-{self.config.name}",
                                   create_default_stage=False,
                                   description="Memory-MCP: remote MCP over stateless streamable HTTP")
        integration = integrations.HttpLambdaIntegration("McpIntegration", self.mcp_target)
        # GET and DELETE reach the app too, which answers 405: MCP clients probe GET /mcp for an
        # SSE stream and treat 405 (not API Gateway's 404) as "this server has none".
        self.api.add_routes(path="/mcp", integration=integration,
                            methods=[apigwv2.HttpMethod.POST, apigwv2.HttpMethod.GET,
                                     apigwv2.HttpMethod.DELETE])
        self.api.add_routes(path="/healthz", integration=integration, methods=[apigwv2.HttpMethod.GET])
        self.api.add_routes(path="/uploads", integration=integration, methods=[apigwv2.HttpMethod.POST])
        access_logs = self._log_group("ApiAccess")
        self.stage = apigwv2.HttpStage(
            self, "DefaultStage", http_api=self.api, stage_name="$default", auto_deploy=True,
            throttle=apigwv2.ThrottleSettings(rate_limit=api_cfg.throttle_rate_limit,
                                              burst_limit=api_cfg.throttle_burst_limit),
            access_log_settings=_AccessLogs(access_logs),
        )
        acknowledge(self.api, "AwsSolutions-APIG4",
                    "Every route is authenticated by the application: a bearer API key checked "
                    "against its SHA-256 before MCP sees the request (401 otherwise); /healthz "
                    "is a deliberate unauthenticated liveness probe. An API Gateway authorizer "
                    "would repeat the same database lookup.")

    # -- alarms and outputs ------------------------------------------------------------------

    def _alarm(self, name: str, metric: cloudwatch.IMetric, *, threshold: float, periods: int,
               comparison: cloudwatch.ComparisonOperator, description: str) -> cloudwatch.Alarm:
        alarm = cloudwatch.Alarm(
            self, name, metric=metric, threshold=threshold, evaluation_periods=periods,
            datapoints_to_alarm=periods, comparison_operator=comparison,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
            alarm_description=description,
        )
        alarm.add_alarm_action(cw_actions.SnsAction(self.alarm_topic))
        return alarm

    def _alarms(self) -> None:
        alarms = self.config.alarms
        five_minutes = Duration.minutes(5)
        dimensions = {"ApiId": self.api.api_id}
        rate = cloudwatch.MathExpression(
            expression="IF(requests > 0, 100 * errors / requests, 0)",
            using_metrics={
                "errors": cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name="5xx",
                                            dimensions_map=dimensions, statistic="Sum",
                                            period=five_minutes),
                "requests": cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name="Count",
                                              dimensions_map=dimensions, statistic="Sum",
                                              period=five_minutes),
            },
            label="5xx rate (%)", period=five_minutes,
        )
        greater = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD
        self._alarm("Api5xxRate", rate, threshold=alarms.api_5xx_rate_percent, periods=2,
                    comparison=greater,
                    description="More than the configured share of API requests ended in 5xx.")
        self._alarm("ExtractDlqDepth",
                    self.dlq.metric_approximate_number_of_messages_visible(
                        period=five_minutes, statistic="Maximum"),
                    threshold=1, periods=1,
                    comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                    description="Uploads failed extraction repeatedly and reached the DLQ.")
        self._alarm("DatabaseCpu", self.database.metric_cpu_utilization(period=five_minutes),
                    threshold=alarms.db_cpu_percent, periods=3, comparison=greater,
                    description="Database CPU has been high for 15 minutes.")
        self._alarm("DatabaseFreeStorage",
                    self.database.metric_free_storage_space(period=five_minutes, statistic="Minimum"),
                    threshold=alarms.db_free_storage_gib * 2**30, periods=1,
                    comparison=cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
                    description="Database free storage is below the configured minimum.")

    def _outputs(self) -> None:
        url = self.stage.url
        CfnOutput(self, "McpUrl", value=f"{url}mcp", description="The MCP endpoint for clients")
        CfnOutput(self, "HealthUrl", value=f"{url}healthz", description="Liveness + database check")
        CfnOutput(self, "AdminFunctionName", value=self.admin_fn.function_name,
                  description="aws lambda invoke --function-name <this> (see README)")
        CfnOutput(self, "UploadsBucketName", value=self.uploads.bucket_name)
        CfnOutput(self, "ExtractDlqUrl", value=self.dlq.queue_url)
        CfnOutput(self, "ExtractDlqArn", value=self.dlq.queue_arn,
                  description="aws sqs start-message-move-task --source-arn <this> (redrive)")
        CfnOutput(self, "DatabaseEndpoint", value=self.instance_host)
        CfnOutput(self, "DatabaseSecretArn", value=self.db_secret.secret_arn)
        if self.proxy is not None:
            CfnOutput(self, "DatabaseProxyEndpoint", value=self.proxy.endpoint)
        CfnOutput(self, "AlarmTopicArn", value=self.alarm_topic.topic_arn)

    def _logical_id(self, construct: IConstruct) -> str:
        child = construct.node.default_child
        assert isinstance(child, CfnElement)
        return str(self.resolve(self.get_logical_id(child)))

    def _acknowledge_stack_wide(self) -> None:
        """Findings about the functions' roles and runtimes, each with its reason."""
        managed = "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
        basic = f"AwsSolutions-IAM4[{managed}AWSLambdaBasicExecutionRole]"
        basic_reason = ("AWS's managed AWSLambdaBasicExecutionRole only lets the function write "
                        "its own CloudWatch Logs, which it needs.")
        notifications = self.node.try_find_child(
            "BucketNotificationsHandler050a0587b7544547bf325f094a3db834")
        assert notifications is not None, "aws-cdk-lib renamed the S3 notifications handler"
        for framework in (self._provider, notifications):
            acknowledge(framework, basic, f"CDK's own custom-resource function: {basic_reason}")
        # The database's exported postgresql log group gets its retention from CDK's singleton
        # LogRetention function (the log group is created by RDS, not by the template).
        retention = self.node.try_find_child("LogRetentionaae0aa3c5b4d4f87b02d85b201efdd8a")
        assert retention is not None, "aws-cdk-lib renamed the LogRetention function"
        acknowledge(retention, basic, f"CDK's own custom-resource function: {basic_reason}")
        acknowledge(retention, "AwsSolutions-IAM5[Resource::*]",
                    "CDK's LogRetention function sets the retention of log groups it learns at "
                    "deploy time (logs:PutRetentionPolicy / DeleteRetentionPolicy only).")
        for fn in (self.mcp_fn, self.extract_fn, self.migrate_fn, self.admin_fn):
            acknowledge(fn, basic, basic_reason)
            acknowledge(fn, f"AwsSolutions-IAM4[{managed}AWSLambdaVPCAccessExecutionRole]",
                        "AWS's managed AWSLambdaVPCAccessExecutionRole is what a function in a "
                        "VPC needs to manage its network interfaces; those EC2 actions cannot be "
                        "scoped to resources.")
        for fn in (self.mcp_fn, self.extract_fn, self.migrate_fn, self.admin_fn):
            acknowledge(fn, "AwsSolutions-L1",
                        "Pinned to python3.12: the layer is built for CPython 3.12 "
                        "(cp312 wheels, 3.12 byte code); move both together.")
            textract = fn is self.extract_fn and self.config.extraction.textract
            acknowledge(fn, "AwsSolutions-IAM5[Resource::*]",
                        "Active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords "
                        "support no resource-level permissions"
                        + ("; nor does textract:DetectDocumentText (image OCR on bytes)."
                           if textract else "."))
        uploads = f"AwsSolutions-IAM5[Resource::<{self._logical_id(self.uploads)}.Arn>/uploads/*]"
        transcripts = (f"AwsSolutions-IAM5[Resource::<{self._logical_id(self.uploads)}.Arn>"
                       "/transcripts/*]")
        acknowledge(self.mcp_fn, uploads,
                    "s3:PutObject (presigned upload URLs) and s3:DeleteObject (deleteDocument), "
                    "under uploads/ only: keys uploads/<space>/<document>/<file> are created "
                    "per upload.")
        acknowledge(self.mcp_fn, transcripts,
                    "s3:DeleteObject only, under transcripts/ only: deleteDocument removes the "
                    "Transcribe result of the document, whose key is named per job.")
        acknowledge(self.extract_fn, uploads,
                    "s3:GetObject and s3:DeleteObject under uploads/ only: the extractor reads "
                    "the uploaded objects the queue names (keys created per upload) and removes "
                    "one whose document was deleted.")
        if self.config.extraction.transcribe:
            acknowledge(self.extract_fn, "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:transcribe:"
                        "<AWS::Region>:<AWS::AccountId>:transcription-job/*]",
                        "Transcription jobs are named per upload at run time; only Start/Get on "
                        "jobs of this account and region.")
            acknowledge(self.extract_fn, transcripts,
                        "Amazon Transcribe writes its result under transcripts/ with the caller's "
                        "permissions and the extractor reads it back; keys are per job.")
        migrate_versions = f"AwsSolutions-IAM5[Resource::<{self._logical_id(self.migrate_fn)}.Arn>:*]"
        acknowledge(self._provider, migrate_versions,
                    "The CDK custom-resource framework may invoke any version of the migrate "
                    "function (<arn>:*) and nothing else.")
