"""A season's knock-out bracket; its matches are fixtures carrying their place in it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk

if TYPE_CHECKING:
    from league.models.league import Season


class PlayoffBracket(Model):
    """One per season: `size` teams seeded from the table, with a third-place match."""

    __tablename__ = "playoff_bracket"
    __table_args__ = (CheckConstraint("size IN (4, 8, 16)", name="size_known"),)

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("season.id"), unique=True)
    size: Mapped[int]
    third_place_match: Mapped[bool]
    created_by_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]

    season: Mapped[Season] = relationship()
