"""The import's first pass: read the whole file and prove it consistent before anything is written.

Every line is parsed against the format (services/transfer_format.py) and checked against what
came before it: ids unique, every user / document / previous version a record names appears
earlier, a version chain is 1, 2, 3… with one current row, forgotten state agrees with its time,
vectors have the header's width, files match their checksum, and the closing ``end`` record's
counts match the lines read (a truncated file has none). The first failure is reported with its
line number, and since this pass writes nothing, a bad file leaves the database untouched.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from uuid import UUID

from memory_mcp.errors import InvalidInputError
from memory_mcp.services import validation
from memory_mcp.services.transfer_format import (
    Counts,
    DocumentRecord,
    EndRecord,
    FormatError,
    Header,
    MemoryRecord,
    UserRecord,
    parse_header,
    parse_record,
)

Item = UserRecord | DocumentRecord | MemoryRecord | EndRecord


@dataclass
class Scan:
    header: Header
    users: dict[UUID, UserRecord] = field(default_factory=dict)
    documents: set[UUID] = field(default_factory=set)
    memories: dict[UUID, tuple[UUID, int]] = field(default_factory=dict)  # id -> (root, version)
    latest_roots: set[UUID] = field(default_factory=set)
    files: int = 0
    end_line: int | None = None

    def counts(self) -> Counts:
        return Counts(users=len(self.users), documents=len(self.documents),
                      memories=len(self.memories), files=self.files)


def lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of the non-blank lines, numbered from 1 as an editor shows them."""
    with path.open(encoding="utf-8", errors="strict") as handle:
        try:
            for number, text in enumerate(handle, start=1):
                if text.strip():
                    yield number, text
        except UnicodeDecodeError:
            raise InvalidInputError(f"{path.name} is not UTF-8 text; is it an export file?"
                                    ) from None


def records(path: Path) -> Iterator[tuple[int, Item]]:
    """Every record after the header, parsed (the second pass; the first proved them valid)."""
    for number, text in lines(path):
        if number > 1:
            yield number, parse_record(text)


def scan(path: Path) -> Scan:
    found: Scan | None = None
    number = 0
    try:
        for number, text in lines(path):
            if found is None:
                if number != 1:
                    raise FormatError("the first line must be the export header")
                found = Scan(parse_header(text))
                continue
            if found.end_line is not None:
                raise FormatError(f"a record after the end record (line {found.end_line})")
            _check(found, parse_record(text), number)
    except FormatError as exc:
        raise InvalidInputError(f"line {number}: {exc}. Nothing was imported.") from None
    if found is None:
        raise InvalidInputError("The file is empty. Nothing was imported.")
    if found.end_line is None:
        raise InvalidInputError(f"line {number}: the file ends without its end record, so it is "
                                "incomplete (cut off while copying?). Nothing was imported.")
    return found


def _check(found: Scan, record: Item, number: int) -> None:
    for name, value in record:  # PostgreSQL text cannot hold NUL: refuse it here, not mid-batch
        if isinstance(value, str) and "\x00" in value:
            raise FormatError(f"{name} contains a NUL character")
    if isinstance(record, UserRecord):
        _unique(record.id, found.users, "user")
        found.users[record.id] = record
    elif isinstance(record, DocumentRecord):
        _unique(record.id, found.documents, "document")
        _known_users(found, record.created_by, record.updated_by)
        if record.file is not None:
            _check_file(record)
            found.files += 1
        found.documents.add(record.id)
    elif isinstance(record, MemoryRecord):
        _check_memory(found, record)
    else:
        _check_end(found, record, number)


def _unique(ident: UUID, seen: object, what: str) -> None:
    if ident in seen:  # type: ignore[operator]  # dict or set of UUIDs
        raise FormatError(f"{what} {ident} appears twice")


def _known_users(found: Scan, *ids: UUID | None) -> None:
    for ident in ids:
        if ident is not None and ident not in found.users:
            raise FormatError(f"user {ident} is not listed in a user record before this line")


def _check_file(record: DocumentRecord) -> None:
    assert record.file is not None
    try:
        data = base64.b64decode(record.file.data, validate=True)
    except (binascii.Error, ValueError):
        raise FormatError("file.data is not valid base64") from None
    if len(data) != record.file.size or hashlib.sha256(data).hexdigest() != record.file.sha256:
        raise FormatError("file.data does not match its size and sha256 (damaged file?)")


def _check_memory(found: Scan, m: MemoryRecord) -> None:
    _unique(m.id, found.memories, "memory")
    _known_users(found, m.created_by, m.updated_by, m.forgotten_by)
    if m.is_forgotten != (m.forgotten_at is not None):
        raise FormatError("is_forgotten and forgotten_at disagree")
    try:
        if validation.category(m.category) != m.category:
            raise FormatError(f"category {m.category!r} is not in its stored (lower-case) form")
    except InvalidInputError as exc:
        raise FormatError(str(exc)) from None
    if m.version == 1:
        if m.parent_id is not None or m.root_id != m.id:
            raise FormatError("a version 1 memory must be its own root and have no parent")
    else:
        parent = found.memories.get(m.parent_id) if m.parent_id else None
        if parent is None:
            raise FormatError(f"version {m.version} names a previous version that does not "
                              "appear earlier in the file")
        if parent != (m.root_id, m.version - 1):
            raise FormatError("the previous version belongs to another chain or is not "
                              f"version {m.version - 1}")
    if m.source_document_id is not None and m.source_document_id not in found.documents:
        raise FormatError(f"source document {m.source_document_id} does not appear earlier")
    for doc in m.stated_in:
        if doc not in found.documents:
            raise FormatError(f"document {doc} in stated_in does not appear earlier")
    if m.embedding is not None and len(m.embedding) != found.header.embedding.dimensions:
        raise FormatError(f"embedding has {len(m.embedding)} dimensions; the header says "
                          f"{found.header.embedding.dimensions}")
    if m.is_latest:
        if m.root_id in found.latest_roots:
            raise FormatError("a second current version of the same memory")
        found.latest_roots.add(m.root_id)
    found.memories[m.id] = (m.root_id, m.version)


def _check_end(found: Scan, end: EndRecord, number: int) -> None:
    seen = found.counts()
    if end.counts != seen or found.header.counts != seen:
        raise FormatError(f"the counts say {end.counts.model_dump()} but the file holds "
                          f"{seen.model_dump()}")
    found.end_line = number
