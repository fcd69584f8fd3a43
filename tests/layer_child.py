"""Child process of ``tests/test_layer.py``: one Lambda handler, run as the Python runtime runs it.

Started with the layer's CPython 3.12 as ``python3.12 -P layer_child.py`` (``-P``: this file's
directory is not put on ``sys.path``), cwd and ``PYTHONPATH`` set up like a Lambda execution
environment. Reads a JSON list of events on stdin, imports ``handler`` from ``LAMBDA_TASK_ROOT``
(``handler.handler`` is what the functions are deployed with), invokes it once per event on the
same module, and prints one ``RESULT <json>`` line: the responses, where key modules came from,
every imported module that is not from the function, the layer, the runtime's packages or the
standard library, layer modules imported without byte code, and any Python-level network access.
Runs only under the test's interpreter: nothing here imports from this repository.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import socket
import sys
import sysconfig
import time
import uuid
from typing import Any

#: Modules whose origin the test checks: ours, compiled extensions, the HTTP stack.
WATCHED = ("memory_mcp", "pydantic", "pydantic_core", "psycopg", "psycopg_binary", "mangum", "fastapi",
           "mcp", "aws_lambda_powertools", "aws_xray_sdk", "numpy", "boto3", "botocore", "httpx",
           # Documents (extract): the parsers and their compiled extensions.
           "docx", "lxml", "lxml.etree", "pypdf", "cryptography", "cryptography.hazmat.bindings._rust",
           "PIL", "PIL._imaging")


class Context:
    """The attributes of the Lambda context object that Powertools and Mangum read."""

    function_name = os.environ.get("AWS_LAMBDA_FUNCTION_NAME", "memory-mcp-layer-test")
    function_version = "$LATEST"
    memory_limit_in_mb = 1024
    invoked_function_arn = f"arn:aws:lambda:eu-west-1:123456789012:function:{function_name}"
    log_group_name = f"/aws/lambda/{function_name}"
    log_stream_name = "layer-test"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def _network_audit(seen: list[list[str]], daemon: tuple[str, int]) -> None:
    """Record every Python-level socket connect, send or DNS lookup but the X-Ray daemon's
    (libpq's own socket is not one of them), as ``[event, host, address]``."""

    def host(address: Any) -> str:
        return str(address[0]) if isinstance(address, tuple) and address else str(address)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event in ("socket.connect", "socket.sendto") and args[1] != daemon:
            seen.append([event, host(args[1]), repr(args[1])])
        elif event == "socket.getaddrinfo":
            seen.append([event, host(args[:1]), repr(args[:2])])

    sys.addaudithook(hook)


def _under(path: str, roots: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root + os.sep) for root in roots)


def main() -> None:
    events = json.load(sys.stdin)
    # The X-Ray daemon Lambda runs next to the function: a UDP socket that collects the segments.
    daemon = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    daemon.bind(("127.0.0.1", 0))
    daemon.setblocking(False)
    os.environ["AWS_XRAY_DAEMON_ADDRESS"] = "{}:{}".format(*daemon.getsockname())
    network: list[list[str]] = []
    _network_audit(network, daemon.getsockname())
    t0 = time.perf_counter()
    module = importlib.import_module("handler")  # from LAMBDA_TASK_ROOT, first on PYTHONPATH
    import_s = time.perf_counter() - t0
    responses = []
    for event in events:  # the runtime sets the invocation's trace header before each one
        os.environ["_X_AMZN_TRACE_ID"] = (f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]};"
                                          f"Parent={uuid.uuid4().hex[:16]};Sampled=1")
        responses.append(module.handler(event, Context()))
    traced = []
    while True:
        try:
            datagram = daemon.recv(65536)
        except BlockingIOError:
            break
        traced.append(json.loads(datagram.split(b"\n", 1)[1])["name"])

    from memory_mcp.config import Settings

    layer = os.path.realpath(os.environ["LAYER_DIR"])
    ours = [os.path.realpath(p) for p in os.environ["PYTHONPATH"].split(os.pathsep)]
    stdlib = [os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib")]
    site = [os.path.realpath(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")]
    foreign, no_pyc = [], []
    for name, mod in sorted(sys.modules.items()):
        path = getattr(mod, "__file__", None)
        if not path or mod is sys.modules["__main__"]:  # also its alias __mp_main__
            continue
        if not _under(path, ours) and (_under(path, site) or not _under(path, stdlib)):
            foreign.append(f"{name}: {path}")
        elif (_under(path, [layer]) and path.endswith(".py")
              and not os.path.exists(importlib.util.cache_from_source(path))):
            no_pyc.append(name)
    watched = {name: getattr(sys.modules.get(name), "__file__", None) for name in WATCHED}
    print("RESULT " + json.dumps({
        "import_s": import_s, "responses": responses, "modules": watched, "foreign": foreign,
        "no_pyc": no_pyc, "network": network, "traced": traced, "python": list(sys.version_info[:2]),
        "migrations_dir": str(Settings().migrations_dir),
    }, default=str), flush=True)


if __name__ == "__main__":
    main()
