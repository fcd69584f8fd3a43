"""Fuzz checks: never a 5xx, a readable error, no partial write, a healthy server afterwards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import httpx
from fuzz_invariants import (
    HarnessBase,
    Problem,
    _short,
    unreadable,
)
from fuzz_requests import Case
from fuzz_setup import (
    FIELDS,
    Snapshot,
)
from fuzz_values import (
    ACCEPT,
    TOOLS,
)


class HarnessChecks(HarnessBase):
    """The invariants checked on every answer (the second layer of ``Harness``)."""

    # --- invariants

    def _check_answer(self, case: Case, request: httpx.Request, response: httpx.Response,
                      sent: str, expected: dict[str, Counter[str]]) -> list[Problem]:
        problems: list[Problem] = []
        status = response.status_code
        if status >= 500:
            problems.append(self._problem("5xx", case, request, response, f"HTTP {status}"))
        try:
            data: Any = response.json() if response.content else None
        except ValueError:
            data = None
        outcome = "ok"
        messages: list[Any] = []
        if case.label in ("POST /mcp", *TOOLS) and response.status_code < 300 and data is not None:
            outcome = self._rpc_outcome(case, data, messages, expected)
        elif status >= 400:
            outcome = f"HTTP {status}"
            if request.method != "HEAD":
                messages.append(_http_message(data, response))
        elif case.label == "POST /uploads" and status == 201 and isinstance(data, dict):
            expected[str(data.get("space"))]["documents"] += 1
        elif case.label == "PUT /uploads/local" and request.method == "PUT" and status == 200:
            expected[self.setup.spaces["put"]]["uploaded"] += 1
            self.pending_put = None
        elif case.label in ("POST /mcp", *TOOLS) and status == 202:
            outcome = "accepted (notification)"
        self.stats.outcomes[(case.label, outcome)] += 1
        self.stats.samples.setdefault((case.label, outcome), _short(response.text, 300))
        for message in messages:
            reason = unreadable(message, sent, self.secrets)
            if reason is not None:
                problems.append(self._problem("unreadable", case, request, response, reason))
        if not problems and _has_surrogate(data.get("result") if isinstance(data, dict) and
                                           "jsonrpc" in data else data):
            problems.append(self._problem(
                "unreadable", case, request, response, "the answer contains an unpaired "
                "surrogate: not valid Unicode, so a strict JSON parser refuses it"))
        return problems

    def _rpc_outcome(self, case: Case, data: Any, messages: list[Any],
                     expected: dict[str, Counter[str]]) -> str:
        replies = data if isinstance(data, list) else [data]
        outcomes = []
        for reply in replies:
            if not isinstance(reply, dict):
                messages.append(None)
                outcomes.append("non-object reply")
                continue
            if "error" in reply:
                error = reply["error"]
                messages.append(error.get("message") if isinstance(error, dict) else None)
                outcomes.append("JSON-RPC error")
                continue
            result = reply.get("result")
            if isinstance(result, dict) and result.get("isError"):
                content = result.get("content") or [{}]
                messages.append(content[0].get("text") if isinstance(content[0], dict) else None)
                outcomes.append("tool error")
                continue
            action = (result.get("structuredContent") or {}).get("action") if isinstance(
                result, dict) else None
            outcomes.append(f"success ({action})" if isinstance(action, str) else "success")
            tool = self._called_tool(case, reply)
            if tool and isinstance(result, dict):
                self._expect(tool, result.get("structuredContent") or {}, expected)
        return "+".join(sorted(set(outcomes))) or "empty"

    def _called_tool(self, case: Case, reply: dict[str, Any]) -> str | None:
        """Which tool a successful reply answers (batches: matched by id)."""
        body = case.body
        messages = body if isinstance(body, list) else [body]
        for message in messages:
            if (isinstance(message, dict) and message.get("method") == "tools/call"
                    and message.get("id") == reply.get("id")
                    and isinstance(message.get("params"), dict)):
                name = message["params"].get("name")
                return name if isinstance(name, str) else None
        return case.tool

    def _expect(self, tool: str, result: dict[str, Any], expected: dict[str, Counter[str]]) -> None:
        """The rows a successful call changes, from what it answered."""
        space = str(result.get("space"))
        action = result.get("action")
        memory = result.get("memory") if isinstance(result.get("memory"), dict) else None
        if tool == "add_memory":
            if action == "saved":
                expected[space]["memories"] += 1
                expected[space]["live"] += 1
            elif action == "versioned":
                expected[space]["memories"] += 1
            elif action == "forgotten":
                expected[space]["live"] -= 1
                expected[space]["forgotten"] += 1
            if memory and action in ("saved", "versioned") and space == self.setup.spaces["fuzz"]:
                self.setup.ids.setdefault("fuzz_mem", []).append(str(memory["id"]))
        elif tool == "deleteDocument":
            for ids in self.setup.ids.values():
                if str(result.get("documentId")) in ids and len(ids) > 1:
                    ids.remove(str(result.get("documentId")))
            n = int(result.get("forgottenMemories") or 0)
            expected[space]["deleted"] += 1
            expected[space]["live"] -= n
            expected[space]["forgotten"] += n
        elif tool == "upload-start":
            expected[space]["documents"] += 1
            if space == self.setup.spaces["fuzz"] and result.get("documentId"):
                self.setup.ids.setdefault("fuzz_doc", []).append(str(result["documentId"]))

    def _check_writes(self, case: Case, request: httpx.Request, response: httpx.Response | None,
                      expected: Mapping[str, Counter[str]], now: Snapshot) -> list[Problem]:
        wrong = []
        for space, counts in now.items():
            want = Counter(expected.get(space, Counter()))
            if space == self.setup.spaces["put"]:  # its memories are not modelled (snapshot)
                for f in ("memories", "live", "forgotten"):
                    want[f] = 0
            for f in FIELDS:
                delta = counts[f] - self.last.get(space, {}).get(f, 0)
                if delta != want[f]:
                    wrong.append(f"{space}.{f} changed by {delta:+d}, expected {want[f]:+d}")
        unknown = set(expected) - set(now)
        for space in unknown:
            if any(expected[space].values()):
                wrong.append(f"the answer names space {space!r}, which is not a fuzzed space")
        if not wrong:
            return []
        return [self._problem("partial_write", case, request, response, "; ".join(wrong))]

    def _check_health(self, case: Case) -> list[Problem]:
        try:
            health = self.http.get("/healthz", timeout=15)
            if health.status_code == 200 and health.json().get("status") == "ok":
                return []
            detail = f"/healthz answered {health.status_code} {health.text[:200]}"
        except httpx.HTTPError as exc:
            detail = f"/healthz failed: {type(exc).__name__}"
        return [Problem("unhealthy", case.label, detail, "GET /healthz", "")]

    def tool_schemas(self) -> dict[str, dict[str, Any]]:
        response = self.http.post("/mcp", headers={**self._auth("writer"), "Accept": ACCEPT},
                                  json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        response.raise_for_status()
        return {t["name"]: t["inputSchema"] for t in response.json()["result"]["tools"]}


def _has_surrogate(value: Any) -> bool:
    """Whether a decoded JSON value holds a lone surrogate anywhere (keys included)."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def _http_message(data: Any, response: httpx.Response) -> Any:
    """The message of an HTTP error answer: ``message``/``detail``/JSON-RPC ``error.message``,
    else a non-JSON body's text."""
    if isinstance(data, dict):
        if isinstance(data.get("error"), dict):
            return data["error"].get("message")
        for k in ("message", "detail"):
            if isinstance(data.get(k), str):
                return data[k]
        return None
    if data is None and response.content:
        return response.text
    return None
