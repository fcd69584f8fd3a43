"""How many live memories the spaces this process searched lately hold, for the search depth.

A search's HNSW depth (``hnsw.ef_search``) follows its space's size (db/ann.py). Reading that
size costs a statement of its own in every search, between the transaction's scope and the
query; remembering it here for a few seconds lets a search set the depth in its transaction's
first statement instead (``scope.enter``'s ``settings``): one round trip fewer on the hot path.

Only the depth depends on it, never what a caller is shown or allowed to see: a count a few
seconds old searches a space that just grew by a bulk import a little less deep until the next
reading (``TTL_SECONDS``), and the iterative scan still fills the result. The count is read under
the reading request's scope, and a process serves one deployment, so nothing crosses a boundary.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from uuid import UUID

#: How long a reading is used before the next search of the space reads it again.
TTL_SECONDS = 30.0
#: Spaces remembered at most (least recently searched forgotten first); a few hundred KB.
CAPACITY = 4096


class SpaceSizes:
    """Live-memory counts by space, each used for ``ttl`` seconds after it was read."""

    def __init__(self, *, ttl: float = TTL_SECONDS, capacity: int = CAPACITY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl, self._capacity, self._clock = ttl, capacity, clock
        self._read: OrderedDict[UUID, tuple[float, int]] = OrderedDict()

    def get(self, space_id: UUID) -> int | None:
        """The space's count if read in the last ``ttl`` seconds, else None (read it again)."""
        entry = self._read.get(space_id)
        if entry is None:
            return None
        read_at, live = entry
        if self._clock() - read_at >= self._ttl:
            del self._read[space_id]
            return None
        self._read.move_to_end(space_id)
        return live

    def note(self, space_id: UUID, live: int) -> None:
        """Remember a count just read (``db.ann.enable_search_ann`` returns it)."""
        self._read[space_id] = (self._clock(), live)
        self._read.move_to_end(space_id)
        while len(self._read) > self._capacity:
            self._read.popitem(last=False)
