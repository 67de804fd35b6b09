"""Fixtures shared by every test: the app factory, a client, a CLI runner, a database.

The suite runs on SQLite (in memory, a fresh schema for every test) by default and on
PostgreSQL when TEST_DATABASE=postgresql (`make test` runs both). The PostgreSQL
session creates its own database and drops it at the end.
"""

from __future__ import annotations

import collections
import functools
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_sqlalchemy import SQLAlchemy
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import Connection, Engine, create_engine, insert, text, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import StaticPool
from werkzeug import security
from werkzeug.routing import Rule

from league import create_app
from league.extensions import db
from league.i18n import catalogues
from league.models.revision import DataRevision, new_token
from league.seeding import large_demo
from league.services import users

ON_POSTGRES = os.environ.get("TEST_DATABASE") == "postgresql"
POSTGRES_SERVER = os.environ.get(
    "TEST_POSTGRES_SERVER", "postgresql+psycopg://postgres@127.0.0.1:5432"
)
IN_CI = os.environ.get("CI", "").lower() == "true"
# Production refuses to start without the key for Discord bot tokens; the tests that build
# a production app get this one (tests/web/test_discord_settings.py checks the refusal).
os.environ.setdefault("DISCORD_TOKEN_KEY", "qpC6CKZDaCkH_k3SRnF7iF149wQ8Wx8iNIOCA6WLeEc=")
#: How often a test's server thread looks for its shutdown: `serve_forever` polls every
#: 0.5 s by default, which every test that starts one waited at its end.
SERVER_POLL_SECONDS = 0.02


def _server_engine():
    return create_engine(f"{POSTGRES_SERVER}/postgres", isolation_level="AUTOCOMMIT")


def create_postgres_database(prefix: str, durable: bool = False) -> str:
    """A new database on the test server. Not durable (the tests' default): a commit does
    not wait for its WAL to reach the disk, which a database dropped within minutes never
    needs; the benchmarks ask for durable commits, as production has."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    engine = _server_engine()
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
        if not durable:
            conn.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    engine.dispose()
    return f"{POSTGRES_SERVER}/{name}"


def empty_postgres_tables(conn: Connection) -> None:
    """Delete every row of every table, children first.

    DELETE rather than TRUNCATE: a test leaves a handful of rows, and TRUNCATE's new
    files for 26 tables cost some 30 times more than deleting them."""
    for table in reversed(db.metadata.sorted_tables):
        conn.execute(table.delete())


def drop_postgres_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    engine = _server_engine()
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    engine.dispose()


def pytest_sessionstart(session: pytest.Session) -> None:
    if not ON_POSTGRES:
        return
    try:
        engine = _server_engine()
        with engine.connect():
            pass
        engine.dispose()
    except OperationalError as error:
        message = f"PostgreSQL is not reachable at {POSTGRES_SERVER}: {error.orig}"
        if IN_CI:
            pytest.exit(f"{message} (CI=true: the PostgreSQL run is required)", returncode=1)
        pytest.exit(f"SKIPPED the PostgreSQL run: {message}", returncode=0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Two tests with one id are one test to pytest-xdist, which hands tests out by id.
    (In an xdist worker an error here would only show as the controller's crash; there
    the count of tests run, `_RanCount`, tells.)"""
    if hasattr(config, "workerinput"):
        return
    counts = collections.Counter(item.nodeid for item in items)
    shared = sorted(nodeid for nodeid, count in counts.items() if count > 1)
    if shared:
        raise pytest.UsageError(f"tests share an id: {', '.join(shared)}")


class _RanCount:
    """Counts the tests that ran (under pytest-xdist, on the controller, from the workers'
    reports) and fails a run that otherwise passed with fewer than it collected: a test
    left out in silence must not look like a pass."""

    def __init__(self) -> None:
        self.ran = 0
        self.shortfall = ""

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # A test ran once its call is reported, or once its setup failed or skipped it.
        if report.when == "call" or (report.when == "setup" and not report.passed):
            self.ran += 1

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        config = session.config
        if exitstatus != pytest.ExitCode.OK or config.option.collectonly:
            return
        if hasattr(config, "workerinput"):  # an xdist worker: the controller counts
            return
        if self.ran < session.testscollected:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
            self.shortfall = f"{session.testscollected} tests collected but only {self.ran} ran"

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.shortfall:
            terminalreporter.write_line(f"FAILED: {self.shortfall}", red=True, bold=True)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_RanCount(), "ran-count")


#: scrypt with 2**10 iterations instead of werkzeug's 2**15: the same format and the same
#: check, some 30 times cheaper. Hundreds of tests make users and sign in; none tests the
#: cost of a hash.
TEST_SCRYPT = "scrypt:1024:8:1"


