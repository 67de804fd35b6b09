"""People who use the site, and their API tokens."""

from __future__ import annotations

import secrets
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import CheckConstraint, DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.i18n.languages import LANGUAGE_CODES
from league.models.types import created_at, intpk, one_of


def new_session_secret() -> str:
    """A fresh random value for `User.session_secret` (256 bits)."""
    return secrets.token_urlsafe(32)


class User(UserMixin, Model):
    __tablename__ = "user"
    __table_args__ = (
        CheckConstraint("length(username) >= 3", name="username_length"),
        CheckConstraint(
            "language IS NULL OR " + one_of("language", LANGUAGE_CODES), name="language_known"
        ),
        CheckConstraint("naf_number IS NULL OR naf_number > 0", name="naf_number_positive"),
    )

    id: Mapped[intpk]
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[created_at]
    #: What the session and "remember me" cookies carry instead of the id (Flask-Login's
    #: alternative id): replacing it ends every session signed in with the old value.
    session_secret: Mapped[str] = mapped_column(String(64), unique=True, default=new_session_secret)
    #: The language the user reads the site in (one of league.i18n.LANGUAGES); None: the
    #: browser's, or the league's (see league.web.i18n).
    language: Mapped[str | None] = mapped_column(String(5))
    #: The coach's name and member number at the NAF (tournament entries and the NAF's
    #: results report name coaches by them); None: not a NAF member, or not told.
    naf_name: Mapped[str | None] = mapped_column(String(60))
    naf_number: Mapped[int | None]

    tokens: Mapped[list[ApiToken]] = relationship(back_populates="user")

    def get_id(self) -> str:
        """The value Flask-Login keeps in the session and remember cookies."""
        return self.session_secret

    def __repr__(self) -> str:
        return f"<User {self.username}>"


class ApiToken(Model):
    """A bearer token for the JSON API; only its SHA-256 digest is stored."""

    __tablename__ = "api_token"

    id: Mapped[intpk]
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The owner's label ("Discord bot"); tokens from before names were "cli" ones.
    name: Mapped[str] = mapped_column(String(60), server_default="cli")
    created_at: Mapped[created_at]
    #: Last authenticated request (updated at most once a minute, see services.users).
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    user: Mapped[User] = relationship(back_populates="tokens")
