"""The live match log: events the two coaches log while the match is played.

Each event carries the id its phone made (`client_id`, unique per match), so a retry
after a lost answer stores it once. The log builds the match's report; the report's
rows (MatchTeam, MatchPlayer) stay the truth once the result is final.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.match import INJURY_CODES, SIDES
from league.models.types import created_at, intpk, one_of
from league.rules.live_log import LOG_KINDS

if TYPE_CHECKING:
    from league.models.match import Match
    from league.models.player import Player
    from league.models.user import User


class MatchLogEvent(Model):
    """One event of a match as a coach logged it (half 3: overtime)."""

    __tablename__ = "match_log_event"
    __table_args__ = (
        UniqueConstraint("match_id", "client_id"),
        CheckConstraint(one_of("side", SIDES), name="side_known"),
        CheckConstraint(one_of("kind", LOG_KINDS), name="kind_known"),
        CheckConstraint("injury IS NULL OR " + one_of("injury", INJURY_CODES), name="injury_known"),
        CheckConstraint("half BETWEEN 1 AND 3", name="half_range"),
        CheckConstraint("turn BETWEEN 1 AND 8", name="turn_range"),
    )

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    #: The id the phone made for the event (8 to 64 characters).
    client_id: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(4))
    kind: Mapped[str] = mapped_column(String(20))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    #: A casualty's victim (a player of the other side).
    victim_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    injury: Mapped[str | None] = mapped_column(String(20))
    lasting: Mapped[str | None] = mapped_column(String(2))
    #: The server rolled the injury (league without table dice): the dice it rolled.
    dice: Mapped[list[int] | None] = mapped_column(JSON)
    half: Mapped[int]
    turn: Mapped[int]
    disputed: Mapped[bool] = mapped_column(default=False, server_default=false())
    logged_by_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]

    match: Mapped[Match] = relationship()
    player: Mapped[Player | None] = relationship(foreign_keys=[player_id])
    victim: Mapped[Player | None] = relationship(foreign_keys=[victim_id])
    logged_by: Mapped[User] = relationship()

    @property
    def rolled(self) -> bool:
        return self.dice is not None
