"""Our four Lambda functions, each with only the permissions it uses.

``mcp_http`` (behind the HTTP API) and ``extract`` (on the uploads queue) serve requests: they
log in as the application login (``memory_mcp_server``, its own secret) where
``Database.app_host`` says (the proxy in prod). ``migrate`` (the custom resource) and ``admin``
(operators) log in as the owner and connect to the instance itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Annotations, Duration, RemovalPolicy, Size
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as event_sources

from infra.config import SAM_LOCAL_DATABASE_URL
from infra.stacks.common import (
    DOCTOR_PREFIX,
    FUNCTIONS_DIR,
    IMPORTS_PREFIX,
    METRICS_NAMESPACE,
    RUNTIME,
    SERVICE,
    TRANSCRIPTS_PREFIX,
    UPLOADS_PREFIX,
    Base,
)
from infra.stacks.database import Database
from infra.stacks.network import Network
from infra.stacks.uploads import Uploads

#: /tmp of the admin function: ``export`` writes the whole file there before uploading it and
#: ``import`` downloads it there first (Lambda allows 512-10240 MiB).
ADMIN_EPHEMERAL_STORAGE_MIB = 4096


@dataclass(frozen=True)
class Functions:
    mcp: lambda_.Function
    #: What API Gateway invokes: the ``live`` alias with SnapStart, else the function.
    mcp_target: lambda_.IFunction
    extract: lambda_.Function
    migrate: lambda_.Function
    admin: lambda_.Function

    def all(self) -> tuple[lambda_.Function, ...]:
        return (self.mcp, self.extract, self.migrate, self.admin)


@dataclass(frozen=True)
class _Builder:
    base: Base
    network: Network
    database: Database
    layer: lambda_.ILayerVersion

    def function(self, name: str, directory: str, *, sg: ec2.ISecurityGroup, memory_mib: int,
                 timeout_seconds: int, environment: dict[str, str], app_login: bool,
                 reserved_concurrency: int | None = None, snap_start: bool = False,
                 ephemeral_storage_mib: int | None = None,
                 description: str) -> lambda_.Function:
        """``app_login``: the request paths log in as the application login (its secret only);
        the operator paths as the owner (the master secret only)."""
        config = self.base.config
        if app_login:
            db_secret, secret_env = self.database.app_secret, "MEMORY_MCP_DATABASE_APP_SECRET_ARN"
        else:
            db_secret, secret_env = self.database.owner_secret, "MEMORY_MCP_DATABASE_SECRET_ARN"
        fn = lambda_.Function(
            self.base.stack, name, runtime=RUNTIME, architecture=lambda_.Architecture.X86_64,
            handler="handler.handler",
            code=lambda_.Code.from_asset(str(FUNCTIONS_DIR / directory),
                                         exclude=["__pycache__", "*.pyc"]),
            layers=[self.layer], vpc=self.network.vpc, vpc_subnets=self.network.subnets,
            security_groups=[sg],
            memory_size=memory_mib, timeout=Duration.seconds(timeout_seconds),
            ephemeral_storage_size=(Size.mebibytes(ephemeral_storage_mib)
                                    if ephemeral_storage_mib else None),
            reserved_concurrent_executions=reserved_concurrency,
            tracing=lambda_.Tracing.ACTIVE, log_group=self.base.log_group(name),
            snap_start=lambda_.SnapStartConf.ON_PUBLISHED_VERSIONS if snap_start else None,
            # Every version keeps a cached snapshot, billed while the version exists: a deploy
            # deletes the version it replaces, so only the live one is cached.
            current_version_options=(lambda_.VersionOptions(removal_policy=RemovalPolicy.DESTROY)
                                     if snap_start else None),
            description=description,
            environment={
                "POWERTOOLS_SERVICE_NAME": SERVICE,
                "POWERTOOLS_METRICS_NAMESPACE": METRICS_NAMESPACE,
                "POWERTOOLS_LOG_LEVEL": config.log_level,
                "MEMORY_MCP_LOG_LEVEL": config.log_level,
                secret_env: db_secret.secret_arn,
                # The only writable place on Lambda, should anything need a data directory.
                "MEMORY_MCP_DATA_DIR": "/tmp/memory-mcp",  # noqa: S108
                **environment,
                **(_sam_local_env() if self.base.sam_local else {}),
            },
        )
        db_secret.grant_read(fn)
        return fn

    def grant_bedrock(self, fn: lambda_.Function, *models: str | None) -> None:
        """bedrock:InvokeModel (which also covers Converse) on exactly these foundation models."""
        arns = [self.base.stack.format_arn(service="bedrock", account="",
                                           resource="foundation-model", resource_name=model)
                for model in models if model]
        fn.add_to_role_policy(iam.PolicyStatement(actions=["bedrock:InvokeModel"], resources=arns))

    def embedding_env(self) -> dict[str, str]:
        embedding = self.base.config.embedding
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


def _sam_local_env() -> dict[str, str]:
    """Declared so that `sam local --env-vars` may override them (SAM only overrides
    variables the template declares): docker-compose's database, migrated on start, and an
    OpenAI-compatible endpoint as the offline alternative to Bedrock."""
    return {"DATABASE_URL": SAM_LOCAL_DATABASE_URL, "MEMORY_MCP_AUTO_MIGRATE": "true",
            "MEMORY_MCP_OPENAI_BASE_URL": "https://api.openai.com/v1"}


def build_functions(base: Base, network: Network, database: Database, uploads: Uploads,
                    layer: lambda_.ILayerVersion) -> Functions:
    b = _Builder(base, network, database, layer)
    stack, cfg = base.stack, base.config
    uploaded = uploads.bucket.arn_for_objects(f"{UPLOADS_PREFIX}*")
    # Every runtime builds its object storage: S3 when the bucket is set (the functions
    # get S3 permissions only where they use them).
    app_env = {**b.embedding_env(), "MEMORY_MCP_UPLOADS_BUCKET": uploads.bucket.bucket_name,
               "MEMORY_MCP_DATABASE_HOST": database.app_host}

    snap_start = cfg.mcp.snap_start and not base.sam_local
    mcp_fn = b.function(
        "McpHttp", "mcp_http", sg=network.app_sg, app_login=True, memory_mib=cfg.mcp.memory_mib,
        timeout_seconds=cfg.mcp.timeout_seconds, reserved_concurrency=cfg.mcp.reserved_concurrency,
        # Not in the `sam local` template: SAM runs the unpublished function (no version, no alias).
        snap_start=snap_start,
        # Bedrock is called with up to 3 attempts: all of them must fit in one request,
        # so a slow provider ends as a clean tool error, not a Lambda timeout (a 5xx).
        environment={**app_env, "MEMORY_MCP_EMBEDDING_TIMEOUT_SECONDS":
                     str(max(5, cfg.mcp.timeout_seconds // 4))},
        description="Memory-MCP: POST /mcp, GET /healthz, POST /uploads",
    )
    # SnapStart serves published versions only: API Gateway then invokes an alias.
    mcp_target: lambda_.IFunction = mcp_fn
    if snap_start:
        mcp_target = lambda_.Alias(stack, "McpHttpLive", alias_name="live",
                                   version=mcp_fn.current_version)
        Annotations.of(mcp_fn).acknowledge_warning(
            "@aws-cdk/aws-lambda:snapStartRequirePublish",
            "Every deploy publishes a version (current_version) behind the live alias.")
    b.grant_bedrock(mcp_fn, cfg.embedding.model)
    # Presigned upload URLs are signed with this role: s3:PutObject under uploads/ only.
    # deleteDocument removes the stored file (an upload, or an original `import` stored) and
    # any Transcribe result of it: s3:DeleteObject under uploads/, imports/ and transcripts/.
    # No read: the API never serves stored bytes back.
    transcripts = uploads.bucket.arn_for_objects(f"{TRANSCRIPTS_PREFIX}*")
    imported = uploads.bucket.arn_for_objects(f"{IMPORTS_PREFIX}*")
    mcp_fn.add_to_role_policy(iam.PolicyStatement(actions=["s3:PutObject"], resources=[uploaded]))
    # listDocuments tells an upload whose file never arrived from one the extractor has not
    # reached yet by listing that upload's key: s3:ListBucket, for keys under uploads/ only
    # (no read of any object).
    mcp_fn.add_to_role_policy(iam.PolicyStatement(
        actions=["s3:ListBucket"], resources=[uploads.bucket.bucket_arn],
        conditions={"StringLike": {"s3:prefix": [f"{UPLOADS_PREFIX}*"]}}))
    mcp_fn.add_to_role_policy(iam.PolicyStatement(actions=["s3:DeleteObject"],
                                                  resources=[uploaded, imported, transcripts]))

    extract = cfg.extract
    extract_fn = b.function(
        "Extract", "extract", sg=network.app_sg, app_login=True, memory_mib=extract.memory_mib,
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
    b.grant_bedrock(extract_fn, cfg.embedding.model, cfg.extraction.llm_model)
    # It reads the uploads the queue names, and removes one whose document is gone (an upload
    # URL replayed after deleteDocument) so nothing is left that will never be processed.
    extract_fn.add_to_role_policy(iam.PolicyStatement(
        actions=["s3:GetObject", "s3:DeleteObject"], resources=[uploaded]))
    if cfg.extraction.textract:
        # DetectDocumentText on bytes: Textract has no resource-level permissions.
        extract_fn.add_to_role_policy(iam.PolicyStatement(
            actions=["textract:DetectDocumentText"], resources=["*"]))
    if cfg.extraction.transcribe:
        extract_fn.add_to_role_policy(iam.PolicyStatement(
            actions=["transcribe:StartTranscriptionJob", "transcribe:GetTranscriptionJob"],
            resources=[stack.format_arn(service="transcribe", resource="transcription-job",
                                        resource_name="*")]))
        # Transcribe reads the media and writes its result with the caller's permissions.
        extract_fn.add_to_role_policy(iam.PolicyStatement(
            actions=["s3:PutObject", "s3:GetObject"], resources=[transcripts]))
    extract_fn.add_event_source(event_sources.SqsEventSource(
        uploads.queue, batch_size=extract.batch_size, report_batch_item_failures=True,
        max_batching_window=(Duration.seconds(extract.max_batching_window_seconds)
                             if extract.max_batching_window_seconds else None),
        max_concurrency=extract.max_concurrency,
    ))

    # Operator paths connect to the instance itself (no proxy session pinning for the
    # migrator's advisory lock and DDL).
    ops_env = {"MEMORY_MCP_DATABASE_HOST": database.instance_host}
    migrate_fn = b.function(
        # A migration that builds an index on a large table takes minutes; stay under the
        # custom-resource framework's own 900 s so it can still report the outcome.
        "Migrate", "migrate", sg=network.ops_sg, app_login=False, memory_mib=512, timeout_seconds=840,
        environment=ops_env, description="Memory-MCP: applies migrations/*.sql (custom resource)",
    )
    admin_fn = b.function(
        "Admin", "admin", sg=network.ops_sg, app_login=False, memory_mib=cfg.admin.memory_mib,
        timeout_seconds=cfg.admin.timeout_seconds,
        reserved_concurrency=cfg.admin.reserved_concurrency,
        ephemeral_storage_mib=ADMIN_EPHEMERAL_STORAGE_MIB,
        environment={**app_env, **ops_env},
        description="Memory-MCP: the admin CLI's commands, for operators (aws lambda invoke)",
    )
    b.grant_bedrock(admin_fn, cfg.embedding.model)  # `reembed` embeds again
    grant_admin_s3(admin_fn, uploads)
    return Functions(mcp_fn, mcp_target, extract_fn, migrate_fn, admin_fn)


def grant_admin_s3(fn: lambda_.Function, uploads: Uploads) -> None:
    """Object-level S3 for the admin commands, each on its own keys (no bucket-level action,
    no whole-uploads-bucket resource)."""
    bucket = uploads.bucket

    def allow(actions: list[str], *prefixes: str) -> None:
        fn.add_to_role_policy(iam.PolicyStatement(
            actions=actions, resources=[bucket.arn_for_objects(f"{p}*") for p in prefixes]))

    # export --output s3://<exports>/<key> uploads the file; import s3://<exports>/<key>
    # downloads it. The exports bucket holds nothing else.
    fn.add_to_role_policy(iam.PolicyStatement(actions=["s3:GetObject", "s3:PutObject"],
                                              resources=[uploads.exports.arn_for_objects("*")]))
    allow(["s3:PutObject"], IMPORTS_PREFIX)  # import stores the originals an export carries
    allow(["s3:PutObject", "s3:DeleteObject"], DOCTOR_PREFIX)  # doctor's storage probe
    # export --with-files reads back the originals of the space's documents: uploaded ones
    # and imported ones.
    allow(["s3:GetObject"], UPLOADS_PREFIX, IMPORTS_PREFIX)
    # spaces delete removes the space's stored files: originals and Transcribe results.
    allow(["s3:DeleteObject"], UPLOADS_PREFIX, IMPORTS_PREFIX, TRANSCRIPTS_PREFIX)
