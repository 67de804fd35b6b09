"""Backups of the whole database as one JSON document, and restoring one into an empty database.

The document (``format`` "bbleague-backup", ``version`` 2) holds every table of
the models, each as its column names and its rows (by primary key), read in one
read-only transaction so that it shows a single moment of the database even
while the league is in use. Dates and times are ISO 8601 (times in UTC with
their offset); JSON columns are embedded as they are. It also names the
migration the database was at (``schema_revision``): a backup restores into a
database at the same migration.

Since version 2 it also carries the team logos the rows refer to (``logos``: each
file's name in ``LOGO_DIR``, ``<team id>-<hash>-<size>.png``, and its bytes in
base64), since they live on disk, not in the database (league.services.logos).
A logo file missing from ``LOGO_DIR`` is left out, and named (`missing_logos`).
Version 1 backups, which carry no logos, still restore.

Restoring writes every row in one transaction, parents before children (the
foreign keys' order), into a database whose schema exists (``flask db upgrade``)
and which holds no rows; on PostgreSQL the id sequences are moved past the
restored ids afterwards, so new rows get fresh ids. The logo files are checked
first, each by the upload's rules (league.services.logos) and the largest against
the hash its name gives, and written into ``LOGO_DIR`` before the rows are
committed; a refusal writes no file, and a failure after some were written takes
them back.

The file holds password and token digests: it is written readable by its owner only.
"""

from __future__ import annotations

import base64
import binascii
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
from league.services import logos
from league.services.errors import Conflict, RuleViolation

FORMAT = "bbleague-backup"
VERSION = 2
#: Every version this program restores (version 1 carries no logos).
RESTORES = (1, 2)
#: The table whose rows name their logos (column ``logo_key``).
TEAM = "team"
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


def dump(connection: Connection, logo_directory: Path | None = None) -> dict[str, Any]:
    """The whole database as a backup document (read through `connection`), with the logo
    files its teams refer to (read from `logo_directory`, by default ``LOGO_DIR``)."""
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
    team = document["tables"][TEAM]
    keys = _logo_keys(team["columns"], team["rows"])
    document["logos"] = _logo_files(keys, logo_directory or logos.logo_dir())
    return document


def _logo_keys(columns: Sequence[str], rows: Sequence[Any]) -> set[str]:
    """The logos the team rows refer to (their keys)."""
    if "logo_key" not in columns:
        return set()
    at = list(columns).index("logo_key")
    return {row[at] for row in rows if isinstance(row[at], str)}


def _logo_files(keys: set[str], directory: Path) -> dict[str, str]:
    """{file name: base64 bytes} of every file of these logos; a logo with a file missing
    is left out whole (`missing_logos` names it)."""
    files: dict[str, str] = {}
    for key in sorted(keys):
        if not logos.valid_key(key):
            continue
        paths = [logos.logo_path(key, size, directory) for size in logos.SIZES]
        try:
            contents = [path.read_bytes() for path in paths]
        except FileNotFoundError:
            continue
        for path, content in zip(paths, contents, strict=True):
            files[path.name] = base64.b64encode(content).decode("ascii")
    return files


def missing_logos(document: Mapping[str, Any]) -> list[str]:
    """The logos the document's teams refer to whose files it does not carry."""
    team = (document.get("tables") or {}).get(TEAM) or {}
    keys = _logo_keys(team.get("columns") or [], team.get("rows") or [])
    carried = {
        parsed[0] for name in document.get("logos") or {} if (parsed := logos.parse_file_name(name))
    }
    return sorted(keys - carried)


def logo_count(document: Mapping[str, Any]) -> int:
    """How many logos the document carries (each as its files of every size)."""
    return len(document.get("logos") or {}) // len(logos.SIZES)


def backup_database(engine: Engine, logo_directory: Path | None = None) -> dict[str, Any]:
    with snapshot(engine) as connection:
        return dump(connection, logo_directory)


