"""The package's error hierarchy.

Services raise these; only the edges (MCP tools, HTTP routes, the CLI) translate them into a
tool error, an HTTP status or an exit code. Messages are written for the person or model reading
them and never contain SQL, stack traces, keys or upstream response bodies.
"""

from __future__ import annotations

from uuid import UUID


class MemoryMcpError(Exception):
    """Base class: an anticipated failure whose message is safe to show a client."""

    http_status = 400
    #: The HTTP edges' machine-readable ``error`` (one snake_case style for every route).
    code = "invalid_input"


class InvalidInputError(MemoryMcpError):
    """The caller's input is malformed or out of bounds."""


class TooLargeError(InvalidInputError):
    """The input is bigger than a configured limit (HTTP 413)."""

    http_status = 413
    code = "too_large"


class NotFoundError(MemoryMcpError):
    """The thing does not exist, or exists where the caller may not see it (same text)."""

    http_status = 404
    code = "not_found"


class GrantLostError(NotFoundError):
    """A space the request resolved is no longer granted to its key (revoked, or the key or its
    user deactivated, since the key check); the caller words it as "not found" for that space."""


class AccessDeniedError(MemoryMcpError):
    """The caller may see the space but not do this there (e.g. write while read-only).
    ``space_id``: that space, when known, so the audit trail files the refusal under it."""

    http_status = 403
    code = "access_denied"

    def __init__(self, message: str, space_id: UUID | None = None) -> None:
        super().__init__(message)
        self.space_id = space_id


class AuthenticationError(MemoryMcpError):
    """Missing, unknown or revoked key, or deactivated user. Deliberately vague."""

    http_status = 401
    code = "unauthorized"

    def __init__(self, message: str = "Invalid or missing API key.") -> None:
        super().__init__(message)


class ConflictError(MemoryMcpError):
    """A uniqueness rule would be broken (e.g. a user with that email already exists)."""

    http_status = 409
    code = "conflict"


class ConfigurationError(MemoryMcpError):
    """The server is misconfigured (e.g. the embedding model differs from the pinned one)."""

    http_status = 500
    code = "server_misconfigured"


class UpstreamError(MemoryMcpError):
    """An upstream service (embedding provider) failed; details stay in the server log."""

    http_status = 502
    code = "upstream_failed"


class StoreUnavailableError(MemoryMcpError):
    """The database cannot be reached, or every connection is busy for longer than the wait
    bound. Retryable: the edge answers HTTP 503 with ``Retry-After`` (a tool error in MCP)."""

    http_status = 503
    code = "store_unavailable"
    retry_after_seconds = 5

    def __init__(self, message: str = "The memory store is unavailable right now. Please retry "
                                      "in a few seconds.") -> None:
        super().__init__(message)


class RateLimitedError(MemoryMcpError):
    """This key used up its per-minute budget; HTTP 429 with ``Retry-After``."""

    http_status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after_seconds: int) -> None:
        super().__init__(message)
        self.retry_after_seconds = max(1, retry_after_seconds)


def retry_after(exc: MemoryMcpError) -> dict[str, str] | None:
    """The ``Retry-After`` header for a retryable error, else None."""
    seconds = getattr(exc, "retry_after_seconds", None)
    return {"Retry-After": str(seconds)} if seconds else None
