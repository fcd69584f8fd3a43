"""Embedding providers behind one interface, chosen by configuration.

Providers are imported inside ``build_embedder`` only: importing this package must not pull in
onnxruntime or numpy (local) or boto3 (Bedrock), so a Lambda cold start pays only for the
provider it actually uses.
"""

from __future__ import annotations

from memory_mcp.config import Settings
from memory_mcp.embeddings.base import Embedder, Vectors, l2_normalise
from memory_mcp.errors import ConfigurationError

__all__ = ["Embedder", "Vectors", "build_embedder", "l2_normalise"]

#: Names accepted for the local model in MEMORY_MCP_EMBEDDING_MODEL (there is only one).
_LOCAL_MODEL_NAMES = frozenset({"all-MiniLM-L6-v2", "all-MiniLM-L6-v2-int8"})


def build_embedder(settings: Settings) -> Embedder:
    """The configured provider. No cache in front of it: a text -> vector cache shared by every
    space of the process answers a repeated text faster, and that timing told any key whether
    a text had been saved, searched or uploaded in a space it cannot read. Repeated queries
    are cached per space and caller instead (``Runtime.embed_one``)."""
    provider = settings.embedding_provider
    if provider == "local":
        from memory_mcp.embeddings.local import DIMENSIONS, LocalEmbedder

        model = settings.embedding_model
        if model is not None and model.removeprefix("local:") not in _LOCAL_MODEL_NAMES:
            raise ConfigurationError(
                f"The local provider only runs all-MiniLM-L6-v2, not {model!r}; "
                "unset MEMORY_MCP_EMBEDDING_MODEL or choose the bedrock/openai provider."
            )
        dims = settings.embedding_dimensions
        if dims is not None and dims != DIMENSIONS:
            raise ConfigurationError(
                f"The local model produces {DIMENSIONS} dimensions, not {dims}; "
                "unset MEMORY_MCP_EMBEDDING_DIMENSIONS."
            )
        return LocalEmbedder()
    if provider == "bedrock":
        from memory_mcp.embeddings.bedrock import BedrockEmbedder

        return BedrockEmbedder(
            settings.embedding_model,
            settings.embedding_dimensions,
            region=settings.bedrock_region,
            timeout_seconds=settings.embedding_timeout_seconds,
        )
    if provider == "openai":
        from memory_mcp.embeddings.openai import OpenAIEmbedder

        key = settings.openai_api_key
        return OpenAIEmbedder(
            settings.embedding_model,
            settings.embedding_dimensions,
            base_url=settings.openai_base_url,
            api_key=key.get_secret_value() if key is not None else None,
            timeout_seconds=settings.embedding_timeout_seconds,
        )
    raise ConfigurationError(f"Unknown embedding provider {provider!r}.")
