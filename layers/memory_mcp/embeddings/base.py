"""The one interface every embedding provider implements, plus storage padding.

The database column is ``halfvec(3072)``. Providers with fewer native dimensions are
zero-padded: appending zeros changes neither dot products nor norms, so cosine distance between
two padded vectors equals the cosine distance between the originals.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from memory_mcp.config import STORAGE_DIMENSIONS

FloatArray = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of ``dimensions`` width.

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

    def embed(self, texts: list[str]) -> FloatArray:
        """Embed texts; returns an array of shape ``(len(texts), dimensions)``."""
        ...


def pad_to_storage(vectors: FloatArray) -> FloatArray:
    """Zero-pad ``(n, d)`` vectors to ``(n, STORAGE_DIMENSIONS)`` (see the module docstring)."""
    n, d = vectors.shape
    if d > STORAGE_DIMENSIONS:
        raise ValueError(f"embedding width {d} exceeds the storage width {STORAGE_DIMENSIONS}")
    if d == STORAGE_DIMENSIONS:
        return vectors.astype(np.float32, copy=False)
    out = np.zeros((n, STORAGE_DIMENSIONS), dtype=np.float32)
    out[:, :d] = vectors
    return out


def l2_normalise(vectors: FloatArray) -> FloatArray:
    """Row-wise L2 normalisation; zero rows stay zero instead of becoming NaN."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: FloatArray = (vectors / norms).astype(np.float32)
    return out
