"""The application login's password: the one change to a role made outside migrations.

Migrations create ``memory_mcp_server`` (0009) without a password: embedded, it logs in over the
trusted Unix socket. Hosted, its password lives in its own Secrets Manager secret, and the owner
copies it into the database after migrating (the deploy-time custom resource). The role itself
still comes only from migrations: a missing role is an error here, never created.

The password is sent as a SCRAM-SHA-256 verifier computed by libpq on this side (what psql's
``\\password`` does), inside a quoted literal: the plain password never crosses the wire, so
it cannot end up in the server's log even if the statement fails and is logged.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

from memory_mcp.errors import ConfigurationError


def set_login_password(owner_url: str, role: str, password: str) -> None:
    """As the owner (``owner_url``): give ``role`` this password. Raises ``ConfigurationError``
    if the role does not exist or may not log in (migrations have not run)."""
    if not password:
        raise ConfigurationError("The application login's secret has an empty password.")
    with psycopg.connect(owner_url, autocommit=True) as conn:
        row = conn.execute("SELECT rolcanlogin FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        if row is None or not row[0]:
            raise ConfigurationError(
                f"The database has no login role {role!r}: apply the migrations first.")
        verifier = conn.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256")
        conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
            sql.Identifier(role), sql.Literal(verifier.decode("ascii"))))
