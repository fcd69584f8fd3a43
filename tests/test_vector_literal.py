"""The halfvec literal a vector is written as (``db.memories.vector_literal``): rounded to half
precision in Python and written short, it must store exactly what PostgreSQL makes of the
full-precision text, for every scale a vector's numbers take (real embedded PostgreSQL)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import psycopg
import pytest

from memory_mcp.config import STORAGE_DIMENSIONS
from memory_mcp.db.memories import vector_literal
from memory_mcp.embeddings import Vectors
from memory_mcp.errors import UpstreamError
from memory_mcp.services.runtime import Runtime

pytestmark = pytest.mark.anyio


def _full_repr(vector: list[float], width: int) -> str:
    """What the literal used to be: each double's repr, zero-padded."""
    return "[" + ",".join(map(str, vector)) + ",0" * (width - len(vector)) + "]"


async def test_the_short_literal_stores_the_same_halfvec_bit_for_bit(runtime: Runtime) -> None:
    rng = np.random.default_rng(11)
    cases: list[list[float]] = []
    for scale in (1.0, 1e-3, 1e-6, 30.0):  # unit vectors, small, subnormal halves, large
        for dims in (384, 1024):
            for _ in range(12):
                raw = rng.standard_normal(dims)
                cases.append((raw / np.linalg.norm(raw) * scale).astype(np.float32).tolist())
    # (all zeros is refused: test_a_vector_without_direction_is_refused)
    # doubles that are no single-precision float (a remote provider's JSON, an import file):
    # PostgreSQL rounds them twice (to single, then half), and so must the literal
    for _ in range(8):
        raw = rng.standard_normal(384)
        cases.append((raw / np.linalg.norm(raw)).tolist())
    cases.append([1.0004882821813226, -1.0004882821813226, 0.1, 1 / 3, 65504.0, -0.0] * 4)
    async with runtime.transaction(system=True) as conn:
        for v in cases:
            cur = await conn.execute(
                "SELECT %s::halfvec(3072) = %s::halfvec(3072) AS same,"
                " %s::halfvec(3072)::text AS short, %s::halfvec(3072)::text AS full",
                (vector_literal(v, STORAGE_DIMENSIONS), _full_repr(v, STORAGE_DIMENSIONS)) * 2)
            row = await cur.fetchone()
            assert row is not None and row["same"] and row["short"] == row["full"]
    assert len(vector_literal(cases[0], STORAGE_DIMENSIONS)) < \
        0.8 * len(_full_repr(cases[0], STORAGE_DIMENSIONS))


@pytest.mark.parametrize("bad", [[1e6], [-70000.0], [65519.999], [float("nan")],
                                 [float("inf")], [0.1, float("-inf")]])
def test_values_a_halfvec_cannot_hold_are_refused(bad: list[float]) -> None:
    with pytest.raises(ValueError, match="vector values must be"):
        vector_literal(bad, 8)


async def test_postgresql_refuses_what_the_literal_refuses(runtime: Runtime) -> None:
    """65519.999 rounds to 65520 in single precision, past the largest half: PostgreSQL
    refuses the full repr too, so refusing it early loses nothing it would have stored."""
    with pytest.raises(psycopg.errors.DataError, match="out of range"):
        async with runtime.transaction(system=True) as conn:
            await conn.execute("SELECT %s::halfvec", ("[65519.999]",))


@pytest.mark.parametrize("zero", [[0.0] * 8, [1e-9, -1e-9, 0.0], [2.0 ** -26] * 4])
def test_a_vector_without_direction_is_refused(zero: list[float]) -> None:
    """pgvector's cosine to a zero vector is NaN, which PostgreSQL sorts above every score:
    such a memory would top every search (and NaN is not JSON). Values half precision rounds
    to 0 count as zeros."""
    with pytest.raises(ValueError, match="all zeros"):
        vector_literal(zero, 8)
    assert vector_literal([2.0 ** -24, 0.0]) != "[0,0]"  # the smallest half is a direction


def test_width_pads_and_never_cuts() -> None:
    assert vector_literal([0.5, -0.25], 4) == "[0.5,-0.25,0,0]"
    assert vector_literal([0.5, -0.25]) == "[0.5,-0.25]"
    with pytest.raises(ValueError, match="exceeds width"):
        vector_literal([0.1] * 5, 4)


class _Broken:
    """A provider answering with a number no halfvec holds."""

    model_id, dimensions = "test:broken", 4

    def __init__(self, value: float) -> None:
        self.value = value

    def embed(self, texts: list[str]) -> Vectors:
        return [[0.5, self.value, 0.0, 0.0] for _ in texts]


@pytest.mark.parametrize("value", [float("nan"), 1e9])
async def test_a_provider_answering_unstorable_numbers_is_an_upstream_error(
        runtime: Runtime, value: float) -> None:
    broken = replace(runtime, embedder=_Broken(value), batcher=None)
    with pytest.raises(UpstreamError, match="numbers a vector cannot hold"):
        await broken.embed(["anything"])


class _Zero:
    """A provider answering with a vector of zeros (seen from services that fail open)."""

    model_id, dimensions = "test:zero", 4

    def embed(self, texts: list[str]) -> Vectors:
        return [[0.0] * 4 for _ in texts]


async def test_a_provider_answering_zeros_is_an_upstream_error(runtime: Runtime) -> None:
    zero = replace(runtime, embedder=_Zero(), batcher=None)
    with pytest.raises(UpstreamError, match="all zeros"):
        await zero.embed(["anything"])


async def test_a_stored_zero_vector_never_tops_a_search(runtime: Runtime, world: Any) -> None:
    """A row written before zero vectors were refused scores 0, not NaN (``search.cosine``)."""
    import uuid as uuid_mod

    from memory_mcp.db import identity
    from memory_mcp.db import memories as db
    from memory_mcp.services import memories, validation

    space = await world.space()
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The deploy pipeline runs on Jenkins.", None, space)
    async with runtime.transaction(system=True) as conn:
        found = await identity.find_space(conn, space)
        assert found is not None
        mid = uuid_mod.uuid4()
        text = "deploy pipeline legacy note"
        await db.insert(conn, memory_id=mid, space_id=found["id"], content=text,
                        content_hash=validation.content_hash(text), category=None,
                        vector="[" + ",".join(["0"] * STORAGE_DIMENSIONS) + "]",
                        user_id=m.principal.user_id, root_id=mid)
    result = await memories.search(runtime, m.principal, query="deploy pipeline Jenkins",
                                   keyword=None, category=None, include_profile=False,
                                   container_tag=space, limit=5)
    scores = [(h["memory"], h["semantic"], h["score"]) for h in result["results"]]
    assert all(math.isfinite(s) and math.isfinite(f) for _, s, f in scores), scores
    assert scores[0][0] == "The deploy pipeline runs on Jenkins.", scores
    zero = next(s for s in scores if s[0] == text)
    assert zero[1] == 0.0
