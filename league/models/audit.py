"""The append-only audit log: who did what, written in the same transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, String, event
from sqlalchemy.orm import Mapped, Session, mapped_column

from league.extensions import Model
from league.models.types import created_at, intpk


class AuditEntry(Model):
    __tablename__ = "audit_log"

    id: Mapped[intpk]
    at: Mapped[created_at]
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    action: Mapped[str] = mapped_column(String(60))
    entity_type: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[int | None]
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class AuditLogIsAppendOnly(RuntimeError):
    """Code tried to change or delete an audit entry (a bug, never a user's doing)."""


@event.listens_for(Session, "before_flush")
def _refuse_rewriting_history(session: Session, _context: object, _instances: object) -> None:
    """Entries are only ever added: a flush that would update or delete one fails."""
    for entry in session.deleted:
        if isinstance(entry, AuditEntry):
            raise AuditLogIsAppendOnly(f"audit entry #{entry.id} cannot be deleted")
    for entry in session.dirty:
        if isinstance(entry, AuditEntry) and session.is_modified(entry):
            raise AuditLogIsAppendOnly(f"audit entry #{entry.id} cannot be changed")
