"""End to end: the real ``memory-mcp serve`` process, a fresh database, the official MCP client.

The server is started exactly as an operator would start it (a subprocess of the installed
console script, configured only through the environment). Its first-run banner hands over the
demo key, which then drives every tool, resource and prompt over streamable HTTP.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import psycopg
import pytest
from mcp.shared.exceptions import MCPError

from conftest import free_port
from mcp_client import connect

ROOT = Path(__file__).resolve().parents[1]
EXECUTABLE = ROOT / ".venv" / "bin" / "memory-mcp"
START_TIMEOUT = 60.0
pytestmark = pytest.mark.timeout(180)

KEY_LINE = re.compile(r"^\s*key\s+:\s+(mm_[0-9a-f]{10}_\S+)\s*$")

READ_TOOLS = {"search_memory", "listDocuments", "getDocument", "listMemories", "listSpaces", "whoAmI"}
WIDGET_TOOLS = {"select-space", "guided-save", "upload-file", "upload-start", "upload-status",
                "memory-graph"}
ALL_TOOLS = READ_TOOLS | {"add_memory", "deleteDocument"} | WIDGET_TOOLS

DEPLOYS = "The team deploys to production every Friday afternoon"
STAGING = "Our staging database runs PostgreSQL 16 in eu-west-1"
LUNCH = "The office cafeteria serves sushi on Wednesdays"


class ServerProcess:
    """``memory-mcp serve`` as a child process; stdout+stderr drained by a thread."""

    def __init__(self, database_url: str, data_dir: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self._cond = threading.Condition()
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("MEMORY_MCP_") and k != "DATABASE_URL"}
        env.update(DATABASE_URL=database_url, MEMORY_MCP_DATA_DIR=str(data_dir),
                   PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(  # noqa: S603 - fixed argv, our own console script
            [str(EXECUTABLE), "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            env=env, cwd=data_dir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, encoding="utf-8", errors="replace", bufsize=1,
        )
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    @property
    def output(self) -> str:
        with self._cond:
            return "\n".join(self.lines)

    def wait_for_line(self, predicate: Callable[[str], bool], timeout: float = START_TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        seen = 0
        with self._cond:
            while True:
                for line in self.lines[seen:]:
                    if predicate(line):
                        return line
                seen = len(self.lines)
                if self.proc.poll() is not None and not self._reader.is_alive():
                    raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.output}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for server output:\n{self.output}")
                self._cond.wait(min(left, 0.5))

    def wait_healthy(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        last: object = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.output}")
            try:
                response = httpx.get(f"{self.base}/healthz", timeout=5)
                if response.status_code == 200:
                    assert response.json() == {"status": "ok", "database": True}
                    return
                last = response.status_code
            except httpx.HTTPError as exc:
                last = exc
            time.sleep(0.1)
        raise AssertionError(f"/healthz never answered 200 (last: {last!r}):\n{self.output}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._reader.join(timeout=5)


@contextmanager
def serving(database_url: str, data_dir: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(database_url, data_dir)
    try:
        yield server
    finally:
        server.stop()


def _wait_started(server: ServerProcess) -> None:
    server.wait_for_line(lambda line: "listening" in line)
    server.wait_healthy()


def _demo_key(server: ServerProcess) -> str:
    line = server.wait_for_line(lambda line: KEY_LINE.match(line) is not None)
    match = KEY_LINE.match(line)
    assert match is not None
    return match.group(1)


def _secret(key: str) -> str:
    secret = key.split("_", 2)[2]
    assert len(secret) == 43
    return secret


def _insert_documents(database_url: str) -> tuple[str, str]:
    """A full document and a summary-only one in the demo space, by the demo user."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        space = conn.execute("SELECT id FROM spaces WHERE key = 'demo'").fetchone()
        user = conn.execute("SELECT id FROM users WHERE email = 'demo@localhost'").fetchone()
        assert space is not None and user is not None
        full = conn.execute(
            """INSERT INTO documents (space_id, title, filename, content_type, size_bytes, status,
                                      summary, content, created_by, updated_by, created_at)
               VALUES (%s, 'Release runbook', 'runbook.md', 'text/markdown', 120, 'done',
                       'How we release.', 'Step 1: tag the release. Step 2: deploy on Friday.',
                       %s, %s, now() - interval '1 minute') RETURNING id""",
            (space[0], user[0], user[0]),
        ).fetchone()
        summary_only = conn.execute(
            """INSERT INTO documents (space_id, title, filename, content_type, size_bytes, status,
                                      summary, content, created_by, updated_by)
               VALUES (%s, 'Quarterly report', 'q3.pdf', 'application/pdf', 98765, 'done',
                       'Revenue grew 12 percent in Q3.', NULL, %s, %s) RETURNING id""",
            (space[0], user[0], user[0]),
        ).fetchone()
        assert full is not None and summary_only is not None
        return str(full[0]), str(summary_only[0])


