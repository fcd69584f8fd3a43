"""The space export format, version 1: JSON Lines, one record per line (docs/export-format.md).

Line 1 is a ``header``; then ``user`` records (everyone the space's rows name), ``document``
records, ``memory`` records in version order (a memory's previous version, its root and its
source document always come earlier in the file), and a closing ``end`` record whose counts
prove the file is complete. The models below are the format's single definition: the exporter
builds records through them and the importer validates every line against them before it writes
anything, so a file that does not match is refused with the line number of its first bad line.
Unknown fields are ignored (additions keep version 1); a change that alters a field's meaning
gets a new version, and an importer refuses versions it does not know.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from memory_mcp.db.memories import HALF_MAX

FORMAT: Literal["memory-mcp-space-export"] = "memory-mcp-space-export"
VERSION = 1

#: Namespace of the ids an import derives when it loads a space into a different space: the same
#: source row always maps to the same target row, which is what makes a second import a no-op.
ID_NAMESPACE = uuid.UUID("8c5d3a8e-1f6b-4b3e-9a51-3f0c2f9e7d10")

DocumentStatus = Literal["queued", "extracting", "embedding", "done", "failed"]
CutBy = Literal["max_extracted_chars", "max_memories_per_document", "job_time_budget"]


#: Half precision rounds a magnitude up to this (half its smallest subnormal) to 0.
_HALF_ZERO = 2.0 ** -25
#: A number of a stored vector: what the halfvec column can hold.
HalfFloat = Annotated[float, Field(allow_inf_nan=False, ge=-HALF_MAX, le=HALF_MAX)]


class _Record(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class SpaceInfo(_Record):
    id: UUID
    key: str
    name: str
    description: str = ""
    created_at: datetime
    last_activity_at: datetime | None = None


class EmbeddingInfo(_Record):
    model_id: str = Field(min_length=1)
    dimensions: int = Field(ge=1, le=3072)


class Counts(_Record):
    users: int = Field(ge=0)
    documents: int = Field(ge=0)
    memories: int = Field(ge=0)
    files: int = Field(ge=0)


class Header(_Record):
    format: Literal["memory-mcp-space-export"]
    version: int
    exported_at: datetime
    generator: str = ""
    space: SpaceInfo
    embedding: EmbeddingInfo
    counts: Counts
    with_files: bool = False


class UserRecord(_Record):
    type: Literal["user"]
    id: UUID
    email: str = Field(min_length=3, max_length=320)
    display_name: str = ""


class FileData(_Record):
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    size: int = Field(ge=0)
    data: str  # base64 (RFC 4648, standard alphabet, padded)


class DocumentRecord(_Record):
    type: Literal["document"]
    id: UUID
    title: str = ""
    filename: str | None = None
    content_type: str | None = None
    size_bytes: int | None = Field(default=None, ge=0)
    status: DocumentStatus
    status_reason: str | None = None
    summary: str | None = None
    content: str | None = None
    pages: int | None = None
    truncated: bool = False
    source_chars: int | None = None
    extracted_chars: int | None = None
    indexed_chars: int | None = None
    memories_created: int | None = None
    pages_read: int | None = None
    cut_by: CutBy | None = None
    coverage_note: str | None = None
    created_by: UUID
    updated_by: UUID
    created_at: datetime
    updated_at: datetime
    uploaded_at: datetime | None = None
    processed_at: datetime | None = None
    deleted_at: datetime | None = None
    file: FileData | None = None


class MemoryRecord(_Record):
    type: Literal["memory"]
    id: UUID
    root_id: UUID
    parent_id: UUID | None = None
    version: int = Field(ge=1)
    content: str = Field(min_length=1)
    category: str | None = Field(default=None, max_length=64)
    is_latest: bool
    is_forgotten: bool
    forgotten_at: datetime | None = None
    forgotten_by: UUID | None = None
    forget_reason: str | None = None
    source_document_id: UUID | None = None
    #: The other documents that state this very memory (a document's fact already saved is
    #: not stored twice); deleting one of them keeps the fact. Absent in files of earlier
    #: releases: the source document alone states it.
    stated_in: list[UUID] = Field(default_factory=list)
    #: When a person saved this document's fact word for word, making it theirs as well
    #: (deleting the document keeps it).
    claimed_at: datetime | None = None
    created_by: UUID
    updated_by: UUID
    created_at: datetime
    updated_at: datetime
    recall_count: int = Field(default=0, ge=0)
    last_recalled_at: datetime | None = None
    #: The stored vector at the model's native width; absent: the importer embeds the text.
    #: Finite and within what a halfvec holds, or the line is refused with its number.
    embedding: list[HalfFloat] | None = None

    @field_validator("embedding")
    @classmethod
    def _not_all_zeros(cls, value: list[float] | None) -> list[float] | None:
        """A zero vector has no direction: its cosine to any query is NaN, which would rank
        the memory above every real match. Leave ``embedding`` out to have the text embedded."""
        if value is not None and not any(abs(x) > _HALF_ZERO for x in value):
            raise ValueError("embedding is all zeros (in half precision); omit it to have the "
                             "text embedded again")
        return value


class EndRecord(_Record):
    type: Literal["end"]
    counts: Counts


Record = Annotated[UserRecord | DocumentRecord | MemoryRecord | EndRecord,
                   Field(discriminator="type")]
_RECORD: TypeAdapter[UserRecord | DocumentRecord | MemoryRecord | EndRecord] = TypeAdapter(Record)


class FormatError(ValueError):
    """A line that does not match the format; the importer adds its line number."""


def _explain(exc: ValidationError) -> str:
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "record"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def parse_header(line: str) -> Header:
    try:
        header = Header.model_validate_json(line)
    except ValidationError as exc:
        raise FormatError(f"not a {FORMAT} header ({_explain(exc)})") from None
    if header.version != VERSION:
        raise FormatError(f"format version {header.version} is not supported (this server reads "
                          f"version {VERSION}); import it with a matching memory-mcp release")
    return header


def parse_record(line: str) -> UserRecord | DocumentRecord | MemoryRecord | EndRecord:
    try:
        return _RECORD.validate_json(line)
    except ValidationError as exc:
        raise FormatError(_explain(exc)) from None


def dump(model: BaseModel) -> str:
    """One line of the file (no trailing newline)."""
    return model.model_dump_json(exclude_none=False)


def derive_id(target_space: UUID, source_space: UUID, source_id: UUID) -> UUID:
    """A source row's id in the target space: unchanged when the space is the same one
    (re-importing a space into itself, or a fresh deployment that kept its id), otherwise a
    name-based UUID of both, stable across runs."""
    if target_space == source_space:
        return source_id
    return uuid.uuid5(ID_NAMESPACE, f"{target_space}/{source_id}")


def as_json(row: dict[str, Any]) -> dict[str, Any]:
    """A DB row with UUIDs and timestamps as strings, for ``jsonb_to_recordset``."""
    return {k: (v if v is None or isinstance(v, bool | int | float | str) else
                v.isoformat() if isinstance(v, datetime) else str(v)) for k, v in row.items()}
