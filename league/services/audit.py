"""Append to the audit log inside the caller's transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from league.models import AuditEntry, User


def record(
    session: Session,
    actor: User | None,
    action: str,
    entity_type: str,
    entity_id: int | None,
    **detail: Any,
) -> AuditEntry:
    entry = AuditEntry(
        actor_id=actor.id if actor else None,
        action=action,
        entity_type=entity_type,
        entity_id=entity_id,
        detail=detail,
    )
    session.add(entry)
    return entry
