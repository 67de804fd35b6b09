"""Database snapshots: a world seeded once per module and restored for every test.

Many times faster than seeding the same world again for each case of a matrix or a
fuzzer. On SQLite the seeded file is copied back; on PostgreSQL the tables are
emptied and refilled from a copy of each kept in another schema.
"""

from __future__ import annotations

import copy
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from flask import Flask
from sqlalchemy import inspect, text, update
from sqlalchemy.orm import InstanceState

from league.extensions import db
from league.models.revision import DataRevision, new_token
from tests.conftest import (
    ON_POSTGRES,
    create_postgres_database,
    drop_postgres_database,
    empty_postgres_tables,
    make_app,
)

T = TypeVar("T")


#: The schema a PostgreSQL snapshot keeps its copy of every table in.
SNAPSHOT_SCHEMA = "snapshot"


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
            _new_revision()
            try:
                yield self.app
            finally:
                db.session.remove()


def _new_revision() -> None:
    """A token of its own: a page cached on an earlier copy is not served as this one's."""
    with db.engine.begin() as conn:
        conn.execute(update(DataRevision).values(token=new_token()))


def _tables() -> list[str]:
    return [table.name for table in db.metadata.sorted_tables]


def _keep_copy(schema: str = SNAPSHOT_SCHEMA) -> tuple[tuple[str, str], ...]:
    """Copy every table into `schema`; returns the tables' id sequences."""
    sequences = []
    with db.engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        for name in _tables():
            conn.execute(text(f'CREATE TABLE "{schema}"."{name}" AS TABLE "{name}"'))
        for table in db.metadata.sorted_tables:
            for column in table.primary_key.columns:
                found = conn.execute(
                    text("SELECT pg_get_serial_sequence(:table, :column)"),
                    {"table": f'"{table.name}"', "column": column.name},
                ).scalar()
                if found:
                    sequences.append((table.name, column.name))
    return tuple(sequences)


def _restore(sequences: tuple[tuple[str, str], ...], schema: str = SNAPSHOT_SCHEMA) -> None:
    # (Every name in these statements comes from the models' own metadata.)
    tables = _tables()
    with db.engine.begin() as conn:
        # Foreign keys are not checked while the rows go back in (superuser only).
        conn.execute(text("SET LOCAL session_replication_role = replica"))
        empty_postgres_tables(conn)
        for name in tables:
            copy = f'INSERT INTO "{name}" SELECT * FROM "{schema}"."{name}"'  # noqa: S608
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
    """Seed a new database once with `seed()`; yields the snapshot
    and what `seed` returned. The database is dropped afterwards."""
    if ON_POSTGRES:
        url = create_postgres_database("league_snapshot")
    else:
        url = f"sqlite:///{folder / 'snapshot.sqlite3'}"
    try:
        seeder = make_app(url)
        with seeder.app_context():
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


@dataclass(frozen=True, slots=True)
class _Kept(Generic[T]):
    value: T
    #: SQLite: an in-memory copy of the database.
    sqlite: sqlite3.Connection | None = None
    #: PostgreSQL: the schema holding the copy, and the tables' id sequences.
    schema: str = ""
    sequences: tuple[tuple[str, str], ...] = ()


_kept: dict[str, _Kept[Any]] = {}


def seeded_once(key: str, seed: Callable[[], T]) -> T:
    """`seed()` on the current app's empty database the first time `key` is asked for in
    the test session; every later time, the rows it wrote are copied back instead and a
    shallow copy of what it returned is returned.

    For the worlds that many tests of a module build alike through the API. What `seed`
    returns is an object whose attributes are plain values (ids, tokens), ORM objects
    (loaded again in the test's session) or what the caller sets again on the copy, such
    as a test client.
    """
    db.session.remove()
    kept = _kept.get(key)
    if kept is None:
        value = seed()
        db.session.commit()
        db.session.remove()
        if ON_POSTGRES:
            schema = f"seeded_{len(_kept)}"
            kept = _Kept(value, schema=schema, sequences=_keep_copy(schema))
        else:
            kept = _Kept(value, sqlite=sqlite3.connect(":memory:", check_same_thread=False))
            _sqlite_backup(into=kept.sqlite)
        _kept[key] = kept
    elif kept.sqlite is not None:
        _sqlite_backup(source=kept.sqlite)
        _new_revision()
    else:
        _restore(kept.sequences, kept.schema)
        _new_revision()
    return _loaded_again(kept.value)


def _loaded_again(value: T) -> T:
    """A shallow copy of `value` whose ORM objects are this session's own."""
    value = copy.copy(value)
    for name, attribute in vars(value).items():
        state = inspect(attribute, raiseerr=False)
        if isinstance(state, InstanceState) and state.identity is not None:
            setattr(value, name, db.session.get(state.class_, state.identity))
    return value


def _sqlite_backup(
    *, into: sqlite3.Connection | None = None, source: sqlite3.Connection | None = None
) -> None:
    """Copy the app's in-memory database `into` a connection, or from `source` into it."""
    connection = db.engine.raw_connection()
    try:
        live: sqlite3.Connection = connection.driver_connection
        if into is not None:
            live.backup(into)
        if source is not None:
            source.backup(live)
    finally:
        connection.close()
