"""Times a fixture's coaches offer to play it: up to three a team; the earliest both offer
is proposed, and accepting it dates the fixture."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from league.extensions import Model
from league.models.types import created_at, intpk


class FixtureSlot(Model):
    __tablename__ = "fixture_slot"
    __table_args__ = (UniqueConstraint("match_id", "team_id", "starts_at"),)

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    #: When the match would start (UTC).
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Set on both teams' slot at that time once a coach accepts it.
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[created_at]
