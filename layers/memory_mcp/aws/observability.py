"""Powertools logger, metrics and tracer for the Lambda functions, with secrets redacted.

Every log line is one JSON object (Powertools' format). Before it is written, API keys
(``mm_<prefix>_<secret>`` keeps only its public prefix), bearer tokens, passwords inside URLs
or libpq strings, and the values of sensitive fields (``authorization``, ``password``, ...) are
replaced by ``[REDACTED]``. The package's own loggers (``memory_mcp.*``) and the libraries on the
request path log through the same formatter, so nothing reaches CloudWatch unredacted by them.

The tracer is built lazily, on the first invocation of a decorated handler (or by ``prime()``,
which ``aws/warmup.py`` calls when the init phase is snapshotted or pre-provisioned): importing
the X-Ray SDK and patching botocore (which imports botocore's client machinery) is not part of the
module import. Where tracing cannot happen (outside Lambda, under SAM local or Chalice,
``POWERTOOLS_TRACE_DISABLED``, or without ``aws-xray-sdk``, which only the Lambda layer ships),
a no-op stand-in is used and the SDK is never imported at all.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.logging.formatter import LambdaPowertoolsFormatter
from aws_lambda_powertools.logging.types import LogRecord
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers

SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME", "memory-mcp")
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE", "MemoryMcp")
REDACTED = "[REDACTED]"
#: Loggers (and their children) that log through the redacting JSON formatter: the package at
#: the configured level, the libraries on the request path at WARNING (at INFO they log several
#: lines per request: pool checkouts, lifespan steps, "POST /mcp 200", which the API's access
#: log already records).
PACKAGE_LOGGERS = frozenset({"memory_mcp"})
LIBRARY_LOGGERS = frozenset({"mcp", "mangum", "psycopg", "httpx", "uvicorn", "fastapi"})
#: Field names whose values are never logged, whatever they contain (compared lower-cased).
SENSITIVE_FIELDS = frozenset({
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api_key",
    "apikey", "password", "passwd", "secret", "secretstring", "secret_string", "token",
    "access_token", "refresh_token", "database_url", "openai_api_key", "aws_secret_access_key",
    "aws_session_token", "x-amz-security-token",
})

_API_KEY = re.compile(r"\bmm_([0-9a-f]{10})_[A-Za-z0-9_-]{43}")
_BEARER = re.compile(r"(?i)\b(bearer\s+)[^\s\"',;]+")
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^:/@\s]+:)[^@\s]+@")
_CONNINFO_PASSWORD = re.compile(r"(?i)\b(password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s'\"]+)")
_AMZ_SIGNATURE = re.compile(r"(?i)\b(X-Amz-(?:Signature|Security-Token|Credential)=)[^&\s\"']+")


def redact_text(text: str) -> str:
    """Mask secrets inside free text (messages, exception traces, URLs)."""
    text = _API_KEY.sub(rf"mm_\1_{REDACTED}", text)
    text = _BEARER.sub(rf"\1{REDACTED}", text)
    text = _URL_PASSWORD.sub(rf"\1{REDACTED}@", text)
    text = _CONNINFO_PASSWORD.sub(rf"\1{REDACTED}", text)
    return _AMZ_SIGNATURE.sub(rf"\1{REDACTED}", text)


def redact(value: Any, _depth: int = 0) -> Any:
    """A copy of ``value`` with sensitive fields and embedded secrets masked (recursively)."""
    if _depth > 20:
        return value
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {key: (REDACTED if isinstance(key, str) and key.lower() in SENSITIVE_FIELDS
                      and item not in (None, "") else redact(item, _depth + 1))
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact(item, _depth + 1) for item in value]
    return value


class RedactingFormatter(LambdaPowertoolsFormatter):
    """Powertools' JSON formatter, redacting every record just before it is serialised."""

    def serialize(self, log: LogRecord) -> str:
        return super().serialize(redact(log))


