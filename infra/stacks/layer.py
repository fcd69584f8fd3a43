"""The package layer's code asset: bundled locally with pip (never docker), or skipped in tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsii
from aws_cdk import AssetHashType, BundlingOptions, DockerImage, ILocalBundling
from aws_cdk import aws_lambda as lambda_

from infra import layer_build

#: Never pulled: local bundling always succeeds or raises, so docker is not a fallback.
_UNUSED_IMAGE = DockerImage.from_registry("public.ecr.aws/sam/build-python3.12")
_SOURCE_EXCLUDES = ["__pycache__", "*.pyc", "*.egg-info"]


@jsii.implements(ILocalBundling)
class PipLayerBundling:
    """CDK local bundling: ``infra/layer_build.py`` writes the layer into the asset directory."""

    def try_bundle(self, output_dir: str, *_options: Any, **_kw_options: Any) -> bool:
        # jsii passes the BundlingOptions struct positionally, though the stub names keywords.
        build = layer_build.build_layer(Path(output_dir))
        print(f"memory-mcp layer: {len(build.packages)} packages, "
              f"{build.unzipped_bytes / 2**20:.1f} MiB unzipped")
        return True


def layer_code(bundle: bool) -> lambda_.Code:
    """The layer asset. ``bundle=False`` (tests): the raw package sources, no pip, no network;
    such a template synthesizes but is not deployable."""
    source = str(layer_build.ROOT / "layers")
    if not bundle:
        return lambda_.Code.from_asset(source, exclude=_SOURCE_EXCLUDES)
    return lambda_.Code.from_asset(
        source,
        asset_hash=layer_build.source_hash(),
        asset_hash_type=AssetHashType.CUSTOM,
        bundling=BundlingOptions(image=_UNUSED_IMAGE, local=PipLayerBundling()),
    )
