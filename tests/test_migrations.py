"""The migrations build the schema the models describe, and unwind cleanly."""

from __future__ import annotations

from flask_migrate import check, downgrade, upgrade
from sqlalchemy import inspect

from league.extensions import db
from tests.conftest import make_app


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
