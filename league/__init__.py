"""League manager for Blood Bowl: the application factory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine

from league import config as config_module
from league.extensions import csrf, db, login_manager, migrate
from league.security import configure_security

ROOT = Path(__file__).resolve().parent.parent


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

    from league import models  # noqa: F401  (register the mappers before first use)


@event.listens_for(Engine, "connect")
def _sqlite_foreign_keys(dbapi_connection: Any, _record: Any) -> None:
    """SQLite leaves foreign keys unenforced unless asked, per connection."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def _register_blueprints(app: Flask) -> None:
    from league.api import bp as api_bp
    from league.api.docs import bp as api_docs_bp
    from league.web import register_web

    register_web(app)
    app.register_blueprint(api_bp)
    app.register_blueprint(api_docs_bp)  # /api: the API reference page
    csrf.exempt(api_bp)  # the API authenticates with bearer tokens, not cookies


def _register_cli(app: Flask) -> None:
    from league.cli import register_cli

    register_cli(app)
