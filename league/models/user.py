"""People who use the site, and their API tokens."""

from __future__ import annotations

from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import CheckConstraint, DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import db
from league.models.types import created_at, intpk


class User(UserMixin, db.Model):
    __tablename__ = "user"
    __table_args__ = (CheckConstraint("length(username) >= 3", name="username_length"),)

    id: Mapped[intpk]
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[created_at]

    tokens: Mapped[list[ApiToken]] = relationship(back_populates="user")

    def __repr__(self) -> str:
        return f"<User {self.username}>"


class ApiToken(db.Model):
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
