"""The real Lambda layer, built as ``cdk deploy`` builds it, running the real handlers.

Why this test exists: every other test imports ``memory_mcp`` from this checkout's venv, on the
venv's Python, with the dev and local extras installed. What Lambda runs is different: the
functions' ``handler.py`` on CPython 3.12, with only the layer (manylinux x86_64 wheels fetched
for 3.12, byte-compiled) and the runtime's own boto3 on the path. This is the closest thing to
running the deployed artifact without AWS; it catches a dependency missing from the layer,
wrong-platform or wrong-Python wheels, byte-code problems, and code that only works with the dev
or local-only extras installed (e.g. an import of the ONNX runtime or the embedded PostgreSQL on
the hosted path).

The layer is built once per module with ``infra/layer_build.py`` (needs PyPI: a build failure
fails, it is not skipped). Each handler runs in a child process (``tests/layer_child.py``) with
the Lambda environment variables and hosted configuration (Bedrock embeddings, S3 uploads, no
auto-migration) against an empty database on the session's embedded PostgreSQL, in deploy order:
``migrate`` (CloudFormation Create, then Update), ``admin`` (user, space, key, grant), then
``mcp_http`` (API Gateway HTTP API events on one handler instance). No AWS call is made: the
child reports any Python-level network access, and the test requires none. X-Ray tracing is
active as on Lambda (a trace header per invocation, the segments sent to a local UDP "daemon").

The documents path runs too: ``mcp_http`` starts uploads, the files go to S3 with the presigned
URLs, and ``extract`` processes S3's notifications as SQS delivers them, which loads the parsers'
compiled extensions (lxml, cryptography, Pillow) from the layer. There moto (S3, SQS, Textract)
and an OpenAI-compatible embeddings stand-in serve on loopback (``tests/layer_aws.py``), and the
children may reach 127.0.0.1, nothing else.
"""

from __future__ import annotations

import base64
import io
import json
import os
import platform
import subprocess
import sys
import uuid
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from layer_aws import (
    EMBEDDING_DIMENSIONS,
    EMBEDDING_MODEL,
    LOOPBACK,
    aes_pdf,
    fake_embeddings,
    gif,
    moto_aws,
    sqs_event,
    textract_lines,
)
from test_handlers import TOOLS, http_event

from memory_mcp import cli
from memory_mcp.aws.migrations_resource import migrations_hash
from memory_mcp.config import Settings

from conftest import ROOT, empty_database, settings_for
from fixtures_docs import make_docx

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from infra.layer_build import build_layer, emulate_runtime, python312

CHILD = Path(__file__).with_name("layer_child.py")
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
INIT_PARAMS = {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "layer-test", "version": "1"}}
MIGRATIONS = sorted(p.stem for p in (ROOT / "migrations").glob("*.sql"))
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
#: What only ``extract`` imports: the document parsers and their compiled extensions.
EXTRACT_MODULES = ("docx", "lxml.etree", "pypdf", "cryptography.hazmat.bindings._rust", "PIL._imaging",
                   "httpx")


@pytest.fixture(scope="module")
def lambda_python() -> str:
    if sys.platform != "linux" or platform.machine() != "x86_64":
        pytest.skip("the layer holds manylinux x86_64 binaries: they load on Linux x86_64 only")
    python = python312()
    if python is None:
        pytest.skip("no CPython 3.12 (python3.12 on PATH, pyenv, or MEMORY_MCP_LAYER_PYTHON): "
                    "the layer targets the Lambda python3.12 runtime")
    return python


