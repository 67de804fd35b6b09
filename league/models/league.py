"""Leagues and who belongs to them."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import db
from league.models.types import created_at, intpk
from league.models.user import User

ROLES = ("commissioner", "coach")


class League(db.Model):
    __tablename__ = "league"

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(80))
    ruleset_id: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[created_at]

    members: Mapped[list[LeagueMember]] = relationship(
        back_populates="league", cascade="all, delete-orphan"
    )


class LeagueMember(db.Model):
    __tablename__ = "league_member"
    __table_args__ = (
        UniqueConstraint("league_id", "user_id"),
        CheckConstraint("role IN ('commissioner', 'coach')", name="role_known"),
    )

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[created_at]

    league: Mapped[League] = relationship(back_populates="members")
    user: Mapped[User] = relationship()
