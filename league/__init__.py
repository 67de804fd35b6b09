"""League manager for Blood Bowl: the application factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, request
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from league import config as config_module
from league import i18n, outages
from league.extensions import WRITES, babel, csrf, db, login_manager, migrate
from league.i18n.babel import FlaskBabelBackend
from league.security import configure_security

ROOT = Path(__file__).resolve().parent.parent
#: How long a SQLite transaction waits for another one's write lock before giving up.
SQLITE_BUSY_TIMEOUT_MS = 15_000


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: settings from the environment, overridden by `config`."""
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(ROOT / "instance"),
    )
    app.config.from_mapping(config_module.from_environment(Path(app.instance_path)))
    if config:
        app.config.from_mapping(config)
    if not app.config.get("SECRET_KEY"):
        raise RuntimeError(
            "SECRET_KEY is not set: export SECRET_KEY, or run `make run` once to "
            "generate a development key into instance/."
        )

    config_module.settle_discord_token_key(app.config)
    _configure_extensions(app)
    configure_security(app)
    _register_blueprints(app)
    _register_cli(app)
    return app


def _configure_extensions(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    login_manager.init_app(app)
    from league.web.i18n import select_locale

    babel.init_app(
        app,
        default_translation_directories=str(ROOT / "translations"),
        locale_selector=select_locale,
    )
    i18n.install(FlaskBabelBackend())

    from league import jobs, models  # noqa: F401  (register the mappers before first use)

    jobs.init_app(app)
    # The subscribers of the services' domain events (docs/architecture.md, "Events").
    from league.services import webhooks

    webhooks.subscribe()


@event.listens_for(Engine, "connect")
def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Per SQLite connection: foreign keys, waiting for the write lock, WAL, our transactions.

    The sqlite3 driver would open a transaction only at the first write, so a service's
    checks would read balances that another request is changing. As in SQLAlchemy's pysqlite
    recipe ("Serializable isolation / Savepoints"), the driver opens none of its own and
    `_sqlite_begin` opens every transaction.
    """
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        # Write-ahead log: pages being read never hold up a writer's commit, nor it them.
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Connection) -> None:
    """A unit of work takes SQLite's write lock at its first read (BEGIN IMMEDIATE).

    Writers then run one after another, each reading what the previous one committed: on
    SQLite that is what PostgreSQL's row locks (`with_for_update`) give. Other transactions
    (pages that only read) begin deferred and never hold the write lock.
    """
    if connection.dialect.name != "sqlite":
        return
    dbapi_connection: Any = connection.connection.dbapi_connection
    if dbapi_connection.in_transaction:
        # The in-memory database's one connection, shared by every checkout (StaticPool),
        # is already in a transaction: this checkout joins it, as the driver would.
        return
    writes = connection.get_execution_options().get(WRITES, False)
    # Straight to the driver, like the BEGIN psycopg sends by itself: not a query of the
    # page (the query counts of tests/perf stay those of PostgreSQL).
    dbapi_connection.execute("BEGIN IMMEDIATE" if writes else "BEGIN")


def _register_blueprints(app: Flask) -> None:
    from league.api import bp as api_bp
    from league.api.docs import bp as api_docs_bp
    from league.api.errors import api_error
    from league.web import error_page, register_web

    register_web(app)
    app.register_blueprint(api_bp)
    app.register_blueprint(api_docs_bp)  # /api: the API reference page
    csrf.exempt(api_bp)  # the API authenticates with bearer tokens, not cookies

    @app.errorhandler(Exception)
    def any_error(error: Exception) -> Response:
        # Errors no blueprint handled (an unknown address, a body too large): JSON under
        # /api/, a page anywhere else.
        if (unavailable := outages.as_unavailable(error)) is not None:
            app.logger.warning("503 for %s %s: %r", request.method, request.path, error)
            db.session.rollback()  # nothing partial stays in the session
            error = unavailable
        response = app.make_response(
            api_error(error) if request.path.startswith("/api/") else error_page(error)
        )
        if isinstance(error, HTTPException):
            # The error's own headers: Retry-After of a 503, Allow of a 405.
            for name, value in error.get_headers():
                if name.lower() != "content-type":
                    response.headers[name] = value
        return response


def _register_cli(app: Flask) -> None:
    from league.cli import register_cli

    register_cli(app)
