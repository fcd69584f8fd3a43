"""What a Lambda handler's init phase imports (issue 11: cold start).

Each handler module is imported in a fresh interpreter with the hosted configuration and
``LAMBDA_TASK_ROOT`` set, as on Lambda (so Powertools' tracer would trace), and the test looks
at ``sys.modules`` afterwards: what no first request needs must not be there. With
``AWS_LAMBDA_INITIALIZATION_TYPE=snap-start`` the init phase is snapshotted, so there it must
be (``aws/warmup.py``). No timing is asserted; ``bench/cold_start.py`` measures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from conftest import ROOT

FUNCTIONS = ROOT / "functions"
#: The hosted settings the CDK app gives the request paths (no database is reached on import).
HOSTED = {"MEMORY_MCP_EMBEDDING_PROVIDER": "bedrock", "MEMORY_MCP_BEDROCK_REGION": "eu-west-1",
          "MEMORY_MCP_AUTO_MIGRATE": "false", "MEMORY_MCP_UPLOADS_BUCKET": "cold-start-test",
          "MEMORY_MCP_POOL_MIN_SIZE": "1", "MEMORY_MCP_POOL_MAX_SIZE": "2",
          "MEMORY_MCP_DATABASE_APP_SECRET_ARN":
              "arn:aws:secretsmanager:eu-west-1:123456789012:secret:app-AbCdEf",
          "AWS_DEFAULT_REGION": "eu-west-1", "AWS_REGION": "eu-west-1",
          "AWS_LAMBDA_FUNCTION_NAME": "cold-start-test", "POWERTOOLS_SERVICE_NAME": "memory-mcp",
          "POWERTOOLS_METRICS_NAMESPACE": "Test", "POWERTOOLS_LOG_LEVEL": "WARNING",
          "MEMORY_MCP_LOG_LEVEL": "WARNING"}
#: Never imported by an on-demand init of the MCP handler: the tracer's X-Ray SDK and the
#: botocore client machinery it patches (built on the first invocation), boto3 (the first AWS
#: call), the FastAPI upload routes (pydantic.v1 comes with FastAPI's parameter analysis),
#: and whatever serves uploads, documents, widgets, transfers, doctor or Bedrock.
NOT_AT_INIT = ("aws_xray_sdk", "botocore.client", "boto3", "pydantic.v1",
               "memory_mcp.services.uploads", "memory_mcp.services.widgets",
               "memory_mcp.services.graph", "memory_mcp.documents.formats",
               "memory_mcp.documents.extract", "memory_mcp.documents.pipeline",
               "memory_mcp.documents.sqs", "memory_mcp.documents.ocr",
               "memory_mcp.documents.transcribe", "memory_mcp.documents.llm",
               "memory_mcp.services.transfer_export", "memory_mcp.services.transfer_import",
               "memory_mcp.services.doctor", "memory_mcp.embeddings.bedrock",
               "memory_mcp.aws.secrets")
#: Imported by a SnapStart init (``warmup.prime``), so restored environments do not pay for it.
PRIMED = ("aws_xray_sdk", "botocore.client", "boto3", "pydantic.v1", "memory_mcp.services.uploads",
          "memory_mcp.embeddings.bedrock", "memory_mcp.aws.secrets", "memory_mcp.db.pool")

CHILD = r"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("handler", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print("RESULT " + json.dumps(sorted(sys.modules)))
"""


def _imported(handler: str, **extra: str) -> set[str]:
    """The modules a fresh interpreter holds after importing ``functions/<handler>/handler.py``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MEMORY_MCP_", "DATABASE_URL", "POWERTOOLS_", "AWS_"))}
    env.update(HOSTED, LAMBDA_TASK_ROOT=str(FUNCTIONS / handler), **extra)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(FUNCTIONS / handler / "handler.py")],  # noqa: S603
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    modules: list[str] = json.loads(lines[-1][len("RESULT "):])
    return set(modules)


def test_mcp_handler_init_leaves_what_no_first_request_needs() -> None:
    modules = _imported("mcp_http")
    assert "memory_mcp.http.app" in modules and "mangum" in modules  # the app is built at init
    assert sorted(set(NOT_AT_INIT) & modules) == []


def test_mcp_handler_snapstart_init_imports_it_ahead() -> None:
    modules = _imported("mcp_http", AWS_LAMBDA_INITIALIZATION_TYPE="snap-start")
    assert sorted(set(PRIMED) - modules) == []


@pytest.mark.parametrize("handler", ["migrate", "admin", "extract"])
def test_other_handlers_do_not_import_the_xray_sdk_at_init(handler: str) -> None:
    assert {"aws_xray_sdk", "botocore.client"} & _imported(handler) == set()


TRACED_CHILD = r"""
import json, os, socket, sys
daemon = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
daemon.bind(("127.0.0.1", 0))
daemon.settimeout(5)
os.environ["AWS_XRAY_DAEMON_ADDRESS"] = "{}:{}".format(*daemon.getsockname())
from memory_mcp.aws.observability import tracer

@tracer.capture_lambda_handler(capture_response=False)
def handler(event, context):
    return {"answer": event["question"] * 2}

before = "aws_xray_sdk" in sys.modules
answers = []
for n in (1, 2):
    os.environ["_X_AMZN_TRACE_ID"] = (f"Root=1-5759e988-bd862e3fe1be46a99427289{n};"
                                      f"Parent=53995c3f42cd8ad{n};Sampled=1")
    answers.append(handler({"question": 21}, None))
names = []
for _ in answers:
    datagram = daemon.recv(65536)
    names.append(json.loads(datagram.split(b"\n", 1)[1])["name"])
print("RESULT " + json.dumps({"before": before, "after": "aws_xray_sdk" in sys.modules,
                              "answers": answers, "traced": names, "wrapped": handler.__name__}))
"""


def test_lazy_tracer_traces_from_the_first_invocation() -> None:
    """The X-Ray SDK is imported by the first call, and every call still becomes a subsegment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POWERTOOLS_", "AWS_"))}
    env.update(LAMBDA_TASK_ROOT=str(FUNCTIONS / "mcp_http"), AWS_LAMBDA_FUNCTION_NAME="t",
               AWS_REGION="eu-west-1", AWS_XRAY_CONTEXT_MISSING="LOG_ERROR",
               POWERTOOLS_SERVICE_NAME="memory-mcp")
    proc = subprocess.run([sys.executable, "-c", TRACED_CHILD], env=env, capture_output=True,  # noqa: S603
                          text=True, timeout=120, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    assert result == {"before": False, "after": True, "answers": [{"answer": 42}] * 2,
                      "traced": ["## handler", "## handler"], "wrapped": "handler"}


def test_tracer_is_a_no_op_where_tracing_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from memory_mcp.aws import observability

    for env in ({"LAMBDA_TASK_ROOT": ""}, {"LAMBDA_TASK_ROOT": "/var/task", "POWERTOOLS_TRACE_DISABLED": "1"},
                {"LAMBDA_TASK_ROOT": "/var/task", "AWS_SAM_LOCAL": "true"}):
        monkeypatch.delenv("POWERTOOLS_TRACE_DISABLED", raising=False)
        monkeypatch.delenv("AWS_SAM_LOCAL", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        lazy = observability.LazyTracer()
        assert not observability.tracing_possible()
        assert isinstance(lazy.prime(), observability.NoopTracer)
