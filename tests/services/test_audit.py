"""The audit log is append-only: services add entries; nothing may change or delete one."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from league.extensions import db
from league.models import AuditEntry
from league.models.audit import AuditLogIsAppendOnly
from league.services import audit
from league.services.unit_of_work import unit_of_work
from tests.factories import make_user


def _entry() -> AuditEntry:
    actor = make_user("grim")
    with unit_of_work() as session:
        audit.record(session, actor, "test.action", "user", actor.id, note="first")
    entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "test.action"))
    assert entry is not None
    return entry


def test_an_entry_cannot_be_changed(app) -> None:
    entry = _entry()
    with pytest.raises(AuditLogIsAppendOnly, match="cannot be changed"), unit_of_work():
        entry.action = "rewritten"
    db.session.rollback()
    assert db.session.get(AuditEntry, entry.id).action == "test.action"


def test_an_entry_cannot_be_deleted(app) -> None:
    entry = _entry()
    with (
        pytest.raises(AuditLogIsAppendOnly, match="cannot be deleted"),
        unit_of_work() as session,
    ):
        session.delete(entry)
    db.session.rollback()
    assert db.session.get(AuditEntry, entry.id) is not None


def test_adding_entries_still_works(app) -> None:
    entry = _entry()
    with unit_of_work() as session:
        audit.record(session, None, "test.second", "user", None)
    assert db.session.scalar(select(AuditEntry.id).where(AuditEntry.action == "test.second"))
    assert entry.detail == {"note": "first"}
