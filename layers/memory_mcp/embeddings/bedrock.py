"""Amazon Bedrock embeddings through ``bedrock-runtime`` ``InvokeModel``.

The hosted (Lambda) default. Two model families are supported because their request bodies
differ; any other model id is rejected at start-up rather than failing on the first request.

Amazon Nova 2 Multimodal Embeddings (``amazon.nova-2-multimodal-embeddings-v1:0``), per
"Complete embeddings request and response schema",
https://docs.aws.amazon.com/nova/latest/userguide/embeddings-schema.html ::

    request  {"schemaVersion": "nova-multimodal-embed-v1", "taskType": "SINGLE_EMBEDDING",
              "singleEmbeddingParams": {"embeddingPurpose": "GENERIC_INDEX",
                                        "embeddingDimension": 256 | 384 | 1024 | 3072,
                                        "text": {"truncationMode": "END", "value": "..."}}}
    response {"embeddings": [{"embeddingType": "TEXT", "embedding": [float, ...]}]}

Amazon Titan Text Embeddings V2 (``amazon.titan-embed-text-v2:0``), per
https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html ::

    request  {"inputText": "...", "dimensions": 256 | 512 | 1024, "normalize": true}
    response {"embedding": [float, ...], "inputTextTokenCount": int}

Both take one text per call, so a batch is fanned out over a few threads (boto3 clients are
thread-safe). Errors become ``UpstreamError`` with a generic message; AWS's error code and
message go to the log only.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from memory_mcp.embeddings.base import Vectors, l2_normalise
from memory_mcp.errors import ConfigurationError, UpstreamError

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

log = logging.getLogger(__name__)

NOVA_MODEL = "amazon.nova-2-multimodal-embeddings-v1:0"
TITAN_V2_MODEL = "amazon.titan-embed-text-v2:0"
DEFAULT_MODEL = NOVA_MODEL
#: Allowed output widths and the default for each supported model.
_DIMENSIONS: dict[str, tuple[frozenset[int], int]] = {
    NOVA_MODEL: (frozenset({256, 384, 1024, 3072}), 3072),
    TITAN_V2_MODEL: (frozenset({256, 512, 1024}), 1024),
}
#: Parallel InvokeModel calls per ``embed``; below botocore's default pool of 10 connections.
MAX_PARALLEL_CALLS = 4
_FAILED = "The embedding provider (Amazon Bedrock) failed; details are in the server log."


class BedrockEmbedder:
    """Embeds texts with a Nova 2 or Titan V2 model on Bedrock.

    ``embedding_purpose`` is the same for stored memories and queries (``GENERIC_INDEX``):
    the ``Embedder`` interface has no query/document distinction, and versioning compares new
    memories against stored ones, so one embedding space for everything keeps scores
    comparable.
    """

    def __init__(
        self,
        model: str | None = None,
        dimensions: int | None = None,
        *,
        region: str | None = None,
        timeout_seconds: float = 30.0,
        client: BedrockRuntimeClient | None = None,
        embedding_purpose: str = "GENERIC_INDEX",
    ) -> None:
        self._model = model or DEFAULT_MODEL
        if self._model not in _DIMENSIONS:
            raise ConfigurationError(
                f"Unsupported Bedrock embedding model {self._model!r}; "
                f"use one of {', '.join(sorted(_DIMENSIONS))}."
            )
        allowed, default = _DIMENSIONS[self._model]
        self._dimensions = dimensions or default
        if self._dimensions not in allowed:
            raise ConfigurationError(
                f"{self._model} supports embedding dimensions {sorted(allowed)}, "
                f"not {self._dimensions}."
            )
        self._purpose = embedding_purpose
        self._client = client or _make_client(region, timeout_seconds)

    @property
    def model_id(self) -> str:
        """``bedrock:<model>``; the width is part of the configuration, not the id."""
        return f"bedrock:{self._model}"

    @property
    def dimensions(self) -> int:
        """The configured output width."""
        return self._dimensions

    def embed(self, texts: list[str]) -> Vectors:
        """One InvokeModel call per text (the APIs are single-input), a few in parallel."""
        if not texts:
            return []
        if len(texts) == 1:
            rows = [self._embed_one(texts[0])]
        else:
            with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL_CALLS, len(texts))) as pool:
                rows = list(pool.map(self._embed_one, texts))
        return l2_normalise(rows)

    def request_body(self, text: str) -> dict[str, Any]:
        """The model-specific JSON request for one text (see the module docstring)."""
        if self._model == NOVA_MODEL:
            return {
                "schemaVersion": "nova-multimodal-embed-v1",
                "taskType": "SINGLE_EMBEDDING",
                "singleEmbeddingParams": {
                    "embeddingPurpose": self._purpose,
                    "embeddingDimension": self._dimensions,
                    # Over-long input keeps its beginning instead of failing the write.
                    "text": {"truncationMode": "END", "value": text},
                },
            }
        return {"inputText": text, "dimensions": self._dimensions, "normalize": True}

    def _embed_one(self, text: str) -> list[float]:
        try:
            response = self._client.invoke_model(
                modelId=self._model,
                body=json.dumps(self.request_body(text)).encode("utf-8"),
                contentType="application/json",
                accept="application/json",
            )
            payload = json.loads(response["body"].read())
        except ClientError as exc:
            error = exc.response.get("Error", {})
            log.error(
                "Bedrock InvokeModel %s failed: %s: %s",
                self._model,
                error.get("Code", "?"),
                error.get("Message", ""),
            )
            raise UpstreamError(_FAILED) from exc
        except (BotoCoreError, ValueError) as exc:
            log.error("Bedrock InvokeModel %s failed: %r", self._model, exc)
            raise UpstreamError(_FAILED) from exc
        return self._parse(payload)

    def _parse(self, payload: Any) -> list[float]:
        try:
            if self._model == NOVA_MODEL:
                vector = payload["embeddings"][0]["embedding"]
            else:
                vector = payload["embedding"]
            values = [float(v) for v in vector]
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            keys = sorted(payload) if isinstance(payload, dict) else type(payload).__name__
            log.error("unexpected Bedrock response shape from %s (keys: %s)", self._model, keys)
            raise UpstreamError(_FAILED) from exc
        if len(values) != self._dimensions:
            log.error(
                "Bedrock %s returned %d dimensions, expected %d",
                self._model,
                len(values),
                self._dimensions,
            )
            raise UpstreamError(_FAILED)
        return values


def _make_client(region: str | None, timeout_seconds: float) -> BedrockRuntimeClient:
    """One client per embedder: creating boto3 clients is slow and they are thread-safe."""
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=min(timeout_seconds, 10.0),
        read_timeout=timeout_seconds,
        retries={"max_attempts": 3, "mode": "standard"},
        max_pool_connections=max(10, MAX_PARALLEL_CALLS * 2),
    )
    return boto3.client("bedrock-runtime", region_name=region, config=config)
