"""The space an import writes into: the named one, or a new one made from the export's header.

A new space keeps the exported space's id when this deployment does not use it yet (an import
into a fresh deployment), so every memory and document keeps its id too
(``transfer_format.derive_id``) and references an agent holds stay valid across the move.
"""

from __future__ import annotations

import re
from uuid import UUID

from memory_mcp.db import identity
from memory_mcp.db import transfer as db
from memory_mcp.errors import InvalidInputError
from memory_mcp.services import admin
from memory_mcp.services.runtime import Runtime
from memory_mcp.services.transfer_format import SpaceInfo

#: The rule of ``spaces create`` and of the table's CHECK (migrations/0002).
_SPACE_KEY = re.compile(r"^[a-z0-9][a-z0-9._-]{0,62}$")


async def target_space(rt: Runtime, key: str, source: SpaceInfo) -> tuple[UUID, bool]:
    """(space id, whether it was created now). ``spaces`` has no row-level policy: creating a
    space is an identity change like ``spaces create``, done as the application role."""
    key = key.strip()
    async with rt.transaction() as conn:
        row = await identity.find_space(conn, key)
    if row is not None:
        return row["id"], False
    if not _SPACE_KEY.match(key):
        raise InvalidInputError("space key must be 1-63 lowercase letters, digits, '.', '_' or "
                                f"'-', starting with a letter or digit; got {key!r}.")
    async with rt.transaction() as conn:
        made = await db.create_space(conn, source.id, key, source.name, source.description,
                                     source.created_at)
    if made is not None:
        return made, True
    created = await admin.create_space(rt, key, source.name, source.description)
    return UUID(created["id"]), True
