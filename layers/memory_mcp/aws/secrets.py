"""Database credentials from Secrets Manager.

Two secrets of the same RDS JSON shape (``username``, ``password``, ``host``, ``port``,
``dbname``, ``engine``): the master user's (the schema owner: migrations, admin) and the
application login's (``memory_mcp_server``: the request paths), which Secrets Manager rotates.
The password never leaves this module except inside a libpq URL or as a ``SecretStr``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from psycopg.conninfo import make_conninfo
from pydantic import SecretStr

from memory_mcp.errors import ConfigurationError


@lru_cache(maxsize=1)
def _client() -> Any:
    import boto3

    return boto3.client("secretsmanager")


@dataclass(frozen=True)
class DatabaseSecret:
    """One RDS-style secret, parsed. ``password`` stays a ``SecretStr`` so no repr shows it."""

    username: str
    password: SecretStr
    host: str | None
    port: int
    dbname: str

    def url(self, host: str | None = None, sslmode: str = "require") -> str:
        """A libpq URL; ``host`` overrides the secret's (e.g. an RDS Proxy endpoint)."""
        target = host or self.host
        if not target:
            raise ConfigurationError("The database secret is missing host, username or password.")
        return make_conninfo(host=target, port=str(self.port), dbname=self.dbname,
                             user=self.username, password=self.password.get_secret_value(),
                             sslmode=sslmode)


def read_database_secret(arn: str, client: Any = None) -> DatabaseSecret:
    """Fetch and parse the secret's current version (``AWSCURRENT``). The error names the
    missing fields' kind, never the secret's content."""
    try:
        raw = (client or _client()).get_secret_value(SecretId=arn)["SecretString"]
        secret = json.loads(raw)
        username, password = secret["username"], secret["password"]
        if not isinstance(username, str) or not isinstance(password, str) or not password:
            raise TypeError("username and password must be strings")
        return DatabaseSecret(username=username, password=SecretStr(password),
                              host=secret.get("host"), port=int(secret.get("port", 5432)),
                              dbname=secret.get("dbname") or "postgres")
    except (KeyError, ValueError, TypeError) as exc:
        raise ConfigurationError("The database secret is missing host, username or password.") from exc


def database_url_from_secret(arn: str, host: str | None = None, sslmode: str = "require",
                             client: Any = None) -> str:
    """Build a libpq URL from an RDS-style JSON secret; never logs or returns the secret alone."""
    return read_database_secret(arn, client).url(host, sslmode)
