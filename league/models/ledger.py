"""The treasury ledger: every change of a team's gold is one row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk, one_of

if TYPE_CHECKING:
    from league.models.team import Team

ENTRY_KINDS = (
    "starting",
    "hire",
    "purchase",
    "winnings",
    "mistake",
    "correction",
    "adjustment",
    "refund",
    "prize",
    "redraft",
    "inducements",
)


class TreasuryEntry(Model):
    __tablename__ = "treasury_entry"
    __table_args__ = (CheckConstraint(one_of("kind", ENTRY_KINDS), name="kind_known"),)

    id: Mapped[intpk]
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    #: Gold pieces; negative when spent.
    amount: Mapped[int]
    kind: Mapped[str] = mapped_column(String(20))
    description: Mapped[str] = mapped_column(String(200))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    #: The match whose result this entry books (winnings, mistakes, inducements bought from
    #: the treasury, their corrections).
    match_id: Mapped[int | None] = mapped_column(ForeignKey("match.id"), index=True)
    #: The team item bought or given back (re-roll, dedicated fan, ...).
    item: Mapped[str | None] = mapped_column(String(20))
    #: The season whose prize this entry pays.
    season_id: Mapped[int | None] = mapped_column(ForeignKey("season.id"), index=True)
    created_at: Mapped[created_at]

    team: Mapped[Team] = relationship(back_populates="ledger")
