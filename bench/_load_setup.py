"""The set-up of ``bench/load.py``: constants, CPU by process (from ``/proc``), the spaces, keys
and seed memories, and the server process."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import _common as common
from _common import log
from _load_records import KeyPlan
from pydantic import SecretStr

from memory_mcp.config import Settings
from memory_mcp.services import admin, memories
from memory_mcp.services.keys import authenticate

ROOT = Path(__file__).resolve().parents[1]
TOKEN = re.compile(r"\(ref (lt\d{3}q\d{6}z)\)")
#: During an outage nothing may take longer than this (the pool wait is 5 s).
OUTAGE_BOUND_S = 8.0
SEED_PER_SPACE = 12
#: How long uploads still processing when the traffic stops are followed before verifying.
UPLOAD_WAIT_S = 120.0


@dataclass
class Cpu:
    server_pid: int
    pgdata: Path
    marks: dict[str, float] = field(default_factory=dict)
    pg_spent: float = 0.0  # postgres CPU of clusters already stopped (outage)
    _pg_from: float = 0.0

    def _postgres(self) -> float:
        return common.postgres_cpu_s(common.postmaster_pid(self.pgdata))

    def start(self) -> None:
        self.marks = {"bench": time.process_time(),
                      "server": common.process_cpu_s(self.server_pid, children=True)}
        self._pg_from = self._postgres()

    def pg_stopping(self) -> None:
        self.pg_spent += self._postgres() - self._pg_from

    def pg_started(self) -> None:
        self._pg_from = self._postgres()

    def read(self) -> dict[str, float]:
        return {"server": common.process_cpu_s(self.server_pid, children=True)
                - self.marks["server"],
                "clients (bench process)": time.process_time() - self.marks["bench"],
                "postgres": self.pg_spent + self._postgres() - self._pg_from}


# --------------------------------------------------------------------------------------------
# set-up: spaces, keys, seed memories; the server process


async def setup(url: str, args: argparse.Namespace) -> list[KeyPlan]:
    settings = Settings(database_url=SecretStr(url), rate_limit_requests_per_minute=0,
                        rate_limit_writes_per_minute=0, migrations_dir=ROOT / "migrations")
    tag = uuid.uuid4().hex[:6]
    spaces = [f"load-{tag}-{i}" for i in range(args.spaces)]
    plans: list[KeyPlan] = []
    async with common.product_runtime(settings, url) as rt:
        for space in spaces:
            await admin.create_space(rt, space, f"Load space {space}", "bench/load.py")
        for k in range(args.keys):
            read_only = k >= args.keys - args.read_only_keys
            user = await admin.create_user(rt, f"agent{k}-{tag}@load.test", f"Agent key {k}",
                                           "reader" if read_only else "writer")
            created = await admin.create_key(rt, user["id"], f"load {k}")
            own, other = spaces[k % len(spaces)], spaces[(k + 1) % len(spaces)]
            await admin.set_grant(rt, created["id"], own, "read" if read_only else "readwrite")
            if other != own:
                await admin.set_grant(rt, created["id"], other, "read")
            plans.append(KeyPlan(k, created["key"], created["id"],
                                 None if read_only else own, list(dict.fromkeys([own, other])),
                                 own if read_only else other))
        log(f"seeding {SEED_PER_SPACE} memories into each of {len(spaces)} spaces")
        writers = {p.write_space: p for p in plans if p.write_space}
        for space, plan in writers.items():
            async with rt.transaction(system=True) as conn:
                principal = await authenticate(conn, plan.key)
            for i in range(SEED_PER_SPACE):
                subject = ["the billing service", "the CI pipeline", "the data team",
                           "the API gateway", "the mobile app", "the docs site"][i % 6]
                await memories.save(rt, principal, f"Seed fact {i} of {space}: {subject} "
                                    f"reviews its runbook every {i + 2} weeks.", None, space)
    return plans


@contextmanager
def server_process(url: str, data_dir: Path, args: argparse.Namespace
                   ) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    """``memory-mcp serve`` in its own process; yields (process, base URL, log file)."""
    port = common.free_port()
    env = {**os.environ, "DATABASE_URL": url, "MEMORY_MCP_DATA_DIR": str(data_dir),
           "MEMORY_MCP_RATE_LIMIT_REQUESTS_PER_MINUTE": "0",
           "MEMORY_MCP_RATE_LIMIT_WRITES_PER_MINUTE": "0", "MEMORY_MCP_LOG_LEVEL": "WARNING",
           "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations")}
    if args.pool_max_size:
        env["MEMORY_MCP_POOL_MAX_SIZE"] = str(args.pool_max_size)
    log_path = data_dir / "server.log"
    data_dir.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as out:
        proc = subprocess.Popen(  # noqa: S603 - fixed argv, our own interpreter
            [sys.executable, "-c", "from memory_mcp.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        common.wait_until_healthy(
            proc, base, 120, lambda: f"the server exited: {log_path.read_text()[-2000:]}")
        yield proc, base, log_path
    finally:
        common.stop_child(proc, wait_s=20)
