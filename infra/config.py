"""Per-environment settings, read from ``cdk.json`` context (``memory-mcp:environments``).

Nothing environment-specific lives in code: instance sizes, Multi-AZ, the proxy, concurrency,
throttling, retention and alarm thresholds all come from the context block of the chosen
environment (``cdk deploy -c env=prod``). Values are checked here so a typo fails the synth with
the offending key named, instead of producing a surprising template.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

ENVIRONMENTS_KEY = "memory-mcp:environments"
#: ``-c memory-mcp:bundle=false`` skips the layer build (tests, quick synth checks): the layer
#: asset then points at the package sources and is NOT deployable.
BUNDLE_KEY = "memory-mcp:bundle"
#: ``-c memory-mcp:samLocal=true`` synthesizes a template for ``sam local start-api`` only: the
#: functions get DATABASE_URL of docker-compose.yml's database (docs/deploy.md). Never deploy it.
SAM_LOCAL_KEY = "memory-mcp:samLocal"
#: The docker-compose.yml database as SAM's containers see it on the compose network.
SAM_LOCAL_DATABASE_URL = "postgresql://memory:memory@db:5432/memory"
DEFAULT_ENV = "dev"
RemovalPolicyName = Literal["destroy", "retain", "snapshot"]

T = TypeVar("T")


def _get(data: Mapping[str, Any], key: str, kind: type[T], where: str) -> T:
    if key not in data:
        raise ValueError(f"cdk.json: {where}.{key} is missing")
    value = data[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"cdk.json: {where}.{key} must be {kind.__name__}, not {value!r}")
    return value


def _optional_int(data: Mapping[str, Any], key: str, where: str) -> int | None:
    return None if data.get(key) is None else _get(data, key, int, where)


def _section(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    return _get(data, key, dict, where)


@dataclass(frozen=True)
class DatabaseConfig:
    instance_type: str
    allocated_storage_gib: int
    max_allocated_storage_gib: int
    multi_az: bool
    deletion_protection: bool
    rds_proxy: bool
    backup_retention_days: int
    removal_policy: RemovalPolicyName

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> DatabaseConfig:
        policy = _get(data, "removalPolicy", str, where)
        if policy not in ("destroy", "retain", "snapshot"):
            raise ValueError(f"cdk.json: {where}.removalPolicy must be destroy, retain or snapshot")
        backups = _get(data, "backupRetentionDays", int, where)
        if not 1 <= backups <= 35:
            raise ValueError(f"cdk.json: {where}.backupRetentionDays must be 1-35 (backups stay on)")
        return cls(
            instance_type=_get(data, "instanceType", str, where),
            allocated_storage_gib=_get(data, "allocatedStorageGiB", int, where),
            max_allocated_storage_gib=_get(data, "maxAllocatedStorageGiB", int, where),
            multi_az=_get(data, "multiAz", bool, where),
            deletion_protection=_get(data, "deletionProtection", bool, where),
            rds_proxy=_get(data, "rdsProxy", bool, where),
            backup_retention_days=backups,
            removal_policy=cast(RemovalPolicyName, policy),
        )


@dataclass(frozen=True)
class FunctionConfig:
    memory_mib: int
    timeout_seconds: int
    reserved_concurrency: int | None
    #: Lambda SnapStart (published versions behind an alias): new execution environments resume
    #: from a snapshot taken after the imports instead of importing again.
    snap_start: bool = False

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> FunctionConfig:
        return cls(
            memory_mib=_get(data, "memoryMiB", int, where),
            timeout_seconds=_get(data, "timeoutSeconds", int, where),
            reserved_concurrency=_optional_int(data, "reservedConcurrency", where),
            snap_start=_get(data, "snapStart", bool, where) if "snapStart" in data else False,
        )


@dataclass(frozen=True, kw_only=True)
class ExtractConfig(FunctionConfig):
    batch_size: int
    max_batching_window_seconds: int
    max_concurrency: int
    max_receive_count: int

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> ExtractConfig:
        base = FunctionConfig.parse(data, where)
        return cls(
            memory_mib=base.memory_mib,
            timeout_seconds=base.timeout_seconds,
            reserved_concurrency=base.reserved_concurrency,
            batch_size=_get(data, "batchSize", int, where),
            max_batching_window_seconds=_get(data, "maxBatchingWindowSeconds", int, where),
            max_concurrency=_get(data, "maxConcurrency", int, where),
            max_receive_count=_get(data, "maxReceiveCount", int, where),
        )


@dataclass(frozen=True)
class ApiConfig:
    throttle_rate_limit: float
    throttle_burst_limit: int

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> ApiConfig:
        return cls(
            throttle_rate_limit=_get(data, "throttleRateLimit", float, where),
            throttle_burst_limit=_get(data, "throttleBurstLimit", int, where),
        )


@dataclass(frozen=True)
class UploadsConfig:
    cors_allowed_origins: tuple[str, ...]
    infrequent_access_after_days: int

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> UploadsConfig:
        origins = _get(data, "corsAllowedOrigins", list, where)
        if not origins or not all(isinstance(o, str) and o for o in origins):
            raise ValueError(f"cdk.json: {where}.corsAllowedOrigins must be a non-empty list of origins")
        return cls(tuple(origins), _get(data, "infrequentAccessAfterDays", int, where))


@dataclass(frozen=True)
class EmbeddingConfig:
    model: str
    dimensions: int

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> EmbeddingConfig:
        return cls(_get(data, "model", str, where), _get(data, "dimensions", int, where))


@dataclass(frozen=True)
class AlarmConfig:
    email: str | None
    api_5xx_rate_percent: float
    db_cpu_percent: float
    db_free_storage_gib: float

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> AlarmConfig:
        email = data.get("email")
        if email is not None and not (isinstance(email, str) and "@" in email):
            raise ValueError(f"cdk.json: {where}.email must be an email address or null")
        return cls(
            email=email,
            api_5xx_rate_percent=_get(data, "api5xxRatePercent", float, where),
            db_cpu_percent=_get(data, "dbCpuPercent", float, where),
            db_free_storage_gib=_get(data, "dbFreeStorageGiB", float, where),
        )


@dataclass(frozen=True)
class ExtractionConfig:
    """Which hosted extractors the worker may call (each needs its VPC endpoint, no NAT)."""

    textract: bool
    transcribe: bool
    llm_model: str | None

    @classmethod
    def parse(cls, data: Mapping[str, Any], where: str) -> ExtractionConfig:
        model = data.get("llmModel")
        if model is not None and not (isinstance(model, str) and model.strip()):
            raise ValueError(f"cdk.json: {where}.llmModel must be a Bedrock model id or null")
        return cls(_get(data, "textract", bool, where), _get(data, "transcribe", bool, where), model)

    def required_endpoints(self) -> set[str]:
        return {name for name, on in (("textract", self.textract), ("transcribe", self.transcribe)) if on}


_ENDPOINT = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


@dataclass(frozen=True)
class EnvironmentConfig:
    """Everything that differs between ``dev`` and ``prod``."""

    name: str
    account: str | None
    region: str | None
    database: DatabaseConfig
    mcp: FunctionConfig
    extract: ExtractConfig
    admin: FunctionConfig
    api: ApiConfig
    uploads: UploadsConfig
    embedding: EmbeddingConfig
    extraction: ExtractionConfig
    alarms: AlarmConfig
    interface_endpoints: tuple[str, ...]
    log_retention_days: int
    log_level: str

    @classmethod
    def from_context(cls, name: str, environments: Any) -> EnvironmentConfig:
        if not isinstance(environments, dict) or not environments:
            raise ValueError(f"cdk.json: context {ENVIRONMENTS_KEY!r} is missing or empty")
        if name not in environments:
            raise ValueError(f"Unknown environment {name!r}: cdk.json defines "
                             f"{', '.join(sorted(environments))} (choose with -c env=NAME)")
        data = environments[name]
        where = f"{ENVIRONMENTS_KEY}.{name}"
        endpoints = _get(data, "interfaceEndpoints", list, where)
        if not all(isinstance(e, str) and _ENDPOINT.match(e) for e in endpoints):
            raise ValueError(f"cdk.json: {where}.interfaceEndpoints must be service names "
                             "such as secretsmanager, sqs, bedrock-runtime")
        extraction = ExtractionConfig.parse(_section(data, "extraction", where), f"{where}.extraction")
        # Isolated subnets have no NAT: every AWS API a function calls needs its endpoint.
        missing = ({"secretsmanager", "bedrock-runtime"} | extraction.required_endpoints()) - set(endpoints)
        if missing:
            raise ValueError(f"cdk.json: {where}.interfaceEndpoints lacks {', '.join(sorted(missing))}; "
                             "the functions cannot reach those services without a NAT")
        return cls(
            name=name,
            account=data.get("account"),
            region=data.get("region"),
            database=DatabaseConfig.parse(_section(data, "database", where), f"{where}.database"),
            mcp=FunctionConfig.parse(_section(data, "mcpFunction", where), f"{where}.mcpFunction"),
            extract=ExtractConfig.parse(_section(data, "extractFunction", where),
                                        f"{where}.extractFunction"),
            admin=FunctionConfig.parse(_section(data, "adminFunction", where), f"{where}.adminFunction"),
            api=ApiConfig.parse(_section(data, "api", where), f"{where}.api"),
            uploads=UploadsConfig.parse(_section(data, "uploads", where), f"{where}.uploads"),
            embedding=EmbeddingConfig.parse(_section(data, "embedding", where), f"{where}.embedding"),
            extraction=extraction,
            alarms=AlarmConfig.parse(_section(data, "alarms", where), f"{where}.alarms"),
            interface_endpoints=tuple(endpoints),
            log_retention_days=_get(data, "logRetentionDays", int, where),
            log_level=_get(data, "logLevel", str, where),
        )
