"""The append-only audit log: who did what, written in the same transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from league.extensions import db
from league.models.types import created_at, intpk


class AuditEntry(db.Model):
    __tablename__ = "audit_log"

    id: Mapped[intpk]
    at: Mapped[created_at]
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    action: Mapped[str] = mapped_column(String(60))
    entity_type: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[int | None]
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
