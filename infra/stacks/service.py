"""``MemoryMcpStack``: the whole hosted service in one stack.

Network: a VPC with private isolated subnets only (no NAT, no internet gateway) and VPC endpoints
for everything the functions call. Database: RDS PostgreSQL 17, encrypted, credentials in Secrets
Manager; prod adds Multi-AZ, deletion protection and RDS Proxy. Functions (one shared layer):
``mcp_http`` behind an API Gateway HTTP API, ``extract`` on the uploads queue, ``migrate`` as a
custom resource on every deploy whose migrations changed, ``admin`` for operators. Every function
gets only the permissions it uses; every nag finding left is acknowledged with its reason.

Each concern is built by its own module (``network``, ``database``, ``uploads``, ``functions``,
``migrations``, ``api``, ``monitoring``, ``nag``), always in this stack's scope, so the logical
ids are those of a single flat stack. The order below is the order resources depend on.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import Annotations, Stack, Tags
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from infra.config import EnvironmentConfig
from infra.stacks.api import build_api
from infra.stacks.common import RUNTIME, SERVICE, Base
from infra.stacks.database import build_database
from infra.stacks.functions import build_functions
from infra.stacks.layer import layer_code
from infra.stacks.migrations import build_migrations
from infra.stacks.monitoring import build_alarm_topic, build_alarms, build_outputs
from infra.stacks.nag import acknowledge_stack_wide
from infra.stacks.network import build_network
from infra.stacks.uploads import build_uploads


class MemoryMcpStack(Stack):
    """Memory-MCP on AWS for one environment (``dev``, ``prod``, ... from cdk.json)."""

    def __init__(self, scope: Construct, construct_id: str, *, config: EnvironmentConfig,
                 bundle: bool = True, sam_local: bool = False, **kwargs: Any) -> None:
        super().__init__(scope, construct_id, **kwargs)
        self.config = config
        if sam_local:
            Annotations.of(self).add_warning_v2(
                "memory-mcp:samLocal", "A template for `sam local start-api` only: its functions "
                "use docker-compose's database. Never deploy it.")
        base = Base(self, config, sam_local)
        # DBProxyTargetGroup takes no Tags (CloudFormation's schema), though CDK would add them.
        untaggable = ["AWS::RDS::DBProxyTargetGroup"]
        Tags.of(self).add("project", SERVICE, exclude_resource_types=untaggable)
        Tags.of(self).add("environment", config.name, exclude_resource_types=untaggable)

        self.network = build_network(base)
        self.database = build_database(base, self.network)
        self.uploads = build_uploads(base)
        alarm_topic = build_alarm_topic(base)
        self.layer = lambda_.LayerVersion(
            self, "PackageLayer", code=layer_code(bundle), compatible_runtimes=[RUNTIME],
            compatible_architectures=[lambda_.Architecture.X86_64],
            description="memory_mcp, its migrations and its runtime dependencies (CPython 3.12)",
        )
        self.functions = build_functions(base, self.network, self.database, self.uploads,
                                         self.layer)
        self.migrations, provider = build_migrations(base, self.network, self.database,
                                                     self.functions)
        api, stage = build_api(base, self.functions.mcp_target)
        build_alarms(base, alarm_topic, api, self.uploads, self.database)
        build_outputs(base, stage, self.functions, self.uploads, self.database, alarm_topic)
        acknowledge_stack_wide(base, self.functions, self.uploads, provider)
