"""The CDK app, synthesized for both environments without docker, network or AWS credentials.

Each environment is synthesized once (module cache) with ``memory-mcp:bundle=false`` (the layer
asset points at the sources) and cdk-nag's AwsSolutions pack: synthesis itself fails on any
finding that is not acknowledged. The assertions read the CloudFormation template.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
pytest.importorskip("aws_cdk")
pytest.importorskip("cdk_nag")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from infra import layer_build  # noqa: E402
from infra.config import ENVIRONMENTS_KEY, EnvironmentConfig  # noqa: E402
from memory_mcp.aws.migrations_resource import migrations_hash  # noqa: E402

ENVS = ("dev", "prod")
CDK_JSON = json.loads((ROOT / "cdk.json").read_text())
OUR_FUNCTIONS = {"McpHttp": "mcp_http", "Extract": "extract", "Migrate": "migrate", "Admin": "admin"}
XRAY = {"xray:PutTraceSegments", "xray:PutTelemetryRecords"}
SECRET_READ = {"secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"}


@dataclass
class Synth:
    env: str
    config: EnvironmentConfig
    template: dict[str, Any]
    report: dict[str, Any]

    @property
    def resources(self) -> dict[str, Any]:
        resources: dict[str, Any] = self.template["Resources"]
        return resources

    def of_type(self, kind: str) -> dict[str, dict[str, Any]]:
        return {k: v for k, v in self.resources.items() if v["Type"] == kind}

    def one(self, kind: str) -> tuple[str, dict[str, Any]]:
        found = self.of_type(kind)
        assert len(found) == 1, f"expected one {kind}, found {sorted(found)}"
        return next(iter(found.items()))

    def function(self, name: str) -> tuple[str, dict[str, Any]]:
        """One of our functions by construct id (logical ids start with it)."""
        matches = [(k, v) for k, v in self.of_type("AWS::Lambda::Function").items()
                   if re.fullmatch(rf"{name}[0-9A-F]{{8}}", k)]
        assert len(matches) == 1, name
        return matches[0]

    def env_of(self, name: str) -> dict[str, Any]:
        variables: dict[str, Any] = self.function(name)[1]["Properties"]["Environment"]["Variables"]
        return variables

    def statements(self, name: str) -> list[dict[str, Any]]:
        """Every IAM statement attached to the function's role."""
        role = self.function(name)[1]["Properties"]["Role"]["Fn::GetAtt"][0]
        out: list[dict[str, Any]] = []
        for policy in self.of_type("AWS::IAM::Policy").values():
            if {"Ref": role} in policy["Properties"]["Roles"]:
                out += policy["Properties"]["PolicyDocument"]["Statement"]
        return out

    def actions(self, name: str) -> set[str]:
        return {a for s in self.statements(name) for a in _list(s["Action"])}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _ref(logical_id: str) -> dict[str, str]:
    return {"Ref": logical_id}


@cache
def synth(env: str, sam_local: bool = False) -> Synth:
    """One synthesis per environment for the whole module (each takes ~10-20 s of jsii)."""
    from infra.app import build_app

    outdir = Path(tempfile.mkdtemp(prefix=f"memory-mcp-cdk-{env}-"))
    context = {**CDK_JSON["context"], "env": env, "memory-mcp:bundle": "false",
               "memory-mcp:samLocal": str(sam_local).lower()}
    app, stack = build_app(context, outdir=str(outdir))
    try:
        assembly = app.synth()  # raises ValidationFailed on any unacknowledged cdk-nag finding
        template = assembly.get_stack_by_name(stack.stack_name).template
        report_file = outdir / "validation-report.json"
        report = json.loads(report_file.read_text()) if report_file.exists() else {}
    finally:
        shutil.rmtree(outdir, ignore_errors=True)
    config = EnvironmentConfig.from_context(env, CDK_JSON["context"][ENVIRONMENTS_KEY])
    return Synth(env, config, template, report)


@pytest.fixture(params=ENVS, scope="module")
def s(request: pytest.FixtureRequest) -> Iterator[Synth]:
    yield synth(request.param)


# -- cdk.json ------------------------------------------------------------------------------------


def test_cdk_json_runs_the_app_and_defines_both_environments() -> None:
    assert CDK_JSON["app"] == ".venv/bin/python infra/app.py"
    context = CDK_JSON["context"]
    flags = [k for k in context if k.startswith("@aws-cdk")]
    assert len(flags) > 50, "cdk init's feature flags"
    assert context["@aws-cdk/aws-iam:minimizePolicies"] is True
    assert set(context[ENVIRONMENTS_KEY]) == set(ENVS)
    with pytest.raises(ValueError, match=r"Unknown environment 'staging'.*dev, prod"):
        EnvironmentConfig.from_context("staging", context[ENVIRONMENTS_KEY])
    broken = json.loads(json.dumps(context[ENVIRONMENTS_KEY]))
    broken["dev"]["interfaceEndpoints"].remove("bedrock-runtime")
    with pytest.raises(ValueError, match="lacks bedrock-runtime"):
        EnvironmentConfig.from_context("dev", broken)
    broken["dev"]["interfaceEndpoints"].append("bedrock-runtime")
    broken["dev"]["database"]["multiAz"] = "no"
    with pytest.raises(ValueError, match=r"database\.multiAz must be bool"):
        EnvironmentConfig.from_context("dev", broken)


# -- cdk-nag and the template's shape ------------------------------------------------------------


