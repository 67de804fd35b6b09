"""Backups of the whole database as one JSON document, and restoring one into an empty database.

The document (``format`` "bbleague-backup", ``version`` 1) holds every table of
the models, each as its column names and its rows (by primary key), read in one
read-only transaction so that it shows a single moment of the database even
while the league is in use. Dates and times are ISO 8601 (times in UTC with
their offset); JSON columns are embedded as they are. It also names the
migration the database was at (``schema_revision``): a backup restores into a
database at the same migration.

Restoring writes every row in one transaction, parents before children (the
foreign keys' order), into a database whose schema exists (``flask db upgrade``)
and which holds no rows; on PostgreSQL the id sequences are moved past the
restored ids afterwards, so new rows get fresh ids.

The file holds password and token digests: it is written readable by its owner only.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    Date,
    DateTime,
    Engine,
    Integer,
    Table,
    bindparam,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from league.extensions import db
from league.models.revision import DataRevision, new_token
from league.services.errors import Conflict, RuleViolation

FORMAT = "bbleague-backup"
VERSION = 1
#: Rows written per INSERT statement on restore.
CHUNK = 1000


class BackupError(RuleViolation):
    """The file is not a backup this version can restore."""

    code = "invalid_backup"


def tables() -> list[Table]:
    """Every table of the models, parents before the tables that refer to them.

    Not the data revision: it names a state of the data rather than holding any, and a
    restored database gets a token of its own.
    """
    return [table for table in db.metadata.sorted_tables if table is not DataRevision.__table__]


# ---------------------------------------------------------------------------
# Backing up


@contextmanager
def snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection inside one read-only transaction: every read sees the same moment."""
    if engine.dialect.name == "postgresql":
        options = {"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
        with engine.connect().execution_options(**options) as connection, connection.begin():
            yield connection
        return
    # SQLite: the first SELECT begins a transaction (league._sqlite_begin), so every later
    # one sees the same moment.
    with engine.connect() as connection:
        try:
            yield connection
        finally:
            connection.rollback()


def schema_revision(connection: Connection) -> list[str] | None:
    """The migration(s) the database is at; None when it was not built by migrations."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return sorted(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


def _to_json(value: Any) -> Any:
    if isinstance(value, datetime):
        # Stored as UTC; SQLite hands them back without the offset.
        aware = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
        return aware.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def dump(connection: Connection) -> dict[str, Any]:
    """The whole database as a backup document (read through `connection`)."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": datetime.now(UTC).isoformat(),
        "dialect": connection.dialect.name,
        "schema_revision": schema_revision(connection),
        "tables": {},
    }
    for table in tables():
        columns = list(table.columns)
        rows = connection.execute(select(*columns).order_by(*table.primary_key.columns))
        document["tables"][table.name] = {
            "columns": [column.name for column in columns],
            "rows": [[_to_json(value) for value in row] for row in rows],
        }
    return document


def backup_database(engine: Engine) -> dict[str, Any]:
    with snapshot(engine) as connection:
        return dump(connection)