def write_backup(engine: Engine, path: Path, logo_directory: Path | None = None) -> dict[str, Any]:
    """Write a backup to `path` (replaced atomically, mode 0600); returns the document."""
    document = backup_database(engine, logo_directory)
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
    return document


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
    if document.get("version") not in RESTORES:
        raise BackupError(
            f"This backup has version {document.get('version')!r}; this program restores "
            f"versions {', '.join(map(str, RESTORES))}."
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


def _check_logos(
    document: Mapping[str, Any], checked: Mapping[str, tuple[list[str], list[Any]]]
) -> dict[str, dict[int, bytes]]:
    """The backup's logo files, each checked: {key: {size: bytes}}, or a refusal.

    A file must have a logo file's name (no folder, no ``..``), belong to a logo of a team
    row, decode from base64, pass the upload's checks (league.services.logos) as a PNG
    square of the size its name says, and the largest must have the hash its name gives.
    Each logo comes with its files of every size.
    """
    if document.get("version") == 1:
        if "logos" in document:
            raise BackupError("A version 1 backup carries no logos; this one has some.")
        return {}
    given = document.get("logos", {})
    if not isinstance(given, dict):
        raise BackupError("The backup's logos are not an object of file names and contents.")
    referenced = _logo_keys(*checked.get(TEAM, ([], [])))
    files: dict[str, dict[int, bytes]] = {}
    for name, encoded in sorted(given.items()):
        parsed = logos.parse_file_name(name)
        if parsed is None:
            raise BackupError(
                f"Logo file {name[:80]!r}: not a logo file's name (<team id>-<hash>-256.png "
                "or -64.png, with no folder and no '..'). Nothing was restored."
            )
        key, size = parsed
        if key not in referenced:
            raise BackupError(
                f"Logo file {name}: no team in the backup has logo {key}. Nothing was restored."
            )
        try:
            if not isinstance(encoded, str):
                raise TypeError("not a string")
            data = base64.b64decode(encoded, validate=True)
        except (TypeError, ValueError, binascii.Error) as error:
            raise BackupError(
                f"Logo file {name}: its content is not base64 ({error}). Nothing was restored."
            ) from error
        try:
            width, height = logos.stored_file_size(data)
        except RuleViolation as error:
            raise BackupError(f"Logo file {name}: {error.message} Nothing was restored.") from error
        if (width, height) != (size, size):
            raise BackupError(
                f"Logo file {name}: {width} \u00d7 {height} pixels, not the {size} \u00d7 "
                f"{size} its name says. Nothing was restored."
            )
        if size == logos.SIZES[0] and not logos.names_content(key, data):
            raise BackupError(
                f"Logo file {name}: its bytes do not have the hash its name gives (the file "
                "was changed after the backup). Nothing was restored."
            )
        files.setdefault(key, {})[size] = data
    for key, sizes in files.items():
        if set(sizes) != set(logos.SIZES):
            lacking = ", ".join(f"{key}-{size}.png" for size in logos.SIZES if size not in sizes)
            raise BackupError(f"Logo {key}: the backup lacks {lacking}. Nothing was restored.")
    return files


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


def restore_database(
    engine: Engine, document: Mapping[str, Any], logo_directory: Path | None = None
) -> dict[str, int]:
    """Restore a backup document into the empty database of `engine`, and its logo files
    into `logo_directory` (by default ``LOGO_DIR``); returns rows per table."""
    checked = _check_document(document)
    files = _check_logos(document, checked)
    directory = logo_directory or logos.logo_dir()
    counts: dict[str, int] = {}
    replaced: dict[Path, bytes | None] = {}
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
            # Last before the commit: a refused row writes no file.
            _write_logos(files, directory, replaced)
    except BaseException as error:
        _take_back(replaced)
        if isinstance(error, SQLAlchemyError):
            detail = f"{error.__class__.__name__}: {str(error).splitlines()[0]}"
            raise BackupError(
                f"The database refused the backup's rows; nothing was restored. ({detail})"
            ) from error
        if isinstance(error, OSError):
            raise BackupError(
                f"The logo files could not be written into {directory} ({error}); "
                "nothing was restored."
            ) from error
        raise
    return counts


def _write_logos(
    files: Mapping[str, Mapping[int, bytes]], directory: Path, replaced: dict[Path, bytes | None]
) -> None:
    """Write the logos' files, noting in `replaced` what each path held before (None: nothing)."""
    for key, by_size in files.items():
        for size in by_size:
            path = logos.logo_path(key, size, directory)
            try:
                replaced[path] = path.read_bytes()
            except FileNotFoundError:
                replaced[path] = None
        logos.store(logos.Logo(key=key, files=dict(by_size)), directory)


def _take_back(replaced: Mapping[Path, bytes | None]) -> None:
    """Put the logo folder back as it was before `_write_logos` (as far as it can)."""
    for path, before in replaced.items():
        try:
            if before is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(before)
        except OSError:
            continue
