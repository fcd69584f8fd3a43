"""The one interface every embedding provider implements.

Vectors cross this interface as plain lists of floats, not numpy arrays: the hosted providers
(Bedrock, OpenAI-compatible) receive JSON numbers and the database wants halfvec text, so numpy
would only be a detour, and it cost ~0.1-0.2 s of every Lambda cold start plus 48 MiB of the
layer. Only the local ONNX model (the ``local`` extra) uses numpy, inside its own module.

The database column is ``halfvec(3072)``. Providers with fewer native dimensions are
zero-padded when the vector is formatted for storage (``db.memories.vector_literal``): appending
zeros changes neither dot products nor norms, so cosine distance between two padded vectors
equals the cosine distance between the originals.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

#: Rows of floats, one per input text, all of the provider's native width.
Vectors = list[list[float]]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors of ``dimensions`` width.

    Implementations are synchronous and thread-safe; services call them through
    ``anyio.to_thread`` so the event loop is never blocked by a model or an HTTP call.
    """

    @property
    def model_id(self) -> str:
        """Stable identifier pinned in the database, e.g. ``local:all-MiniLM-L6-v2-int8``."""
        ...

    @property
    def dimensions(self) -> int:
        """Native output width (before padding to the storage width)."""
        ...

    def embed(self, texts: list[str]) -> Vectors:
        """Embed texts; returns ``len(texts)`` rows of ``dimensions`` floats, in input order."""
        ...


def l2_normalise(rows: Iterable[Sequence[float]]) -> Vectors:
    """Row-wise L2 normalisation; zero rows stay zero instead of becoming NaN.

    ``math.hypot`` computes the norm in C without intermediate overflow: about 0.1 ms for a
    3072-wide row, nothing next to the provider call that produced it.
    """
    out: Vectors = []
    for row in rows:
        norm = math.hypot(*row)
        out.append([x / norm for x in row] if norm > 0 else [0.0] * len(row))
    return out
