"""The agreement rules off the event loop when their texts are long.

The rules are pure Python: comparing long texts costs tens of milliseconds to seconds a pair
(bench notes in docs/pgvector-halfvec-search.md, "Long texts"), and in the event loop that time
stops every other request of the process. A worker thread still shares the GIL, but the loop
gets it back every few milliseconds (``sys.getswitchinterval``), so a long forget or save slows
its neighbours instead of stalling them. Short texts (the usual facts) stay in the loop: a
thread hop would cost more than their rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import ParamSpec, TypeVar

import anyio.to_thread

from memory_mcp.services import wording

P = ParamSpec("P")
T = TypeVar("T")


def is_long(texts: Iterable[str]) -> bool:
    """Any of ``texts`` long enough for its rules to leave the loop (``wording.LONG_CHARS``)."""
    return any(len(t) > wording.LONG_CHARS for t in texts)


async def rules(texts: Iterable[str], fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs
                ) -> T:
    """``fn(*args, **kwargs)``: in a worker thread when any of ``texts`` is long."""
    if not is_long(texts):
        return fn(*args, **kwargs)
    return await anyio.to_thread.run_sync(partial(fn, *args, **kwargs))
