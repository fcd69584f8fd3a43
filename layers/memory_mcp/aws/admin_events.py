"""The admin Lambda: run one ``memory-mcp`` CLI command from an event, answer JSON.

An operator with ``lambda:InvokeFunction`` on the admin function manages users, spaces, keys and
grants without network access to the database::

    {"args": ["users", "create", "--email", "a@example.com", "--name", "A", "--role", "writer"]}
    → {"ok": true, "command": "users create", "result": {...}}
    → {"ok": false, "command": "users create", "error": "A user with email ... already exists."}

The command runs through ``memory_mcp.cli.run`` with ``--json``, so parsing, validation and
results are exactly the CLI's. ``serve`` is refused (it would never return). ``export`` and
``import`` read and write S3 objects (aws/admin_s3.py)::

    {"args": ["export", "--space", "eng", "--output", "s3://ops-bucket/eng.jsonl"]}
    {"args": ["import", "s3://ops-bucket/eng.jsonl", "--space", "eng", "--user", "ops@example.com"]}
 The result of
``keys create`` carries the new API key: it is returned in the response, once, and never logged;
the log gets only the command name and whether it succeeded.
"""

from __future__ import annotations

import io
import json
import logging
import tempfile
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from memory_mcp import cli
from memory_mcp.aws.admin_s3 import TransferArgsError, localise
from memory_mcp.aws.observability import metrics
from memory_mcp.config import Settings
from memory_mcp.services import audit

log = logging.getLogger(__name__)

ALLOWED_COMMANDS = frozenset({"users", "spaces", "keys", "grants", "audit", "migrate", "reembed",
                              "export", "import", "doctor"})
_HELP = frozenset({"-h", "--help"})
USAGE = ('Invoke with {"args": ["<command>", ...]}, e.g. {"args": ["users", "list"]}; commands: '
         + ", ".join(sorted(ALLOWED_COMMANDS)) + '. {"args": ["--help"]} lists them.')


def _failure(command: str | None, message: str) -> dict[str, Any]:
    return {"ok": False, "command": command, "error": message}


def _command_name(args: list[str]) -> str | None:
    words = [arg for arg in args if not arg.startswith("-")]
    if not words:
        return None
    if words[0] in ("users", "spaces", "keys", "grants") and len(words) > 1:
        return f"{words[0]} {words[1]}"
    return words[0]


def handle_admin_event(event: Mapping[str, Any], settings: Settings,
                       request_id: str | None = None) -> dict[str, Any]:
    """Run the CLI command in ``event["args"]``; never raises for a bad command.

    The audit events it records name the invocation (``request_id``): CloudTrail's record of
    that ``Invoke`` names the IAM principal who ran it, which the function itself cannot see."""
    with audit.operated_by(f"admin Lambda: request {request_id or 'unknown'}"):
        result = _handle(event, settings)
    log.info("admin command finished", extra={"command": result["command"], "ok": result["ok"]})
    metrics.add_metric(name="AdminCommands" if result["ok"] else "AdminCommandErrors",
                       unit=MetricUnit.Count, value=1)
    return result


def _handle(event: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    args = event.get("args") if isinstance(event, Mapping) else None
    if not isinstance(args, list) or not args or not all(isinstance(a, str) for a in args):
        return _failure(None, USAGE)
    command = _command_name(args)
    wants_help = bool(_HELP.intersection(args))
    first = command.split()[0] if command else None
    if first not in ALLOWED_COMMANDS and not (wants_help and first is None):
        return _failure(command, f"Command {first!r} is not available here. {USAGE}")

    with tempfile.TemporaryDirectory(prefix="memory-mcp-admin-") as work:
        try:
            local_args, after = localise(args, Path(work))
        except TransferArgsError as exc:
            return _failure(command, str(exc))
        result = _run(command, local_args, settings)
        if result["ok"] and after is not None:
            try:
                extra = after()
            except TransferArgsError as exc:
                return _failure(command, str(exc))
            result["result"] = {**result.get("result", {}), **extra}
        return result


def _run(command: str | None, args: list[str], settings: Settings) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = cli.run(["--json", *args], settings)
    except SystemExit as exc:  # argparse: usage errors (2) and --help (0)
        code = exc.code if isinstance(exc.code, int) else 2
    except Exception as exc:  # unexpected (e.g. the database is unreachable): details to the log
        log.exception("admin command failed", extra={"command": command})
        return _failure(command, f"Internal error ({type(exc).__name__}); see the function's log.")

    if code == 1 and command == "doctor" and out.getvalue().strip():  # failed checks: a report
        return {"ok": False, "command": command, "result": json.loads(out.getvalue())}
    if code != 0:
        message = err.getvalue().strip() or out.getvalue().strip() or f"exit status {code}"
        return _failure(command, message.removeprefix("error: "))
    text = out.getvalue()
    try:
        return {"ok": True, "command": command, "result": json.loads(text)}
    except ValueError:  # --help prints text
        return {"ok": True, "command": command, "output": text}
