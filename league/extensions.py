"""Flask extensions, created unbound and initialised by the app factory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# One naming convention so Alembic names constraints alike on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
if TYPE_CHECKING:
    # mypy cannot follow `db.Model` (built at run time from Base) as a base class;
    # for the checker the tables derive from Base, which declares what they use.
    Model = Base
else:
    Model = db.Model
#: Execution option of a unit of work's connection: its transaction will write, so on SQLite
#: it takes the write lock when it begins (see `league._sqlite_begin`).
WRITES = "league_writes"
migrate = Migrate(render_as_batch=True, compare_type=True)
csrf = CSRFProtect()
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message_category = "info"
#: Translations (league/i18n.py chooses the language of each request).
babel = Babel()
