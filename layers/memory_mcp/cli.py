"""``memory-mcp``: serve, migrate, check, move spaces, and administer users, spaces, keys, grants.

Works against ``DATABASE_URL`` or, without it, the embedded PostgreSQL in the data directory.
Every command takes ``--json`` for scripts. Exit codes: 0 ok, 1 error (message on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from memory_mcp.cli_common import print_result, with_runtime
from memory_mcp.cli_transfer import TRANSFER_COMMANDS, add_transfer_commands
from memory_mcp.config import Settings, get_settings
from memory_mcp.errors import MemoryMcpError
from memory_mcp.services import admin, audit, space_removal
from memory_mcp.services.runtime import Runtime

Handler = Callable[[Runtime, argparse.Namespace], Awaitable[Any]]


class _Parser(argparse.ArgumentParser):
    """Every (sub)command accepts ``--json``, before or after the subcommand name."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # SUPPRESS: a subcommand without the flag must not reset one given earlier.
        self.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                          help="machine-readable output")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="memory-mcp", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    serve = sub.add_parser("serve", help="run the HTTP MCP server")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    sub.add_parser("migrate", help="apply pending database migrations")
    reembed = sub.add_parser("reembed", help="re-embed all memories with the configured model")
    reembed.add_argument("--yes", action="store_true", help="confirm")
    add_transfer_commands(sub)

    users = sub.add_parser(
        "users", help="people: create, list, deactivate, reactivate, set-role").add_subparsers(
        dest="action", required=True, parser_class=_Parser)
    c = users.add_parser("create")
    c.add_argument("--email", required=True)
    c.add_argument("--name", required=True)
    c.add_argument("--role", required=True, choices=admin.ROLES)
    users.add_parser("list")
    for action in ("deactivate", "reactivate"):
        users.add_parser(action).add_argument("user", help="user id or email")
    sr = users.add_parser("set-role")
    sr.add_argument("user", help="user id or email")
    sr.add_argument("--role", required=True, choices=admin.ROLES)

    spaces = sub.add_parser("spaces", help="spaces: create, list, delete").add_subparsers(
        dest="action", required=True, parser_class=_Parser)
    c = spaces.add_parser("create")
    c.add_argument("--key", required=True)
    c.add_argument("--name", required=True)
    c.add_argument("--description", default="")
    spaces.add_parser("list")
    c = spaces.add_parser("delete", help="delete a space with all its memories, documents, "
                                         "files and grants (export it first to keep a copy)")
    c.add_argument("key", help="space key")
    c.add_argument("--yes", action="store_true",
                   help="confirm; without it nothing is deleted and the space's contents are listed")

    keys = sub.add_parser(
        "keys", help="API keys: create (its secret is shown once), list, revoke, limits"
    ).add_subparsers(
        dest="action", required=True, parser_class=_Parser)
    c = keys.add_parser("create")
    c.add_argument("--user", required=True, help="user id or email")
    c.add_argument("--label", required=True)
    keys.add_parser("list").add_argument("--user", help="only this user's keys")
    keys.add_parser("revoke").add_argument("key_id")
    c = keys.add_parser("limits", help="set a key's own per-minute rate limits")
    c.add_argument("key_id")
    c.add_argument("--requests", help="requests per minute: a number, 0 = unlimited, or default")
    c.add_argument("--writes", help="writes per minute: a number, 0 = unlimited, or default")

    grants = sub.add_parser(
        "grants", help="a key's access to a space: set (read or readwrite), revoke"
    ).add_subparsers(
        dest="action", required=True, parser_class=_Parser)
    c = grants.add_parser("set")
    c.add_argument("--key", required=True, help="key id")
    c.add_argument("--space", required=True, help="space key")
    c.add_argument("--access", required=True, choices=admin.ACCESS)
    c = grants.add_parser("revoke")
    c.add_argument("--key", required=True, help="key id")
    c.add_argument("--space", required=True, help="space key")
    c = sub.add_parser("audit", help="read the audit trail (newest first)")
    c.add_argument("--space", help="only events in this space (key)")
    c.add_argument("--user", help="only events by this user, or about the user or one of "
                                  "the user's keys (id or email)")
    c.add_argument("--since", help="e.g. 7d, 12h, 30m or 2026-11-30")
    c.add_argument("--limit", type=int, default=200)
    return p