def test_cdk_nag_passes_and_every_acknowledgement_is_justified(s: Synth) -> None:
    violations = [v for report in s.report.get("pluginReports", []) for v in report["violations"]]
    assert violations == []
    acknowledged: dict[str, str] = {}
    for resource in s.resources.values():
        for rule in resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", []):
            if rule["id"].startswith("AwsSolutions-"):
                acknowledged[rule["id"]] = rule["reason"]
    for rule, reason in acknowledged.items():
        assert len(reason) >= 60, f"{rule}: give a real reason, not {reason!r}"
    rules = {re.sub(r"\[.*", "", rule) for rule in acknowledged}
    expected = {"AwsSolutions-IAM4", "AwsSolutions-IAM5", "AwsSolutions-L1", "AwsSolutions-SMG4",
                "AwsSolutions-RDS6", "AwsSolutions-RDS11", "AwsSolutions-S1", "AwsSolutions-SQS3",
                "AwsSolutions-APIG4"}
    if s.env == "dev":
        expected |= {"AwsSolutions-RDS3", "AwsSolutions-RDS10"}  # single-AZ, no deletion protection
    assert rules == expected
    wildcards = sorted(re.sub(r"<[A-Za-z0-9]+\.Arn>", "<X.Arn>", rule) for rule in acknowledged
                       if rule.startswith("AwsSolutions-IAM5"))
    assert wildcards == [
        "AwsSolutions-IAM5[Resource::*]",
        "AwsSolutions-IAM5[Resource::<X.Arn>/*]",  # the exports bucket (admin), nothing else
        "AwsSolutions-IAM5[Resource::<X.Arn>/doctor/*]",
        "AwsSolutions-IAM5[Resource::<X.Arn>/imports/*]",
        "AwsSolutions-IAM5[Resource::<X.Arn>/transcripts/*]",
        "AwsSolutions-IAM5[Resource::<X.Arn>/uploads/*]",
        "AwsSolutions-IAM5[Resource::<X.Arn>:*]",
        "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:transcribe:<AWS::Region>:"
        "<AWS::AccountId>:transcription-job/*]",
    ]