def _link_memory_to_document(database_url: str, memory_id: str, document_id: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE memories SET source_document_id = %s WHERE id = %s",
                     (document_id, memory_id))
        conn.execute("""INSERT INTO document_statements (document_id, memory_id, root_id,
                                                         space_id)
                        SELECT %s, id, root_id, space_id FROM memories WHERE id = %s""",
                     (document_id, memory_id))


def _attributed(m: dict[str, Any], user_id: str) -> None:
    for field in ("createdBy", "createdByUserId", "updatedBy", "updatedByUserId", "createdAt",
                  "updatedAt"):
        assert field in m, field
    assert m["createdBy"] == "Demo User"
    assert m["createdByUserId"] == user_id


# --------------------------------------------------------------------------- HTTP edge


def _check_http_edge(base: str, key: str) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    headers = {"Accept": "application/json, text/event-stream"}
    anonymous = httpx.post(f"{base}/mcp", json=init, headers=headers, timeout=10)
    assert anonymous.status_code == 401
    assert anonymous.headers["www-authenticate"].lower().startswith("bearer")
    assert anonymous.json()["error"] == "unauthorized"

    garbage = httpx.post(f"{base}/mcp", json=init, timeout=10,
                         headers={**headers, "Authorization": "Bearer not-a-key"})
    well_formed_unknown = httpx.post(
        f"{base}/mcp", json=init, timeout=10,
        headers={**headers, "Authorization": f"Bearer mm_0123456789_{'A' * 43}"})
    wrong_secret = httpx.post(
        f"{base}/mcp", json=init, timeout=10,
        headers={**headers, "Authorization": f"Bearer {key[:-1]}{'B' if key[-1] != 'B' else 'C'}"})
    basic = httpx.post(f"{base}/mcp", json=init, timeout=10,
                       headers={**headers, "Authorization": f"Basic {key}"})
    for response in (garbage, well_formed_unknown, wrong_secret, basic):
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == anonymous.headers["www-authenticate"]
        assert response.content == anonymous.content  # nothing distinguishes the failures

    assert httpx.get(f"{base}/mcp", timeout=10).status_code == 405
    assert httpx.get(f"{base}/mcp", timeout=10, headers={"Authorization": f"Bearer {key}"}
                     ).status_code == 405


# --------------------------------------------------------------------------- the full journey


@pytest.fixture
def server(fresh_database_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, str]]:
    with serving(fresh_database_url, tmp_path) as proc:
        key = _demo_key(proc)
        _wait_started(proc)
        yield proc, key


