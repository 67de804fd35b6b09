"""Swiss tournaments: the byes handed out round by round.

The rounds themselves are ordinary fixtures (``Match.round``); a bye has no
match, so it is kept here, and the standings count it as the ruleset's
``[season.tournament]`` data says (a win by default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk

if TYPE_CHECKING:
    from league.models.team import Team


class SwissBye(Model):
    """The team that sat out one round of a season (an odd number of teams)."""

    __tablename__ = "swiss_bye"
    __table_args__ = (UniqueConstraint("season_id", "round"),)

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("season.id"), index=True)
    round: Mapped[int]
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]

    team: Mapped[Team] = relationship()
