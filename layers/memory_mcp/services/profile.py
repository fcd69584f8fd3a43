"""The space profile shared by ``search_memory``, the profile resource and the context prompt.

* ``stable``: durable facts. First the (up to ``profile_stable_limit``) most recently updated
  latest, non-forgotten memories whose category is profile-like (settings
  ``profile_categories``: preference, convention, decision, …), ordered by how often searches
  returned them; then other memories by recall count. Ties: most recently updated, then id.
  At most ``profile_stable_limit`` (10).
* ``recent``: the newest memories created in the last ``profile_recent_days`` (7) days that are
  not already in ``stable``, newest first. At most ``profile_recent_limit`` (5).

Both lists are bounded and deterministic for a given database state.
"""

from __future__ import annotations

from typing import Any

from memory_mcp.db import memories as db
from memory_mcp.models import SpaceAccess
from memory_mcp.services import views
from memory_mcp.services.runtime import Conn, Runtime


async def build(rt: Runtime, conn: Conn, space: SpaceAccess) -> dict[str, Any]:
    s = rt.settings
    stable, recent = await db.profile(conn, space.space_id, s.profile_categories,
                                      s.profile_stable_limit, s.profile_recent_days,
                                      s.profile_recent_limit)
    return {
        "space": space.key,
        "stable": [views.memory(row) for row in stable],
        "recent": [views.memory(row) for row in recent],
    }
