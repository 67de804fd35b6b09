"""The migration that gives leagues an owner fills it in for the leagues already there."""

from __future__ import annotations

from datetime import UTC, datetime

from flask_migrate import downgrade, upgrade
from sqlalchemy import MetaData, Table, insert, text

from league.extensions import db
from tests.conftest import make_app

BEFORE = "7a3c9e51d2f4"
OWNERS = "members01a2b3"
MOMENT = datetime(2026, 11, 1, 12, tzinfo=UTC)


def _insert(table_name: str, /, **values: object) -> None:
    """A row with every column that must be given (the others keep their defaults)."""
    table = Table(table_name, MetaData(), autoload_with=db.engine)
    required = {
        column.name: 0
        for column in table.columns
        if not column.nullable and column.server_default is None and column.name != "id"
    }
    row = {**required, **values}
    if "created_at" in row:
        row["created_at"] = MOMENT
    with db.engine.begin() as connection:
        connection.execute(insert(table), row)


def test_the_owner_is_the_first_member_still_a_commissioner(empty_database_url: str) -> None:
    app = make_app(empty_database_url)
    with app.app_context():
        upgrade(revision=BEFORE)
        for user_id, name in enumerate(("creator", "deputy", "coach"), start=1):
            _insert("user", id=user_id, username=name, password_hash="x", session_secret=name)
        for league_id in (1, 2):
            _insert(
                "league",
                id=league_id,
                name=f"L{league_id}",
                ruleset_id="bb2025",
                join_token=f"t{league_id}",
                tie_breakers="[]",
                house_rules="{}",
            )
        # League 1: its creator still a commissioner. League 2: its creator was removed (as
        # issue 33 found a co-commissioner could do), the deputy carries on.
        members = (
            (1, 1, 1, "commissioner", None),
            (2, 1, 2, "commissioner", None),
            (3, 1, 3, "coach", None),
            (4, 2, 1, "commissioner", MOMENT),
            (5, 2, 3, "coach", None),
            (6, 2, 2, "commissioner", None),
        )
        for member_id, league_id, user_id, role, removed in members:
            _insert(
                "league_member",
                id=member_id,
                league_id=league_id,
                user_id=user_id,
                role=role,
                removed_at=removed,
            )
        upgrade(revision=OWNERS)
        with db.engine.connect() as connection:
            owners = connection.execute(text("SELECT id, owner_id FROM league ORDER BY id"))
            assert owners.tuples().all() == [(1, 1), (2, 2)]
        downgrade(revision="base")
        db.engine.dispose()
