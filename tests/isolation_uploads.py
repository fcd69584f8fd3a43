"""The isolation world's views, uploads, graph, resources and prompt operations."""

from __future__ import annotations

import json
from typing import Any

from isolation_model import (
    CATEGORIES,
    FACTS,
    NO_SPACES,
    NOT_FOUND,
    RESOURCE_URIS,
    UI_URIS,
    Chooser,
    KeyM,
    Upload,
)
from isolation_tools import WorldTools


class WorldUploads(WorldTools):
    """Views, uploads, graph, resources and prompt (the fifth layer of ``IsolationWorld``)."""

    def _writable_view(self, op: str, name: str, c: Chooser, args: dict[str, Any],
                       default_field: str) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k) if c.flag("with tag") else None
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(op, k, name, args)
        self.check(op, k, reply, sent, set())
        if not k.alive:
            return
        writable = self.writable(k)
        if tag and tag.strip() not in k.grants and writable:
            if reply.ok:
                self.violation("a", f"{op} accepted unreadable tag {tag}: {reply.body[:300]}")
            else:
                self._refusal(op, reply, NOT_FOUND)
            return
        if not reply.ok:
            self.mismatch(op, reply.message[:300])
            return
        listed = sorted(s["key"] for s in reply.structured.get("writableSpaces", []))
        if listed != writable:
            self.mismatch(op, f"writable {listed}, the model says {writable}")
        chosen = reply.structured.get(default_field)
        if isinstance(chosen, dict):
            chosen = chosen.get("containerTag")
        if writable:
            active = self.default(k)
            want = tag.strip() if tag and tag.strip() in writable else (
                active if active in writable else writable[0])
            if chosen != want:
                self.mismatch(op, f"default {chosen}, the model says {want}")
        elif chosen is not None:
            self.mismatch(op, f"default {chosen} with nowhere to write")

    def op_guided_save(self, c: Chooser) -> None:
        k_preview = c.pick("draft", ("empty", "text"))
        args: dict[str, Any] = {}
        if k_preview == "text":
            args["content"] = f"draft: {c.pick('fact', FACTS)}"
            args["category"] = c.pick("category", CATEGORIES)
        self._writable_view("guided-save", "guided-save", c, args, "draft")

    def op_upload_file(self, c: Chooser) -> None:
        self._writable_view("upload-file", "upload-file", c, {}, "defaultSpace")

    def _upload_body(self, space: str | None, c: Chooser) -> tuple[str, bytes]:
        marker = self.marker_for(space)
        facts = [c.pick("fact", FACTS) for _ in range(3)]
        text = f"# {marker} runbook\n\n" + "\n\n".join(
            f"{marker} fact {i}: {fact}." for i, fact in enumerate(facts))
        return f"{marker}-runbook.md", text.encode()

    def _start_upload(self, c: Chooser, via: str, writer: tuple[KeyM, str] | None = None
                      ) -> None:
        """``POST /uploads`` or ``upload-start``; ``writer``: this key into this space."""
        k, tag = writer if writer is not None else (self.pick_key(c), None)
        if writer is None:
            tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        filename, body = self._upload_body(target or tag, c)
        args: dict[str, Any] = {"filename": filename, "contentType": "text/markdown",
                                "size": len(body)}
        if tag is not None:
            args["containerTag"] = tag
        if via == "POST /uploads":
            reply, sent = self.send(via, k, "POST", "/uploads", payload=args)
            if reply.ok and reply.status != 201:
                self.mismatch(via, f"HTTP {reply.status}")
        else:
            reply, sent = self.tool(via, k, "upload-start", args)
        written = self.expect_write(via, k, reply, tag)
        if k.alive and not reply.ok and via == "POST /uploads":
            kind, _ = self.resolve(k, tag)
            want = 403 if kind == "ok" else 404
            if reply.status != want:
                self.mismatch(via, f"refused with HTTP {reply.status}, expected {want}")
        self.check(via, k, reply, sent, {written} if written else set(), one_space=written)
        if written and reply.ok:
            s = reply.structured
            self.documents.add(s["documentId"])
            self.id_owner[s["documentId"]] = written
            self.uploads.append(Upload(s["documentId"], written, s["uploadUrl"],
                                       dict(s.get("headers") or {}), body))

    def op_upload_start(self, c: Chooser) -> None:
        self._start_upload(c, "upload-start")

    def op_post_uploads(self, c: Chooser) -> None:
        self._start_upload(c, "POST /uploads")

    def op_put(self, c: Chooser) -> None:
        """The local PUT: the signed URL as given (then the worker processes the document in
        its own space only), or one whose document id was swapped for another pending upload's
        (refused, nothing changes)."""
        if not self.uploads:  # start one that can succeed: a key that may write, into its space
            writers = [(k, s) for k in self.alive_keys() for s in self.writable(k)]
            self._start_upload(c, c.pick("start", ("upload-start", "POST /uploads")),
                               c.pick("writer", writers) if writers else None)
            if not self.uploads:
                return
        up = c.pick("upload", self.uploads)
        others = [u for u in self.uploads if u.document_id != up.document_id]
        if others and c.pick("put", ("valid", "valid", "forged")) == "forged":
            victim = c.pick("victim", others)
            url = up.url.replace(up.document_id, victim.document_id)
            reply, sent = self.send("PUT /uploads/local", None, "PUT", url, content=victim.body,
                                    headers=victim.headers)
            if reply.status != 403:
                self.violation("b", f"a PUT signed for {up.document_id} was accepted for "
                                    f"{victim.document_id}: {reply.status} {reply.body[:200]}")
            self.check("PUT /uploads/local", None, reply, sent, set())
            return
        self.uploads.remove(up)
        reply, sent = self.send("PUT /uploads/local", None, "PUT", up.url, content=up.body,
                                headers=up.headers)
        want = 403 if up.document_id in self.deleted else 200  # deleted before its bytes came
        if reply.status != want:
            self.mismatch("PUT /uploads/local", f"HTTP {reply.status} (expected {want}) "
                                                f"{reply.body[:200]}")
        if reply.status == 200:
            self.working[up.document_id] = up.space
        self.check("PUT /uploads/local", None, reply, sent,
                   {up.space} if reply.status == 200 else set(), one_space=up.space)

    def op_graph(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        args: dict[str, Any] = {"includeInactive": c.flag("inactive")}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool("memory-graph", k, "memory-graph", args)
        space = self.expect_read("memory-graph", k, reply, tag)
        self.check("memory-graph", k, reply, sent, set(), one_space=space)

    # ------------------------------------------------------------------ resources, prompt

    def op_resource(self, c: Chooser) -> None:
        k = self.pick_key(c)
        self.read_resource(k, c.pick("uri", RESOURCE_URIS))

    def read_resource(self, k: KeyM, uri: str) -> None:
        op = f"resource {uri}"
        reply, sent = self.mcp(op, k, "resources/read", {"uri": uri})
        one = self.default(k) if uri in ("memory-mcp://profile", "memory-mcp://memories") \
            else None
        self.check(op, k, reply, sent, set(), one_space=one)
        if not k.alive:
            return
        if uri in UI_URIS:
            seen = self.ui_bodies.setdefault(uri, reply.body)
            if not reply.ok or reply.body != seen:
                self.mismatch(op, "a ui:// view differs between keys or failed")
            return
        if uri == "memory-mcp://spaces":
            if not reply.ok:
                self.mismatch(op, reply.message[:300])
                return
            data = json.loads(reply.text)
            self._check_spaces_listing(op, k, data.get("spaces", []))
            if data.get("activeSpace") != self.default(k):
                self.mismatch(op, f"active {data.get('activeSpace')}, model {self.default(k)}")
            return
        space = self.default(k)
        if space is None:
            if reply.ok:
                self.violation("a", f"{op} answered for a key without spaces: {reply.body[:300]}")
            else:
                self._refusal(op, reply, NO_SPACES)
            return
        if not reply.ok:
            self.mismatch(op, reply.message[:300])
            return
        got = json.loads(reply.text).get("space")
        if got != space:
            self.mismatch(op, f"resource of {got}, the model says {space}")

    def op_prompt(self, c: Chooser) -> None:
        k = self.pick_key(c)
        reply, sent = self.mcp("prompt context", k, "prompts/get",
                               {"name": "context", "arguments": {}})
        self.check("prompt context", k, reply, sent, set())
        if k.alive and not reply.ok:
            self.mismatch("prompt context", reply.message[:300])
        if k.alive and reply.ok and self.default(k) and f"space {self.default(k)}" not in reply.text:
            self.mismatch("prompt context", f"no profile of active {self.default(k)}")