@pytest.mark.anyio
async def test_real_server_end_to_end(server: tuple[ServerProcess, str],
                                      fresh_database_url: str) -> None:
    proc, key = server
    banner = proc.output
    assert "First start on an empty database" in banner
    assert "demo@localhost (Writer)" in banner
    assert "demo (ReadWrite)" in banner
    assert f"http://127.0.0.1:{proc.port}/mcp" in banner
    secret = _secret(key)
    prefix = key.split("_")[1]
    _check_http_edge(proc.base, key)

    texts: list[str] = []  # every response text and structured payload, checked for the secret

    async with connect(f"{proc.base}/mcp", key) as client:

        async def call(tool: str, args: dict[str, Any] | None = None, *, error: bool = False
                       ) -> tuple[str, dict[str, Any]]:
            result = await client.call_tool(tool, args or {})
            text = "\n".join(getattr(c, "text", "") for c in result.content)
            texts.append(text)
            texts.append(json.dumps(result.structured_content))
            assert bool(result.is_error) is error, f"{tool}({args}) -> {text}"
            if not error:
                assert result.structured_content is not None, tool
            return text, result.structured_content or {}

        # ---- tool catalogue
        listed = await client.list_tools()
        tools = {t.name: t for t in listed.tools}
        assert set(tools) == ALL_TOOLS
        assert len(listed.tools) == 14
        for name in READ_TOOLS:
            hints = tools[name].annotations
            assert hints is not None and hints.read_only_hint is True, name
            assert hints.destructive_hint is False, name
        add_hints = tools["add_memory"].annotations
        assert add_hints is not None
        assert add_hints.destructive_hint is True and add_hints.read_only_hint is False
        select_hints = tools["select-space"].annotations
        assert select_hints is not None and select_hints.read_only_hint is False
        for name in ("search_memory", "add_memory", "listDocuments", "listMemories"):
            assert "containerTag" in tools[name].input_schema["properties"], name
        assert tools["getDocument"].input_schema["required"] == ["documentId"]
        assert "content" in tools["add_memory"].input_schema["required"]

        # ---- whoAmI before anything: default space, demo identity, key prefix only
        text, who = await call("whoAmI")
        user_id = who["user"]["id"]
        assert who["user"]["role"] == "Writer"
        assert who["user"]["email"] == "demo@localhost"
        assert who["user"]["displayName"] == "Demo User"
        assert who["key"]["label"] == "first-run"
        assert who["key"]["prefix"] == f"mm_{prefix}_…"
        assert who["scope"] == [{"space": "demo", "name": "Demo space", "access": "ReadWrite",
                                 "grantedAccess": "ReadWrite"}]
        assert who["activeSpace"]["key"] == "demo"
        assert who["activeSpace"]["source"] == "default"
        assert "role Writer" in text and f"mm_{prefix}_…" in text and "demo@localhost" in text

        # ---- add_memory: save, unchanged, and the memories to forget later
        text, saved = await call("add_memory", {"content": DEPLOYS, "category": "convention"})
        assert saved["action"] == "saved" and saved["space"] == "demo"
        deploys = saved["memory"]
        assert deploys["memory"] == DEPLOYS and deploys["category"] == "convention"
        assert deploys["version"] == 1 and deploys["isLatest"] and not deploys["isForgotten"]
        _attributed(deploys, user_id)
        assert text.startswith("Saved in space demo") and deploys["id"] in text

        text, again = await call("add_memory", {"content": DEPLOYS, "action": "save"})
        assert again["action"] == "unchanged" and again["memory"]["id"] == deploys["id"]
        assert "no change" in text

        _, staging = await call("add_memory", {"content": STAGING, "category": "infra"})
        _, lunch = await call("add_memory", {"content": LUNCH})
        staging_id, lunch_id = staging["memory"]["id"], lunch["memory"]["id"]

        # ---- search_memory: a paraphrase finds the saved memory first
        text, found = await call("search_memory", {"query": "When do we ship releases?"})
        assert found["ranking"] == "hybrid" and found["space"] == "demo"
        assert found["results"][0]["id"] == deploys["id"]
        assert found["results"][0]["score"] > 0
        _attributed(found["results"][0], user_id)
        assert "profile" in found and found["profile"]["space"] == "demo"
        assert DEPLOYS in text and "Profile of space demo" in text

        _, by_keyword = await call("search_memory", {"keyword": "STAGING database",
                                                     "includeProfile": False})
        assert [m["id"] for m in by_keyword["results"]] == [staging_id]
        assert "profile" not in by_keyword
        _, by_category = await call("search_memory", {"category": "convention",
                                                      "includeProfile": False})
        assert [m["id"] for m in by_category["results"]] == [deploys["id"]]
        text, _ = await call("search_memory", {}, error=True)
        assert "at least one of query, keyword or category" in text

        # ---- forget by content (exact) and by memoryId
        text, forgot = await call("add_memory", {"content": STAGING, "action": "forget"})
        assert forgot["action"] == "forgotten" and forgot["match"] == "exact"
        assert forgot["memory"]["id"] == staging_id and forgot["memory"]["isForgotten"]
        assert forgot["memory"]["forgottenBy"] == "Demo User"
        assert text.startswith("Forgot in space demo (exact match)")

        text, forgot = await call("add_memory", {"content": "the cafeteria one", "action": "forget",
                                                 "memoryId": lunch_id})
        assert forgot["action"] == "forgotten" and forgot["match"] == "id"
        assert forgot["memory"]["id"] == lunch_id
        assert "(by id)" in text
        _, twice = await call("add_memory", {"content": LUNCH, "action": "forget",
                                             "memoryId": lunch_id})
        assert twice["action"] == "already_forgotten"
        text, _ = await call("add_memory", {"content": DEPLOYS, "memoryId": lunch_id}, error=True)
        assert "memoryId is only used with action='forget'" in text

        # forgotten memories are gone from search ...
        _, after = await call("search_memory", {"query": "Which PostgreSQL version does staging run?",
                                                "includeProfile": False})
        assert staging_id not in {m["id"] for m in after["results"]}
        assert lunch_id not in {m["id"] for m in after["results"]}
        _, after = await call("search_memory", {"keyword": "staging", "includeProfile": False})
        assert after["count"] == 0 and after["results"] == []
        _, after = await call("search_memory", {"keyword": "cafeteria", "includeProfile": False})
        assert after["count"] == 0

        # ---- documents (inserted directly: uploads are not part of this journey)
        full_id, summary_id = _insert_documents(fresh_database_url)
        _link_memory_to_document(fresh_database_url, deploys["id"], full_id)

        text, docs = await call("listDocuments")
        assert docs["space"] == "demo" and docs["total"] == 2 and docs["hasMore"] is False
        assert [d["id"] for d in docs["documents"]] == [summary_id, full_id]  # newest first
        listed_full = docs["documents"][1]
        assert listed_full["title"] == "Release runbook" and listed_full["type"] == "text/markdown"
        assert listed_full["status"] == "done" and listed_full["memoryCount"] == 1
        assert listed_full["summary"] == "How we release."
        assert "content" not in listed_full  # lists carry summaries, not full text
        _attributed(listed_full, user_id)
        assert "Release runbook" in text and "Quarterly report" in text
        assert "Summary: Revenue grew 12 percent in Q3." in text

        _, page2 = await call("listDocuments", {"page": 2, "limit": 1})
        assert [d["id"] for d in page2["documents"]] == [full_id] and page2["hasMore"] is False

        text, doc = await call("getDocument", {"documentId": full_id})
        assert doc["document"]["contentKind"] == "content"
        assert "content" not in doc["document"]  # the page is in the text, not twice
        assert doc["page"] == {"offset": 0, "end": 50, "chars": 50, "totalChars": 50,
                               "limit": 20_000, "hasMore": False, "nextOffset": None}
        assert [m["id"] for m in doc["memories"]] == [deploys["id"]]
        assert "Content (all 50 characters):\nStep 1: tag the release." in text
        assert "SUMMARY" not in text and "Memories extracted (1)" in text

        text, doc = await call("getDocument", {"documentId": summary_id, "containerTag": "demo"})
        assert doc["document"]["contentKind"] == "summary"
        assert doc["page"]["totalChars"] == len("Revenue grew 12 percent in Q3.")
        assert ("Content not available; showing the SUMMARY instead (all 30 characters):\n"
                "Revenue grew 12 percent in Q3.") in text
        assert doc["memories"] == []

        text, _ = await call("getDocument", {"documentId": str(uuid.uuid4())}, error=True)
        assert "was not found" in text
        text, _ = await call("getDocument", {"documentId": "not-a-uuid"}, error=True)
        assert "documentId must be an id" in text

        # ---- listMemories: every state, with attribution
        text, mems = await call("listMemories")
        assert mems["space"] == "demo" and mems["total"] == 3
        by_id = {m["id"]: m for m in mems["memories"]}
        assert set(by_id) == {deploys["id"], staging_id, lunch_id}
        assert by_id[staging_id]["isForgotten"] is True and by_id[lunch_id]["isForgotten"] is True
        assert by_id[staging_id]["forgottenBy"] == "Demo User"
        assert by_id[staging_id]["forgottenByUserId"] == user_id
        assert by_id[deploys["id"]]["isForgotten"] is False
        assert by_id[deploys["id"]]["sourceDocumentId"] == full_id
        for m in mems["memories"]:
            _attributed(m, user_id)
        assert "forgotten by Demo User" in text and f"from document 'Release runbook' ({full_id})" in text
        _, small = await call("listMemories", {"page": 1, "limit": 2})
        assert len(small["memories"]) == 2 and small["hasMore"] is True
        await call("listMemories", {"limit": 51}, error=True)

        # ---- listSpaces
        text, spaces = await call("listSpaces")
        assert spaces["count"] == 1 and spaces["activeSpace"] == "demo"
        (space,) = spaces["spaces"]
        assert space["key"] == "demo" and space["containerTag"] == "demo"
        assert space["access"] == "ReadWrite" and space["grantedAccess"] == "ReadWrite"
        assert space["memoryCount"] == 1 and space["documentCount"] == 2
        assert space["active"] is True and space["lastActivityAt"] is not None
        assert text.startswith("1 space(s)") and "* demo" in text and "ReadWrite" in text

        # ---- select-space
        text, selected = await call("select-space", {"containerTag": "demo"})
        assert selected["mode"] == "switched" and selected["changed"] is True
        assert selected["activeSpace"] == {"key": "demo", "name": "Demo space",
                                           "access": "ReadWrite"}
        assert [s["key"] for s in selected["spaces"] if s["active"]] == ["demo"]
        assert text == "Active space is now demo (Demo space, ReadWrite)."
        _, who = await call("whoAmI")
        assert who["activeSpace"]["source"] == "selected"
        _, selected = await call("select-space", {"containerTag": "demo"})
        assert selected["changed"] is False
        text, _ = await call("select-space", {"containerTag": "nope"}, error=True)
        assert 'Space "nope" was not found' in text
        text, _ = await call("listMemories", {"containerTag": "nope"}, error=True)
        assert 'Space "nope" was not found' in text

        # ---- resources
        listed_resources = await client.list_resources()
        assert {str(r.uri) for r in listed_resources.resources} == {
            "memory-mcp://profile", "memory-mcp://spaces", "memory-mcp://memories",
            *(f"ui://memory-mcp/{name}.html" for name in
              ("select-space", "guided-save", "upload-file", "memory-graph"))}

        async def resource(uri: str) -> dict[str, Any]:
            result = await client.read_resource(uri)
            (content,) = result.contents
            text = getattr(content, "text", "")
            texts.append(text)
            assert content.mime_type == "application/json"
            data: dict[str, Any] = json.loads(text)
            return data

        profile = await resource("memory-mcp://profile")
        assert profile["space"] == "demo"
        assert [m["id"] for m in profile["stable"]] == [deploys["id"]]
        assert staging_id not in {m["id"] for m in profile["stable"] + profile["recent"]}
        spaces_res = await resource("memory-mcp://spaces")
        assert spaces_res == {"activeSpace": "demo", "spaces": [
            {"key": "demo", "name": "Demo space", "access": "ReadWrite", "active": True}]}
        memories_res = await resource("memory-mcp://memories")
        assert memories_res["space"] == "demo"
        assert {m["id"] for m in memories_res["memories"]} == {deploys["id"], staging_id, lunch_id}
        assert {m["id"]: m["isForgotten"] for m in memories_res["memories"]}[lunch_id] is True

        # ---- context prompt
        prompts = await client.list_prompts()
        assert [p.name for p in prompts.prompts] == ["context"]
        assert not prompts.prompts[0].arguments
        prompt = await client.get_prompt("context")
        assert len(prompt.messages) == 1
        prompt_text = getattr(prompt.messages[0].content, "text", "")
        texts.append(prompt_text)
        assert prompt_text.startswith("Memory-MCP context.")
        assert "Profile of space demo" in prompt_text and DEPLOYS in prompt_text
        assert STAGING not in prompt_text and LUNCH not in prompt_text
        for name, args, says in (("context", {"space": "demo"}, "takes no arguments; got 'space'"),
                                 ("summary", None, "Unknown prompt 'summary'")):
            with pytest.raises(MCPError) as refused:  # the caller's mistake, said as such
                await client.get_prompt(name, args)
            assert refused.value.code == -32602 and says in refused.value.message

    # ---- the secret half of the key never travels back
    assert texts
    for text in texts:
        assert secret not in text
        assert key not in text
    # ... nor is it logged after the one-time banner
    after_banner = proc.output.split("The key is shown only now", 1)[1]
    after_banner = after_banner.split("listening on", 1)[1]
    assert secret not in after_banner


