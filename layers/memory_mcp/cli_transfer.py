"""``memory-mcp export`` / ``import`` / ``doctor``: moving a space, and checking a deployment.

An export goes to ``--output FILE`` (written as ``FILE.part`` and renamed when complete, so a
failed export never leaves a plausible-looking partial file) or to stdout; with stdout as the
data, the summary goes to stderr. Progress is drawn on stderr (cli_progress.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memory_mcp.cli_common import print_result, with_runtime
from memory_mcp.cli_progress import for_args
from memory_mcp.config import Settings


def add_transfer_commands(sub: Any) -> None:
    """Register the commands on the main parser's subparsers."""
    c = sub.add_parser("export", help="write a space to a JSON Lines export file")
    c.add_argument("--space", required=True, help="space key")
    c.add_argument("--output", "-o", help="file to write (default: stdout)")
    c.add_argument("--with-files", action="store_true",
                   help="include the stored original of every document (base64)")
    c = sub.add_parser("import", help="load an export file into a space (idempotent)")
    c.add_argument("file", help="an export file (memory-mcp export), or - for stdin")
    c.add_argument("--space", required=True, help="space key (created when missing)")
    c.add_argument("--user", help="importing user (id or email): author of rows whose author "
                                  "has no user here")
    c.add_argument("--batch", type=int, default=200, help="records per transaction")
    c = sub.add_parser("doctor", help="check the deployment and say how to fix what is missing")
    c.add_argument("--no-storage-probe", action="store_true",
                   help="do not write a probe object to the upload storage")


def _export(settings: Settings, args: argparse.Namespace) -> int:
    from memory_mcp.services.transfer_export import export_space

    progress = for_args(args.json)
    target = Path(args.output) if args.output and args.output != "-" else None
    partial = target.with_name(target.name + ".part") if target else None
    try:
        with (partial.open("w", encoding="utf-8") if partial
              else contextlib.nullcontext(sys.stdout)) as out:
            result = asyncio.run(with_runtime(settings, lambda rt: export_space(
                rt, args.space, out, with_files=args.with_files, progress=progress)))
        if partial and target:
            os.replace(partial, target)
    finally:
        progress.close()
        if partial is not None:
            partial.unlink(missing_ok=True)
    result["output"] = str(target) if target else "stdout"
    if target is None:  # stdout is the file: the summary must not end up inside it
        print(json.dumps(result, default=str) if args.json else
              "  ".join(f"{k}={v}" for k, v in result.items()), file=sys.stderr)
    else:
        print_result(result, args.json)
    return 0


def _import(settings: Settings, args: argparse.Namespace) -> int:
    from memory_mcp.errors import InvalidInputError
    from memory_mcp.services.transfer_import import import_space

    if args.batch < 1:
        raise InvalidInputError("--batch must be at least 1.")
    progress = for_args(args.json)
    with _readable_twice(args.file) as source:
        try:
            result = asyncio.run(with_runtime(settings, lambda rt: import_space(
                rt, source, args.space, fallback_user=args.user, batch=args.batch,
                progress=progress)))
        finally:
            progress.close()
    if args.json:
        print_result(result, True)
    else:
        lists = {k: result.pop(k) for k in ("authors_mapped", "authors_to_importing_user")}
        print_result(result, False)
        for name, emails in lists.items():
            if emails:
                print(f"{name}: {', '.join(emails)}")
    return 0


@contextlib.contextmanager
def _readable_twice(name: str) -> Iterator[Path]:
    """The import reads its file twice (checked whole first, then written): ``-`` (stdin) or
    a pipe (``/dev/stdin``, ``<(...)``) is copied to a temporary file first, so
    ``memory-mcp export … | memory-mcp import - …`` works."""
    path = Path(name)
    if name != "-" and not (path.is_fifo() or path.is_char_device()):
        yield path  # a regular file, or anything else the import reports ("No such file")
        return
    with tempfile.NamedTemporaryFile(prefix="memory-mcp-import-", suffix=".jsonl") as copy:
        if name == "-":
            shutil.copyfileobj(sys.stdin.buffer, copy)
        else:
            with path.open("rb") as pipe:
                shutil.copyfileobj(pipe, copy)
        copy.flush()
        yield Path(copy.name)


def _doctor(settings: Settings, args: argparse.Namespace) -> int:
    from memory_mcp.services.doctor import render, run_checks

    checks = run_checks(settings, probe_storage=not args.no_storage_probe)
    if args.json:
        print(json.dumps({"ok": all(c.status != "fail" for c in checks),
                          "checks": [c.as_dict() for c in checks]}, indent=2))
    else:
        print(render(checks))
    return 1 if any(c.status == "fail" for c in checks) else 0


TRANSFER_COMMANDS: dict[str, Callable[[Settings, argparse.Namespace], int]] = {
    "export": _export, "import": _import, "doctor": _doctor}
