"""Any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint, over httpx.

Covers OpenAI itself and the many servers that copy its API (vLLM, Ollama, LiteLLM, Azure
proxies, ...). Plain httpx rather than the ``openai`` SDK: one request shape does not justify a
heavy dependency in the Lambda layer.

Request ``{"model", "input": [...], "encoding_format": "float"[, "dimensions"]}``; response
``{"data": [{"index": i, "embedding": [...]}, ...]}``. ``dimensions`` is only sent when it was
configured, because many compatible servers reject the field. Results are re-ordered by
``index``: the API does not promise to return them in input order.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from urllib.parse import urlsplit

import httpx

from memory_mcp.config import STORAGE_DIMENSIONS
from memory_mcp.embeddings.base import Vectors, l2_normalise
from memory_mcp.errors import ConfigurationError, UpstreamError

log = logging.getLogger(__name__)

DEFAULT_MODEL = "text-embedding-3-large"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: Native widths of well-known models; anything else needs MEMORY_MCP_EMBEDDING_DIMENSIONS.
KNOWN_DIMENSIONS = {
    "text-embedding-3-large": 3072,
    "text-embedding-3-small": 1536,
    "text-embedding-ada-002": 1536,
}
#: Inputs per request: far below OpenAI's 2048-input cap, so 100k-char memories stay under
#: the per-request token limit too.
BATCH_SIZE = 64
#: One retry for rate limits and transient server errors; more would outlast a Lambda request.
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_RETRY_DELAY_SECONDS = 0.5
_FAILED = "The embedding provider (OpenAI-compatible API) failed; details are in the server log."


class OpenAIEmbedder:
    """Embeds texts through an OpenAI-compatible embeddings endpoint.

    The ``httpx.Client`` is created once (connection pooling matters: every memory write and
    search embeds) and can be injected, or built around an injected transport, for tests.
    """

    def __init__(
        self,
        model: str | None = None,
        dimensions: int | None = None,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        timeout_seconds: float = 30.0,
        client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._model = model or DEFAULT_MODEL
        self._send_dimensions = dimensions is not None
        width = dimensions or KNOWN_DIMENSIONS.get(self._model)
        if width is None:
            raise ConfigurationError(
                f"Unknown embedding width for model {self._model!r}; "
                "set MEMORY_MCP_EMBEDDING_DIMENSIONS."
            )
        if not 0 < width <= STORAGE_DIMENSIONS:
            raise ConfigurationError(
                f"Embedding dimensions must be between 1 and {STORAGE_DIMENSIONS}, not {width}."
            )
        if api_key is None and base_url.rstrip("/") == DEFAULT_BASE_URL:
            raise ConfigurationError(
                "The OpenAI embedding provider needs MEMORY_MCP_OPENAI_API_KEY."
            )
        self._dimensions = width
        self._url = base_url.rstrip("/") + "/embeddings"
        parts = urlsplit(self._url)  # for the log: no user, password or query string
        self._shown_url = f"{parts.scheme}://{parts.hostname}" + (
            f":{parts.port}" if parts.port else "") + parts.path
        # Sent per request rather than baked into the client, so an injected client works too.
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(
            timeout=httpx.Timeout(timeout_seconds),
            transport=transport or httpx.HTTPTransport(retries=1),
        )

    @property
    def model_id(self) -> str:
        """``openai:<model>``."""
        return f"openai:{self._model}"

    @property
    def dimensions(self) -> int:
        """Configured width, or the model's native width."""
        return self._dimensions

    def embed(self, texts: list[str]) -> Vectors:
        """Embed in batches of ``BATCH_SIZE``; rows come back in input order, L2-normalised."""
        out: Vectors = []
        for start in range(0, len(texts), BATCH_SIZE):
            out += self._embed_batch(texts[start : start + BATCH_SIZE])
        return l2_normalise(out)

    def close(self) -> None:
        """Release pooled connections (tests, CLI shutdown)."""
        self._client.close()

    def request_body(self, texts: list[str]) -> dict[str, Any]:
        """The JSON body for one batch."""
        body: dict[str, Any] = {"model": self._model, "input": texts, "encoding_format": "float"}
        if self._send_dimensions:
            body["dimensions"] = self._dimensions
        return body

    def _embed_batch(self, texts: list[str]) -> Vectors:
        response = self._post(self.request_body(texts))
        try:
            data = sorted(response.json()["data"], key=lambda item: int(item["index"]))
            rows = [[float(x) for x in item["embedding"]] for item in data]
        except (KeyError, TypeError, ValueError) as exc:
            log.error("unexpected embeddings response shape from %s: %r", self._shown_url, exc)
            raise UpstreamError(_FAILED) from exc
        widths = {len(row) for row in rows}
        if len(rows) != len(texts) or len(widths) > 1:
            log.error("embeddings response from %s has %d rows of widths %s for %d texts",
                      self._shown_url, len(rows), sorted(widths), len(texts))
            raise UpstreamError(_FAILED)
        if widths != {self._dimensions}:
            raise ConfigurationError(
                f"Model {self._model} returned {widths.pop()}-dimensional embeddings but "
                f"{self._dimensions} are configured; fix MEMORY_MCP_EMBEDDING_DIMENSIONS."
            )
        return rows

    def _post(self, body: dict[str, Any]) -> httpx.Response:
        for attempt in (1, 2):
            try:
                response = self._client.post(self._url, json=body, headers=self._headers)
            except httpx.HTTPError as exc:
                log.error("embeddings request to %s failed: %s", self._shown_url,
                          type(exc).__name__)
                raise UpstreamError(_FAILED) from exc
            if response.is_success:
                return response
            if attempt == 1 and response.status_code in _RETRY_STATUSES:
                log.warning("embeddings request got HTTP %d; retrying", response.status_code)
                time.sleep(_RETRY_DELAY_SECONDS)
                continue
            # The body can quote the input (memory text) or part of the key: neither raised
            # nor logged; the status and the error's own code say what went wrong.
            log.error("embeddings request to %s failed with HTTP %d (%s)", self._shown_url,
                      response.status_code, _error_code(response))
            raise UpstreamError(_FAILED)
        raise AssertionError("unreachable")  # pragma: no cover


def _error_code(response: httpx.Response) -> str:
    """The machine-readable part of an OpenAI-style error body (``error.type`` / ``error.code``),
    which never quotes the input or the key; "no error code" otherwise."""
    try:
        body = response.json()
    except ValueError:
        return "no error code"
    # proxies and self-hosted gateways answer lists, strings or numbers too
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return "no error code"
    parts = [str(error[k])[:60] for k in ("type", "code") if isinstance(error.get(k), str | int)]
    return ", ".join(parts) or "no error code"