# --------------------------------------------------------------------------- restart


def test_restart_on_same_database_prints_no_new_key(fresh_database_url: str, tmp_path: Path) -> None:
    with serving(fresh_database_url, tmp_path) as first:
        key = _demo_key(first)
        _wait_started(first)
    # graceful shutdown on SIGTERM (uvicorn re-raises the signal once it has finished)
    assert first.proc.returncode in (0, -signal.SIGTERM), first.output
    assert "Application shutdown complete" in first.output

    with serving(fresh_database_url, tmp_path) as second:
        _wait_started(second)
        output = second.output
        assert "First start" not in output
        assert not any(KEY_LINE.match(line) for line in second.lines)
        assert "mm_" not in output
        # the key from the first run still works against the restarted server
        response = httpx.post(
            f"{second.base}/mcp", timeout=30,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "whoAmI", "arguments": {}}},
            headers={"Authorization": f"Bearer {key}",
                     "Accept": "application/json, text/event-stream"},
        )
        assert response.status_code == 200, response.text
        assert "demo@localhost" in response.text

    with psycopg.connect(fresh_database_url) as conn:
        row = conn.execute("SELECT count(*) FROM users").fetchone()
        keys = conn.execute("SELECT count(*) FROM api_keys").fetchone()
    assert row is not None and row[0] == 1
    assert keys is not None and keys[0] == 1


