"""What a handler imports only when its init phase is not on a request's path.

On an on-demand cold start Lambda runs the init phase (the handler module's import) right before
the first invocation, so the handlers import what every request needs and leave the rest to
first use: the X-Ray tracer (built on the first invocation, ``observability.LazyTracer``),
boto3/botocore (the first AWS call), the upload routes, the document pipeline.

When the init phase runs ahead of any request, importing more is free for the requests and
saves every new environment the deferred imports: with SnapStart the snapshot is taken after
the init phase (``AWS_LAMBDA_INITIALIZATION_TYPE=snap-start``), and provisioned concurrency
initialises before traffic arrives (``provisioned-concurrency``). ``prime()`` then builds the
tracer and imports the given modules. Imports only: nothing opens a connection or creates an
AWS client, so nothing in the snapshot goes stale or is shared between restored environments.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable

from memory_mcp.aws.observability import tracer

#: ``AWS_LAMBDA_INITIALIZATION_TYPE`` values whose init phase no request waits for.
AHEAD_OF_TRAFFIC = frozenset({"snap-start", "provisioned-concurrency"})
#: What every function's requests may use lazily: the AWS SDK and the tracer's botocore patch.
AWS_SDK = ("boto3", "botocore.client", "botocore.exceptions")


def init_ahead_of_traffic() -> bool:
    """True in a SnapStart or provisioned-concurrency init phase."""
    return os.environ.get("AWS_LAMBDA_INITIALIZATION_TYPE", "") in AHEAD_OF_TRAFFIC


def prime(modules: Iterable[str] = (), *, also: Iterable[Callable[[], object]] = (),
          force: bool = False) -> bool:
    """Build the tracer, import ``AWS_SDK`` and ``modules`` and call ``also``, but only when the
    init phase runs ahead of traffic (or ``force``). Returns whether it did."""
    if not (force or init_ahead_of_traffic()):
        return False
    tracer.prime()
    for name in (*AWS_SDK, *modules):
        importlib.import_module(name)
    for step in also:
        step()
    return True
