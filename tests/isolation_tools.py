"""The isolation world's tool operations: search, save, forget, listings, documents, spaces."""

from __future__ import annotations

import secrets
from typing import Any

from isolation_model import (
    CATEGORIES,
    FACTS,
    NOT_FOUND,
    QUERIES,
    READ_ONLY,
    Chooser,
    KeyM,
    Reply,
    access_label,
)
from isolation_scenario import WorldScenario


class WorldTools(WorldScenario):
    """Tool operations (the fourth layer of ``IsolationWorld``)."""

    # ------------------------------------------------------------------ tools

    def op_search(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        mode = c.pick("search", ("query", "query", "keyword-own", "keyword-foreign", "category",
                                 "query+category"))
        args: dict[str, Any] = {"includeProfile": c.flag("profile"),
                                "limit": c.integer("limit", 1, 20)}
        if mode.startswith("query"):
            args["query"] = c.pick("query", QUERIES)
        if mode.endswith("category"):
            args["category"] = c.pick("category", CATEGORIES)
        foreign_marker = None
        if mode == "keyword-own":
            args["keyword"] = self.marker_for(target)
        if mode == "keyword-foreign":
            others = [s for s in self.spaces.values() if s.key != target]
            foreign_marker = (c.pick("foreign space", others[-12:]).marker if others
                              else f"mk{secrets.token_hex(6)}")
            args["keyword"] = foreign_marker
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool("search_memory", k, "search_memory", args)
        space = self.expect_read("search_memory", k, reply, tag)
        self.check("search_memory", k, reply, sent, {space} if space else set(), one_space=space)
        if space and reply.ok:
            results = reply.structured.get("results", [])
            if foreign_marker is not None and results:
                self.violation("a", f"keyword {foreign_marker} of another space found "
                                    f"{len(results)} memories in {space}: {reply.body[:300]}")
            if mode == "keyword-own" and any(
                    str(args["keyword"]) not in r.get("memory", "").lower() for r in results):
                self.mismatch("search_memory", "a keyword hit without the keyword")

    def op_save(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        content = self.text_for(c, target or tag)
        category = c.pick("category", (None, None, *CATEGORIES))
        self._save(k, tag, content, category)

    def op_forget(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        _, target = self.resolve(k, tag)
        args: dict[str, Any] = {"action": "forget"}
        by_id = c.flag("by id")
        memory_id = None
        if by_id:
            memory_id = self.pick_memory(c, target)
            args.update(content="forget by id", memoryId=memory_id)
        else:
            space = self.spaces.get(target or "")
            if space is not None and space.texts and c.flag("exact"):
                args["content"] = c.pick("forget text", space.texts[-6:])
            else:
                args["content"] = f"{self.marker_for(target or tag)} {c.pick('fact', FACTS)}"
        if tag is not None:
            args["containerTag"] = tag
        op = "add_memory:forget"
        reply, sent = self.tool(op, k, "add_memory", args)
        kind, space_key = self.resolve(k, tag)
        may_write = kind == "ok" and space_key is not None and self.effective(
            k, space_key) == "readwrite"
        if k.alive and may_write and by_id and self.id_owner.get(str(memory_id)) != space_key:
            # the id is not a memory of the resolved space: refused like a missing one
            if reply.ok:
                self.violation("b", f"forget of memory {memory_id} (space "
                                    f"{self.id_owner.get(str(memory_id))}) through "
                                    f"{space_key} was accepted: {reply.body[:300]}")
            else:
                self._refusal(op, reply, "No memory with id")
            written = None
        else:
            if by_id and may_write and not reply.ok and k.alive:
                self.mismatch(op, f"memory {memory_id} is {self.describe_id(str(memory_id))}")
            written = self.expect_write(op, k, reply, tag)
        self.check(op, k, reply, sent, {written} if written else set(), one_space=written)

    def _page(self, c: Chooser, name: str, items: str) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k)
        args: dict[str, Any] = {"page": 1, "limit": c.integer("limit", 1, 50)}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(name, k, name, args)
        space = self.expect_read(name, k, reply, tag)
        self.check(name, k, reply, sent, set(), one_space=space)
        if space and reply.ok and not isinstance(reply.structured.get(items), list):
            self.mismatch(name, f"no {items} list in {reply.body[:200]}")

    def op_list_memories(self, c: Chooser) -> None:
        self._page(c, "listMemories", "memories")

    def op_list_documents(self, c: Chooser) -> None:
        self._page(c, "listDocuments", "documents")

    def _document_call(self, c: Chooser, name: str, *, write: bool) -> None:
        k = self.pick_key(c)
        doc = self.pick_document(c, k)
        tag = self.pick_tag(c, k) if c.flag("with tag") else None
        args: dict[str, Any] = {"documentId": doc}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(name, k, name, args)
        written = self._expect_document(name, k, reply, doc, tag, write=write)
        self.check(name, k, reply, sent, {written} if written and write else set(),
                   one_space=written)

    def _expect_document(self, op: str, k: KeyM, reply: Reply, doc: str, tag: str | None, *,
                         write: bool) -> str | None:
        """getDocument/deleteDocument/upload-status: the named space (else any readable one)
        must hold the live document; a write needs effective ReadWrite there."""
        if not k.alive:
            return None
        if tag:
            kind, _ = self.resolve(k, tag)
            if kind != "ok":
                if reply.ok:
                    self.violation("a", f"{op} answered through unreadable tag {tag}")
                else:
                    self._refusal(op, reply, NOT_FOUND)
                return None
        owner = self.id_owner.get(doc)
        deleted = doc in self.deleted
        visible = (owner is not None and not deleted and owner in self.readable(k)
                   and (not tag or owner == tag.strip()))
        if not visible:
            if reply.ok:
                self.violation("a" if not write else "b",
                               f"{op} of document {doc} (space {owner}, deleted={deleted}) "
                               f"answered for tag {tag!r}: {reply.body[:300]}")
            else:
                self._refusal(op, reply, f"Document {doc} was not found.")
            return None
        assert owner is not None
        if write and self.effective(k, owner) != "readwrite":
            if reply.ok:
                self.violation("b", f"{op} of document {doc} in read-only {owner} accepted")
            else:
                self._refusal(op, reply, READ_ONLY)
            return None
        if not reply.ok:
            self.mismatch(op, f"expected document {doc} of {owner}, got {reply.message[:300]}")
            return None
        if reply.structured.get("space") != owner:
            self.mismatch(op, f"document {doc} reported in {reply.structured.get('space')}, "
                              f"lives in {owner}")
        return owner

    def op_get_document(self, c: Chooser) -> None:
        self._document_call(c, "getDocument", write=False)

    def op_delete_document(self, c: Chooser) -> None:
        k = self.pick_key(c)
        doc = self.pick_document(c, k)
        tag = self.pick_tag(c, k) if c.flag("with tag") else None
        args: dict[str, Any] = {"documentId": doc}
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool("deleteDocument", k, "deleteDocument", args)
        written = self._expect_document("deleteDocument", k, reply, doc, tag, write=True)
        self.check("deleteDocument", k, reply, sent, {written} if written else set(),
                   one_space=written)
        if written and reply.ok:
            self.deleted.add(doc)

    def op_upload_status(self, c: Chooser) -> None:
        self._document_call(c, "upload-status", write=False)

    def _check_spaces_listing(self, op: str, k: KeyM, items: list[dict[str, Any]],
                              key_field: str = "key") -> None:
        got = {i.get(key_field): i.get("access") for i in items}
        want = {s: access_label(self.effective(k, s) or "read") for s in k.grants}
        if got != want:
            self.mismatch(op, f"listed {got}, the model says {want}")

    def op_list_spaces(self, c: Chooser) -> None:
        k = self.pick_key(c)
        reply, sent = self.tool("listSpaces", k, "listSpaces", {})
        self.check("listSpaces", k, reply, sent, set())
        if k.alive:
            if not reply.ok:
                self.mismatch("listSpaces", reply.message[:300])
                return
            self._check_spaces_listing("listSpaces", k, reply.structured.get("spaces", []))
            if reply.structured.get("activeSpace") != self.default(k):
                self.mismatch("listSpaces", f"active {reply.structured.get('activeSpace')}, "
                                            f"the model says {self.default(k)}")

    def op_who_am_i(self, c: Chooser) -> None:
        k = self.pick_key(c)
        reply, sent = self.tool("whoAmI", k, "whoAmI", {})
        self.check("whoAmI", k, reply, sent, set())
        if not k.alive:
            return
        if not reply.ok:
            self.mismatch("whoAmI", reply.message[:300])
            return
        who = reply.structured
        self._check_spaces_listing("whoAmI", k, who.get("scope", []), "space")
        granted = {s["space"]: s.get("grantedAccess") for s in who.get("scope", [])}
        if granted != {s: access_label(a) for s, a in k.grants.items()}:
            self.mismatch("whoAmI", f"granted {granted}, the model says {k.grants}")
        if who.get("key", {}).get("id") != k.id or who.get("user", {}).get("id") != k.user.id:
            self.mismatch("whoAmI", "another key or user")
        active = who.get("activeSpace") or {}
        if active.get("key") != self.default(k):
            self.mismatch("whoAmI", f"active {active}, the model says {self.default(k)}")

    def op_select_space(self, c: Chooser) -> None:
        k = self.pick_key(c)
        tag = self.pick_tag(c, k) if c.pick("select", ("switch", "switch", "picker")) == "switch" \
            else None
        reply, sent = self.tool("select-space", k, "select-space",
                                {"containerTag": tag} if tag else {})
        self.check("select-space", k, reply, sent, set())
        if not k.alive:
            return
        if tag is None:
            if not reply.ok:
                self.mismatch("select-space", reply.message[:300])
                return
            self._check_spaces_listing("select-space", k, reply.structured.get("spaces", []))
            active = reply.structured.get("activeSpace") or {}
            if active.get("key") != self.default(k):
                self.mismatch("select-space", f"picker active {active}, model {self.default(k)}")
            return
        if self.expect_read("select-space", k, reply, tag) is not None:
            k.selected = tag.strip()
            got = (reply.structured.get("activeSpace") or {}).get("key")
            if got != tag.strip():
                self.mismatch("select-space", f"switched to {got}, asked for {tag}")
