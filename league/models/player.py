"""Players on a team's roster, including those no longer playing (history)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import REDUCTIONS_NOT_NEGATIVE, InjuryColumns, created_at, intpk, one_of

if TYPE_CHECKING:
    from league.models.advancement import Advancement, DiceRoll
    from league.models.team import Team

#: Players taken on for one match only (the pre-game's journeymen, mercenaries and star
#: players): off the roster, in that match's report, gone from the team's books after it.
MATCH_DAY_STATUSES = ("journeyman", "mercenary", "star")
PLAYER_STATUSES = ("active", "mng", "dead", "retired", "fired", *MATCH_DAY_STATUSES)
#: Statuses of players still on the roster (they hold a shirt number and a slot).
ON_ROSTER = ("active", "mng")
_ON_ROSTER_SQL = one_of("status", ON_ROSTER)


class Player(InjuryColumns, Model):
    __tablename__ = "player"
    __table_args__ = (
        CheckConstraint(one_of("status", PLAYER_STATUSES), name="status_known"),
        CheckConstraint("number BETWEEN 1 AND 99", name="number_range"),
        CheckConstraint("spp_earned >= 0", name="spp_earned_not_negative"),
        CheckConstraint("spp_spent >= 0 AND spp_spent <= spp_earned", name="spp_balance"),
        CheckConstraint("niggling_injuries >= 0", name="niggling_not_negative"),
        CheckConstraint(REDUCTIONS_NOT_NEGATIVE, name="reductions_not_negative"),
        # One shirt number per player still on the roster; history may repeat numbers.
        Index(
            "uq_player_team_number_on_roster",
            "team_id",
            "number",
            unique=True,
            sqlite_where=text(_ON_ROSTER_SQL),
            postgresql_where=text(_ON_ROSTER_SQL),
        ),
    )

    id: Mapped[intpk]
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    position_id: Mapped[str] = mapped_column(String(60))
    name: Mapped[str] = mapped_column(String(60))
    number: Mapped[int]
    status: Mapped[str] = mapped_column(String(10), default="active")
    #: Hiring fee paid (the position's cost when hired).
    cost: Mapped[int]
    #: Caches recomputed from events (matches, advancements) by the services.
    value: Mapped[int]
    spp_earned: Mapped[int] = mapped_column(default=0)
    spp_spent: Mapped[int] = mapped_column(default=0)
    #: The match a journeyman, mercenary or star player was taken on for (a hired
    #: journeyman keeps it: where he came from).
    match_day_match_id: Mapped[int | None] = mapped_column(ForeignKey("match.id"), index=True)
    created_at: Mapped[created_at]

    team: Mapped[Team] = relationship(back_populates="players")
    advancements: Mapped[list[Advancement]] = relationship(
        back_populates="player", order_by="Advancement.id"
    )
    dice_rolls: Mapped[list[DiceRoll]] = relationship(
        back_populates="player", order_by="DiceRoll.id"
    )

    @property
    def active_advancements(self) -> list[Advancement]:
        return [a for a in self.advancements if a.undone_at is None]

    @property
    def waiting_rolls(self) -> list[DiceRoll]:
        """Server dice not used yet, oldest first (see DiceRoll)."""
        return [roll for roll in self.dice_rolls if roll.waiting]

    @property
    def pending_roll(self) -> dict[str, Any] | None:
        """The oldest waiting roll as {kind, category, dice}: the next advancement uses it."""
        waiting = self.waiting_rolls
        if not waiting:
            return None
        roll = waiting[0]
        return {"kind": roll.kind, "category": roll.category, "dice": list(roll.dice)}

    @property
    def match_day_only(self) -> bool:
        """Taken on for one match (journeyman not hired, mercenary, star player)."""
        return self.status in MATCH_DAY_STATUSES

    @property
    def on_roster(self) -> bool:
        return self.status in ON_ROSTER

    @property
    def spp_available(self) -> int:
        return self.spp_earned - self.spp_spent
