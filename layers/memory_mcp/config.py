"""One typed settings object for the whole process.

Everything configurable is read here, once, from the environment (prefix-free names for the
conventional ones such as ``DATABASE_URL``, ``MEMORY_MCP_*`` for the rest), so the rest of the
package never touches ``os.environ`` and tests can build a ``Settings`` explicitly.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

#: Width of the ``memories.embedding`` column. Every provider's vectors are zero-padded to it.
STORAGE_DIMENSIONS = 3072


def _default_migrations_dir() -> Path:
    """Repository checkout: ``<root>/migrations``; Lambda layer: ``memory_mcp/migrations``."""
    packaged = Path(__file__).parent / "migrations"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "migrations"


class Settings(BaseSettings):
    """Process configuration. See the configuration table in README.md."""

    model_config = SettingsConfigDict(env_prefix="MEMORY_MCP_", extra="ignore")

    database_url: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DATABASE_URL", "MEMORY_MCP_DATABASE_URL")
    )
    #: Hosted: a Secrets Manager secret with RDS credentials (username, password, host, port,
    #: dbname), used when DATABASE_URL is not set. ``database_host`` overrides the secret's host
    #: (e.g. an RDS Proxy endpoint).
    database_secret_arn: str | None = None
    #: Hosted request paths: the application login's secret (``memory_mcp_server``, same JSON
    #: shape), rotated by Secrets Manager. When set, the server's pool logs in with it instead
    #: of the owner secret, which then serves only migrations and the admin paths.
    database_app_secret_arn: str | None = None
    database_host: str | None = None
    database_sslmode: str = "require"
    data_dir: Path = Path(".memory-mcp")
    migrations_dir: Path = Field(default_factory=_default_migrations_dir)
    auto_migrate: bool = True
    #: Run every transaction as memory_mcp_app under the row-level security policies (0009).
    #: Off only to measure what the policies cost (bench/search_latency.py --compare-rls).
    row_security: bool = True

    host: str = "127.0.0.1"
    port: int = 8787
    public_url: str | None = None
    allowed_hosts: list[str] = Field(default_factory=lambda: ["*"])

    pool_min_size: int = 1
    pool_max_size: int = 10
    #: How long a request waits for a pooled connection (all busy, or the database down)
    #: before it gets a retryable 503 instead of hanging.
    pool_wait_seconds: float = 5.0
    #: Per-key budgets per minute (0: unlimited); a key may have its own (memory-mcp keys
    #: limits). Writes (saves, forgets, deletes, uploads) have the second, lower budget.
    rate_limit_requests_per_minute: int = 600
    rate_limit_writes_per_minute: int = 120
    #: Audit events older than this are purged by `memory-mcp audit --purge` and at start-up.
    audit_retention_days: int = 365
    #: TCP connect timeout for new database connections.
    db_connect_timeout_seconds: int = 5

    embedding_provider: Literal["local", "bedrock", "openai"] = "local"
    embedding_model: str | None = None
    embedding_dimensions: int | None = None
    embedding_cache_size: int = 512
    bedrock_region: str | None = None
    openai_base_url: str = "https://api.openai.com/v1"
    openai_api_key: SecretStr | None = None
    embedding_timeout_seconds: float = 30.0

    max_content_chars: int = 100_000
    max_query_chars: int = 4_000
    #: Similarity bounds for versioning and forgetting. Unset: the pinned model's calibrated
    #: values (services/matching.py; conservative for models not measured here).
    version_threshold: float | None = None
    forget_threshold: float | None = None
    forget_margin: float | None = None
    #: search_memory hits scoring below this are marked weak, and a search whose best hit is
    #: weak says there is no good match. Unset: the pinned model's calibrated floor.
    weak_score: float | None = None
    #: The deepest search_memory's HNSW scan looks (pgvector's hnsw.ef_search, at most 1000);
    #: a space searches at its size / 40, at least 100 (db.memories.enable_search_ann). 1000
    #: keeps recall@10 >= 0.95 of an exact scan at 100k memories per space, also for queries
    #: far from the space's topics (docs/pgvector-halfvec-search.md); saves use 100.
    hnsw_ef_search: int = 1000
    #: search_memory(query=...) fuses meaning and full text; false: meaning only.
    hybrid_search: bool = True
    #: How: by signal strength ("score", db/search.py) or by rank ("rrf", the former default,
    #: kept for comparison in bench/retrieval_quality.py).
    fusion: Literal["score", "rrf"] = "score"
    #: Candidates per side; 20 beat 50 on both benchmarks (bench/retrieval_quality.py).
    hybrid_candidates: int = 20
    #: score = semantic + lexical_boost * lexical * (1 - semantic).
    lexical_boost: float = 0.8
    #: Score fusion only: a hit that offers the kind of answer a who/when/how many/where question
    #: asks for (a person or team, a time, a number, a place) closes this share of its score's
    #: gap to 1, unless it is weak (services/rerank.py); 0 turns it off.
    answer_type_boost: float = Field(default=0.1, ge=0.0, le=1.0)
    #: RRF only: weight of the full-text side.
    hybrid_lexical_weight: float = 1.0

    profile_stable_limit: int = 10
    profile_recent_limit: int = 5
    profile_recent_days: int = 7
    profile_categories: list[str] = Field(
        default_factory=lambda: [
            "preference",
            "convention",
            "decision",
            "profile",
            "identity",
            "policy",
            "rule",
        ]
    )

    # Documents: uploads, extraction and their bounds (a hostile file must not exhaust a worker).
    uploads_bucket: str | None = None
    upload_url_ttl_seconds: int = 900
    upload_signing_secret: SecretStr | None = None
    max_upload_bytes: int = 25 * 1024 * 1024
    max_extracted_chars: int = 500_000
    #: Memories (and embeddings) one document may create. A document with more statements has
    #: adjacent ones grouped into passages so none is dropped (documents/coverage.py); the
    #: default, max_extracted_chars / 100, keeps every statement of typical prose separate.
    max_memories_per_document: int = 5_000
    max_pdf_pages: int = 300
    #: Locally, a document at max_extracted_chars takes ~100-140 s to embed with the local model
    #: on 2 busy cores (bench/document_coverage.py): 300 s lets it finish. Hosted, the stack sets
    #: it from the extract function's timeout.
    job_time_budget_seconds: float = 300.0
    max_processing_attempts: int = 3
    processing_lease_seconds: int = 300
    tesseract_cmd: str = "tesseract"
    transcribe_language: str = "en-US"
    #: An OpenAI-compatible speech-to-text endpoint (POST {base}/v1/audio/transcriptions, e.g. a
    #: local Whisper server): audio and video without AWS. When set it is used, even hosted,
    #: instead of Amazon Transcribe (documents/transcribe_openai.py).
    transcription_base_url: str | None = None
    transcription_model: str = "whisper-1"
    transcription_api_key: SecretStr | None = None
    transcription_timeout_seconds: float = 300.0
    transcription_max_bytes: int = 25 * 1024 * 1024

    # Optional LLM for turning document text into facts; without one a deterministic offline
    # extractor is used.
    llm_provider: Literal["none", "bedrock", "openai"] = "none"
    llm_model: str | None = None
    llm_base_url: str = "https://api.openai.com/v1"
    llm_api_key: SecretStr | None = None
    llm_timeout_seconds: float = 60.0

    log_level: str = "INFO"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read from the environment once."""
    return Settings()