def _make_logger() -> Logger:
    powertools_logger = Logger(service=SERVICE, logger_formatter=RedactingFormatter())
    for name in PACKAGE_LOGGERS | LIBRARY_LOGGERS:
        logging.getLogger(name)  # register the parents, so their future children inherit too
    copy_config_to_registered_loggers(source_logger=powertools_logger, include=set(PACKAGE_LOGGERS))
    copy_config_to_registered_loggers(source_logger=powertools_logger, include=set(LIBRARY_LOGGERS),
                                      log_level=logging.WARNING)
    return powertools_logger


F = TypeVar("F", bound=Callable[..., Any])
_TRUE = frozenset({"1", "true", "yes", "on", "y", "t"})


class NoopTracer:
    """Stands in for Powertools' ``Tracer`` where tracing is off or ``aws-xray-sdk`` is missing."""

    def capture_lambda_handler(self, lambda_handler: F | None = None, capture_response: bool | None = None,
                               capture_error: bool | None = None) -> Callable[[F], F]:
        return lambda function: function

    def capture_method(self, method: F | None = None, capture_response: bool | None = None,
                       capture_error: bool | None = None) -> Callable[[F], F]:
        return lambda function: function

    def put_annotation(self, key: str, value: str | float | bool) -> None:
        return None


def tracing_possible() -> bool:
    """Whether Powertools' ``Tracer`` would trace here, decided as it does (``LAMBDA_TASK_ROOT``
    set, not SAM local or Chalice, ``POWERTOOLS_TRACE_DISABLED`` not true), plus the X-Ray SDK
    being installed. Reads the environment only: nothing is imported."""
    if os.environ.get("POWERTOOLS_TRACE_DISABLED", "false").strip().lower() in _TRUE:
        return False
    if not os.environ.get("LAMBDA_TASK_ROOT"):
        return False
    if os.environ.get("AWS_SAM_LOCAL") or os.environ.get("AWS_CHALICE_CLI_MODE"):
        return False
    return importlib.util.find_spec("aws_xray_sdk") is not None


def _make_tracer() -> Any:
    if not tracing_possible():
        return NoopTracer()
    from aws_lambda_powertools import Tracer

    # Only botocore is patched (Secrets Manager, Bedrock, S3 calls become subsegments);
    # patching everything would import every supported library.
    return Tracer(service=SERVICE, patch_modules=["botocore"])


class LazyTracer:
    """The module's ``tracer``: Powertools' ``Tracer`` (or ``NoopTracer``), built on first use.

    ``capture_lambda_handler`` wraps the handler at import without building anything; the first
    invocation builds the tracer and decorates the handler with the real decorator, once.
    """

    def __init__(self) -> None:
        self._real: Any = None

    def prime(self) -> Any:
        """Build the tracer now (idempotent); returns it."""
        if self._real is None:
            self._real = _make_tracer()
        return self._real

    @property
    def built(self) -> bool:
        return self._real is not None

    def capture_lambda_handler(self, *, capture_response: bool | None = None,
                               capture_error: bool | None = None) -> Callable[[F], F]:
        def decorate(handler: F) -> F:
            traced: list[Callable[..., Any]] = []

            @functools.wraps(handler)
            def wrapper(event: Any, context: Any, **kwargs: Any) -> Any:
                if not traced:
                    traced.append(self.prime().capture_lambda_handler(
                        capture_response=capture_response, capture_error=capture_error)(handler))
                return traced[0](event, context, **kwargs)

            return cast(F, wrapper)

        return decorate

    def put_annotation(self, key: str, value: str | float | bool) -> None:
        self.prime().put_annotation(key=key, value=value)


logger: Logger = _make_logger()
metrics: Metrics = Metrics(namespace=NAMESPACE, service=SERVICE)
#: Builds ``aws_lambda_powertools.Tracer`` on first use in Lambda; ``NoopTracer`` elsewhere.
tracer: LazyTracer = LazyTracer()
