"""Hardening: the permission matrix, escaping of hostile text, form fuzzing.

Helpers the three modules share live here, among them database snapshots: a
world seeded once per module and restored for every test, which is many times
faster than seeding it again for each of the matrix's cases.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest
from flask import Flask, g
from flask.testing import FlaskClient
from sqlalchemy import text
from werkzeug import security

from league.extensions import db
from league.models import User
from league.services import users
from tests.conftest import ON_POSTGRES, create_postgres_database, drop_postgres_database, make_app

T = TypeVar("T")


def use_fast_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """One PBKDF2 round instead of scrypt: many users are made, and hashing is not tested here."""

    def fast(password: str, method: str = "scrypt", salt_length: int = 16) -> str:
        return security.generate_password_hash(password, "pbkdf2:sha256:1", salt_length)

    monkeypatch.setattr(users, "generate_password_hash", fast)


def log_in(client: FlaskClient, user_id: int) -> None:
    """Flask-Login's session keys, set directly (no password round trip per case)."""
    secret = db.session.get(User, user_id).session_secret  # what the cookie carries
    with client.session_transaction() as session:
        session["_user_id"] = secret
        session["_fresh"] = True
    # The tests' app context outlives each request, and Flask-Login caches the user in `g`.
    g.pop("_login_user", None)


def log_out(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session.clear()
    g.pop("_login_user", None)


def session_user(client: FlaskClient) -> str | None:
    with client.session_transaction() as session:
        return session.get("_user_id")


# ---------------------------------------------------------------------------
# Snapshots

#: The schema a PostgreSQL snapshot keeps its copy of every table in.
SNAPSHOT_SCHEMA = "hardening_snapshot"


def _close() -> None:
    db.session.remove()
    db.engine.dispose()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A seeded database, and one app whose database is reset to it for every test.

    (One app for all: building an app costs more than resetting the database.) On
    SQLite the database file is copied back; on PostgreSQL the tables are emptied
    and refilled from their copies in SNAPSHOT_SCHEMA, and the id sequences reset.
    """

    app: Flask
    #: SQLite: the seeded file.
    template: Path | None = None
    #: PostgreSQL: (table, id column) of every table with an id sequence.
    sequences: tuple[tuple[str, str], ...] = ()

    @contextmanager
    def fresh(self) -> Iterator[Flask]:
        """The app on a fresh copy of the snapshot, inside a new app context."""
        with self.app.app_context():
            if self.template is not None:
                _close()
                live = self.app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
                shutil.copyfile(self.template, live)
            else:
                _restore(self.sequences)
            try:
                yield self.app
            finally:
                db.session.remove()


def _tables() -> list[str]:
    return [table.name for table in db.metadata.sorted_tables]


def _keep_copy() -> tuple[tuple[str, str], ...]:
    """Copy every table into SNAPSHOT_SCHEMA; returns the tables' id sequences."""
    sequences = []
    with db.engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{SNAPSHOT_SCHEMA}"'))
        for name in _tables():
            conn.execute(text(f'CREATE TABLE "{SNAPSHOT_SCHEMA}"."{name}" AS TABLE "{name}"'))
        for table in db.metadata.sorted_tables:
            for column in table.primary_key.columns:
                found = conn.execute(
                    text("SELECT pg_get_serial_sequence(:table, :column)"),
                    {"table": f'"{table.name}"', "column": column.name},
                ).scalar()
                if found:
                    sequences.append((table.name, column.name))
    return tuple(sequences)


def _restore(sequences: tuple[tuple[str, str], ...]) -> None:
    # (Every name in these statements comes from the models' own metadata.)
    tables = _tables()
    quoted = ", ".join(f'"{name}"' for name in tables)
    with db.engine.begin() as conn:
        # Foreign keys are not checked while the rows go back in (superuser only).
        conn.execute(text("SET LOCAL session_replication_role = replica"))
        conn.execute(text(f"TRUNCATE {quoted} RESTART IDENTITY"))
        for name in tables:
            copy = f'INSERT INTO "{name}" SELECT * FROM "{SNAPSHOT_SCHEMA}"."{name}"'  # noqa: S608
            conn.execute(text(copy))
        for name, column in sequences:
            highest = f'SELECT max("{column}") FROM "{name}"'  # noqa: S608
            conn.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence(:table, :column), "
                    f"COALESCE(({highest}), 0) + 1, false)"
                ),
                {"table": f'"{name}"', "column": column},
            )


@contextmanager
def snapshot(seed: Callable[[], T], folder: Path) -> Iterator[tuple[Snapshot, T]]:
    """Seed a new database once with `seed()` (fast password hashes); yields the snapshot
    and what `seed` returned. The database is dropped afterwards."""
    if ON_POSTGRES:
        url = create_postgres_database("league_snapshot")
    else:
        url = f"sqlite:///{folder / 'snapshot.sqlite3'}"
    try:
        seeder = make_app(url)
        with pytest.MonkeyPatch.context() as monkeypatch, seeder.app_context():
            use_fast_password_hashes(monkeypatch)
            db.create_all()
            try:
                value = seed()
                db.session.commit()
                sequences = _keep_copy() if ON_POSTGRES else ()
            finally:
                _close()
        if ON_POSTGRES:
            made = Snapshot(make_app(url), sequences=sequences)
        else:
            live = make_app(f"sqlite:///{folder / 'case.sqlite3'}")
            made = Snapshot(live, template=folder / "snapshot.sqlite3")
        try:
            yield made, value
        finally:
            with made.app.app_context():
                _close()
    finally:
        if ON_POSTGRES:
            drop_postgres_database(url)
