"""Opening balances of imported teams: what they brought from their previous league.

A team imported from another league (services.exchange) arrives with SPP,
injuries and dedicated fans whose match events stay behind in the league it
came from. These rows are the events that stand for that history, as the
"starting" row of the treasury ledger stands for the starting gold: the
caches on players and teams are the opening balance plus what this league's
events add (services.recompute.recompute_team), so `flask recompute --check`
holds for imported teams too.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from league.extensions import Model
from league.models.types import REDUCTIONS_NOT_NEGATIVE, InjuryColumns, created_at, one_of

#: What the player's status was when he left the previous league (fired and retired
#: players keep their status column; it is not recomputed).
OPENING_STATUSES = ("active", "mng", "dead")


class TeamOpening(Model):
    """An imported team's history: dedicated fans won or lost in its earlier matches."""

    __tablename__ = "team_opening"

    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), primary_key=True)
    #: Net change of dedicated fans from earlier matches (may be negative).
    fans_change: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[created_at]


class PlayerOpening(InjuryColumns, Model):
    """An imported player's history: SPP earned and injuries taken in earlier matches."""

    __tablename__ = "player_opening"
    __table_args__ = (
        CheckConstraint("spp >= 0", name="spp_not_negative"),
        CheckConstraint("niggling_injuries >= 0", name="niggling_not_negative"),
        CheckConstraint(REDUCTIONS_NOT_NEGATIVE, name="reductions_not_negative"),
        CheckConstraint(one_of("status", OPENING_STATUSES), name="status_known"),
    )

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    spp: Mapped[int] = mapped_column(default=0)
    #: 'dead': killed before; 'mng': misses the team's first match in this league.
    status: Mapped[str] = mapped_column(String(10), default="active")
    created_at: Mapped[created_at]