def write_backup(engine: Engine, path: Path) -> dict[str, int]:
    """Write a backup to `path` (replaced atomically, mode 0600); returns rows per table."""
    document = backup_database(engine)
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(document, stream, ensure_ascii=False, separators=(",", ":"))
            stream.write("\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return row_counts(document)


def row_counts(document: Mapping[str, Any]) -> dict[str, int]:
    return {name: len(table["rows"]) for name, table in document["tables"].items()}


# ---------------------------------------------------------------------------
# Restoring


def read_backup(path: Path) -> dict[str, Any]:
    try:
        with Path(path).open(encoding="utf-8") as stream:
            document = json.load(stream)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise BackupError(f"{path} is not a readable JSON file: {error}") from error
    if not isinstance(document, dict):
        raise BackupError(f"{path} is not a backup: it holds no JSON object.")
    return document


def _check_document(document: Mapping[str, Any]) -> dict[str, tuple[list[str], list[Any]]]:
    """The tables of a backup document, checked against the models: {name: (columns, rows)}."""
    if document.get("format") != FORMAT:
        raise BackupError(f"This is not a league backup (format {document.get('format')!r}).")
    if document.get("version") != VERSION:
        raise BackupError(
            f"This backup has version {document.get('version')!r}; this program restores "
            f"version {VERSION}."
        )
    given = document.get("tables")
    if not isinstance(given, dict):
        raise BackupError("The backup has no tables.")
    known = {table.name: table for table in tables()}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise BackupError(f"The backup has tables this program does not know: {unknown}.")
    checked: dict[str, tuple[list[str], list[Any]]] = {}
    for name, content in given.items():
        if not isinstance(content, dict):
            raise BackupError(f"Table {name}: not an object.")
        columns, rows = content.get("columns"), content.get("rows")
        if not isinstance(columns, list) or not isinstance(rows, list):
            raise BackupError(f"Table {name}: needs 'columns' and 'rows' lists.")
        strange = sorted(set(map(str, columns)) - set(known[name].columns.keys()))
        if strange or len(set(columns)) != len(columns):
            raise BackupError(f"Table {name}: unknown or repeated columns {strange or columns}.")
        for row in rows:
            if not isinstance(row, list) or len(row) != len(columns):
                raise BackupError(f"Table {name}: a row does not match its {len(columns)} columns.")
        checked[name] = (columns, rows)
    return checked


def _require_empty(connection: Connection) -> None:
    present = set(inspect(connection).get_table_names())
    missing = [table.name for table in tables() if table.name not in present]
    if missing:
        raise Conflict(
            f"The database has no table {missing[0]!r}: create the schema first "
            "(`flask --app app db upgrade`), then restore."
        )
    for table in tables():
        count = connection.execute(select(func.count()).select_from(table)).scalar_one()
        if count:
            raise Conflict(
                f"The database is not empty (table {table.name} has {count} row"
                f"{'' if count == 1 else 's'}). Restore only into an empty database: "
                "create a new one and run `flask --app app db upgrade` on it."
            )


def _from_json(table: Table, name: str, value: Any) -> Any:
    column_type = table.columns[name].type
    if value is None:
        return None
    if isinstance(column_type, DateTime):
        moment = datetime.fromisoformat(value)
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    if isinstance(column_type, Date):
        return date.fromisoformat(value)
    return value


def _insert(connection: Connection, table: Table, columns: Sequence[str], rows: list[Any]) -> None:
    # JSON columns: None restores as SQL NULL (not the JSON value null).
    binds = {
        name: bindparam(name, type_=JSON(none_as_null=True))
        for name in columns
        if isinstance(table.columns[name].type, JSON)
    }
    statement = insert(table).values(binds) if binds else insert(table)
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        try:
            values = [
                {
                    name: _from_json(table, name, value)
                    for name, value in zip(columns, row, strict=True)
                }
                for row in chunk
            ]
        except (TypeError, ValueError) as error:
            raise BackupError(
                f"Table {table.name}: a date or time is not ISO 8601 ({error})."
            ) from error
        connection.execute(statement, values)


def _reset_sequences(connection: Connection) -> None:
    """PostgreSQL: the next id of every table comes after the restored ones."""
    preparer = connection.dialect.identifier_preparer
    for table in tables():
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not isinstance(keys[0].type, Integer) or keys[0].foreign_keys:
            continue
        column = preparer.quote(keys[0].name)
        quoted = preparer.format_table(table)
        connection.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence(:table, :column), "  # noqa: S608 - names from the models
                f"COALESCE(MAX({column}), 0) + 1, false) FROM {quoted}"
            ),
            {"table": quoted, "column": keys[0].name},
        )


def restore_database(engine: Engine, document: Mapping[str, Any]) -> dict[str, int]:
    """Restore a backup document into the empty database of `engine`; returns rows per table."""
    checked = _check_document(document)
    counts: dict[str, int] = {}
    try:
        with engine.begin() as connection:
            wanted = document.get("schema_revision")
            here = schema_revision(connection)
            if wanted is not None and here is not None and list(wanted) != here:
                raise BackupError(
                    f"The backup was made at migration {', '.join(wanted)}; this database is at "
                    f"{', '.join(here) or 'none'}. Restore into a database at the backup's "
                    "migration (`flask db upgrade <revision>`), then upgrade it."
                )
            _require_empty(connection)
            for table in tables():
                columns, rows = checked.get(table.name, ([], []))
                if rows:
                    _insert(connection, table, columns, rows)
                counts[table.name] = len(rows)
            if connection.dialect.name == "postgresql":
                _reset_sequences(connection)
            connection.execute(update(DataRevision).values(token=new_token()))
    except SQLAlchemyError as error:
        detail = f"{error.__class__.__name__}: {str(error).splitlines()[0]}"
        raise BackupError(
            f"The database refused the backup's rows; nothing was restored. ({detail})"
        ) from error
    return counts
