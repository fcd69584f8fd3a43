"""Micro-batching of concurrent embeds (embeddings/batching.py).

The batching logic is tested with a small fake provider that records its calls and can be held
inside a call (so requests demonstrably arrive "while a batch runs"); one test uses the real
local model to show that batched vectors equal vectors embedded one at a time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import anyio
import pytest

from memory_mcp.embeddings import Embedder, Vectors, batching
from memory_mcp.embeddings.batching import EmbeddingBatcher
from memory_mcp.errors import UpstreamError
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio


class RecordingEmbedder:
    """Rows ``[len(text), call number]``; records every call; ``hold()`` keeps the next call
    inside ``embed`` until ``release()``; ``fail_on`` makes that call (1-based) raise."""

    def __init__(self, fail_on: int | None = None) -> None:
        self.calls: list[list[str]] = []
        self.fail_on = fail_on
        self._gate = threading.Event()
        self._gate.set()

    @property
    def model_id(self) -> str:
        return "fake:recording"

    @property
    def dimensions(self) -> int:
        return 2

    def hold(self) -> None:
        self._gate.clear()

    def release(self) -> None:
        self._gate.set()

    def embed(self, texts: list[str]) -> Vectors:
        self.calls.append(list(texts))
        number = len(self.calls)
        self._gate.wait(timeout=30)
        if number == self.fail_on:
            raise RuntimeError(f"provider down in call {number}")
        return [[float(len(text)), float(number)] for text in texts]


async def wait_entered(fake: RecordingEmbedder, calls: int = 1) -> None:
    """Until ``calls`` calls have reached the fake (held there); it runs on worker threads."""
    with anyio.fail_after(30):
        while len(fake.calls) < calls:
            await anyio.sleep(0.001)


async def queued(batcher: EmbeddingBatcher, count: int) -> None:
    """Until ``count`` requests wait behind the running batch (test-only peek)."""
    with anyio.fail_after(30):
        while sum(len(q.pending) for q in batcher._queues.values()) < count:
            await anyio.sleep(0.001)


async def test_requests_arriving_during_a_batch_share_the_next_call_in_order() -> None:
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake, max_in_flight=1)
    results: dict[int, Vectors] = {}
    texts = [["a" * (i + 1), "b" * (10 + i)] for i in range(6)]

    async def one(i: int) -> None:
        results[i] = await batcher.embed(texts[i])

    fake.hold()
    async with anyio.create_task_group() as tg:
        tg.start_soon(one, 0)
        await wait_entered(fake)  # call 1 runs with request 0 alone
        for i in range(1, 6):
            tg.start_soon(one, i)
        await queued(batcher, 5)
        fake.release()
    assert fake.calls == [texts[0], [t for i in range(1, 6) for t in texts[i]]]
    assert results[0] == [[1.0, 1.0], [10.0, 1.0]]
    for i in range(1, 6):  # each caller gets its own rows, in its own order, from call 2
        assert results[i] == [[float(i + 1), 2.0], [float(10 + i), 2.0]]
    assert batcher.provider_calls == 2 and batcher.mean_batch_size == 6.0


async def test_batches_are_bounded_and_large_requests_bypass_the_queue() -> None:
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake, max_batch=4, max_in_flight=1)
    fake.hold()
    async with anyio.create_task_group() as tg:
        tg.start_soon(batcher.embed, ["first"])
        await wait_entered(fake)
        for i in range(6):
            tg.start_soon(batcher.embed, [f"queued {i}"])
        await queued(batcher, 6)
        fake.release()  # the held call and everything after it proceed
        await batcher.embed([f"large {i}" for i in range(4)])  # >= max_batch: straight through
    sizes = sorted(len(call) for call in fake.calls)
    assert sizes == [1, 2, 4, 4]  # first; the large one; six queued as 4 + 2 (oldest first)
    assert [f"queued {i}" for i in range(4)] in fake.calls
    assert ["queued 4", "queued 5"] in fake.calls


async def test_an_error_reaches_every_caller_of_that_batch_and_only_them() -> None:
    fake = RecordingEmbedder(fail_on=2)
    batcher = EmbeddingBatcher(fake, max_in_flight=1)
    outcomes: dict[int, Any] = {}

    async def one(i: int) -> None:
        try:
            outcomes[i] = await batcher.embed([f"text {i}"])
        except RuntimeError as exc:
            outcomes[i] = exc

    fake.hold()
    async with anyio.create_task_group() as tg:
        tg.start_soon(one, 0)
        await wait_entered(fake)
        for i in range(1, 5):
            tg.start_soon(one, i)
        await queued(batcher, 4)
        fake.release()
    assert outcomes[0] == [[6.0, 1.0]]
    assert all(isinstance(outcomes[i], RuntimeError) for i in range(1, 5))
    assert await batcher.embed(["later"]) == [[5.0, 3.0]]  # the batcher is not stuck


class _NoTimer:
    """``module`` as the batching module sees it, minus ``sleep``: touching it fails the test.

    Only ``batching``'s own names are replaced. Patching ``asyncio.sleep`` itself would reach
    every loop in the process, and the session's live server (tests/conftest.py) runs one in a
    thread: uvicorn's main loop sleeps 0.1 s per tick, and a tick that met the patch killed
    the server thread for every later test (CI, 2026-12-02: 65 tests timed out)."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        if name == "sleep":
            raise AssertionError("the batcher must not wait on a timer")
        return getattr(self._module, name)


