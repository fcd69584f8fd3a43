"""What every part of ``MemoryMcpStack`` shares: names, the runtime, log groups, nag acknowledgements.

The stack is split into one module per concern (network, database, uploads, functions, API,
monitoring, cdk-nag). Every construct is still created directly in the stack's scope, so logical
ids do not depend on the module that builds them: moving code between modules never replaces a
resource.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Acknowledgment, RemovalPolicy, Stack, Validations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import IConstruct

from infra.config import EnvironmentConfig
from infra.layer_build import ROOT

FUNCTIONS_DIR = ROOT / "functions"
UPLOADS_PREFIX = "uploads/"
#: Where Amazon Transcribe writes its results (memory_mcp.documents.transcribe.TRANSCRIPT_PREFIX).
TRANSCRIPTS_PREFIX = "transcripts/"
#: Where ``memory-mcp import`` stores the originals an export carries
#: (memory_mcp.services.transfer_files.IMPORT_PREFIX): never under ``uploads/``.
IMPORTS_PREFIX = "imports/"
#: Where ``memory-mcp doctor`` writes and removes its probe object
#: (memory_mcp.services.doctor_local.storage).
DOCTOR_PREFIX = "doctor/"
#: Days an object stays in the exports bucket: exports move a space, they are not backups.
EXPORTS_EXPIRE_AFTER_DAYS = 30
DB_NAME = "memory_mcp"
#: The RDS master user: owns the schema, runs migrations and the admin paths.
DB_USER = "memory_mcp"
#: The application login (migrations/0009: a member of memory_mcp_app that owns nothing).
APP_DB_USER = "memory_mcp_server"
#: Days between rotations of the application login's password.
APP_SECRET_ROTATION_DAYS = 30
SERVICE = "memory-mcp"
METRICS_NAMESPACE = "MemoryMcp"
RUNTIME = lambda_.Runtime.PYTHON_3_12
#: ``extract`` messages stay invisible for at least this many function timeouts (AWS guidance).
VISIBILITY_TIMEOUT_FACTOR = 6

RETENTION = {
    1: logs.RetentionDays.ONE_DAY, 3: logs.RetentionDays.THREE_DAYS,
    5: logs.RetentionDays.FIVE_DAYS, 7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS, 30: logs.RetentionDays.ONE_MONTH,
    60: logs.RetentionDays.TWO_MONTHS, 90: logs.RetentionDays.THREE_MONTHS,
    120: logs.RetentionDays.FOUR_MONTHS, 180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR, 731: logs.RetentionDays.TWO_YEARS,
}
REMOVAL = {"destroy": RemovalPolicy.DESTROY, "retain": RemovalPolicy.RETAIN,
           "snapshot": RemovalPolicy.SNAPSHOT}


def acknowledge(scope: IConstruct, rule: str, reason: str) -> None:
    """Acknowledge one cdk-nag finding on ``scope`` (and its children), with the reason."""
    Validations.of(scope).acknowledge(Acknowledgment(id=rule, reason=reason))


@dataclass(frozen=True)
class Base:
    """The stack and the environment every builder works in."""

    stack: Stack
    config: EnvironmentConfig
    sam_local: bool

    def __post_init__(self) -> None:
        if self.config.log_retention_days not in RETENTION:
            raise ValueError(f"cdk.json: logRetentionDays must be one of {sorted(RETENTION)}")

    @property
    def retention(self) -> logs.RetentionDays:
        return RETENTION[self.config.log_retention_days]

    def log_group(self, name: str) -> logs.LogGroup:
        """A log group with the environment's retention; prod keeps its logs on deletion."""
        removal = RemovalPolicy.RETAIN if self.config.name == "prod" else RemovalPolicy.DESTROY
        return logs.LogGroup(self.stack, f"{name}Logs", retention=self.retention,
                             removal_policy=removal)