@pytest.fixture(scope="module")
def lambda_dirs(lambda_python: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the built layer, the Lambda runtime's own packages copied from the venv)."""
    layer = tmp_path_factory.mktemp("layer")
    build = build_layer(layer, compile_python=lambda_python)
    assert build.compiled_with == lambda_python
    return layer, emulate_runtime(layer, tmp_path_factory.mktemp("lambda-runtime"), lambda_python)


@pytest.fixture(scope="module")
def first_deploy_database(pg_root_url: str) -> str:
    """An empty database: the ``migrate`` function creates the schema, as on the first deploy
    (``fresh_database_url`` is migrated already)."""
    return empty_database(pg_root_url)


def _warnings(output: str) -> str:
    """The function's warnings and errors, one line each (Powertools logs JSON on stdout)."""
    lines = []
    for line in output.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("level") in ("WARNING", "ERROR", "CRITICAL"):
            error = str(record.get("exception", "")).strip().splitlines()[-1:]  # e.g. "KeyError: 'x'"
            lines.append(" | ".join([record["level"], str(record.get("message")), *error]))
    return "\n".join(lines[-20:]) or "(no warnings logged)"


def invoke(python: str, dirs: tuple[Path, Path], name: str, url: str, events: list[dict[str, Any]],
           data_dir: Path, *, env_overrides: dict[str, str] | None = None, loopback: bool = False,
           layer_modules: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run ``functions/<name>/handler.py`` on the layer in a fresh process; the child's report.

    ``env_overrides`` replace or add to the hosted environment; with ``loopback`` the child may
    reach 127.0.0.1 (the test's stand-ins for AWS), nothing else; ``layer_modules`` must have
    been imported, from the layer.
    """
    layer, runtime = dirs
    task_root = ROOT / "functions" / name
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMORY_MCP_", "DATABASE_URL", "PYTHON", "AWS_", "VIRTUAL_ENV"))}
    env.update({
        # Lambda's sys.path order: the function, the layer (/opt/python), the runtime's packages.
        "PYTHONPATH": os.pathsep.join(map(str, (task_root, layer / "python", runtime))),
        "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1",  # the Lambda file system is read-only
        "LAMBDA_TASK_ROOT": str(task_root), "AWS_LAMBDA_FUNCTION_NAME": f"memory-mcp-{name}",
        "AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "eu-west-1",
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_XRAY_CONTEXT_MISSING": "LOG_ERROR",  # what Lambda sets; no ~/.aws is read:
        "AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "POWERTOOLS_SERVICE_NAME": "memory-mcp", "POWERTOOLS_METRICS_NAMESPACE": "Test",
        "POWERTOOLS_LOG_LEVEL": "WARNING", "MEMORY_MCP_LOG_LEVEL": "WARNING",
        # The hosted configuration (infra/stacks/service.py), the database URL given directly.
        "DATABASE_URL": url, "MEMORY_MCP_EMBEDDING_PROVIDER": "bedrock",
        "MEMORY_MCP_BEDROCK_REGION": "eu-west-1",
        "MEMORY_MCP_EMBEDDING_MODEL": "amazon.nova-2-multimodal-embeddings-v1:0",
        "MEMORY_MCP_EMBEDDING_DIMENSIONS": "3072", "MEMORY_MCP_AUTO_MIGRATE": "false",
        "MEMORY_MCP_POOL_MIN_SIZE": "1", "MEMORY_MCP_POOL_MAX_SIZE": "2",
        "MEMORY_MCP_UPLOADS_BUCKET": "memory-mcp-layer-test", "MEMORY_MCP_DATA_DIR": str(data_dir),
        "LAYER_DIR": str(layer),
        **(env_overrides or {}),
    })
    proc = subprocess.run([python, "-P", str(CHILD)], input=json.dumps(events), env=env,  # noqa: S603
                          cwd=task_root, capture_output=True, text=True, timeout=180, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        pytest.fail(f"{name} on the layer: exit status {proc.returncode}, no RESULT line\n"
                    f"--- stderr (tail) ---\n{proc.stderr[-4000:]}\n"
                    f"--- stdout (tail) ---\n{proc.stdout[-2000:]}", pytrace=False)
    report: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    report["log"] = _warnings(proc.stdout)  # for failure messages
    # Nothing of the venv or this checkout's layers/ may be imported, only the deployable parts.
    assert report["python"] == [3, 12]
    assert report["foreign"] == [], f"{name}: modules from outside the function/layer/runtime"
    remote = [n for n in report["network"] if not (loopback and n[1] in LOOPBACK)]
    assert remote == [], f"{name}: network access (nothing here may leave this machine)"
    assert report["no_pyc"] == [], f"{name}: layer modules without byte code"
    assert report["traced"].count("## handler") == len(events), report["traced"]  # X-Ray works
    for module in ("memory_mcp", "pydantic_core", "psycopg", "aws_lambda_powertools", *layer_modules):
        origin = report["modules"][module]
        assert str(origin).startswith(str(layer / "python") + os.sep), (
            f"{name}: {module} imported from {origin}" if origin else
            f"{name}: {module} was not imported (did the import fail?)\n--- log ---\n{report['log']}")
    assert report["migrations_dir"] == str(layer / "python" / "memory_mcp" / "migrations")
    return report


def _cfn_event(request: str, physical_id: str | None = None) -> dict[str, Any]:
    """The CDK Provider framework's onEvent payload for the migration custom resource."""
    props = {"ServiceToken": "arn:fw", "MigrationsHash": migrations_hash(ROOT / "migrations"),
             "Migrations": MIGRATIONS}
    event = {"RequestType": request, "ServiceToken": "arn:aws:lambda:eu-west-1:123456789012:function:fw",
             "ResponseURL": "https://example.invalid/response", "StackId": "arn:aws:cloudformation:x",
             "RequestId": uuid.uuid4().hex, "LogicalResourceId": "Migrations",
             "ResourceType": "Custom::MemoryMcpMigrations", "ResourceProperties": props}
    return event if physical_id is None else {**event, "PhysicalResourceId": physical_id}


def _body(response: dict[str, Any]) -> Any:
    body = response["body"]
    return json.loads(base64.b64decode(body).decode() if response.get("isBase64Encoded") else body)


def _rpc(method: str, params: dict[str, Any], key: str | None) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "id": uuid.uuid4().hex[:8], "method": method, "params": params}
    auth = {"authorization": f"Bearer {key}"} if key else {}
    return http_event("POST", "/mcp", body, {**MCP_HEADERS, **auth})


def test_layer_handlers_migrate_admin_mcp(lambda_python: str, lambda_dirs: tuple[Path, Path],
                                          first_deploy_database: str, tmp_path: Path) -> None:
    def run(name: str, events: list[dict[str, Any]]) -> list[Any]:
        responses: list[Any] = invoke(lambda_python, lambda_dirs, name, first_deploy_database, events,
                                      tmp_path)["responses"]
        return responses

    # migrate: the first deploy creates the schema, the next one finds nothing to do.
    created, updated = run("migrate", [_cfn_event("Create"), _cfn_event("Update", "memory-mcp-schema")])
    assert created["PhysicalResourceId"] == "memory-mcp-schema"
    assert created["Data"]["Applied"].split(",") == MIGRATIONS
    assert updated["Data"] == {"Applied": "", "AppliedCount": 0,
                               "MigrationsHash": migrations_hash(ROOT / "migrations")}
    with psycopg.connect(first_deploy_database) as conn:
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        versions = conn.execute("SELECT count(*) FROM schema_migrations").fetchone()
    assert {"schema_migrations", "memories", "users", "spaces"} <= tables
    assert versions == (len(MIGRATIONS),)

    # admin: an operator creates a user, a space, a key and a grant.
    email, space = f"{uuid.uuid4().hex[:8]}@example.test", f"layer-{uuid.uuid4().hex[:6]}"
    user, made, key = run("admin", [
        {"args": ["users", "create", "--email", email, "--name", "Layer", "--role", "writer"]},
        {"args": ["spaces", "create", "--key", space, "--name", "Layer space"]},
        {"args": ["keys", "create", "--user", email, "--label", "layer"]},
    ])
    assert user["ok"] and made["ok"] and key["ok"], (user, made, key)
    api_key = key["result"]["key"]
    (granted,) = run("admin", [{"args": ["grants", "set", "--key", key["result"]["id"],
                                         "--space", space, "--access", "readwrite"]}])
    assert granted["ok"] and granted["result"]["access"] == "readwrite", granted

    # mcp_http: one handler instance serves a client session, warm invocation after warm invocation.
    init, listed, who, spaces, view, anonymous, get, health = run("mcp_http", [
        _rpc("initialize", INIT_PARAMS, api_key),
        _rpc("tools/list", {}, api_key),
        _rpc("tools/call", {"name": "whoAmI", "arguments": {}}, api_key),
        _rpc("tools/call", {"name": "listSpaces", "arguments": {}}, api_key),
        _rpc("resources/read", {"uri": "ui://memory-mcp/memory-graph.html"}, api_key),
        _rpc("tools/list", {}, None),
        http_event("GET", "/mcp", headers={"accept": "text/event-stream",
                                           "authorization": f"Bearer {api_key}"}),
        http_event("GET", "/healthz"),
    ])
    assert init["statusCode"] == 200, init
    assert _body(init)["result"]["serverInfo"]["name"]
    assert listed["statusCode"] == 200, listed
    assert {tool["name"] for tool in _body(listed)["result"]["tools"]} >= TOOLS
    for call in (who, spaces):
        assert call["statusCode"] == 200 and not _body(call)["result"].get("isError"), call
    assert email in json.dumps(_body(who)["result"])
    (html,) = _body(view)["result"]["contents"]  # the layer ships the built views
    assert html["mimeType"] == "text/html;profile=mcp-app" and "<script" in html["text"]
    assert "has not been built" not in html["text"]
    assert space in json.dumps(_body(spaces)["result"])
    assert anonymous["statusCode"] == 401, anonymous
    assert get["statusCode"] == 405, get
    assert health["statusCode"] == 200 and _body(health) == {"status": "ok", "database": True}


def test_layer_runs_no_older_release_than_the_tests(lambda_dirs: tuple[Path, Path]) -> None:
    """The tests pass on the venv's releases; a layer that quietly fell back to an older release
    (e.g. because newer wheels are only tagged manylinux_2_28) would ship code nobody tested."""
    from importlib import metadata

    from packaging.utils import canonicalize_name
    from packaging.version import Version

    layer, _ = lambda_dirs
    older = []
    for dist in metadata.distributions(path=[str(layer / "python")]):
        name = canonicalize_name(dist.metadata["Name"])
        try:
            tested = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # only in the layer (aws-xray-sdk and what it needs)
        if Version(dist.version) < Version(tested):
            older.append(f"{name}: layer {dist.version} < venv {tested}")
    assert older == []


def _cli(settings: Settings, *args: str) -> Any:
    """One ``memory-mcp --json`` command in this process (the operator's setup, not under test)."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.run(["--json", *args], settings) == 0, args
    return json.loads(out.getvalue())


def test_layer_upload_to_extract(lambda_python: str, lambda_dirs: tuple[Path, Path], pg_root_url: str,
                                 tmp_path: Path) -> None:
    """Hosted documents from the layer: ``mcp_http`` starts uploads (presigned S3 PUTs), S3
    notifies the queue, ``extract`` reads and parses them (python-docx/lxml, pypdf/cryptography,
    Pillow then Textract) and embeds the facts; ``search_memory`` finds them. moto serves S3, SQS
    and Textract and a fake OpenAI-compatible server the embeddings, on loopback (tests/layer_aws.py);
    the database is a fresh one, pinned to that embedding model (Bedrock is pinned in the other)."""
    url = empty_database(pg_root_url)
    pdf_text = "The quarterly audit of the vendor contracts is due in March."
    gif_text = "Whiteboard: the release freeze starts on the fifteenth."
    files = {"onboarding guide.docx": (DOCX_TYPE, make_docx()),
             "audit.pdf": ("application/pdf", aes_pdf(pdf_text)),
             "whiteboard.gif": ("image/gif", gif())}
    with (fake_embeddings() as embeddings, moto_aws(f"uploads-{uuid.uuid4().hex[:8]}") as aws,
          textract_lines([gif_text])):
        env = {"MEMORY_MCP_EMBEDDING_PROVIDER": "openai", "MEMORY_MCP_EMBEDDING_MODEL": EMBEDDING_MODEL,
               "MEMORY_MCP_EMBEDDING_DIMENSIONS": str(EMBEDDING_DIMENSIONS),
               "MEMORY_MCP_OPENAI_BASE_URL": embeddings.base_url,
               "MEMORY_MCP_UPLOADS_BUCKET": aws.bucket,
               "AWS_ENDPOINT_URL_S3": aws.endpoint, "AWS_ENDPOINT_URL_TEXTRACT": aws.endpoint}

        def run(name: str, events: list[dict[str, Any]], modules: tuple[str, ...] = ()) -> dict[str, Any]:
            return invoke(lambda_python, lambda_dirs, name, url, events, tmp_path,
                          env_overrides=env, loopback=True, layer_modules=modules)

        # The operator's setup through the CLI here (it migrates the empty database and pins
        # the model): a writer with a key granted one space.
        settings = settings_for(url, embedding_provider="openai", embedding_model=EMBEDDING_MODEL,
                                embedding_dimensions=EMBEDDING_DIMENSIONS,
                                openai_base_url=embeddings.base_url)
        email, space = f"{uuid.uuid4().hex[:8]}@example.test", f"docs-{uuid.uuid4().hex[:6]}"
        _cli(settings, "users", "create", "--email", email, "--name", "Uploader", "--role", "writer")
        _cli(settings, "spaces", "create", "--key", space, "--name", "Documents")
        key = _cli(settings, "keys", "create", "--user", email, "--label", "layer-docs")
        _cli(settings, "grants", "set", "--key", key["id"], "--space", space, "--access", "readwrite")
        auth = {"content-type": "application/json", "authorization": f"Bearer {key['key']}"}

        # mcp_http: POST /uploads answers presigned PUTs to the bucket (here: moto's endpoint).
        started = run("mcp_http", [http_event("POST", "/uploads", {
            "filename": filename, "contentType": kind, "size": len(data), "containerTag": space},
            auth) for filename, (kind, data) in files.items()])["responses"]
        assert [r["statusCode"] for r in started] == [201] * len(files), started
        documents = {}
        for (filename, (_, data)), response in zip(files.items(), started, strict=True):
            upload = _body(response)
            assert upload["uploadUrl"].startswith(f"{aws.endpoint}/{aws.bucket}/uploads/{space}/"), (
                f"{filename}: upload URL not in {aws.endpoint}/{aws.bucket}: {upload['uploadUrl']}")
            put = httpx.put(upload["uploadUrl"], content=data, headers=upload["headers"], timeout=30)
            assert put.status_code == 200, f"{filename}: PUT to S3: {put.status_code} {put.text}"
            documents[upload["documentId"]] = filename

        # extract: S3's notifications, two SQS batches (a cold then a warm invocation).
        bodies = aws.notifications()
        assert [json.loads(body).get("Event") for body in bodies] == ["s3:TestEvent"] + [None] * len(files)
        extract = run("extract", [sqs_event(bodies[:2], aws.queue_arn),
                                  sqs_event(bodies[2:], aws.queue_arn)], EXTRACT_MODULES)
        assert extract["responses"] == [{"batchItemFailures": []}] * 2, extract["log"]

        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT d.id::text, d.status, d.status_reason, m.content FROM documents d "
                                "LEFT JOIN memories m ON m.source_document_id = d.id").fetchall()
        status = {documents[doc]: f"{state} {reason or ''}".strip() for doc, state, reason, _ in rows}
        assert status == dict.fromkeys(files, "done"), extract["log"]
        memories = "\n".join(sorted(str(content) for *_, content in rows if content))
        for fact in ("The security team enables disk encryption before handover.",  # DOCX paragraph
                     "Name: Grace; Role: Admiral",  # DOCX table row
                     pdf_text, "the release freeze starts on the fifteenth"):
            assert fact in memories, f"{fact!r} not in the memories:\n{memories}\n{extract['log']}"
        assert {r["model"] for r in embeddings.requests} == {EMBEDDING_MODEL}

        # mcp_http again: the memories are found, by exact text and by meaning.
        _, by_keyword, by_query = run("mcp_http", [
            _rpc("initialize", INIT_PARAMS, key["key"]),
            _rpc("tools/call", {"name": "search_memory", "arguments": {
                "keyword": "Admiral", "containerTag": space, "includeProfile": False}}, key["key"]),
            _rpc("tools/call", {"name": "search_memory", "arguments": {
                "query": "When is the vendor contracts audit due?", "containerTag": space,
                "includeProfile": False, "limit": 1}}, key["key"]),
        ])["responses"]
        for call, expected in ((by_keyword, "Grace; Role: Admiral"), (by_query, pdf_text)):
            result = _body(call)["result"]
            assert call["statusCode"] == 200 and not result.get("isError"), call
            assert expected in json.dumps(result["structuredContent"]), result