async def test_a_lone_call_goes_straight_to_the_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    """No timer: a call that finds nothing running never sleeps before embedding."""
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake)
    monkeypatch.setattr(batching, "anyio", _NoTimer(anyio))
    monkeypatch.setattr(batching, "asyncio", _NoTimer(asyncio))
    for n in range(3):
        assert await batcher.embed([f"alone {n}"]) == [[7.0, float(n + 1)]]
    assert fake.calls == [["alone 0"], ["alone 1"], ["alone 2"]]


async def test_a_second_request_uses_the_free_slot_and_later_ones_merge() -> None:
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake, max_in_flight=2)
    fake.hold()
    async with anyio.create_task_group() as tg:
        tg.start_soon(batcher.embed, ["first"])
        tg.start_soon(batcher.embed, ["second"])
        await wait_entered(fake, 2)  # neither waited for the other
        for i in range(3):
            tg.start_soon(batcher.embed, [f"queued {i}"])
        await queued(batcher, 3)
        assert len(fake.calls) == 2  # both slots busy: the rest wait
        fake.release()
    assert sorted(map(len, fake.calls)) == [1, 1, 3]
    assert ["queued 0", "queued 1", "queued 2"] in fake.calls


async def test_a_cancelled_waiter_is_withdrawn_and_the_others_still_get_answers() -> None:
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake, max_in_flight=1)
    got: list[Vectors] = []

    async def keep(text: str) -> None:
        got.append(await batcher.embed([text]))

    fake.hold()
    async with anyio.create_task_group() as tg:
        tg.start_soon(keep, "one")
        await wait_entered(fake)
        tg.start_soon(keep, "two")
        async with anyio.create_task_group() as doomed:
            doomed.start_soon(batcher.embed, ["cancelled"])
            await queued(batcher, 2)
            doomed.cancel_scope.cancel()
        fake.release()
    assert fake.calls == [["one"], ["two"]]
    assert sorted(got) == [[[3.0, 1.0]], [[3.0, 2.0]]]


async def test_disabled_is_a_plain_pass_through() -> None:
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake, enabled=False)
    async with anyio.create_task_group() as tg:
        for i in range(4):
            tg.start_soon(batcher.embed, [f"t{i}"])
    assert sorted(c[0] for c in fake.calls) == ["t0", "t1", "t2", "t3"]
    assert batcher.provider_calls == 4 and batcher.mean_batch_size == 1.0


def test_one_batcher_serves_successive_event_loops() -> None:
    """Mangum/the Lambda handler and tests run several loops over a process's life."""
    fake = RecordingEmbedder()
    batcher = EmbeddingBatcher(fake)

    async def burst(tag: str) -> list[Vectors]:
        return list(await asyncio.gather(*(batcher.embed([f"{tag}{i}"]) for i in range(5))))

    first = asyncio.run(burst("a"))
    second = asyncio.run(burst("b"))
    assert len(first) == len(second) == 5
    assert sum(len(c) for c in fake.calls) == 10


async def test_real_model_batched_vectors_equal_one_at_a_time(embedder: Embedder) -> None:
    provider = embedder
    texts = [f"Team {i} deploys the billing service on {day} with {i + 2} approvals"
             for i, day in enumerate(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                      "Saturday", "Sunday", "every morning"])]
    texts += ["short", "Alice prefers tea over coffee in the Berlin office"]
    sequential = [provider.embed([t])[0] for t in texts]
    batcher = EmbeddingBatcher(provider)
    concurrent = await asyncio.gather(*(batcher.embed([t]) for t in texts))
    assert batcher.provider_calls < len(texts)  # some were batched
    for one, (row,) in zip(sequential, concurrent, strict=True):
        assert max(abs(a - b) for a, b in zip(one, row, strict=True)) < 1e-5


async def test_runtime_embed_batches_and_still_translates_provider_errors(
    runtime: Runtime,
) -> None:
    real = runtime.embedder
    fake = RecordingEmbedder(fail_on=4)
    runtime.embedder = fake
    try:
        fake.hold()
        async with anyio.create_task_group() as tg:
            tg.start_soon(runtime.embed, ["x"])
            tg.start_soon(runtime.embed, ["w"])
            await wait_entered(fake, 2)  # two slots: both start at once
            for i in range(4):
                tg.start_soon(runtime.embed, [f"y{i}"])
            assert runtime.batcher is not None and runtime.batcher.embedder is fake
            await queued(runtime.batcher, 4)
            fake.release()
        assert [len(c) for c in fake.calls] == [1, 1, 4]
        with pytest.raises(UpstreamError, match="embedding provider failed"):
            await runtime.embed(["z"])
    finally:
        runtime.embedder = real


async def test_runtime_does_not_merge_requests_for_single_text_providers(runtime: Runtime) -> None:
    """Bedrock embeds one text per API call (four in parallel): merging would serialise them."""
    rt = dataclasses.replace(runtime, settings=runtime.settings.model_copy(
        update={"embedding_provider": "bedrock"}), embedder=RecordingEmbedder(), batcher=None)
    async with anyio.create_task_group() as tg:
        for i in range(4):
            tg.start_soon(rt.embed, [f"b{i}"])
    assert rt.batcher is not None and not rt.batcher.enabled
    assert rt.batcher.provider_calls == 4
