"""The traffic of ``bench/load.py``: one simulated agent per client, and what it was told.

Each agent holds one official MCP client session (``mcp.Client`` over streamable HTTP with its
key as a bearer token) and loops over a weighted mix of tool calls until the run ends. Every call
is timed and classified (``Sample``); every acknowledged write goes into the ``Ledger``, which
``load.py`` checks against the server's state at the end.

Saved texts are unique per attempt and carry a fixed-width token (``lt<client>q<seq>z``), so a
keyword search finds exactly one memory and a second row with the same text is a duplicate.

The records (``Sample``, ``Ledger``, ``Run``) are in ``_load_records.py``, the session and the
error kinds in ``_load_wire.py``, the texts and operation weights in ``_load_mix.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import anyio
from _load_mix import PREDICATES, QUESTIONS, READER_MIX, SUBJECTS, WRITER_MIX
from _load_records import KeyPlan, Run, Sample, SaveAck, UploadAck
from _load_wire import CALL_TIMEOUT_S, Wire, classify_exception, classify_tool_error, retryable, session
from mcp import Client

#: A retryable failure (503, store unavailable, timeout) of a save is retried this many times.
SAVE_RETRIES = 2
#: An agent follows its upload's status this long at most, then gets on with its traffic.
FOLLOW_UPLOAD_S = 120.0


def _text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


class Agent:
    """One client: a key, a session, its own acknowledged saves, and the loop."""

    def __init__(self, run: Run, cid: int, plan: KeyPlan, seed: int) -> None:
        self.run, self.cid, self.plan = run, cid, plan
        self.rng = random.Random(seed)
        self.wire = Wire()
        self.seq = 0
        self.live: list[SaveAck] = []  # own saves not yet forgotten (forget picks from these)
        self.pending: list[UploadAck] = []
        self.next_poll = 0.0
        mix = WRITER_MIX if plan.write_space else READER_MIX
        self.ops, self.weights = [m[0] for m in mix], [m[1] for m in mix]

    # -- one timed call ------------------------------------------------------------------------

    async def call(self, client: Client, op: str, tool: str, args: dict[str, Any],
                   expect: Callable[[str], bool] = lambda _: False
                   ) -> tuple[str, dict[str, Any] | None]:
        """(kind, structured content when ok); records a Sample either way."""
        self.wire.status = self.wire.retry_after = None
        t0 = time.monotonic()
        data: dict[str, Any] | None = None
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                result = await client.call_tool(tool, args)
            if result.is_error:
                kind = classify_tool_error(_text(result))
            else:
                kind, data = "ok", dict(result.structured_content or {})
        except Exception as exc:
            kind = classify_exception(exc, self.wire)
        self.run.samples.append(Sample(op, t0, time.monotonic(), kind, self.wire.status,
                                       self.wire.retry_after, expected=expect(kind)))
        return kind, data

    # -- the loop ------------------------------------------------------------------------------

    async def loop(self) -> None:
        while not self.run.over():
            t0 = time.monotonic()
            try:
                async with session(self.run.url, self.plan.key, self.wire) as client:
                    self.run.samples.append(Sample("connect", t0, time.monotonic(), "ok",
                                                   self.wire.status))
                    while not self.run.over():
                        await self.step(client)
            except Exception as exc:  # the session could not start or broke: back off, retry
                self.run.samples.append(Sample("connect", t0, time.monotonic(),
                                               classify_exception(exc, self.wire),
                                               self.wire.status, self.wire.retry_after))
                await anyio.sleep(1.0)

    async def step(self, client: Client) -> None:
        if self.pending and time.monotonic() - self.pending[0].accepted_at > FOLLOW_UPLOAD_S:
            self.pending.pop(0)  # stuck: the verification reports it
        if self.pending and time.monotonic() >= self.next_poll:
            await self.poll_upload(client)
            return
        op = self.rng.choices(self.ops, self.weights)[0]
        if op == "upload" and not self.run.upload_slot():
            op = "search_query"
        await getattr(self, f"op_{op}")(client)

    def space(self) -> str:
        return self.rng.choice(self.plan.read_spaces)

    def question(self) -> str:
        return self.rng.choice(QUESTIONS).format(s=self.rng.choice(SUBJECTS))

    def fact(self) -> tuple[str, str]:
        self.seq += 1
        token = f"lt{self.cid:03d}q{self.seq:06d}z"
        predicate = self.rng.choice(PREDICATES).format(
            h=self.rng.randint(7, 18), m=self.rng.randint(0, 59), n=self.rng.randint(2, 999))
        subject = self.rng.choice(SUBJECTS)
        return token, f"Agent {self.cid} noted that {subject} {predicate} (ref {token})."

    # -- reads ---------------------------------------------------------------------------------

    async def op_search_query(self, client: Client) -> None:
        await self.call(client, "search_memory(query)", "search_memory",
                        {"query": self.question(), "containerTag": self.space(),
                         "includeProfile": self.rng.random() < 0.3, "limit": 10})

    async def op_search_keyword(self, client: Client) -> None:
        """Read-your-writes: one of this agent's own current saves, by its token."""
        if not self.live:
            await self.call(client, "search_memory(keyword)", "search_memory",
                            {"keyword": f"lt{self.cid:03d}q", "containerTag": self.space(),
                             "includeProfile": False})
            return
        ack = self.rng.choice(self.live)
        _, data = await self.call(client, "search_memory(keyword)", "search_memory",
                                  {"keyword": ack.token, "containerTag": ack.space,
                                   "includeProfile": False, "limit": 5})
        if data is not None and not any(r["id"] == ack.memory_id for r in data["results"]):
            self.run.ledger.ryw_misses.append((ack.space, ack.memory_id))

    async def op_listMemories(self, client: Client) -> None:
        await self.call(client, "listMemories", "listMemories",
                        {"containerTag": self.space(), "limit": self.rng.choice([10, 25, 50])})

    async def op_listSpaces(self, client: Client) -> None:
        await self.call(client, "listSpaces", "listSpaces", {})

    async def op_whoAmI(self, client: Client) -> None:
        await self.call(client, "whoAmI", "whoAmI", {})

    async def op_listDocuments(self, client: Client) -> None:
        await self.call(client, "listDocuments", "listDocuments", {"containerTag": self.space()})

    # -- writes --------------------------------------------------------------------------------

    async def op_save(self, client: Client) -> None:
        assert self.plan.write_space is not None
        space = self.plan.write_space
        token, content = self.fact()
        ledger = self.run.ledger
        for attempt in range(SAVE_RETRIES + 1):
            kind, data = await self.call(client, "add_memory(save)", "add_memory",
                                         {"content": content, "containerTag": space})
            ledger.attempts[token] = (space, content, kind)
            if data is not None:
                memory = data["memory"]
                ack = SaveAck(memory["id"], space, content, token, data["action"], self.cid,
                              time.monotonic())
                ledger.saves[ack.memory_id] = ack
                if data["action"] == "versioned":
                    ledger.superseded[data["supersedes"]["id"]] = ack.memory_id
                self.live.append(ack)
                return
            if not retryable(kind) or attempt == SAVE_RETRIES or self.run.over():
                return
            await anyio.sleep(float(self.wire.retry_after or 1))

    async def op_save_denied(self, client: Client) -> None:
        """A save where the key may only read: must be refused, and must not land."""
        token, content = self.fact()
        space = self.plan.denied_space
        kind, _ = await self.call(client, "add_memory(save, Read space)", "add_memory",
                                  {"content": content, "containerTag": space},
                                  expect=lambda k: k == "tool error: write denied (read-only)")
        self.run.ledger.denied.append((space, token, kind))

    async def op_forget(self, client: Client) -> None:
        if not self.live:
            await self.op_save(client)
            return
        ack = self.live.pop(self.rng.randrange(len(self.live)))
        by_id = self.rng.random() < 0.5
        args: dict[str, Any] = {"action": "forget", "containerTag": ack.space,
                                "content": ack.content if not by_id else "forget this"}
        if by_id:
            args["memoryId"] = ack.memory_id
        op = "add_memory(forget by id)" if by_id else "add_memory(forget by text)"
        kind, data = await self.call(client, op, "add_memory", args)
        if data is None:
            if retryable(kind):
                self.live.append(ack)  # not forgotten: may be picked again
            return
        if data["action"] in ("forgotten", "already_forgotten"):
            self.run.ledger.forgotten[data["memory"]["id"]] = data.get("match", "already")
        else:
            self.run.ledger.forget_misses.append(ack.memory_id)
            self.live.append(ack)

    # -- uploads -------------------------------------------------------------------------------

    async def op_upload(self, client: Client) -> None:
        assert self.plan.write_space is not None
        space = self.plan.write_space
        k = len(self.run.ledger.uploads) + len(self.pending) + self.seq
        token = f"ud{self.cid:03d}q{k:06d}z"
        lines = [f"The crane at yard {token} was load-tested on day {self.rng.randint(1, 28)}.",
                 f"Scaffolding on level {self.rng.randint(1, 40)} of yard {token} passed review.",
                 f"The gate code of yard {token} changes every {self.rng.randint(2, 30)} days.",
                 f"Deliveries to yard {token} arrive before {self.rng.randint(6, 11)} am.",
                 f"Yard {token} keeps {self.rng.randint(2, 9)} forklifts on site."]
        body = (f"# Site notes {token}\n\n" + "\n".join(lines) + "\n").encode()
        http = self.run.upload_http
        t0 = time.monotonic()
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                started = await http.post("/uploads", headers={
                    "Authorization": f"Bearer {self.plan.key}"}, json={
                    "filename": f"{token}.md", "contentType": "text/markdown",
                    "size": len(body), "containerTag": space})
        except Exception as exc:
            self.run.samples.append(Sample("POST /uploads", t0, time.monotonic(),
                                           f"{type(exc).__name__}"))
            return
        ok = started.status_code == 201
        self.run.samples.append(Sample(
            "POST /uploads", t0, time.monotonic(), "ok" if ok else f"HTTP {started.status_code}"
            + (" + Retry-After" if started.headers.get("retry-after") else ""),
            started.status_code, started.headers.get("retry-after")))
        if not ok:
            return
        target = started.json()
        t1 = time.monotonic()
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                put = await http.put(target["uploadUrl"], content=body, headers=target["headers"])
        except Exception as exc:
            self.run.samples.append(Sample("PUT upload", t1, time.monotonic(),
                                           f"{type(exc).__name__}"))
            return
        ok = put.status_code == 200
        self.run.samples.append(Sample(
            "PUT upload", t1, time.monotonic(), "ok" if ok else f"HTTP {put.status_code}"
            + (" + Retry-After" if put.headers.get("retry-after") else ""),
            put.status_code, put.headers.get("retry-after")))
        if ok:
            ack = UploadAck(target["documentId"], space, token, len(lines), self.cid,
                            time.monotonic())
            self.run.ledger.uploads.append(ack)
            self.pending.append(ack)
            self.next_poll = time.monotonic() + 1.0

    async def poll_upload(self, client: Client) -> None:
        ack = self.pending[0]
        _, data = await self.call(client, "getDocument (upload status)", "getDocument",
                                  {"documentId": ack.document_id, "containerTag": ack.space})
        self.next_poll = time.monotonic() + 1.0
        if data is not None:
            ack.status = data["document"]["status"]
            if ack.status in ("done", "failed"):
                ack.finished_at = time.monotonic()
                self.pending.pop(0)