@pytest.fixture(scope="session", autouse=True)
def _catalogues_compiled() -> None:
    """The .mo files are build output (not committed): compile those missing or stale."""
    catalogues.compile_catalogues()


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes() -> Iterator[None]:
    def cheap(password: str, method: str = "scrypt", salt_length: int = 16) -> str:
        method = TEST_SCRYPT if method == "scrypt" else method
        return security.generate_password_hash(password, method, salt_length)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(users, "generate_password_hash", cheap)
        patch.setattr(large_demo, "generate_password_hash", cheap)
        users._dummy_password_hash.cache_clear()
        yield


@pytest.fixture(scope="session", autouse=True)
def _url_builders_compiled_once() -> Iterator[None]:
    """Werkzeug compiles a URL builder (Python code, through `ast` and `compile`) for every
    route of every app: three quarters of the cost of the app each test makes. The builder
    depends only on the rule's text, parts and defaults: compiled once, reused."""
    compiled: dict[tuple[object, ...], Callable[..., tuple[str, str]]] = {}
    original = Rule._compile_builder

    def compile_once(rule: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        defaults = tuple(sorted((key, repr(value)) for key, value in (rule.defaults or {}).items()))
        key = (rule.rule, tuple(rule._trace), defaults, append_unknown)
        if key not in compiled:
            compiled[key] = original(rule, append_unknown)
        return compiled[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Rule, "_compile_builder", compile_once)
        yield


@pytest.fixture(scope="session", autouse=True)
def _one_engine_per_test_database(database_url: str) -> Iterator[None]:
    """The apps on the session's database share one engine, as a server's requests do.

    Each test's app would make its own: new connections to PostgreSQL and an empty cache
    of compiled SQL, which a good part of the suite's time went to rebuild. On SQLite the
    shared engine holds the one in-memory database, which the `app` fixture copies a new
    schema over for every test."""
    engines: dict[str, Engine] = {}
    original = SQLAlchemy._make_engine

    def make_once(
        extension: SQLAlchemy, bind_key: str | None, options: dict[str, object], app: Flask
    ) -> Engine:
        if str(options["url"]) != database_url:
            return original(extension, bind_key, options, app)
        key = repr(sorted(options.items(), key=lambda item: item[0]))
        if key not in engines:
            engines[key] = original(extension, bind_key, options, app)
        return engines[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SQLAlchemy, "_make_engine", make_once)
        yield
    for engine in engines.values():
        engine.dispose()


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """One database per test session: on PostgreSQL a new one, dropped at the end; on
    SQLite in memory, its schema copied afresh for every test (`app`)."""
    if not ON_POSTGRES:
        yield "sqlite://"
        return
    url = create_postgres_database("league_test")
    yield url
    drop_postgres_database(url)


@pytest.fixture(scope="session")
def _postgres_schema(database_url: str) -> dict[str, bool]:
    return {"created": False}


@functools.cache
def _sqlite_schema() -> sqlite3.Connection:
    """An in-memory database with every table (`create_all`, once per session)."""
    engine = create_engine("sqlite://", poolclass=StaticPool)
    db.metadata.create_all(engine)
    return engine.raw_connection().driver_connection


def _copy_sqlite_schema() -> None:
    """The app's new in-memory database gets the tables by SQLite's page copy (the
    backup API): a fraction of the cost of `create_all` in every test."""
    connection = db.engine.raw_connection()
    try:
        _sqlite_schema().backup(connection.driver_connection)
    finally:
        connection.close()
    with db.engine.begin() as conn:  # a token of its own, as `create_all` gives
        conn.execute(update(DataRevision).values(token=new_token()))


class _CompiledTemplates(BytecodeCache):
    """Templates compiled once for every app the tests make, in memory (Jinja's bytecode
    cache; a bucket is keyed on the template and checked against its source). Each
    test's app would otherwise compile again every template it renders."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()


def make_app(database_url: str, **overrides: object) -> Flask:
    config: dict[str, object] = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
        "LEAGUE_ENV": "testing",
    }
    config.update(overrides)
    app = create_app(config)
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return app


@pytest.fixture
def app(database_url: str, _postgres_schema: dict[str, bool]) -> Iterator[Flask]:
    app = make_app(database_url)
    with app.app_context():
        if not ON_POSTGRES:
            _copy_sqlite_schema()
        elif not _postgres_schema["created"]:
            db.create_all()
            _postgres_schema["created"] = True
        yield app
        db.session.remove()
        if ON_POSTGRES:
            with db.engine.begin() as conn:
                empty_postgres_tables(conn)
                # Every id starts again from 1, as on a new database (TRUNCATE's RESTART
                # IDENTITY); setval, unlike ALTER SEQUENCE, writes no new file.
                conn.execute(
                    text("SELECT setval(oid::regclass, 1, false) FROM pg_class WHERE relkind = 'S'")
                )
                # The data revision's one row, as `create_all` makes it (a new token).
                conn.execute(insert(DataRevision).values(id=1, token=new_token()))
        # Its pooled connections closed now, not whenever the collector reaches the app.
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def empty_database_url(tmp_path) -> Iterator[str]:
    """A database with no tables at all (for migration tests)."""
    if not ON_POSTGRES:
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    url = create_postgres_database("league_empty")
    yield url
    drop_postgres_database(url)
