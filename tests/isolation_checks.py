"""The isolation world's checks: invariants (a) to (c) on every reply, and the expected
answers of reads, writes and refusals."""

from __future__ import annotations

from isolation_base import WorldBase
from isolation_model import (
    MARKER_RE,
    NO_SPACES,
    NOT_FOUND,
    READ_ONLY,
    SPACE_RE,
    UUID_RE,
    KeyM,
    Reply,
)


class WorldChecks(WorldBase):
    """The checks of every reply (the second layer of ``IsolationWorld``)."""

    # ------------------------------------------------------------------ checks

    def check(self, op: str, key: KeyM | None, reply: Reply, request_text: str,
              allowed: set[str], *, one_space: str | None = None) -> None:
        """(b) then (a) for one request; ``one_space``: the answer is about that space only."""
        if key is not None:
            self.permitted |= {(s, key.user.id) for s in allowed}
        self.settle(op, allowed)
        self.check_leaks(op, key, reply, request_text, one_space=one_space)

    def check_leaks(self, op: str, key: KeyM | None, reply: Reply, request_text: str, *,
                    one_space: str | None = None) -> None:
        """Invariant (a), and that a one-space answer names ids of that space only."""
        self.stats.checks["bodies scanned"] += 1
        body = reply.body.lower()
        sent = request_text.lower()
        readable = self.readable(key) if key is not None else set()
        exempt = set(MARKER_RE.findall(sent)) | set(SPACE_RE.findall(sent)) | set(
            UUID_RE.findall(sent))
        leaks: list[str] = []
        for marker in set(MARKER_RE.findall(body)) - exempt:
            owner = self.marker_owner.get(marker)
            if owner is not None and owner not in readable:
                leaks.append(f"marker {marker} of space {owner}")
        for space in set(SPACE_RE.findall(body)) - exempt:
            if space in self.spaces and space not in readable:
                leaks.append(f"space key {space}")
        ids = set(UUID_RE.findall(body)) - exempt
        unknown = {i for i in ids if i not in self.id_owner and i not in self.other_ids}
        if unknown and self.spaces:
            self._refresh_ids(set(self.spaces))
            self.other_ids |= {i for i in unknown if i not in self.id_owner}
        for i in ids:
            owner = self.id_owner.get(i)
            if owner is None:
                continue
            if owner not in readable:
                leaks.append(f"id {i} of space {owner}")
            elif one_space is not None and owner != one_space:
                self.mismatch(op, f"an answer about space {one_space} names id {i} of {owner}")
        if leaks:
            who = "no key" if key is None else f"key {key!r} (alive={key.alive})"
            self.violation("a", f"{op} for {who} revealed {sorted(set(leaks))}; request "
                                f"{request_text[:300]}; answer {reply.body[:500]}")

    def expect_read(self, op: str, k: KeyM, reply: Reply, tag: str | None) -> str | None:
        """A one-space read against the model; the space it acted on when it succeeded."""
        if not k.alive:
            return None
        kind, space = self.resolve(k, tag)
        if kind == "ok":
            if not reply.ok:
                self.mismatch(op, f"expected an answer from {space} (tag {tag!r}), got "
                                  f"{reply.status} {reply.message[:300]}")
                return None
            got = reply.structured.get("space")
            if isinstance(got, dict):
                got = got.get("key")
            if got is not None and got != space:
                self.mismatch(op, f"acted on {got}, the model says {space} (tag {tag!r})")
            return space
        if reply.ok:
            self.violation("a", f"{op} answered for tag {tag!r} although the key cannot read it: "
                                f"{reply.body[:300]}")
        else:
            self._refusal(op, reply, NOT_FOUND if kind == "missing" else NO_SPACES)
        return None

    def expect_write(self, op: str, k: KeyM, reply: Reply, tag: str | None) -> str | None:
        """A write against the model; the space written when it succeeded."""
        if not k.alive:
            return None
        kind, space = self.resolve(k, tag)
        if kind == "ok" and space is not None and self.effective(k, space) == "readwrite":
            if not reply.ok:
                self.mismatch(op, f"expected a write in {space}, got {reply.status} "
                                  f"{reply.message[:300]}")
                return None
            got = reply.structured.get("space")
            if got is not None and got != space:
                self.mismatch(op, f"wrote in {got}, the model says {space}")
            return space
        if reply.ok:
            self.violation("b", f"{op} accepted a write (tag {tag!r}, resolved {space}) outside "
                                f"effective ReadWrite: {reply.body[:300]}")
            return None
        self._refusal(op, reply, READ_ONLY if kind == "ok" else
                      NOT_FOUND if kind == "missing" else NO_SPACES)
        return None

    def _refusal(self, op: str, reply: Reply, phrase: str) -> None:
        if phrase not in reply.message:
            self.mismatch(op, f"expected a refusal saying {phrase!r}, got {reply.status} "
                              f"{reply.message[:300]}")
