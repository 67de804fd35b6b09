"""The off-season re-draft of a team: what its coach keeps, waiting for a commissioner."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, CheckConstraint, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk, one_of

if TYPE_CHECKING:
    from league.models.league import Season
    from league.models.team import Team

REDRAFT_STATES = ("submitted", "approved")


class Redraft(Model):
    """A team's re-draft after a closed season: one per team and season.

    The coach submits it (players kept, staff and re-rolls); a commissioner
    approves it, and only then does the team change. The budget's working is
    stored as it was when approved.
    """

    __tablename__ = "redraft"
    __table_args__ = (
        UniqueConstraint("team_id", "season_id", name="once_per_season"),
        CheckConstraint(one_of("state", REDRAFT_STATES), name="state_known"),
        CheckConstraint(
            "rerolls >= 0 AND assistant_coaches >= 0 AND cheerleaders >= 0",
            name="staff_not_negative",
        ),
    )

    id: Mapped[intpk]
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    #: The closed season this re-draft follows.
    season_id: Mapped[int] = mapped_column(ForeignKey("season.id"), index=True)
    state: Mapped[str] = mapped_column(String(10), default="submitted")
    kept_player_ids: Mapped[list[int]] = mapped_column(JSON)
    rerolls: Mapped[int]
    assistant_coaches: Mapped[int]
    cheerleaders: Mapped[int]
    apothecary: Mapped[bool]
    budget: Mapped[int]
    spent: Mapped[int]
    lost_to_cap: Mapped[int]
    #: New players hired from the roster, by position id (created on approval).
    hires: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    #: Rest and recovery rolls, made once: [{"player_id", "dice", "source": "server"|"table"}];
    #: on approval each gets "healed", the niggling injuries it took away.
    recovery: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list, server_default="[]")
    submitted_by_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    approved_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]
    approved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    team: Mapped[Team] = relationship()
    season: Mapped[Season] = relationship()
