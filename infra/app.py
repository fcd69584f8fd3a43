"""CDK entry point (``cdk.json``: ``"app": ".venv/bin/python infra/app.py"``).

``cdk synth|deploy -c env=dev`` (or ``prod``, or any environment cdk.json defines) builds the
stack ``MemoryMcp-<env>``. cdk-nag's AwsSolutions pack runs on every synth and fails it on any
finding that is not acknowledged with a reason. ``-c memory-mcp:bundle=false`` skips the layer
build (tests): the template is then for inspection only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
if __package__ in (None, ""):  # run as a script by the cdk CLI
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aws_cdk as cdk
from cdk_nag import AwsSolutionsChecks

from infra.config import BUNDLE_KEY, DEFAULT_ENV, ENVIRONMENTS_KEY, SAM_LOCAL_KEY, EnvironmentConfig
from infra.stacks.service import MemoryMcpStack


def _truthy(value: Any) -> bool:
    return str(value).strip().lower() not in ("false", "0", "no", "off")


def build_app(context: dict[str, Any] | None = None, outdir: str | None = None
              ) -> tuple[cdk.App, MemoryMcpStack]:
    """The app and its one stack. ``context`` is what the cdk CLI would pass (tests give
    cdk.json's context plus ``env``)."""
    app = cdk.App(context=context, outdir=outdir)
    env_name = str(app.node.try_get_context("env") or DEFAULT_ENV)
    config = EnvironmentConfig.from_context(env_name, app.node.try_get_context(ENVIRONMENTS_KEY))
    bundle = _truthy(app.node.try_get_context(BUNDLE_KEY) or "true")
    sam_local = _truthy(app.node.try_get_context(SAM_LOCAL_KEY) or "false")
    # Environment-agnostic unless cdk.json pins an account/region: the CLI's credentials decide.
    pinned = config.account or config.region
    stack = MemoryMcpStack(
        app, f"MemoryMcp-{env_name}", config=config, bundle=bundle, sam_local=sam_local,
        env=cdk.Environment(account=config.account, region=config.region) if pinned else None,
        description=f"Memory-MCP ({env_name}): hosted multi-user memory server over remote MCP",
    )
    cdk.Validations.of(app).add_plugins(
        AwsSolutionsChecks(app, write_suppressions_to_cloud_formation=True))
    return app, stack


def main() -> None:
    app, _ = build_app()
    app.synth()


if __name__ == "__main__":
    main()