# --------------------------------------------------------------------------- uploads


@pytest.mark.anyio
async def test_real_server_upload_reaches_done(server: tuple[ServerProcess, str]) -> None:
    """The local path of `make run`: POST /uploads, PUT to the signed URL, the in-process worker
    extracts, and the document's facts are found by search_memory."""
    proc, key = server
    csv = b"service,owner,pager\nbilling,Ana,+1-555-0100\nsearch,Kofi,+1-555-0101\n"
    auth = {"Authorization": f"Bearer {key}"}
    started = httpx.post(f"{proc.base}/uploads", headers=auth, timeout=10, json={
        "filename": "owners.csv", "contentType": "text/csv", "size": len(csv)})
    assert started.status_code == 201, started.text
    target = started.json()
    assert set(target) >= {"documentId", "uploadUrl", "method", "headers", "expiresAt"}
    put = httpx.request(target["method"], target["uploadUrl"], content=csv,
                        headers=target["headers"], timeout=10)
    assert put.status_code == 200, put.text
    signature = parse_qs(urlsplit(target["uploadUrl"]).query)["sig"][0]
    proc.wait_for_line(lambda line: "PUT /uploads/" in line, timeout=10)  # the access log line
    assert "sig=[REDACTED]" in proc.output and signature not in proc.output
    async with connect(f"{proc.base}/mcp", key) as client:
        deadline = time.monotonic() + 60
        while True:
            got = await client.call_tool("getDocument", {"documentId": target["documentId"]})
            doc = got.structured_content["document"]
            if doc["status"] in ("done", "failed") or time.monotonic() > deadline:
                break
            await anyio.sleep(0.2)
        assert doc["status"] == "done", doc
        assert any("Kofi" in m["memory"] for m in got.structured_content["memories"])
        found = await client.call_tool("search_memory", {"keyword": "Kofi",
                                                         "includeProfile": False})
        hit = found.structured_content["results"][0]
        assert hit["sourceDocumentId"] == target["documentId"] and "search" in hit["memory"]