HANDLERS: dict[tuple[str, str | None], Handler] = {
    ("users", "create"): lambda rt, a: admin.create_user(rt, a.email, a.name, a.role),
    ("users", "list"): lambda rt, a: admin.list_users(rt),
    ("users", "deactivate"): lambda rt, a: admin.update_user(rt, a.user, active=False),
    ("users", "reactivate"): lambda rt, a: admin.update_user(rt, a.user, active=True),
    ("users", "set-role"): lambda rt, a: admin.update_user(rt, a.user, role=a.role),
    ("spaces", "create"): lambda rt, a: admin.create_space(rt, a.key, a.name, a.description),
    ("spaces", "list"): lambda rt, a: admin.list_spaces(rt),
    ("spaces", "delete"): lambda rt, a: space_removal.delete_space(rt, a.key, confirmed=a.yes),
    ("keys", "create"): lambda rt, a: admin.create_key(rt, a.user, a.label),
    ("keys", "list"): lambda rt, a: admin.list_keys(rt, a.user),
    ("keys", "revoke"): lambda rt, a: admin.revoke_key(rt, a.key_id),
    ("keys", "limits"): lambda rt, a: admin.set_key_limits(rt, a.key_id, a.requests, a.writes),
    ("audit", None): lambda rt, a: audit.read(rt.settings, rt, space=a.space, user=a.user,
                                              since=a.since, limit=a.limit),
    ("grants", "set"): lambda rt, a: admin.set_grant(rt, a.key, a.space, a.access),
    ("grants", "revoke"): lambda rt, a: admin.revoke_grant(rt, a.key, a.space),
}


def run(argv: Sequence[str] | None = None, settings: Settings | None = None) -> int:
    args = _parser().parse_args(argv)
    args.json = getattr(args, "json", False)
    settings = settings or get_settings()
    if args.command == "serve" or audit.operating() is not None:  # the admin Lambda names its own
        return _dispatch(args, settings)
    with audit.operated_by(audit.local_operator()):
        return _dispatch(args, settings)


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    try:
        if args.command == "serve":
            from memory_mcp.server_main import serve

            serve(settings, host=args.host, port=args.port)
            return 0
        if args.command == "migrate":
            from memory_mcp.db.migrator import migrate
            from memory_mcp.db.pool import resolve_database_url

            applied = migrate(resolve_database_url(settings), settings.migrations_dir)
            print_result({"applied": applied} if args.json else {"applied": ", ".join(applied) or
                                                          "nothing (up to date)"}, args.json)
            return 0
        if args.command == "reembed":
            return _reembed(settings, args)
        if args.command in TRANSFER_COMMANDS:
            return TRANSFER_COMMANDS[args.command](settings, args)
        handler = HANDLERS[(args.command, getattr(args, "action", None))]
        result = asyncio.run(with_runtime(settings, lambda rt: handler(rt, args)))
        print_result(result, args.json)
        return 0
    except MemoryMcpError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        import psycopg  # loaded already if it raised: the CLI's start imports no driver

        if not isinstance(exc, psycopg.OperationalError) or exc.sqlstate is not None:
            raise  # only a connection that failed (a server's error has a SQLSTATE)
        # no server there, a wrong password, ...: one line, not the migrator's traceback
        reason = (str(exc).strip().splitlines() or ["no reason given"])[0][:200]
        print(f"error: the database could not be reached ({reason}). Check DATABASE_URL (or "
              "MEMORY_MCP_DATA_DIR for the embedded one) and that the server is running.",
              file=sys.stderr)
        return 1


def _reembed(settings: Settings, args: argparse.Namespace) -> int:
    if not args.yes:
        print("error: re-embedding rewrites every stored vector; pass --yes to confirm.",
              file=sys.stderr)
        return 1
    from memory_mcp.cli_progress import for_args
    from memory_mcp.services.reembed import reembed_all
    from memory_mcp.services.startup import create_runtime_unchecked

    progress = for_args(args.json)

    async def go() -> Any:
        rt = await create_runtime_unchecked(settings)
        try:
            return await reembed_all(rt, progress=progress)
        finally:
            await rt.pool.close()

    try:
        result = asyncio.run(go())
    finally:
        progress.close()
    print_result(result, args.json)
    return 0


def main() -> None:
    sys.exit(run())


if __name__ == "__main__":  # python -m memory_mcp.cli
    main()
