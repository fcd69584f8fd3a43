"""The isolation world: ``IsolationWorld`` (the differential probes and administration on top of
the other layers), the coverage ``sweep`` and the bench's ``run_random`` walk."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable
from typing import Any, ClassVar

from isolation_model import (
    ID_PROBES,
    RESOURCE_URIS,
    TAG_PROBES,
    Chooser,
    FirstChooser,
    KeyM,
    RandomChooser,
    Reply,
    access_label,
    normalise,
)
from isolation_uploads import WorldUploads

from memory_mcp.services import admin


class IsolationWorld(WorldUploads):
    """The live server, the admin runtime, the model, and every operation of the suite.

    Each ``op_*`` makes at least one HTTP request and checks it. ``strict`` (the test) raises at
    the first violation or mismatch; otherwise (the bench) they are counted and the run goes on.
    """

    OPS: ClassVar[dict[str, int]] = {  # operation -> weight (both the test and the bench)
        "op_search": 8, "op_save": 8, "op_forget": 4, "op_list_memories": 4,
        "op_list_documents": 3, "op_get_document": 4, "op_delete_document": 2,
        "op_list_spaces": 3, "op_who_am_i": 3, "op_select_space": 3, "op_guided_save": 2,
        "op_upload_file": 2, "op_upload_start": 2, "op_post_uploads": 2, "op_put": 3,
        "op_upload_status": 3, "op_graph": 3, "op_resource": 6, "op_prompt": 3,
        "op_differential": 8, "op_grant": 3, "op_revoke_grant": 2, "op_revoke_key": 1,
        "op_deactivate": 1, "op_reactivate": 1, "op_set_role": 1, "op_new_key": 1,
        "op_new_space": 1,
    }

    # ------------------------------------------------------------------ (c) differential

    def _probe_args(self, probe: str, tag: str | None, doc: str | None, memory: str | None
                    ) -> tuple[str, dict[str, Any]]:
        """(tool name or HTTP route, arguments) of one (c) probe."""
        base: dict[str, Any] = {} if tag is None else {"containerTag": tag}
        neutral = "isolation probe: the deploy window is Friday"
        doc = doc or str(uuid.uuid4())
        table: dict[str, tuple[str, dict[str, Any]]] = {
            "search_memory": ("search_memory", {"query": "deploy window", **base}),
            "add_memory:save": ("add_memory", {"content": neutral, **base}),
            "add_memory:forget": ("add_memory", {"content": neutral, "action": "forget", **base}),
            "add_memory:forget-id": ("add_memory", {"content": "x", "action": "forget",
                                                    "memoryId": memory or str(uuid.uuid4()),
                                                    **base}),
            "listDocuments": ("listDocuments", base),
            "listMemories": ("listMemories", base),
            "getDocument": ("getDocument", {"documentId": doc, **base}),
            "deleteDocument": ("deleteDocument", {"documentId": doc, **base}),
            "select-space": ("select-space", base),
            "guided-save": ("guided-save", {"content": neutral, **base}),
            "upload-file": ("upload-file", base),
            "upload-start": ("upload-start", {"filename": "probe.md", "contentType":
                                              "text/markdown", "size": 10, **base}),
            "upload-status": ("upload-status", {"documentId": doc, **base}),
            "memory-graph": ("memory-graph", base),
            "POST /uploads": ("POST /uploads", {"filename": "probe.md",
                                                "contentType": "text/markdown", "size": 10,
                                                **base}),
        }
        return table[probe]

    def _probe(self, op: str, k: KeyM, name: str, args: dict[str, Any]) -> tuple[Reply, str]:
        if name == "POST /uploads":
            return self.send(op, k, "POST", "/uploads", payload=args)
        return self.tool(op, k, name, args)

    def op_differential(self, c: Chooser) -> None:
        """(c): an ungranted space and a nonexistent one get the same bytes; so do a foreign
        id and a random one."""
        alive = self.alive_keys()
        if not alive:
            self.op_who_am_i(c)
            return
        k = c.pick("key", alive)
        if c.pick("differ by", ("tag", "tag", "id")) == "id":
            self._differential_id(c, k)
            return
        ungranted = [s for s in self.spaces if s not in k.grants]
        if not ungranted:
            ungranted = [self._create_space(self.users[0])]
        hidden = c.pick("ungranted space", ungranted[-12:])
        missing = self.missing_tag()
        variant = c.pick("variant", ("plain", "plain", "upper", "padded"))
        if variant == "upper":
            hidden, missing = hidden.upper(), missing.upper()
        elif variant == "padded":
            hidden, missing = f" {hidden} ", f" {missing} "
        probe = c.pick("probe", TAG_PROBES)
        replies = []
        for tag in (hidden, missing):
            name, args = self._probe_args(probe, tag, None, None)
            reply, sent = self._probe(f"(c) {probe}", k, name, args)
            self.check(f"(c) {probe}", k, reply, sent, set())
            replies.append((reply, tag))
        (a, ta), (b, tb) = replies
        self.stats.checks["(c) tag pairs"] += 1
        if (a.status, normalise(a.body, ta)) != (b.status, normalise(b.body, tb)):
            self.violation("c", f"{probe}: ungranted {ta} answered {a.status} {a.body[:300]} "
                                f"but nonexistent {tb} answered {b.status} {b.body[:300]}")
        can_write_somewhere = bool(self.writable(k))
        if a.ok and not (probe in ("guided-save", "upload-file") and not can_write_somewhere):
            self.violation("a", f"{probe} answered for ungranted {ta}: {a.body[:300]}")

    def _differential_id(self, c: Chooser, k: KeyM) -> None:
        probe = c.pick("id probe", ID_PROBES)
        tag = c.pick("tag", [None, *k.grants])
        readable = self.readable(k)
        if probe == "add_memory:forget-id":
            foreign = sorted(i for i, s in self.id_owner.items()
                             if s not in readable and self.is_memory(i))
        else:
            foreign = sorted(d for d in self.documents if self.id_owner.get(d) not in readable)
        if not foreign:
            self.op_list_spaces(c)
            return
        hidden = c.pick("foreign id", foreign[-12:])
        replies = []
        for ident in (hidden, str(uuid.uuid4())):
            doc, memory = (None, ident) if probe == "add_memory:forget-id" else (ident, None)
            name, args = self._probe_args(probe, tag, doc, memory)
            reply, sent = self._probe(f"(c) {probe} by id", k, name, args)
            self.check(f"(c) {probe} by id", k, reply, sent, set())
            replies.append(reply)
        a, b = replies
        self.stats.checks["(c) id pairs"] += 1
        if (a.status, normalise(a.body, None)) != (b.status, normalise(b.body, None)):
            self.violation("c", f"{probe}: foreign id {hidden} answered {a.status} "
                                f"{a.body[:300]} but a random id answered {b.status} "
                                f"{b.body[:300]}")
        if a.ok:
            self.violation("a", f"{probe} answered for foreign id {hidden}: {a.body[:300]}")

    # ------------------------------------------------------------------ administration

    def probe_dead(self, c: Chooser, k: KeyM, why: str) -> None:
        """(d): the very next request of a revoked key (or a deactivated user's) is a 401."""
        kind = c.pick("next request", ("tool", "resource", "prompt", "uploads"))
        before = self.stats.checks["dead key refused"]
        if kind == "tool":
            name = c.pick("tool", ("whoAmI", "listSpaces", "search_memory", "add_memory"))
            args = {"search_memory": {"query": "deploy"},
                    "add_memory": {"content": f"{why}: must not be stored"}}.get(name, {})
            reply, sent = self.tool(f"(d) {name}", k, name, args)
        elif kind == "resource":
            uri = c.pick("uri", RESOURCE_URIS)
            reply, sent = self.mcp(f"(d) resource {uri}", k, "resources/read", {"uri": uri})
        elif kind == "prompt":
            reply, sent = self.mcp("(d) prompt context", k, "prompts/get", {"name": "context"})
        else:
            reply, sent = self.send("(d) POST /uploads", k, "POST", "/uploads", payload={
                "filename": "x.md", "contentType": "text/markdown", "size": 5})
        assert self.stats.checks["dead key refused"] == before + 1
        self.stats.checks["(d) next-request probes"] += 1
        self.check(f"(d) {kind}", k, reply, sent, set())

    def op_grant(self, c: Chooser) -> None:
        k = self.pick_key(c)
        space = c.pick("space", self.current)
        self._grant(k, space, c.pick("access", ("read", "readwrite")))
        self.op_who_am_i_of(k)

    def op_who_am_i_of(self, k: KeyM) -> None:
        """whoAmI with this key (the model right after an administrative change)."""
        reply, sent = self.tool("whoAmI", k, "whoAmI", {})
        self.check("whoAmI", k, reply, sent, set())
        if k.alive and reply.ok:
            got = {s["space"]: s["access"] for s in reply.structured.get("scope", [])}
            want = {s: access_label(self.effective(k, s) or "read") for s in k.grants}
            if got != want:
                self.mismatch("whoAmI", f"after a grant change: {got}, the model says {want}")
        elif k.alive:
            self.mismatch("whoAmI", reply.message[:300])

    def op_revoke_grant(self, c: Chooser) -> None:
        k = self.pick_key(c)
        if not k.grants:
            self.op_grant(c)
            return
        space = c.pick("revoke", list(k.grants))
        self.portal.run(admin.revoke_grant(self.rt, k.id, space))
        del k.grants[space]
        # the very next request through the revoked space is refused like a missing space
        if k.alive:
            reply, sent = self.tool("listMemories", k, "listMemories", {"containerTag": space})
            self.expect_read("listMemories", k, reply, space)
            self.check("listMemories", k, reply, sent, set())

    def op_revoke_key(self, c: Chooser) -> None:
        k = self.pick_key(c)
        if not k.revoked:
            self.portal.run(admin.revoke_key(self.rt, k.id))
            k.revoked = True
        self.probe_dead(c, k, "revoked")

    def op_deactivate(self, c: Chooser) -> None:
        user = c.pick("user", self.users)
        self.portal.run(admin.update_user(self.rt, user.id, active=False))
        user.active = False
        mine = [k for k in self.keys if k.user is user]
        if mine:
            self.probe_dead(c, c.pick("key", mine), "deactivated")

    def op_reactivate(self, c: Chooser) -> None:
        user = c.pick("user", self.users)
        self.portal.run(admin.update_user(self.rt, user.id, active=True))
        user.active = True
        mine = [k for k in self.keys if k.user is user]
        if mine:
            self.op_who_am_i_of(c.pick("key", mine))

    def op_set_role(self, c: Chooser) -> None:
        user = c.pick("user", self.users)
        role = c.pick("role", ("writer", "reader"))
        self.portal.run(admin.update_user(self.rt, user.id, role=role))
        user.role = role
        mine = [k for k in self.keys if k.user is user]
        if mine:
            self.op_who_am_i_of(c.pick("key", mine))

    def op_new_key(self, c: Chooser) -> None:
        k = self._create_key(c.pick("user", self.users))
        for space in self.current:
            access = c.pick("grant", ("none", "read", "readwrite"))
            if access != "none":
                self._grant(k, space, access)
        self.op_who_am_i_of(k)

    def op_new_space(self, c: Chooser) -> None:
        owner = c.pick("owner", self.users)
        space = self._create_space(owner)
        k = self.pick_key(c)
        if c.flag("grant it"):
            self._grant(k, space, c.pick("access", ("read", "readwrite")))
        self.op_who_am_i_of(k)


ADMIN_OPS = ("op_grant", "op_revoke_grant", "op_revoke_key", "op_deactivate", "op_reactivate",
             "op_set_role", "op_new_key", "op_new_space")


def sweep(world: IsolationWorld) -> None:
    """Coverage: a new scenario, then every non-administrative operation once with its seeding
    Writer (ReadWrite everywhere, first choices: granted spaces, so the writes and the upload
    go through), and every resource."""
    first = FirstChooser()
    world.new_scenario(first)
    world.forced_key = world.keys[0]
    try:
        for op in world.OPS:
            if op not in ADMIN_OPS:
                getattr(world, op)(first)
        for uri in RESOURCE_URIS:
            world.read_resource(world.keys[0], uri)
    finally:
        world.forced_key = None


def run_random(world: IsolationWorld, rng: random.Random, *, calls: int, budget_s: float,
               steps: int = 300, progress: Callable[[IsolationWorld], None] | None = None
               ) -> bool:
    """The bench's walk: scenarios of ``steps`` weighted random operations until ``calls``
    requests were made or ``budget_s`` passed. Returns whether it stopped for the time budget."""
    chooser = RandomChooser(rng)
    sweep(world)
    names = list(world.OPS)
    weights = [world.OPS[n] for n in names]
    start = time.monotonic()
    while world.stats.total < calls:
        if progress is not None:
            progress(world)
        world.new_scenario(chooser)
        for _ in range(steps):
            if world.stats.total >= calls:
                break
            if time.monotonic() - start > budget_s:
                return True
            getattr(world, rng.choices(names, weights)[0])(chooser)
    return False