def test_encryption_at_rest_and_in_transit(s: Synth) -> None:
    _, db = s.one("AWS::RDS::DBInstance")
    assert db["Properties"]["StorageEncrypted"] is True
    _, params = s.one("AWS::RDS::DBParameterGroup")
    assert params["Properties"]["Parameters"] == {"rds.force_ssl": "1"}
    buckets = s.of_type("AWS::S3::Bucket")
    assert len(buckets) == 3  # access logs, uploads, exports
    for bucket in buckets.values():
        rules = bucket["Properties"]["BucketEncryption"]["ServerSideEncryptionConfiguration"]
        assert rules[0]["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    policies = [*s.of_type("AWS::S3::BucketPolicy").values(), *s.of_type("AWS::SQS::QueuePolicy").values()]
    for policy in policies:
        denies = [st for st in policy["Properties"]["PolicyDocument"]["Statement"] if st["Effect"] == "Deny"]
        assert any(st["Condition"].get("Bool", {}).get("aws:SecureTransport") == "false"
                   for st in denies), "TLS-only access"
    for queue in s.of_type("AWS::SQS::Queue").values():
        assert queue["Properties"]["SqsManagedSseEnabled"] is True
    _, topic = s.one("AWS::SNS::Topic")
    assert "KmsMasterKeyId" in topic["Properties"]
    _, key = s.one("AWS::KMS::Key")
    assert key["Properties"]["EnableKeyRotation"] is True
    templates = sorted((json.loads(secret["Properties"]["GenerateSecretString"]["SecretStringTemplate"])
                        for secret in s.of_type("AWS::SecretsManager::Secret").values()),
                       key=json.dumps)
    assert templates == [{"username": "memory_mcp", "dbname": "memory_mcp"},  # the owner
                         {"username": "memory_mcp_server", "dbname": "memory_mcp"}]  # the app
    for proxy in s.of_type("AWS::RDS::DBProxy").values():
        assert proxy["Properties"]["RequireTLS"] is True


def test_network_is_private_and_isolated(s: Synth) -> None:
    for kind in ("AWS::EC2::NatGateway", "AWS::EC2::InternetGateway", "AWS::EC2::EIP", "AWS::EC2::Route"):
        assert s.of_type(kind) == {}, kind
    subnets = s.of_type("AWS::EC2::Subnet")
    assert len(subnets) == 2
    assert all(sub["Properties"]["MapPublicIpOnLaunch"] is False for sub in subnets.values())
    subnet_refs = sorted((_ref(k) for k in subnets), key=str)
    for name in OUR_FUNCTIONS:
        vpc = s.function(name)[1]["Properties"]["VpcConfig"]
        assert sorted(vpc["SubnetIds"], key=str) == subnet_refs, name
    _, group = s.one("AWS::RDS::DBSubnetGroup")
    assert sorted(group["Properties"]["SubnetIds"], key=str) == subnet_refs
    _, db = s.one("AWS::RDS::DBInstance")
    assert db["Properties"]["PubliclyAccessible"] is False
    endpoints = {json.dumps(e["Properties"]["ServiceName"]).rsplit(".", 1)[-1].strip('"]}'): e["Properties"]
                 for e in s.of_type("AWS::EC2::VPCEndpoint").values()}
    assert endpoints["s3"]["VpcEndpointType"] == "Gateway"
    for service in ("secretsmanager", "sqs", "bedrock-runtime", "textract", "transcribe"):
        assert endpoints[service]["VpcEndpointType"] == "Interface"
        assert endpoints[service]["PrivateDnsEnabled"] is True
    assert len(s.of_type("AWS::EC2::FlowLog")) == 1
    for sg in s.of_type("AWS::EC2::SecurityGroup").values():
        for rule in sg["Properties"].get("SecurityGroupIngress", []):
            assert rule.get("CidrIp") != "0.0.0.0/0", "no ingress from anywhere"


def test_database_per_environment(s: Synth) -> None:
    prod = s.env == "prod"
    db_id, db = s.one("AWS::RDS::DBInstance")
    props = db["Properties"]
    assert (props["Engine"], props["EngineVersion"]) == ("postgres", "17")
    assert props["DBInstanceClass"] == f"db.{s.config.database.instance_type}"
    assert props["BackupRetentionPeriod"] == s.config.database.backup_retention_days >= 1
    assert props["MultiAZ"] is prod, "Multi-AZ only in prod"
    assert props["DeletionProtection"] is prod
    assert db["DeletionPolicy"] == ("Snapshot" if prod else "Delete")
    _, retention = s.one("Custom::LogRetention")  # the exported postgresql log is not kept forever
    assert retention["Properties"]["LogGroupName"]["Fn::Join"][1][-1] == "/postgresql"
    assert retention["Properties"]["RetentionInDays"] == s.config.log_retention_days
    proxies = s.of_type("AWS::RDS::DBProxy")
    assert len(proxies) == (1 if prod else 0), "RDS Proxy only in prod"
    instance = {"Fn::GetAtt": [db_id, "Endpoint.Address"]}
    app_host = {"Fn::GetAtt": [next(iter(proxies)), "Endpoint"]} if prod else instance
    assert s.env_of("McpHttp")["MEMORY_MCP_DATABASE_HOST"] == app_host
    assert s.env_of("Extract")["MEMORY_MCP_DATABASE_HOST"] == app_host
    for name in ("Migrate", "Admin"):  # the migrator's advisory lock and DDL: never via the proxy
        assert s.env_of(name)["MEMORY_MCP_DATABASE_HOST"] == instance


def test_concurrency_caps(s: Synth) -> None:
    reserved = s.function("McpHttp")[1]["Properties"].get("ReservedConcurrentExecutions")
    assert reserved == (5 if s.env == "dev" else None), "dev caps the MCP function"
    _, mapping = s.one("AWS::Lambda::EventSourceMapping")
    assert mapping["Properties"]["ScalingConfig"]["MaximumConcurrency"] == s.config.extract.max_concurrency


def test_uploads_queue_dlq_and_alarm(s: Synth) -> None:
    uploads = next(k for k in s.of_type("AWS::S3::Bucket") if k.startswith("Uploads"))
    bucket = s.resources[uploads]["Properties"]
    assert bucket["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True, "BlockPublicPolicy": True, "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True}
    cors = bucket["CorsConfiguration"]["CorsRules"]
    assert [rule["AllowedMethods"] for rule in cors] == [["PUT"]]
    # The upload widget PUTs from a sandboxed frame (opaque origin): any origin, any header;
    # the presigned signature is the authorisation.
    assert cors[0]["AllowedOrigins"] == ["*"] and cors[0]["AllowedHeaders"] == ["*"]
    lifecycle = {rule["Id"]: rule for rule in bucket["LifecycleConfiguration"]["Rules"]}
    abort = lifecycle["abort-incomplete-uploads"]["AbortIncompleteMultipartUpload"]
    assert abort == {"DaysAfterInitiation": 1}
    assert "Transitions" in lifecycle["infrequent-access"]
    assert "LoggingConfiguration" in bucket

    dlq = next(k for k in s.of_type("AWS::SQS::Queue") if k.startswith("ExtractDlq"))
    queue_id, queue = next((k, v) for k, v in s.of_type("AWS::SQS::Queue").items()
                           if k.startswith("ExtractQueue"))
    assert queue["Properties"]["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": [dlq, "Arn"]},
        "maxReceiveCount": s.config.extract.max_receive_count}
    timeout = s.function("Extract")[1]["Properties"]["Timeout"]
    assert queue["Properties"]["VisibilityTimeout"] >= 6 * timeout

    policy = next(v for v in s.of_type("AWS::SQS::QueuePolicy").values()
                  if v["Properties"]["Queues"] == [_ref(queue_id)])
    s3_statements = [st for st in policy["Properties"]["PolicyDocument"]["Statement"]
                     if st["Principal"] == {"Service": "s3.amazonaws.com"}]
    assert {st["Effect"] for st in s3_statements} == {"Allow", "Deny"}
    assert {"Effect": "Deny", "Action": "sqs:SendMessage",
            "Condition": {"StringNotEquals": {"aws:SourceAccount": _ref("AWS::AccountId")}}}.items() \
        <= next(st for st in s3_statements if st["Effect"] == "Deny").items()

    _, notifications = s.one("Custom::S3BucketNotifications")
    assert notifications["Properties"]["BucketName"] == _ref(uploads)
    assert notifications["Properties"]["NotificationConfiguration"]["QueueConfigurations"] == [{
        "Events": ["s3:ObjectCreated:*"], "QueueArn": {"Fn::GetAtt": [queue_id, "Arn"]},
        "Filter": {"Key": {"FilterRules": [{"Name": "prefix", "Value": "uploads/"}]}}}]

    _, mapping = s.one("AWS::Lambda::EventSourceMapping")
    assert mapping["Properties"]["EventSourceArn"] == {"Fn::GetAtt": [queue_id, "Arn"]}
    assert mapping["Properties"]["FunctionName"] == _ref(s.function("Extract")[0])
    assert mapping["Properties"]["FunctionResponseTypes"] == ["ReportBatchItemFailures"]

    dlq_alarms = [a["Properties"] for a in s.of_type("AWS::CloudWatch::Alarm").values()
                  if a["Properties"].get("MetricName") == "ApproximateNumberOfMessagesVisible"]
    assert len(dlq_alarms) == 1
    assert dlq_alarms[0]["Dimensions"] == [{"Name": "QueueName",
                                            "Value": {"Fn::GetAtt": [dlq, "QueueName"]}}]
    assert dlq_alarms[0]["Threshold"] == 1


def test_migration_custom_resource(s: Synth) -> None:
    cr_id, cr = s.one("Custom::MemoryMcpMigrations")
    framework = [v["Properties"]["Timeout"] for k, v in s.of_type("AWS::Lambda::Function").items()
                 if k.startswith("MigrationProviderframeworkonEvent")]
    assert framework and s.function("Migrate")[1]["Properties"]["Timeout"] < framework[0]
    names = sorted(p.stem for p in (ROOT / "migrations").glob("*.sql"))
    assert cr["Properties"]["MigrationsHash"] == migrations_hash(ROOT / "migrations")
    assert cr["Properties"]["Migrations"] == names
    framework = cr["Properties"]["ServiceToken"]["Fn::GetAtt"][0]
    target = s.resources[framework]["Properties"]["Environment"]["Variables"]["USER_ON_EVENT_FUNCTION_ARN"]
    migrate_id, migrate = s.function("Migrate")
    assert target == {"Fn::GetAtt": [migrate_id, "Arn"]}
    assert migrate["Properties"]["Handler"] == "handler.handler"
    db_id, _ = s.one("AWS::RDS::DBInstance")
    assert db_id in cr["DependsOn"]
    for name in ("McpHttp", "Extract", "Admin"):  # new code serves only after its schema exists
        assert cr_id in s.function(name)[1]["DependsOn"], name


