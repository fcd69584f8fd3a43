"""Database credentials from Secrets Manager (the secret RDS generates for its master user)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from psycopg.conninfo import make_conninfo

from memory_mcp.errors import ConfigurationError


@lru_cache(maxsize=1)
def _client() -> Any:
    import boto3

    return boto3.client("secretsmanager")


def database_url_from_secret(arn: str, host: str | None = None, sslmode: str = "require",
                             client: Any = None) -> str:
    """Build a libpq URL from an RDS-style JSON secret; never logs or returns the secret alone."""
    try:
        raw = (client or _client()).get_secret_value(SecretId=arn)["SecretString"]
        secret = json.loads(raw)
        return make_conninfo(
            host=host or secret["host"],
            port=str(secret.get("port", 5432)),
            dbname=secret.get("dbname") or "postgres",
            user=secret["username"],
            password=secret["password"],
            sslmode=sslmode,
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise ConfigurationError("The database secret is missing host, username or password.") from exc
