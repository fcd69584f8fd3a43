"""The isolation world's choices (keys, tags, texts, documents, memories) and scenario seeding."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from isolation_checks import WorldChecks
from isolation_model import (
    FACTS,
    Chooser,
    KeyM,
    Reply,
    SpaceM,
    UserM,
)

from memory_mcp.db import documents as documents_db
from memory_mcp.services import admin


class WorldScenario(WorldChecks):
    """Choosing and scenario seeding (the third layer of ``IsolationWorld``)."""

    # ------------------------------------------------------------------ choosing

    def pick_key(self, c: Chooser) -> KeyM:
        """Mostly a live key (a dead one only checks invariant d)."""
        if self.forced_key is not None:
            return self.forced_key
        alive = self.alive_keys()
        if alive and c.pick("key kind", ("alive",) * 5 + ("any",)) == "alive":
            return c.pick("alive key", alive)
        return c.pick("key", self.keys)

    def alive_keys(self) -> list[KeyM]:
        return [k for k in self.keys if k.alive]

    def pick_tag(self, c: Chooser, k: KeyM) -> str | None:
        kind = c.pick("tag", ("granted", "none", "granted", "ungranted", "old", "missing",
                              "odd"))
        if kind == "granted" and k.grants:
            key = c.pick("granted space", list(k.grants))
            return f" {key} " if c.pick("padded", (False, False, True)) else key
        if kind == "odd":  # never a key: wildcards, the RLS "every space", another's key upper-cased
            hidden = [s.upper() for s in self.spaces if s not in k.grants]
            return c.pick("odd tag", ("*", "%", "iso-%", "_", *hidden[-2:]))
        if kind in ("granted", "ungranted"):
            others = [s for s in self.current if s not in k.grants]
            if others:
                return c.pick("ungranted space", others)
        if kind in ("granted", "ungranted", "old"):
            old = [s for s in self.spaces if s not in self.current]
            if old:
                return c.pick("old space", old[-12:])
        if kind == "none":
            return None
        return self.missing_tag()

    @staticmethod
    def missing_tag() -> str:
        return f"iso-{secrets.token_hex(5)}"

    def marker_for(self, space: str | None) -> str:
        found = self.spaces.get(space or "")
        return found.marker if found else f"mk{secrets.token_hex(6)}"

    def text_for(self, c: Chooser, space: str | None) -> str:
        found = self.spaces.get(space or "")
        kind = c.pick("text", ("new", "new", "again", "reword", "shared"))
        if kind == "shared":  # the same words in many spaces, no marker: dedup stays per space
            return f"team-wide note: {c.pick('fact', FACTS)}"
        if found is not None and found.texts and kind == "again":
            return c.pick("existing text", found.texts[-6:])
        if found is not None and found.texts and kind == "reword":  # may become a new version
            return c.pick("existing text", found.texts[-6:]) + ", as agreed by the team"
        n = found.saves if found else 0
        if found is not None:
            found.saves += 1
        return f"{self.marker_for(space)} note {n}: {c.pick('fact', FACTS)}"

    def pick_document(self, c: Chooser, k: KeyM) -> str:
        """A document id: one the key may read, one elsewhere, or a random one."""
        readable = [d for d in self.documents if self.id_owner.get(d) in self.readable(k)]
        foreign = [d for d in self.documents if self.id_owner.get(d) not in self.readable(k)]
        kind = c.pick("document", ("readable", "readable", "foreign", "random"))
        if kind == "readable" and readable:
            return c.pick("readable document", sorted(readable)[-10:])
        if kind in ("readable", "foreign") and foreign:
            return c.pick("foreign document", sorted(foreign)[-10:])
        return str(uuid.uuid4())

    def pick_memory(self, c: Chooser, space: str | None) -> str:
        """A memory id of ``space``, of another space, or a random one."""
        kind = c.pick("memory", ("own", "own", "other", "random"))
        memories = [(i, s) for i, s in self.id_owner.items() if self.is_memory(i)]
        mine = sorted(i for i, s in memories if s == space)
        others = sorted(i for i, s in memories if s != space)
        if kind == "own" and mine:
            return c.pick("own memory", mine[-10:])
        if kind in ("own", "other") and others:
            return c.pick("other memory", others[-10:])
        return str(uuid.uuid4())

    # ------------------------------------------------------------------ scenario

    def new_scenario(self, c: Chooser) -> None:
        """A fresh cast: 2-4 spaces, a seeding Writer with ReadWrite on all of them, 2-3 more
        users with 1-2 keys each and random grants. Earlier scenarios' spaces stay in the
        database, unreachable from the new keys: foreign content every request could leak."""
        self.scenario += 1
        self.current, self.users, self.keys, self.uploads = [], [], [], []
        self.fingerprint = self._read_fingerprint()  # a fresh baseline (after a failed example)
        seeder = self._create_user("writer")
        for _ in range(c.integer("spaces", 2, 4)):
            self._create_space(seeder)
        seed_key = self._create_key(seeder)
        for space in self.current:
            self._grant(seed_key, space, "readwrite")
        for space in self.current:
            for _ in range(c.integer("seed memories", 1, 2)):
                self._save(seed_key, space, self.text_for(c, space), None)
        self._link_first_memories(seeder)
        for _ in range(c.integer("users", 2, 3)):
            user = self._create_user(c.pick("role", ("writer", "writer", "reader")))
            for _ in range(c.integer("keys", 1, 2)):
                k = self._create_key(user)
                for space in self.current:
                    access = c.pick("grant", ("none", "none", "read", "readwrite"))
                    if access != "none":
                        self._grant(k, space, access)
        self.settle("new scenario", set(self.current))

    def _create_user(self, role: str) -> UserM:
        tag = uuid.uuid4().hex[:10]
        row = self.portal.run(admin.create_user(self.rt, f"{tag}@isolation.test",
                                                f"User {tag}", role))
        user = UserM(id=str(row["id"]), email=row["email"], role=role)
        self.other_ids.add(user.id)
        self.users.append(user)
        return user

    def _create_key(self, user: UserM) -> KeyM:
        row = self.portal.run(admin.create_key(self.rt, user.id, "isolation"))
        k = KeyM(id=str(row["id"]), secret=row["key"], user=user)
        self.other_ids.add(k.id)
        self.keys.append(k)
        return k

    def _grant(self, k: KeyM, space: str, access: str) -> None:
        self.portal.run(admin.set_grant(self.rt, k.id, space, access))
        k.grants[space] = access  # an existing grant keeps its place (created_at)

    def _create_space(self, owner: UserM) -> str:
        key, marker = f"iso-{secrets.token_hex(5)}", f"mk{secrets.token_hex(6)}"
        row = self.portal.run(admin.create_space(self.rt, key, f"Space {marker}",
                                                 f"isolation space {marker}"))
        space = SpaceM(key=key, id=str(row["id"]), marker=marker, scenario=self.scenario)
        self.spaces[key] = space
        self.permitted.add((key, owner.id))  # the seeded document's author
        self.marker_owner[marker] = key
        self.id_owner[space.id] = key
        self.current.append(key)

        async def insert() -> str:
            async with self.rt.transaction(system=True) as conn:
                doc = await documents_db.insert(
                    conn, space_id=uuid.UUID(space.id), user_id=uuid.UUID(owner.id),
                    title=f"{marker} handbook", filename=f"{marker}-handbook.md",
                    content_type="text/markdown", size_bytes=120, status="done",
                    summary=f"{marker} summary: how this team works.",
                    content=f"{marker} handbook. {FACTS[0]}. {FACTS[2]}.")
            return str(doc["id"])

        doc_id = self.portal.run(insert())
        self.documents.add(doc_id)
        self.id_owner[doc_id] = key
        self.settle("create space", {key})
        return key

    def _link_first_memories(self, owner: UserM) -> None:
        """The seeded document of each space becomes the source of one of its memories."""
        async def link() -> None:
            async with self.rt.transaction(system=True) as conn:
                for key in self.current:
                    await conn.execute(
                        """UPDATE memories SET source_document_id = (
                               SELECT d.id FROM documents d WHERE d.space_id = m.space_id
                               ORDER BY d.created_at LIMIT 1)
                           FROM (SELECT id, space_id FROM memories WHERE space_id = %s
                                 ORDER BY created_at LIMIT 1) AS m
                           WHERE memories.id = m.id""",
                        (uuid.UUID(self.spaces[key].id),))
                    await conn.execute(  # as the pipeline records it (migration 0018)
                        """INSERT INTO document_statements (document_id, memory_id, root_id,
                                                            space_id)
                           SELECT source_document_id, id, root_id, space_id FROM memories
                           WHERE space_id = %s AND source_document_id IS NOT NULL
                           ON CONFLICT DO NOTHING""",
                        (uuid.UUID(self.spaces[key].id),))
        self.portal.run(link())

    def _save(self, k: KeyM, tag: str | None, content: str, category: str | None,
              op: str = "add_memory") -> Reply:
        args: dict[str, Any] = {"content": content}
        if category:
            args["category"] = category
        if tag is not None:
            args["containerTag"] = tag
        reply, sent = self.tool(op, k, "add_memory", args)
        written = self.expect_write(op, k, reply, tag)
        self.check(op, k, reply, sent, {written} if written else set(), one_space=written)
        if written and reply.ok and written in self.spaces:
            action = reply.structured.get("action")
            if action not in ("saved", "unchanged", "versioned"):
                self.mismatch(op, f"unexpected save action {action!r}")
            if content not in self.spaces[written].texts:
                self.spaces[written].texts.append(content)
        return reply
