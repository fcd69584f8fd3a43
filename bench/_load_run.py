"""The run of ``bench/load.py``: the outage (a server restart mid-run), progress lines and the
load phase itself."""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path

import _common as common
import anyio
import anyio.to_thread
import httpx
from _common import log
from _load_records import KeyPlan, Run
from _load_setup import (
    UPLOAD_WAIT_S,
    Cpu,
)
from _load_traffic import Agent
from _load_wire import session

from memory_mcp.db import embedded

# --------------------------------------------------------------------------------------------
# the run


@dataclass
class Outage:
    at_s: float
    seconds: float
    marks: dict[str, float] = field(default_factory=dict)


async def outage_task(run: Run, outage: Outage, data_dir: Path, base: str, cpu: Cpu) -> None:
    await anyio.sleep(max(0.0, run.started + outage.at_s - time.monotonic()))
    log(f"OUTAGE: stopping the embedded PostgreSQL for {outage.seconds:.0f} s")
    cpu.pg_stopping()
    outage.marks["stop"] = time.monotonic()
    await anyio.to_thread.run_sync(embedded.stop_embedded, data_dir)
    outage.marks["down"] = time.monotonic()
    await anyio.sleep(max(0.0, outage.marks["stop"] + outage.seconds - time.monotonic()))
    outage.marks["restart"] = time.monotonic()
    await anyio.to_thread.run_sync(embedded.embedded_database_url, data_dir)
    outage.marks["up"] = time.monotonic()
    cpu.pg_started()
    log(f"OUTAGE: PostgreSQL is back after {outage.marks['up'] - outage.marks['stop']:.1f} s")
    async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
        while True:
            try:
                if (await http.get(f"{base}/healthz")).status_code == 200:
                    outage.marks["healthy"] = time.monotonic()
                    return
            except httpx.HTTPError:
                pass
            await anyio.sleep(0.2)


async def progress(run: Run, every: float) -> None:
    last = 0
    while not run.over():
        await anyio.sleep(every)
        done = len(run.samples)
        recent = run.samples[last:done]
        bad = sum(1 for s in recent if s.kind != "ok" and not s.expected)
        log(f"  {time.monotonic() - run.started:5.0f} s: {done} calls, "
            f"{len(recent) / every:.1f}/s lately, {bad} unexpected errors lately, "
            f"load {common.loadavg()}")
        last = done


async def load(base: str, plans: list[KeyPlan], args: argparse.Namespace, data_dir: Path,
               cpu: Cpu, outage: Outage | None) -> Run:
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False,
                                 limits=limits) as upload_http:
        run = Run(url=f"{base}/mcp", stop_at=time.monotonic() + args.duration,
                  uploads_budget=args.uploads, duration_s=args.duration, upload_http=upload_http)
        agents = [Agent(run, c, plans[c % len(plans)], seed=1000 + c) for c in range(args.clients)]
        cpu.start()
        async with anyio.create_task_group() as tg:
            for agent in agents:
                tg.start_soon(agent.loop)
            tg.start_soon(progress, run, 30.0 if args.duration > 60 else 10.0)
            if outage is not None:
                tg.start_soon(outage_task, run, outage, data_dir, base, cpu)
        run.stop_at = time.monotonic()  # the last calls ended here
        # Uploads still being processed: follow them (bounded) before verifying; these polls
        # are not part of the load figures.
        in_run = len(run.samples)
        pending = [a for a in agents if a.pending]
        waiting = sum(len(a.pending) for a in pending)
        t0 = time.monotonic()
        deadline = t0 + UPLOAD_WAIT_S
        for agent in pending:
            async with session(run.url, agent.plan.key, agent.wire) as client:
                while agent.pending and time.monotonic() < deadline:
                    await agent.poll_upload(client)
                    await anyio.sleep(0.5)
        if pending:
            left = sum(len(a.pending) for a in agents)
            run.notes.append(f"after the run, {waiting} "
                             f"upload(s) of {len(pending)} client(s) were still processing; "
                             f"followed them for {time.monotonic() - t0:.0f} s "
                             f"({len(run.samples) - in_run} getDocument calls): "
                             + (f"{left} never finished" if left else "all finished"))
        del run.samples[in_run:]
    return run
