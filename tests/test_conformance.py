"""The official MCP conformance suite (``@modelcontextprotocol/conformance`` 0.1.16, every server
scenario) against a live ``memory-mcp serve``, through the bearer-key shim.

Every scenario a product server can pass must pass; the others are listed below with the reason
they do not apply, and the test fails if the suite grows a scenario that is in neither list.
docs/conformance.md has the table with each result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conformance_shim import bearer_shim
from interop_server import BIN, LiveServer, live_memory_mcp, require_node_tools, run_node

pytestmark = pytest.mark.timeout(420)

#: Scenarios about what every MCP server does; each must pass with no warning.
APPLICABLE = {
    "server-initialize": "the 2025-11-25 handshake: server info and capabilities",
    "ping": "ping answers {}",
    "logging-set-level": "logging/setLevel is accepted and answers {}",
    "tools-list": "the 14 tools, with valid schemas",
    "resources-list": "the resources, with valid structure",
    "prompts-list": "the context prompt, with valid structure",
    "dns-rebinding-protection": "a foreign Host/Origin on loopback is refused, localhost accepted",
}

FIXTURE = "calls a fixture of the suite's reference server that a product server does not have"
#: Scenarios that test the suite's own fixture server, or features a stateless JSON-response
#: server does not offer (and does not advertise). Their outcome is reported, not asserted.
NOT_APPLICABLE = {
    "completion-complete": "completion/complete on a fixture prompt; completions are not offered "
                           "(no argument of ours has values to complete)",
    "tools-call-simple-text": f"test_simple_text: {FIXTURE} (it 'passes' on our Unknown-tool error)",
    "tools-call-image": f"test_image_content: {FIXTURE}",
    "tools-call-audio": f"test_audio_content: {FIXTURE}",
    "tools-call-embedded-resource": f"test_embedded_resource: {FIXTURE}",
    "tools-call-mixed-content": f"test_multiple_content_types: {FIXTURE}",
    "tools-call-with-logging": f"test_tool_with_logging: {FIXTURE}; besides, a JSON response "
                               "cannot carry log notifications (tests/test_interop_clients.py)",
    "tools-call-error": f"test_error_handling: {FIXTURE} (it 'passes' on our Unknown-tool error)",
    "tools-call-with-progress": f"test_tool_with_progress: {FIXTURE}; a JSON response cannot "
                                "carry progress notifications",
    "tools-call-sampling": "sampling: the server never asks the client's model for anything",
    "tools-call-elicitation": "elicitation: the server never asks the user a question",
    "elicitation-sep1034-defaults": "elicitation (defaults): not used",
    "elicitation-sep1330-enums": "elicitation (enums): not used",
    "json-schema-2020-12": f"json_schema_2020_12_tool: {FIXTURE}",
    "server-sse-polling": "SSE polling/resumption needs SSE streams and sessions; this server is "
                          "stateless and answers every POST with one JSON body",
    "server-sse-multiple-streams": "several SSE streams in one session: no sessions, no SSE",
    "resources-read-text": f"test://static-text: {FIXTURE}",
    "resources-read-binary": f"test://static-binary: {FIXTURE}",
    "resources-templates-read": f"test://template/{{id}}/data: {FIXTURE}",
    "resources-subscribe": "resources/subscribe: not offered and not advertised (nothing could "
                           "deliver an update to a stateless server's clients)",
    "resources-unsubscribe": "resources/unsubscribe: as resources-subscribe",
    "prompts-get-simple": f"test_simple_prompt: {FIXTURE}",
    "prompts-get-with-args": f"test_prompt_with_arguments: {FIXTURE}",
    "prompts-get-embedded-resource": f"test_prompt_with_embedded_resource: {FIXTURE}",
    "prompts-get-with-image": f"test_prompt_with_image: {FIXTURE}",
}

_RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")


def parse_results(out: Path) -> dict[str, list[dict[str, Any]]]:
    """``{scenario: [check, …]}`` from the suite's ``-o`` directory (one folder per scenario)."""
    results: dict[str, list[dict[str, Any]]] = {}
    for checks in sorted(out.glob("*/checks.json")):
        match = _RESULT_DIR.match(checks.parent.name)
        assert match is not None, checks.parent.name
        results[match["scenario"]] = json.loads(checks.read_text(encoding="utf-8"))
    return results


def outcome(checks: list[dict[str, Any]]) -> str:
    """The suite's own rule: any FAILURE fails; a WARNING is not a pass either."""
    statuses = {c.get("status") for c in checks}
    if "FAILURE" in statuses or not checks:
        return "fail"
    return "warning" if "WARNING" in statuses else "pass"


@pytest.fixture(scope="module")
def server(make_database: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    require_node_tools()
    with live_memory_mcp(make_database(), tmp_path_factory.mktemp("conformance")) as live:
        yield live


def test_official_conformance_suite(server: LiveServer, tmp_path: Path) -> None:
    with bearer_shim(server.base, server.key) as url:
        run = run_node([str(BIN / "conformance"), "server", "--url", url, "--suite", "all",
                        "-o", str(tmp_path)], timeout=360)
    results = parse_results(tmp_path)
    summary = {name: outcome(checks) for name, checks in results.items()}
    print(json.dumps(summary, indent=1))  # the numbers docs/conformance.md reports

    assert set(results) == set(APPLICABLE) | set(NOT_APPLICABLE), (
        "the suite's scenarios changed; classify them:\n"
        f"new: {sorted(set(results) - set(APPLICABLE) - set(NOT_APPLICABLE))}\n"
        f"gone: {sorted(set(APPLICABLE) | set(NOT_APPLICABLE) - set(results))}\n{run.stdout[-3000:]}")
    assert not set(APPLICABLE) & set(NOT_APPLICABLE)
    failing = {name: [c for c in results[name] if c.get("status") != "SUCCESS"]
               for name in APPLICABLE if summary[name] != "pass"}
    assert not failing, json.dumps(failing, indent=1)[:4000]
    # The key never shows up in anything the suite recorded (answers, errors, details).
    assert server.key not in "".join(p.read_text(encoding="utf-8")
                                     for p in tmp_path.glob("*/checks.json"))


def test_the_shim_is_needed(server: LiveServer) -> None:
    """The suite reaches the product only through the shim: straight to the server, the same
    requests are refused for want of a key (the shim adds one; the product waives nothing)."""
    run = run_node([str(BIN / "conformance"), "server", "--url", server.mcp,
                    "--scenario", "ping"], timeout=120)
    assert run.returncode != 0
    assert "401" in run.stdout + run.stderr or "nauthorized" in run.stdout + run.stderr


def test_missing_node_tools_fail_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With CI set, a missing interop/node_modules is a failure, never a skip."""
    import interop_server

    monkeypatch.setattr(interop_server, "NODE", tmp_path / "no-node")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="make interop-deps"):
        interop_server.require_node_tools()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        interop_server.require_node_tools()
