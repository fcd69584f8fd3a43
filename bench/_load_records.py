"""What one run of ``bench/load.py`` records: samples, acknowledgements, the ledger, run state.

These plain records are shared by the agents (which fill them), the outage accounting, the
final verification and the report; keeping them in one dependency-free module lets each of
those import them without importing the agents' traffic code.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import httpx


@dataclass
class Sample:
    op: str
    start: float
    end: float
    kind: str  # "ok" or what went wrong
    status: int | None = None  # HTTP status of the call's last response
    retry_after: str | None = None
    expected: bool = False  # an error the mix provokes on purpose (a write to a Read space)

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass
class KeyPlan:
    index: int
    key: str
    key_id: str
    write_space: str | None  # None: the key is read-only everywhere
    read_spaces: list[str]  # every space it may read, the write space first
    denied_space: str  # a space it can read but not write


@dataclass
class SaveAck:
    memory_id: str
    space: str
    content: str
    token: str
    action: str
    client: int
    at: float


@dataclass
class UploadAck:
    document_id: str
    space: str
    token: str
    statements: int
    client: int
    accepted_at: float
    status: str = "queued"
    finished_at: float | None = None


@dataclass
class Ledger:
    """Everything the server acknowledged (or refused) during the run."""

    saves: dict[str, SaveAck] = field(default_factory=dict)  # memory id -> the save
    #: token -> (space, content, last outcome) for every save attempted, acknowledged or not
    attempts: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    superseded: dict[str, str] = field(default_factory=dict)  # old id -> new id (versioned)
    forgotten: dict[str, str] = field(default_factory=dict)  # id -> how ("id", "exact", ...)
    forget_misses: list[str] = field(default_factory=list)  # acknowledged, nothing forgotten
    #: tokens of saves to a Read space: (space, token, outcome); any "ok" is a write let through
    denied: list[tuple[str, str, str]] = field(default_factory=list)
    uploads: list[UploadAck] = field(default_factory=list)
    #: read-your-writes: a keyword search right after an acknowledged save that missed it
    ryw_misses: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Run:
    """Shared by every agent of one run."""

    url: str  # .../mcp
    stop_at: float
    uploads_budget: int
    duration_s: float
    upload_http: httpx.AsyncClient
    samples: list[Sample] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger)
    uploads_started: int = 0
    notes: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    def over(self) -> bool:
        return time.monotonic() >= self.stop_at

    def upload_slot(self) -> bool:
        """Uploads are spread over the run: the k-th may start after k/(budget+1) of it."""
        if self.uploads_started >= self.uploads_budget:
            return False
        due = self.started + (self.uploads_started + 1) * self.duration_s / (self.uploads_budget + 1)
        if time.monotonic() < due:
            return False
        self.uploads_started += 1
        return True

