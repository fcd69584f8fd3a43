"""``memory-mcp export``: write one space as a version-1 export file (services/transfer_format.py).

Scope: the read runs in ONE read-only REPEATABLE READ transaction (one snapshot: the file is
the space as of one moment, whatever is saved meanwhile) limited to the exported space
(``read=[space]``), not ``system=True``: an operator export needs every row of that space in
every state, and nothing else, so row-level security itself guarantees the file cannot carry
another space's rows. The name → id lookups (``spaces``, ``users``, the pinned model) are
tables without space rows.

The body is spooled to a temporary file while it is read, so the header can state exact counts
and list exactly the users the rows name. A memory whose source document appeared after the
document list was read (an upload finishing during the export) gets that document written just
before it, so a document always precedes the memories that name it (with one snapshot that can no
longer happen; the guard stays, since it costs nothing).
"""

from __future__ import annotations

import base64
import hashlib
import json
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from typing import IO, Any
from uuid import UUID

import anyio.to_thread

import memory_mcp
from memory_mcp.db import identity
from memory_mcp.db import transfer as db
from memory_mcp.errors import ConfigurationError, MemoryMcpError, NotFoundError
from memory_mcp.services import audit
from memory_mcp.services.runtime import Conn, Runtime
from memory_mcp.services.transfer_format import (
    FORMAT,
    VERSION,
    Counts,
    DocumentRecord,
    EmbeddingInfo,
    EndRecord,
    FileData,
    Header,
    MemoryRecord,
    SpaceInfo,
    UserRecord,
    dump,
)

#: ``progress(phase, done, total)``; the CLI draws it on stderr (cli_progress.py).
Progress = Callable[[str, int, int], None]


async def _pinned(conn: Conn) -> EmbeddingInfo:
    cur = await conn.execute("SELECT model_id, dimensions FROM embedding_model")
    row = await cur.fetchone()
    if row is None:
        raise ConfigurationError("No embedding model is pinned in this database yet; start the "
                                 "server (or run any command) once first.")
    return EmbeddingInfo(model_id=row["model_id"], dimensions=row["dimensions"])


class _Writer:
    """Spools records and remembers what they reference."""

    def __init__(self, rt: Runtime, body: IO[str], with_files: bool) -> None:
        self.rt, self.storage, self.body, self.with_files = rt, rt.storage, body, with_files
        self.users: set[UUID] = set()
        self.documents: set[UUID] = set()
        self.memories = self.files = self.missing_files = 0

    def line(self, text: str) -> None:
        self.body.write(text + "\n")

    async def document(self, row: dict[str, Any]) -> None:
        file = None
        if self.with_files and row["storage_key"] and row["deleted_at"] is None:
            file = await self._file(row["storage_key"], arrived=row["uploaded_at"] is not None)
        fields = {k: v for k, v in row.items() if k != "storage_key"}
        self.line(dump(DocumentRecord(type="document", file=file, **fields)))
        self.users.update((row["created_by"], row["updated_by"]))
        self.documents.add(row["id"])

    async def _file(self, key: str, *, arrived: bool) -> FileData | None:
        """The stored original, inline. ``missing_files`` counts only originals that arrived
        and are gone: an upload whose file never came (or is on S3, not yet claimed by the
        worker, and read here if it is there) is no loss."""
        if self.storage is None:
            raise ConfigurationError("--with-files needs the upload storage, which is not set up.")
        try:
            data = await anyio.to_thread.run_sync(self.storage.read, key,
                                                  self.rt.settings.max_upload_bytes)
        except NotFoundError:
            self.missing_files += 1 if arrived else 0
            return None
        self.files += 1
        return FileData(sha256=hashlib.sha256(data).hexdigest(), size=len(data),
                        data=base64.b64encode(data).decode("ascii"))

    def memory(self, row: dict[str, Any]) -> None:
        fields = {k: v for k, v in row.items() if k != "embedding"}
        fields["recall_count"] = fields["recall_count"] or 0
        self.line(dump(MemoryRecord(type="memory", embedding=json.loads(row["embedding"]),
                                    **fields)))
        self.users.update(u for u in (row["created_by"], row["updated_by"], row["forgotten_by"])
                          if u is not None)
        self.memories += 1


async def export_space(rt: Runtime, space_key: str, out: IO[str], *, with_files: bool = False,
                       progress: Progress | None = None) -> dict[str, Any]:
    """Write the space to ``out``; return what was written (counts, model, missing files)."""
    async with rt.transaction() as conn:  # spaces and the pin carry no space rows
        space = await identity.find_space(conn, space_key.strip())
        if space is None:
            raise NotFoundError(f"No space with key {space_key!r}.")
        embedding = await _pinned(conn)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as body:
        writer = _Writer(rt, body, with_files)
        # one snapshot: counts, documents, memories and authors as of one moment, however long
        # the export takes and whatever is saved meanwhile
        async with rt.transaction(read=[space["id"]], snapshot=True) as conn:
            users = await _read_space(conn, writer, space["id"], embedding, progress)
        header = Header(format=FORMAT, version=VERSION, exported_at=datetime.now(UTC),
                        generator=f"memory-mcp {memory_mcp.__version__}",
                        space=SpaceInfo(**space), embedding=embedding,
                        counts=_counts(writer, len(users)), with_files=with_files)
        out.write(dump(header) + "\n")
        for user in users:
            out.write(dump(UserRecord(type="user", **user)) + "\n")
        writer.body.seek(0)
        while chunk := writer.body.read(1 << 20):
            out.write(chunk)
        out.write(dump(EndRecord(type="end", counts=header.counts)) + "\n")
        out.flush()
    summary = {"space": space["key"], "format": FORMAT, "version": VERSION,
               "model": embedding.model_id, "dimensions": embedding.dimensions,
               **header.counts.model_dump(), "missing_files": writer.missing_files}
    await audit.record_alone(rt, "space.export", space_id=space["id"], users=len(users),
                             documents=len(writer.documents), memories=writer.memories,
                             files=writer.files, with_files=with_files)
    return summary


async def _read_space(conn: Conn, writer: _Writer, space_id: UUID, embedding: EmbeddingInfo,
                      progress: Progress | None) -> list[dict[str, Any]]:
    counts = await db.space_counts(conn, space_id)
    total = int(counts["memories"]) + int(counts["documents"])
    done = 0
    for row in await db.documents(conn, space_id):
        await writer.document(row)
        done += 1
        if progress:
            progress("export", done, total)
    async for row in db.memories(conn, space_id, embedding.dimensions):
        for source in [row["source_document_id"], *row["stated_in"]]:
            if source is not None and source not in writer.documents:
                late = await db.document(conn, space_id, source)
                if late is None:  # not under the foreign keys; never write a dangling id
                    raise MemoryMcpError("The space changed during the export; run it again.")
                await writer.document(late)
        writer.memory(row)
        done += 1
        if progress:
            progress("export", done, max(total, done))
    return await db.users(conn, sorted(writer.users))


def _counts(writer: _Writer, users: int) -> Counts:
    return Counts(users=users, documents=len(writer.documents), memories=writer.memories,
                  files=writer.files)
