"""The migrations build the schema the models describe, and unwind cleanly."""

from __future__ import annotations

from flask_migrate import check, downgrade, upgrade
from sqlalchemy import CheckConstraint, inspect

from league.extensions import db
from tests.conftest import ON_POSTGRES, make_app


def _tables() -> set[str]:
    return set(inspect(db.engine).get_table_names()) - {"alembic_version"}


def test_upgrade_check_and_downgrade(empty_database_url: str) -> None:
    app = make_app(empty_database_url)
    with app.app_context():
        upgrade()
        assert _tables() == set(db.metadata.tables)
        check()  # raises when the models and the migrations disagree
        downgrade(revision="base")
        assert _tables() == set()
        db.engine.dispose()


def test_check_constraints_are_the_models(empty_database_url: str) -> None:
    """`flask db check` does not compare CHECK constraints; this does.

    SQLite keeps their SQL as written, so there the text must match too (PostgreSQL
    rewrites it, so there only the names are compared).
    """
    app = make_app(empty_database_url)
    with app.app_context():
        upgrade()
        inspector = inspect(db.engine)
        migrated = {
            (table, check["name"], check["sqltext"])
            for table in db.metadata.tables
            for check in inspector.get_check_constraints(table)
        }
        declared = {
            (table.name, constraint.name, str(constraint.sqltext))
            for table in db.metadata.sorted_tables
            for constraint in table.constraints
            if isinstance(constraint, CheckConstraint)
        }
        db.engine.dispose()
    if ON_POSTGRES:
        assert {key[:2] for key in migrated} == {key[:2] for key in declared}
    else:
        assert migrated == declared
    # One of them, spelled out: the player statuses, built from PLAYER_STATUSES.
    assert (
        "player",
        "ck_player_status_known",
        "status IN ('active', 'mng', 'dead', 'retired', 'fired', "
        "'journeyman', 'mercenary', 'star')",
    ) in declared
