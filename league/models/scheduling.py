"""Finding a time to play: the times each coach offers for a fixture, and the reminders
sent about fixtures (once each)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk, one_of
from league.rules.scheduling import REMINDER_KINDS

if TYPE_CHECKING:
    from league.models.user import User


class TimeSlot(Model):
    """A time one side of a fixture offers to play at (up to the rules' number per side)."""

    __tablename__ = "time_slot"
    __table_args__ = (
        UniqueConstraint("match_id", "side", "starts_at"),
        CheckConstraint(one_of("side", ("home", "away")), name="side_known"),
    )

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    side: Mapped[str] = mapped_column(String(4))
    #: In UTC; pages show it in the reader's time zone as the browser reports it.
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    offered_by_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]

    offered_by: Mapped[User] = relationship()


class ReminderSent(Model):
    """A reminder about a fixture that went out: the unique key makes it go out once, however
    many workers look at the same moment."""

    __tablename__ = "reminder_sent"
    __table_args__ = (
        UniqueConstraint("match_id", "kind"),
        CheckConstraint(one_of("kind", REMINDER_KINDS), name="kind_known"),
    )

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[created_at]
