"""A per-text LRU cache in front of any ``Embedder``.

Agents repeat themselves: the same recall query at the start of every session, the same profile
lookups, the same memory re-submitted. An embedding is a pure function of (model, text), so a
small in-process cache saves model time locally and money plus latency with a remote provider.
It is per process (per Lambda instance), which is all that is needed for repeated queries.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from memory_mcp.embeddings.base import Embedder, Vectors


class CachedEmbedder:
    """Wraps ``inner`` with a thread-safe LRU of at most ``size`` texts.

    Only misses reach ``inner``, de-duplicated and in one batch. The lock is not held while
    ``inner`` runs, so a slow provider call never blocks cache hits on other threads; two
    threads missing the same text at once may both compute it, which is harmless.
    Cached rows are stored as tuples and every call returns fresh lists, so callers may modify
    what they get without corrupting the cache.
    """

    def __init__(self, inner: Embedder, size: int) -> None:
        if size <= 0:
            raise ValueError("cache size must be positive")
        self._inner = inner
        self._size = size
        self._lock = threading.Lock()
        self._rows: OrderedDict[str, tuple[float, ...]] = OrderedDict()

    @property
    def inner(self) -> Embedder:
        """The wrapped provider."""
        return self._inner

    @property
    def model_id(self) -> str:
        """Same as the wrapped provider: caching does not change the vectors."""
        return self._inner.model_id

    @property
    def dimensions(self) -> int:
        """Same as the wrapped provider."""
        return self._inner.dimensions

    def embed(self, texts: list[str]) -> Vectors:
        """Serve hits from the cache and embed the distinct misses in one inner call."""
        found: dict[str, tuple[float, ...]] = {}
        with self._lock:
            for text in texts:
                row = self._rows.get(text)
                if row is not None:
                    self._rows.move_to_end(text)
                    found[text] = row
        misses = list(dict.fromkeys(t for t in texts if t not in found))
        if misses:
            computed = self._inner.embed(misses)
            with self._lock:
                for text, fresh in zip(misses, computed, strict=True):
                    stored = tuple(fresh)
                    self._rows[text] = stored
                    self._rows.move_to_end(text)
                    found[text] = stored
                while len(self._rows) > self._size:
                    self._rows.popitem(last=False)
        return [list(found[text]) for text in texts]

    def clear(self) -> None:
        """Forget everything (e.g. in tests)."""
        with self._lock:
            self._rows.clear()
