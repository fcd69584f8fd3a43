"""Micro-batching: concurrent embedding requests share one provider call.

Why: every ``add_memory`` embeds one text. A model call has a fixed cost per call (the ONNX
session run, thread hand-off, padding set-up; an HTTP round trip for a remote provider), so
sixteen concurrent saves that each call the model on their own thread pay it sixteen times and,
on a small machine, oversubscribe the cores.
Embedding them as one batch pays it once.

How: no timer and no background task. A request that finds a free slot (fewer than
``max_in_flight`` provider calls running) embeds its texts at once: a lone save waits for
nothing. Requests that arrive while every slot is busy queue up; when a call finishes, the first
of them to wake takes every queued request (up to ``max_batch`` texts, oldest first) into the
next single ``embed`` call and hands each caller its own rows, in order. An error of that call
reaches every caller of the batch. Requests of ``max_batch`` texts or more
(document imports) bypass the queue: they are batches already, and must not hold up saves.

Event loops: the queue is per running loop (created lazily, held weakly), never shared: anyio
events belong to one loop, the uvicorn server has one loop and the Lambda handler owns one, and
a loop that died mid-batch (a test, a closed loop) can leave no stale "busy" state behind.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from dataclasses import dataclass, field

import anyio
import anyio.lowlevel
import anyio.to_thread

from memory_mcp.embeddings.base import Embedder, Vectors
from memory_mcp.errors import UpstreamError

#: Texts per provider call at most; LocalEmbedder runs them in sub-batches of 32 (length-sorted).
DEFAULT_MAX_BATCH = 64
#: Provider calls running at once. With one, batches run strictly one after another, and when
#: they stay small (writers mostly waiting elsewhere, e.g. on the per-space lock) that serial
#: stream is slower than the parallel calls it replaced; two keep both cores of a small machine
#: (or two HTTP calls) busy, and requests merge only once both are taken.
DEFAULT_IN_FLIGHT = 2


@dataclass(eq=False)
class _Request:
    """One caller's texts and, once its batch has run, its rows or the batch's error."""

    texts: list[str]
    queued: bool = True  # waiting in ``pending`` (False once a batch has taken it)
    vectors: Vectors | None = None
    error: BaseException | None = None
    done: bool = False


@dataclass(eq=False)
class _Queue:
    """One event loop's waiting requests, its batches in flight, and the event the next batch
    to finish fires (a fresh one each time: anyio events cannot be reset)."""

    pending: list[_Request] = field(default_factory=list)
    in_flight: int = 0
    finished: anyio.Event | None = None

    def next_finish(self) -> anyio.Event:
        if self.finished is None:
            self.finished = anyio.Event()
        return self.finished


def _loop_key() -> object:
    """The running event loop (asyncio, as uvicorn and Mangum run), else the backend's token."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return anyio.lowlevel.current_token().native_token


class EmbeddingBatcher:
    """Wraps ``embedder`` so that concurrent ``await embed(texts)`` calls are batched.

    ``enabled=False`` is a plain pass-through (each call on its own worker thread, as before
    batching existed): for providers whose API takes one text per call (Bedrock fans a batch out
    over only four threads, so merging requests would serialise them) and for comparisons.
    ``provider_calls`` / ``texts_embedded`` count what reached the provider (statistics only).
    """

    def __init__(self, embedder: Embedder, *, max_batch: int = DEFAULT_MAX_BATCH,
                 max_in_flight: int = DEFAULT_IN_FLIGHT, enabled: bool = True) -> None:
        if max_batch < 1 or max_in_flight < 1:
            raise ValueError("max_batch and max_in_flight must be at least 1")
        self._embedder = embedder
        self._max_batch = max_batch
        self._max_in_flight = max_in_flight
        self._enabled = enabled
        self._lock = threading.Lock()  # guards the queue map: loops may run in several threads
        self._queues: weakref.WeakKeyDictionary[object, _Queue] = weakref.WeakKeyDictionary()
        self.provider_calls = 0
        self.texts_embedded = 0

    @property
    def embedder(self) -> Embedder:
        """The wrapped provider (Runtime re-wraps when its embedder is replaced)."""
        return self._embedder

    @property
    def enabled(self) -> bool:
        """False: every call goes straight to the provider on its own thread."""
        return self._enabled

    @property
    def mean_batch_size(self) -> float:
        """Texts per provider call so far (0.0 before the first call)."""
        return self.texts_embedded / self.provider_calls if self.provider_calls else 0.0

    async def embed(self, texts: list[str]) -> Vectors:
        """Rows for ``texts`` in order, embedded together with any requests queued meanwhile."""
        if not texts:
            return []
        if not self._enabled or len(texts) >= self._max_batch:
            return await self._call(list(texts))
        queue = self._queue()
        request = _Request(list(texts))
        queue.pending.append(request)
        try:
            while not request.done:
                if request.queued and queue.in_flight < self._max_in_flight:
                    await self._run_batch(queue)
                else:  # every slot is busy, or our request is in a batch already
                    await queue.next_finish().wait()
        except BaseException:
            if request.queued:  # cancelled before a batch took it: withdraw it
                queue.pending.remove(request)
            raise
        if request.error is not None:
            raise request.error
        assert request.vectors is not None
        return request.vectors

    def _queue(self) -> _Queue:
        key = _loop_key()
        with self._lock:
            queue = self._queues.get(key)
            if queue is None:
                queue = self._queues[key] = _Queue()
            return queue

    def _take(self, pending: list[_Request]) -> list[_Request]:
        """The oldest requests that fit in ``max_batch`` texts (always at least one)."""
        count, total = 0, 0
        for request in pending:
            if count and total + len(request.texts) > self._max_batch:
                break
            count += 1
            total += len(request.texts)
        batch = pending[:count]
        del pending[:count]
        for request in batch:
            request.queued = False
        return batch

    async def _run_batch(self, queue: _Queue) -> None:
        """Embed the oldest queued requests in one call and settle each of them. Called only
        with a free slot (the check and taking the slot happen without an await between)."""
        batch = self._take(queue.pending)
        queue.in_flight += 1
        try:
            vectors = await self._call([text for request in batch for text in request.texts])
            if len(vectors) != sum(len(request.texts) for request in batch):
                raise UpstreamError("The embedding provider returned vectors of the wrong shape.")
        except Exception as exc:
            for request in batch:
                request.error, request.done = exc, True
        except BaseException:  # the leading caller was cancelled: the others are not
            for request in batch:
                request.queued = True
            queue.pending[:0] = batch
            raise
        else:
            start = 0
            for request in batch:
                end = start + len(request.texts)
                request.vectors, request.done = vectors[start:end], True
                start = end
        finally:
            queue.in_flight -= 1
            finished, queue.finished = queue.finished, None
            if finished is not None:
                finished.set()

    async def _call(self, texts: list[str]) -> Vectors:
        self.provider_calls += 1
        self.texts_embedded += len(texts)
        return await anyio.to_thread.run_sync(self._embedder.embed, texts)
