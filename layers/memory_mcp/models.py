"""Plain data shared by services and adapters (no SQL, no transport)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from uuid import UUID

Role = Literal["writer", "reader"]
Access = Literal["read", "readwrite"]


@dataclass(frozen=True)
class Principal:
    """Who is calling: the authenticated key and its user, loaded fresh on every request."""

    key_id: UUID
    key_label: str
    key_prefix: str
    user_id: UUID
    email: str
    display_name: str
    role: Role
    active_space_id: UUID | None
    #: This key's own rate limits (None: the deployment's setting; 0: unlimited).
    requests_per_minute: int | None = None
    writes_per_minute: int | None = None
    #: Every space the key holds a grant on, oldest grant first, as of this request's key check
    #: (the same statement: ``identity.principal_by_key``). A principal lives for one request.
    spaces: tuple[SpaceAccess, ...] = ()


@dataclass(frozen=True)
class SpaceAccess:
    """One space the key may read, with the effective access there."""

    space_id: UUID
    key: str
    name: str
    description: str
    grant: Access
    effective: Access
    granted_at: object

    @property
    def writable(self) -> bool:
        return self.effective == "readwrite"

    @classmethod
    def granted(cls, role: Role, space_id: UUID, key: str, name: str, description: str,
                grant: Access, granted_at: object) -> SpaceAccess:
        """A grant as the key's role lets it be used (the role is a ceiling)."""
        return cls(space_id=space_id, key=key, name=name, description=description, grant=grant,
                   effective=effective_access(role, grant), granted_at=granted_at)


def effective_access(role: Role, grant: Access) -> Access:
    """The role is a ceiling everywhere: a Reader is read-only whatever the grant says."""
    return "readwrite" if role == "writer" and grant == "readwrite" else "read"


def access_label(access: Access) -> str:
    """Spec wording: ``Read`` / ``ReadWrite``."""
    return "ReadWrite" if access == "readwrite" else "Read"


def role_label(role: Role) -> str:
    """Spec wording: ``Writer`` / ``Reader``."""
    return "Writer" if role == "writer" else "Reader"