def test_migrations_hash_follows_the_files(tmp_path: Path) -> None:
    copy = tmp_path / "migrations"
    shutil.copytree(ROOT / "migrations", copy)
    before = migrations_hash(copy)
    assert migrations_hash(copy) == before
    last = sorted(copy.glob("*.sql"))[-1]
    last.write_text(last.read_text() + "\n-- changed\n")
    changed = migrations_hash(copy)
    assert changed != before
    (copy / f"{len(list(copy.glob('*.sql'))) + 1:04d}_more.sql").write_text("SELECT 1;")
    assert migrations_hash(copy) not in (before, changed)


def test_least_privilege(s: Synth) -> None:
    uploads = next(k for k in s.of_type("AWS::S3::Bucket") if k.startswith("Uploads"))

    def under(prefix: str) -> dict[str, Any]:
        return {"Fn::Join": ["", [{"Fn::GetAtt": [uploads, "Arn"]}, f"/{prefix}*"]]}

    model = s.config.embedding.model

    def resources(name: str, action: str) -> list[Any]:
        return [resource for st in s.statements(name) if action in _list(st["Action"])
                for resource in _list(st["Resource"])]

    bedrock = resources("McpHttp", "bedrock:InvokeModel")
    assert len(bedrock) == 1 and json.dumps(bedrock).endswith(f'::foundation-model/{model}"]]}}]')

    assert s.actions("McpHttp") == XRAY | SECRET_READ | {"bedrock:InvokeModel", "s3:PutObject",
                                                         "s3:DeleteObject", "s3:ListBucket"}
    assert resources("McpHttp", "s3:PutObject") == [under("uploads/")]
    # whether an upload arrived, by listing its key: the bucket, for keys under uploads/ only
    listing = [st for st in s.statements("McpHttp") if "s3:ListBucket" in _list(st["Action"])]
    assert len(listing) == 1 and listing[0]["Resource"] == {"Fn::GetAtt": [uploads, "Arn"]}
    assert listing[0]["Condition"] == {"StringLike": {"s3:prefix": ["uploads/*"]}}
    assert sorted(map(json.dumps, resources("McpHttp", "s3:DeleteObject"))) == sorted(
        map(json.dumps, [under("uploads/"), under("imports/"), under("transcripts/")]))

    assert s.actions("Extract") == XRAY | SECRET_READ | {
        "bedrock:InvokeModel", "s3:GetObject", "s3:PutObject", "s3:DeleteObject",
        "textract:DetectDocumentText",
        "transcribe:StartTranscriptionJob", "transcribe:GetTranscriptionJob",
        "sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility",
        "sqs:GetQueueAttributes", "sqs:GetQueueUrl"}
    assert resources("Extract", "s3:GetObject") == [under("uploads/"), under("transcripts/")]
    assert resources("Extract", "s3:PutObject") == [under("transcripts/")], "never writes uploads/"
    assert resources("Extract", "s3:DeleteObject") == [under("uploads/")]

    assert s.actions("Migrate") == XRAY | SECRET_READ
    assert s.actions("Admin") == XRAY | SECRET_READ | {"bedrock:InvokeModel", "s3:GetObject",
                                                       "s3:PutObject", "s3:DeleteObject"}
    # Each function reads only the secret of the login it uses (migrate also the app secret,
    # to set the application login's password).
    owner, app = _secret_attachments(s)
    assert {name: sorted(secrets_read(s, name)) for name in OUR_FUNCTIONS} == {
        "McpHttp": [app], "Extract": [app], "Migrate": sorted([owner, app]), "Admin": [owner]}

    for name in OUR_FUNCTIONS:
        for statement in s.statements(name):
            actions = _list(statement["Action"])
            assert not any(a == "*" or a.endswith(":*") for a in actions), (name, actions)
            if "*" in _list(statement["Resource"]):
                assert set(actions) <= XRAY | {"textract:DetectDocumentText"}, (name, actions)

    # Only API Gateway may invoke a function by resource policy, and only the MCP function:
    # the admin function is reachable by IAM principals with lambda:InvokeFunction only.
    target = mcp_target(s)
    permissions = s.of_type("AWS::Lambda::Permission").values()
    assert permissions and all(p["Properties"]["FunctionName"] == target
                               and p["Properties"]["Principal"] == "apigateway.amazonaws.com"
                               for p in permissions)
    _, integration = s.one("AWS::ApiGatewayV2::Integration")
    assert integration["Properties"]["IntegrationUri"] == target
    assert s.of_type("AWS::Lambda::Url") == {}


def _bucket(s: Synth, name: str) -> str:
    """The logical id of one of our buckets by construct id (``Uploads``, ``Exports``)."""
    found = [k for k in s.of_type("AWS::S3::Bucket") if re.fullmatch(rf"{name}[0-9A-F]{{8}}", k)]
    assert len(found) == 1, (name, found)
    return found[0]


