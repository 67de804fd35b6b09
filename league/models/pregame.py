"""A match's pre-game, per side: journeymen, inducements, star players, mercenaries.

What each side chose and what it cost is stored as the rules priced it when the
side was saved (`league.services.pregame`); petty cash never touches the treasury.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.match import SIDES
from league.models.types import intpk, one_of, utcnow

if TYPE_CHECKING:
    from league.models.match import Match
    from league.models.team import Team
    from league.models.user import User

PREGAME_ITEM_KINDS = ("journeyman", "inducement", "star", "mercenary")


class PregameSide(Model):
    """One team's side of a match's pre-game."""

    __tablename__ = "pregame_side"
    __table_args__ = (
        UniqueConstraint("match_id", "side"),
        CheckConstraint(one_of("side", SIDES), name="side_known"),
        CheckConstraint(
            "ctv >= 0 AND petty_cash >= 0 AND treasury_spent >= 0 AND total >= 0",
            name="gold_not_negative",
        ),
    )

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    side: Mapped[str] = mapped_column(String(4))
    #: CTV with the journeymen, when the side was saved.
    ctv: Mapped[int] = mapped_column(default=0)
    petty_cash: Mapped[int] = mapped_column(default=0)
    #: What the treasury pays: the total less the petty cash used.
    treasury_spent: Mapped[int] = mapped_column(default=0)
    #: Gold of every inducement, star and mercenary chosen.
    total: Mapped[int] = mapped_column(default=0)
    updated_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )

    match: Mapped[Match] = relationship()
    team: Mapped[Team] = relationship()
    updated_by: Mapped[User | None] = relationship()
    items: Mapped[list[PregameItem]] = relationship(
        back_populates="pregame_side", cascade="all, delete-orphan", order_by="PregameItem.id"
    )


class PregameItem(Model):
    """One choice of a side: a journeyman, an inducement (with a count), a star, a mercenary."""

    __tablename__ = "pregame_item"
    __table_args__ = (
        CheckConstraint(one_of("kind", PREGAME_ITEM_KINDS), name="kind_known"),
        CheckConstraint("count >= 1 AND cost >= 0", name="count_and_cost"),
    )

    id: Mapped[intpk]
    pregame_side_id: Mapped[int] = mapped_column(ForeignKey("pregame_side.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))
    #: Position id (journeyman, mercenary), inducement id, or star / pair id.
    ref: Mapped[str] = mapped_column(String(60))
    count: Mapped[int] = mapped_column(default=1)
    #: A mercenary's extra skill.
    skill: Mapped[str | None] = mapped_column(String(60))
    #: Gold for all `count` of them (0 for journeymen: they are free to field).
    cost: Mapped[int] = mapped_column(default=0)

    pregame_side: Mapped[PregameSide] = relationship(back_populates="items")
