"""The local worker: the same pipeline as the SQS Lambda, run as tasks on the server's loop.

An upload PUT enqueues its document here. Transient failures are retried with a short backoff up
to ``max_processing_attempts``. At start every document a previous process left queued or
mid-way is picked up again, and a sweep every ``SWEEP_EVERY_S`` picks up any that nothing is
working on (a job that gave up waiting for the database, a worker error, an upload whose PUT
task was lost): an uploaded document is always processed eventually, however many there are.
"""

from __future__ import annotations

import asyncio
import logging
import time
from uuid import UUID

from memory_mcp.db import processing
from memory_mcp.documents.pipeline import Extractors, LeaseHeld, RetryLater, process
from memory_mcp.errors import StoreUnavailableError
from memory_mcp.services.runtime import Runtime

log = logging.getLogger(__name__)

#: Longest pause between checks while the database is unreachable or a lease is held.
MAX_WAIT_S = 15.0
#: How often the worker looks for uploaded documents nothing is working on.
SWEEP_EVERY_S = 60.0
#: Documents read per page while sweeping.
SWEEP_PAGE = 500


class LocalJobs:
    def __init__(self, rt: Runtime, tools: Extractors, concurrency: int = 1,
                 retry_delay: float = 1.0) -> None:
        self.rt = rt
        self.tools = tools
        self.retry_delay = retry_delay
        self.watchdog_seconds = rt.settings.job_time_budget_seconds + 60
        self._slots = asyncio.Semaphore(concurrency)
        self._tasks: set[asyncio.Task[None]] = set()
        self._active: set[UUID] = set()  # submitted and not finished: never run twice here
        self._sweeper: asyncio.Task[None] | None = None

    def submit(self, document_id: UUID) -> None:
        if document_id in self._active:
            return
        self._active.add(document_id)
        task = asyncio.get_running_loop().create_task(self._run(document_id))
        self._tasks.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            self._active.discard(document_id)
        task.add_done_callback(done)

    async def sweep(self) -> int:
        """Submit every uploaded document that nobody holds (queued, or mid-way with an expired
        lease) and that is not running here; returns how many were submitted."""
        submitted, after = 0, None
        while True:
            async with self.rt.transaction(system=True) as conn:
                rows = await processing.unfinished(conn, SWEEP_PAGE, after)
            for row in rows:
                # only files this server stores: another server on the same database (tests,
                # a second data dir) processes its own
                if row["id"] not in self._active and row["storage_key"] and \
                        await asyncio.to_thread(self.tools.storage.exists, row["storage_key"]):
                    self.submit(row["id"])
                    submitted += 1
            if len(rows) < SWEEP_PAGE:
                return submitted
            after = (rows[-1]["created_at"], rows[-1]["id"])

    def start_sweeping(self, every: float = SWEEP_EVERY_S) -> None:
        """Sweep now and then every ``every`` seconds, until ``close``."""
        async def forever() -> None:
            while True:
                try:
                    found = await self.sweep()
                    if found:
                        log.info("picked up %s unfinished document(s)", found)
                except StoreUnavailableError:
                    pass  # the next sweep tries again
                except Exception:  # never let the sweeper die silently
                    log.exception("sweep for unfinished documents failed")
                await asyncio.sleep(every)
        self._sweeper = asyncio.get_running_loop().create_task(forever())

    async def _run(self, document_id: UUID) -> None:
        """Run the job; retry transient failures (counted), and wait out an unreachable
        database or a lease left behind (not counted) until the lease has surely expired."""
        attempt, pause = 1, self.retry_delay
        give_up_at = time.monotonic() + self.rt.settings.processing_lease_seconds + 120
        while True:
            try:
                async with self._slots:
                    outcome = await asyncio.wait_for(process(self.rt, self.tools, document_id),
                                                     self.watchdog_seconds)
                log.info("document %s: %s", document_id, outcome)
                return
            except TimeoutError:
                # The time budget is checked between pages and phases; a single pathological
                # step can overrun it. Give up on it so the queue keeps moving.
                log.warning("document %s: stuck past the watchdog; marked failed", document_id)
                async with self.rt.transaction(system=True) as conn:
                    await processing.fail_in_progress(
                        conn, document_id,
                        f"Processing took longer than {self.watchdog_seconds:.0f} s and was "
                        "stopped.")
                return
            except (StoreUnavailableError, LeaseHeld) as exc:
                if time.monotonic() > give_up_at:
                    log.warning("document %s: still blocked (%s); left for the next sweep",
                                document_id, exc)
                    return
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_WAIT_S)
            except RetryLater as exc:
                if attempt > self.rt.settings.max_processing_attempts:
                    return
                log.info("document %s: retry %s (%s)", document_id, attempt, exc)
                await asyncio.sleep(self.retry_delay * attempt)
                attempt += 1
            except Exception:  # never let a worker task die silently
                log.exception("document %s: worker error", document_id)
                return

    async def drain(self, timeout: float = 120.0) -> None:
        """Wait until every submitted job has finished (tests, graceful shutdown)."""
        if self._tasks:
            await asyncio.wait_for(asyncio.gather(*list(self._tasks)), timeout)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