def s3_grants(statements: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(action, resource) pairs of every statement that names an S3 action, resources as JSON:
    independent of how CDK merges statements. A wildcard action stays as written (``s3:*``)."""
    pairs: set[tuple[str, str]] = set()
    for st in statements:
        assert "NotAction" not in st and "NotResource" not in st, st
        actions = [a for a in _list(st["Action"]) if a == "*" or a.lower().startswith("s3:")]
        assert st["Effect"] == "Allow" or not actions, st
        pairs |= {(a, json.dumps(r, sort_keys=True)) for a in actions for r in _list(st["Resource"])}
    return pairs


def admin_s3_expected(s: Synth) -> set[tuple[str, str]]:
    """What the admin commands need, exactly: export/import on the exports bucket's objects;
    import's originals under imports/; doctor's probe under doctor/; export --with-files reads
    the originals (uploads/ and imports/); spaces delete removes them and transcripts. Nothing
    on a bucket itself, no s3:* or s3:Get*."""
    uploads, exports = _bucket(s, "Uploads"), _bucket(s, "Exports")

    def objects(bucket: str, prefix: str = "") -> str:
        return json.dumps({"Fn::Join": ["", [{"Fn::GetAtt": [bucket, "Arn"]}, f"/{prefix}*"]]},
                          sort_keys=True)

    return {
        ("s3:GetObject", objects(exports)), ("s3:PutObject", objects(exports)),
        ("s3:PutObject", objects(uploads, "imports/")),
        ("s3:PutObject", objects(uploads, "doctor/")), ("s3:DeleteObject", objects(uploads, "doctor/")),
        ("s3:GetObject", objects(uploads, "uploads/")), ("s3:GetObject", objects(uploads, "imports/")),
        # spaces delete removes the space's stored files
        ("s3:DeleteObject", objects(uploads, "uploads/")),
        ("s3:DeleteObject", objects(uploads, "imports/")),
        ("s3:DeleteObject", objects(uploads, "transcripts/")),
    }


def admin_s3_problems(s: Synth, statements: list[dict[str, Any]]) -> list[str]:
    """Why these statements are not the admin function's intended S3 access (empty: they are)."""
    grants = s3_grants(statements)
    uploads, exports = ({"Fn::GetAtt": [_bucket(s, name), "Arn"]} for name in ("Uploads", "Exports"))
    # Bucket-level resources, every object of the uploads bucket, anything at all. (Every object
    # of the exports bucket is intended: it holds nothing but exports.)
    whole = {json.dumps(r, sort_keys=True)
             for r in (uploads, exports, {"Fn::Join": ["", [uploads, "/*"]]}, "*")}
    problems = [f"wildcard action {a}" for a, _ in grants if "*" in a]
    problems += [f"whole bucket: {a} on {r}" for a, r in grants if r in whole]
    expected = admin_s3_expected(s)
    problems += [f"unexpected {a} on {r}" for a, r in sorted(grants - expected)]
    problems += [f"missing {a} on {r}" for a, r in sorted(expected - grants)]
    return problems


def test_admin_function_runs_export_import_and_doctor(s: Synth) -> None:
    _, admin = s.function("Admin")
    props = admin["Properties"]
    assert props["EphemeralStorage"] == {"Size": 4096}, "export/import stage the whole file in /tmp"
    assert props["Timeout"] == 900 == s.config.admin.timeout_seconds, "15 minutes, Lambda's maximum"
    env = s.env_of("Admin")
    assert env["MEMORY_MCP_UPLOADS_BUCKET"] == _ref(_bucket(s, "Uploads")), "import and doctor"
    assert admin_s3_problems(s, s.statements("Admin")) == []

    # The check itself catches the grants least privilege rules out.
    uploads_arn = {"Fn::GetAtt": [_bucket(s, "Uploads"), "Arn"]}
    uploads_all = {"Fn::Join": ["", [uploads_arn, "/*"]]}
    for extra in ({"Effect": "Allow", "Action": "s3:*", "Resource": uploads_all},
                  {"Effect": "Allow", "Action": "s3:PutObject", "Resource": uploads_all},
                  {"Effect": "Allow", "Action": ["s3:GetObject*", "s3:List*"],
                   "Resource": [uploads_arn, uploads_all]},
                  {"Effect": "Allow", "Action": "s3:DeleteObject",
                   "Resource": {"Fn::Join": ["", [{"Fn::GetAtt": [_bucket(s, "Exports"), "Arn"]}, "/*"]]}},
                  {"Effect": "Allow", "Action": "*", "Resource": "*"}):
        assert admin_s3_problems(s, [*s.statements("Admin"), extra]), extra
    assert admin_s3_problems(s, [st for st in s.statements("Admin")
                                 if "s3:DeleteObject" not in _list(st["Action"])]), "doctor needs it"

    # No other function may touch the exports bucket.
    exports = _bucket(s, "Exports")
    for name in OUR_FUNCTIONS:
        if name != "Admin":
            assert exports not in json.dumps(s.statements(name)), name


def test_exports_bucket_is_private_encrypted_logged_and_expiring(s: Synth) -> None:
    exports_id, uploads_id = _bucket(s, "Exports"), _bucket(s, "Uploads")
    exports, uploads = s.resources[exports_id], s.resources[uploads_id]
    props = exports["Properties"]
    assert props["PublicAccessBlockConfiguration"] == uploads["Properties"]["PublicAccessBlockConfiguration"]
    assert props["BucketEncryption"] == uploads["Properties"]["BucketEncryption"]
    assert props["OwnershipControls"] == {"Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]}
    assert "CorsConfiguration" not in props, "nothing outside the admin function writes exports"
    assert exports["DeletionPolicy"] == "Retain"
    logging = props["LoggingConfiguration"]
    assert logging["DestinationBucketName"] == uploads["Properties"]["LoggingConfiguration"][
        "DestinationBucketName"]
    assert logging["LogFilePrefix"] == "exports/"
    lifecycle = {rule["Id"]: rule for rule in props["LifecycleConfiguration"]["Rules"]}
    assert lifecycle["abort-incomplete-uploads"]["AbortIncompleteMultipartUpload"] == {
        "DaysAfterInitiation": 1}
    assert lifecycle["expire-exports"]["ExpirationInDays"] == 30
    policy = next(p["Properties"]["PolicyDocument"]["Statement"]
                  for p in s.of_type("AWS::S3::BucketPolicy").values()
                  if p["Properties"]["Bucket"] == _ref(exports_id))
    assert any(st["Effect"] == "Deny" and st["Condition"].get("Bool", {}).get("aws:SecureTransport")
               == "false" for st in policy), "TLS-only"
    assert any(st["Effect"] == "Deny" and "s3:TlsVersion" in json.dumps(st.get("Condition"))
               for st in policy), "TLS 1.2 at least"
    assert all(st["Effect"] == "Deny" for st in policy), "the bucket policy grants nothing"
    # S3 never notifies anything about the exports bucket: only uploads/ of the uploads bucket.
    notifications = s.of_type("Custom::S3BucketNotifications").values()
    assert [n["Properties"]["BucketName"] for n in notifications] == [_ref(uploads_id)]


def test_only_uploads_prefix_triggers_extraction(s: Synth) -> None:
    """import's originals (imports/), doctor's probe (doctor/) and Transcribe's results
    (transcripts/) are written to the uploads bucket too: none of them may start an extraction."""
    _, notifications = s.one("Custom::S3BucketNotifications")
    config = notifications["Properties"]["NotificationConfiguration"]
    assert set(config) == {"QueueConfigurations"}, "no Lambda, SNS or EventBridge target"
    [queue] = config["QueueConfigurations"]
    assert queue["Filter"] == {"Key": {"FilterRules": [{"Name": "prefix", "Value": "uploads/"}]}}
    for key in ("imports/eng/1/a.pdf", "doctor/probe-1", "transcripts/job.json", "exports/x.jsonl"):
        assert not key.startswith(queue["Filter"]["Key"]["FilterRules"][0]["Value"]), key


def _secret_attachments(s: Synth) -> tuple[str, str]:
    """Logical ids of the owner's and the application login's secrets (as attached to the
    instance: host, port and engine added), in that order."""
    by_user: dict[str, str] = {}
    for attachment_id, attachment in s.of_type("AWS::SecretsManager::SecretTargetAttachment").items():
        secret = s.resources[attachment["Properties"]["SecretId"]["Ref"]]
        user = json.loads(secret["Properties"]["GenerateSecretString"]["SecretStringTemplate"])
        by_user[user["username"]] = attachment_id
    assert set(by_user) == {"memory_mcp", "memory_mcp_server"}
    return by_user["memory_mcp"], by_user["memory_mcp_server"]


def secrets_read(s: Synth, name: str) -> set[str]:
    """The secrets (attachment logical ids) a function's role may read."""
    return {resource["Ref"] for st in s.statements(name)
            if set(_list(st["Action"])) & SECRET_READ for resource in _list(st["Resource"])}


def test_two_logins_each_with_its_secret_and_the_app_one_rotates(s: Synth) -> None:
    """The request paths log in as memory_mcp_server from its own secret; the operator paths as
    the owner. The proxy knows both; Secrets Manager rotates the app login (single user)."""
    owner, app = _secret_attachments(s)
    for name in ("McpHttp", "Extract"):
        env = s.env_of(name)
        assert env["MEMORY_MCP_DATABASE_APP_SECRET_ARN"] == _ref(app), name
        assert "MEMORY_MCP_DATABASE_SECRET_ARN" not in env, name
    for name in ("Migrate", "Admin"):
        env = s.env_of(name)
        assert env["MEMORY_MCP_DATABASE_SECRET_ARN"] == _ref(owner), name
        assert "MEMORY_MCP_DATABASE_APP_SECRET_ARN" not in env, name
    for proxy in s.of_type("AWS::RDS::DBProxy").values():
        auth = proxy["Properties"]["Auth"]
        assert sorted(a["SecretArn"]["Ref"] for a in auth) == sorted([owner, app])
        assert all(a["AuthScheme"] == "SECRETS" and a["IAMAuth"] == "DISABLED" for a in auth)

    cr_id, cr = s.one("Custom::MemoryMcpMigrations")
    assert cr["Properties"]["AppSecretArn"] == _ref(app), "the owner sets the app login's password"

    _, schedule = s.one("AWS::SecretsManager::RotationSchedule")
    assert schedule["Properties"]["SecretId"] == _ref(app), "only the app secret rotates"
    assert schedule["Properties"]["RotationRules"] == {"ScheduleExpression": "rate(30 days)"}
    rotation_id, rotation = s.one("AWS::Serverless::Application")
    assert schedule["Properties"]["RotationLambdaARN"] == {
        "Fn::GetAtt": [rotation_id, "Outputs.RotationLambdaARN"]}
    mapping = rotation["Properties"]["Location"]["ApplicationId"]["Fn::FindInMap"][0]
    assert s.template["Mappings"][mapping]["aws"]["applicationId"].endswith(
        ":applications/SecretsManagerRDSPostgreSQLRotationSingleUser")
    assert cr_id in rotation["DependsOn"], "first rotation only once the role has its password"
    # The rotation function runs in the isolated subnets and reaches only the database (its
    # group is admitted there) and the Secrets Manager endpoint.
    params = rotation["Properties"]["Parameters"]
    subnets = sorted(k for k in s.of_type("AWS::EC2::Subnet"))
    assert sorted(part["Ref"] for part in params["vpcSubnetIds"]["Fn::Join"][1]
                  if isinstance(part, dict)) == subnets
    rotation_sg = params["vpcSecurityGroupIds"]["Fn::GetAtt"][0]
    egress = s.resources[rotation_sg]["Properties"]["SecurityGroupEgress"]
    assert [(e["FromPort"], e["ToPort"]) for e in egress] == [(443, 443)]
    ingress = {(rule["Properties"]["GroupId"]["Fn::GetAtt"][0], json.dumps(rule["Properties"]["FromPort"]))
               for rule in s.of_type("AWS::EC2::SecurityGroupIngress").values()
               if rule["Properties"].get("SourceSecurityGroupId") == {"Fn::GetAtt": [rotation_sg, "GroupId"]}}
    db_sg = next(k for k in s.of_type("AWS::EC2::SecurityGroup") if k.startswith("DatabaseSg"))
    endpoint_sg = next(k for k in s.of_type("AWS::EC2::SecurityGroup") if k.startswith("EndpointsSg"))
    assert {port for sg, port in ingress if sg == db_sg} == {json.dumps(
        {"Fn::GetAtt": [s.one("AWS::RDS::DBInstance")[0], "Endpoint.Port"]})}
    assert (endpoint_sg, "443") in ingress
    assert {sg for sg, _ in ingress} == {db_sg, endpoint_sg}

    # SMG4 (no rotation) is acknowledged on the owner secret only.
    smg4 = {logical_id for logical_id, resource in s.resources.items()
            for rule in resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", [])
            if rule["id"] == "AwsSolutions-SMG4"}
    owner_secret = s.resources[owner]["Properties"]["SecretId"]["Ref"]
    assert smg4 and smg4 <= {owner, owner_secret}


def test_the_sam_local_template_has_no_rotation() -> None:
    """``sam local`` runs against docker-compose's database: no rotation application there (and
    so no SAM transform), its SMG4 acknowledged; the functions still declare DATABASE_URL."""
    local = synth("dev", sam_local=True)
    assert local.of_type("AWS::Serverless::Application") == {}
    assert local.of_type("AWS::SecretsManager::RotationSchedule") == {}
    assert "Transform" not in local.template
    assert all("DATABASE_URL" in local.env_of(name) for name in OUR_FUNCTIONS)
    assert "Transform" in synth("dev").template, "the deployable template has the rotation"


def mcp_target(s: Synth) -> dict[str, Any]:
    """What API Gateway invokes: the function, or (SnapStart) its ``live`` alias."""
    if not s.config.mcp.snap_start:
        return {"Fn::GetAtt": [s.function("McpHttp")[0], "Arn"]}
    alias_id, _ = s.one("AWS::Lambda::Alias")
    return _ref(alias_id)


def test_snapstart_where_configured(s: Synth) -> None:
    """On in both environments (docs/deploy.md, Cold starts: one cached snapshot of ~1 GiB costs
    a few dollars a month); only the live version is kept, so only one snapshot is billed."""
    mcp_id, mcp = s.function("McpHttp")
    assert s.config.mcp.snap_start
    assert mcp["Properties"]["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    alias_id, alias = s.one("AWS::Lambda::Alias")
    version_id, version = s.one("AWS::Lambda::Version")
    assert alias["Properties"]["Name"] == "live"
    assert alias["Properties"]["FunctionVersion"] == {"Fn::GetAtt": [version_id, "Version"]}
    assert version["Properties"]["FunctionName"] == _ref(mcp_id)
    assert version["DeletionPolicy"] == "Delete" and version["UpdateReplacePolicy"] == "Delete"
    assert mcp_target(s) == _ref(alias_id)
    # Only the MCP function: the others are invoked by SQS, CloudFormation and operators.
    assert [name for name in OUR_FUNCTIONS if "SnapStart" in s.function(name)[1]["Properties"]] == ["McpHttp"]


def test_no_snapstart_under_sam_local() -> None:
    """``sam local`` runs the unpublished function: no version, no alias, the API on $LATEST."""
    local = synth("dev", sam_local=True)
    _, mcp = local.function("McpHttp")
    assert "SnapStart" not in mcp["Properties"]
    assert local.of_type("AWS::Lambda::Alias") == {} and local.of_type("AWS::Lambda::Version") == {}


def test_api_routes_throttling_and_access_logs(s: Synth) -> None:
    routes = {r["Properties"]["RouteKey"] for r in s.of_type("AWS::ApiGatewayV2::Route").values()}
    assert routes == {"POST /mcp", "GET /mcp", "DELETE /mcp", "GET /healthz", "POST /uploads"}
    _, integration = s.one("AWS::ApiGatewayV2::Integration")
    assert integration["Properties"]["PayloadFormatVersion"] == "2.0"
    _, stage = s.one("AWS::ApiGatewayV2::Stage")
    props = stage["Properties"]
    assert props["StageName"] == "$default" and props["AutoDeploy"] is True
    assert props["DefaultRouteSettings"] == {
        "ThrottlingRateLimit": s.config.api.throttle_rate_limit,
        "ThrottlingBurstLimit": s.config.api.throttle_burst_limit}
    log_group = props["AccessLogSettings"]["DestinationArn"]["Fn::GetAtt"][0]
    assert s.resources[log_group]["Type"] == "AWS::Logs::LogGroup"
    fields = json.loads(props["AccessLogSettings"]["Format"])
    assert fields["requestId"] == "$context.requestId" and fields["status"] == "$context.status"
    assert "authorization" not in props["AccessLogSettings"]["Format"].lower()


def test_observability_on_every_function_and_alarms(s: Synth) -> None:
    topic_id, _ = s.one("AWS::SNS::Topic")
    for name in OUR_FUNCTIONS:
        props = s.function(name)[1]["Properties"]
        assert props["TracingConfig"] == {"Mode": "Active"}, name
        env = props["Environment"]["Variables"]
        assert env["POWERTOOLS_SERVICE_NAME"] == "memory-mcp"
        assert env["POWERTOOLS_METRICS_NAMESPACE"] == "MemoryMcp"
        log_group = s.resources[props["LoggingConfig"]["LogGroup"]["Ref"]]
        assert log_group["Properties"]["RetentionInDays"] == s.config.log_retention_days
    alarms = [a["Properties"] for a in s.of_type("AWS::CloudWatch::Alarm").values()]
    assert all(a["AlarmActions"] == [_ref(topic_id)] for a in alarms)
    metric_names = {a.get("MetricName") for a in alarms}
    assert {"ApproximateNumberOfMessagesVisible", "CPUUtilization", "FreeStorageSpace"} <= metric_names
    rate = [a for a in alarms if "Metrics" in a]
    assert len(rate) == 1
    expression = next(m["Expression"] for m in rate[0]["Metrics"] if "Expression" in m)
    assert "errors / requests" in expression
    assert {m["MetricStat"]["Metric"]["MetricName"] for m in rate[0]["Metrics"] if "MetricStat" in m} == {
        "5xx", "Count"}
    assert rate[0]["Threshold"] == s.config.alarms.api_5xx_rate_percent


def test_layer_and_functions(s: Synth) -> None:
    layer_id, layer = s.one("AWS::Lambda::LayerVersion")
    assert layer["Properties"]["CompatibleRuntimes"] == ["python3.12"]
    for name in OUR_FUNCTIONS:
        props = s.function(name)[1]["Properties"]
        assert props["Runtime"] == "python3.12" and props["Handler"] == "handler.handler"
        assert props["Layers"] == [_ref(layer_id)]
        assert props["Architectures"] == ["x86_64"]
    assert s.env_of("McpHttp")["MEMORY_MCP_EMBEDDING_PROVIDER"] == "bedrock"
    assert s.env_of("McpHttp")["MEMORY_MCP_EMBEDDING_DIMENSIONS"] == "3072"
    assert s.env_of("McpHttp")["MEMORY_MCP_AUTO_MIGRATE"] == "false"
    for name in OUR_FUNCTIONS:  # hosted: credentials only from the secret (samLocal adds a URL)
        assert "DATABASE_URL" not in s.env_of(name), name
    mcp_timeout = s.function("McpHttp")[1]["Properties"]["Timeout"]
    assert 3 * int(s.env_of("McpHttp")["MEMORY_MCP_EMBEDDING_TIMEOUT_SECONDS"]) < mcp_timeout
    extract_timeout = s.function("Extract")[1]["Properties"]["Timeout"]
    assert int(s.env_of("Extract")["MEMORY_MCP_JOB_TIME_BUDGET_SECONDS"]) < extract_timeout


def test_outputs(s: Synth) -> None:
    outputs = s.template["Outputs"]
    expected = {"McpUrl", "HealthUrl", "AdminFunctionName", "UploadsBucketName", "ExportsBucketName",
                "ExtractDlqUrl", "ExtractDlqArn",
                "DatabaseEndpoint", "DatabaseSecretArn", "DatabaseAppSecretArn", "AlarmTopicArn"}
    if s.env == "prod":
        expected.add("DatabaseProxyEndpoint")
    assert set(outputs) == expected
    assert outputs["McpUrl"]["Value"]["Fn::Join"][1][-1] == "/mcp"
    assert outputs["AdminFunctionName"]["Value"] == _ref(s.function("Admin")[0])
    assert outputs["ExportsBucketName"]["Value"] == _ref(_bucket(s, "Exports"))
    assert outputs["UploadsBucketName"]["Value"] == _ref(_bucket(s, "Uploads"))
    assert [outputs[k]["Value"] for k in ("DatabaseSecretArn", "DatabaseAppSecretArn")] == [
        _ref(attachment) for attachment in _secret_attachments(s)]


# -- cfn-lint: the template against CloudFormation's own resource schemas ------------------------

#: Findings accepted, each with the reason; anything else fails the test.
CFN_LINT_ACCEPTED: dict[str, str] = {
    # CDK's own constructs emit DependsOn next to a GetAtt on the same resource (role → function,
    # queue → bucket notification). Redundant, harmless, and not ours to change.
    "W3005": "redundant DependsOn emitted by CDK constructs",
    # cfn-lint's deprecation list holds the major-only aliases ("16", "17") next to the retired
    # minors. RDS documents a major-only EngineVersion as valid: it creates the newest minor of
    # that major, which is what a pin to PostgreSQL 17 with minor auto-upgrades wants.
    "W3691": "major-only EngineVersion '17' (RDS picks the newest 17.x)",
}


def test_cfn_lint_finds_nothing_unexplained(s: Synth) -> None:
    """Property names, types, enums and references that ``Template`` assertions cannot see (a
    typo in an escape-hatch override, an invalid runtime or instance class) fail here, before
    CloudFormation would reject them mid-deploy."""
    from cfnlint.api import ManualArgs, lint

    matches = lint(json.dumps(s.template), config=ManualArgs(regions=["eu-west-1", "us-east-1"]))
    found = [(m.rule.id, str(m.message)) for m in matches]
    unexplained = [f for f in found if f[0] not in CFN_LINT_ACCEPTED]
    assert unexplained == []
    engine_findings = [message for rule, message in found if rule == "W3691"]
    assert all("'17'" in message for message in engine_findings), engine_findings


# -- the layer build (no network: the resolution is fed a recorded pip report) -------------------


def _report(*packages: tuple[str, list[str]]) -> dict[str, Any]:
    return {"install": [{"metadata": {"name": name, "version": "1.0", "requires_dist": deps}}
                        for name, deps in packages]}


def test_layer_requirements_leave_out_what_lambda_has_and_local_extras() -> None:
    requirements = layer_build.layer_requirements()
    names = {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower() for r in requirements}
    assert "boto3" not in names and "botocore" not in names
    assert {"mcp", "mangum", "psycopg", "aws-lambda-powertools", "aws-xray-sdk"} <= names
    assert not names & layer_build.LOCAL_ONLY

    report = _report(
        ("aws-xray-sdk", ["wrapt", "botocore >=1.11.3"]),
        ("wrapt", []),
        ("botocore", ["jmespath (<2.0.0,>=0.7.1)", "python-dateutil (<3.0.0,>=2.1)", "urllib3"]),
        ("python-dateutil", ["six >=1.5"]), ("six", []), ("urllib3", []),
        ("aws-lambda-powertools", ["jmespath<2.0.0,>=1.0.1", "urllib3<3; extra == 'jwt'",
                                   "boto3; extra == 'aws-sdk'"]),
        ("jmespath", []),
        ("psycopg", ["psycopg-binary==1.0; extra == 'binary'", "tzdata; sys_platform == 'win32'"]),
        ("psycopg-binary", []), ("tzdata", []),
    )
    roots = ["aws-xray-sdk", "aws-lambda-powertools>=3", "psycopg[binary]>=3.2"]
    assert set(layer_build.select_packages(report, roots)) == {
        "aws-xray-sdk", "wrapt", "aws-lambda-powertools", "jmespath", "psycopg", "psycopg-binary"}
    with pytest.raises(RuntimeError, match="onnxruntime"):
        layer_build.select_packages(_report(("onnxruntime", [])), ["onnxruntime"])


def test_docker_compose_runs_pgvector_17_and_the_server() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    db, server = compose["services"]["db"], compose["services"]["server"]
    assert db["image"].startswith("pgvector/pgvector:") and "pg17" in db["image"]
    assert server["depends_on"]["db"]["condition"] == "service_healthy"
    assert "DATABASE_URL" in server["environment"]
    assert (ROOT / server["build"]["dockerfile"]).is_file()
