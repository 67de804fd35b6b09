"""Advancements a player took, and the skills he gained by them."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import JSON, CheckConstraint, DateTime, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk

if TYPE_CHECKING:
    from league.models.player import Player

_ACTIVE = "undone_at IS NULL"


class Advancement(Model):
    """One advancement: what was bought, for how many SPP, with which dice, by whom.

    Undoing keeps the row (undone_at set) so the history stays complete.
    """

    __tablename__ = "advancement"
    __table_args__ = (
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("spp_cost >= 0", name="spp_cost_not_negative"),
        CheckConstraint("value_increase >= 0", name="value_increase_not_negative"),
        CheckConstraint("skill IS NOT NULL OR characteristic IS NOT NULL", name="gains_something"),
        # Two concurrent purchases cannot both become a player's Nth advancement.
        Index(
            "uq_advancement_player_number_active",
            "player_id",
            "number",
            unique=True,
            sqlite_where=text(_ACTIVE),
            postgresql_where=text(_ACTIVE),
        ),
    )

    id: Mapped[intpk]
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    #: 1-based: the player's first, second, ... advancement.
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(30))
    spp_cost: Mapped[int]
    skill: Mapped[str | None] = mapped_column(String(60))
    characteristic: Mapped[str | None] = mapped_column(String(2))
    category: Mapped[str | None] = mapped_column(String(2))
    #: The dice behind a random result, and who rolled them ("server" or "table").
    dice: Mapped[list[int] | None] = mapped_column(JSON)
    dice_source: Mapped[str | None] = mapped_column(String(6))
    #: The server's roll these dice come from (in the player's dice log).
    dice_roll_id: Mapped[int | None] = mapped_column(ForeignKey("dice_roll.id"), index=True)
    value_increase: Mapped[int]
    by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    player: Mapped[Player] = relationship(back_populates="advancements")
    dice_roll: Mapped[DiceRoll | None] = relationship(back_populates="uses")


class DiceRoll(Model):
    """Dice the server rolled for one of a player's advancements: his dice log.

    A roll is made once. It waits while no active advancement uses it (the coach
    still has to choose, or the advancement that used it was undone); the next
    advancement of that kind takes these dice instead of rolling new ones.
    """

    __tablename__ = "dice_roll"

    id: Mapped[intpk]
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    #: The advancement kind (and skill category) the dice were rolled for.
    kind: Mapped[str] = mapped_column(String(30))
    category: Mapped[str | None] = mapped_column(String(2))
    dice: Mapped[list[int]] = mapped_column(JSON)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]
    #: Set when the rules void a kept roll (a random skill the player may no longer take).
    void_reason: Mapped[str | None] = mapped_column(String(120))

    player: Mapped[Player] = relationship(back_populates="dice_rolls")
    #: Every advancement that used these dice, the undone ones included. Loaded with the
    #: rolls, in their own query (a join: a roll has one use or two): the player page reads
    #: it for each roll.
    uses: Mapped[list[Advancement]] = relationship(
        back_populates="dice_roll", order_by="Advancement.id", lazy="joined"
    )

    @property
    def waiting(self) -> bool:
        """Not voided and used by no active advancement: the next one of its kind takes it."""
        return self.void_reason is None and all(a.undone_at is not None for a in self.uses)


class PlayerSkill(Model):
    """A skill gained by an advancement; the unique key forbids holding it twice."""

    __tablename__ = "player_skill"
    __table_args__ = (
        CheckConstraint("source IN ('starting', 'advancement')", name="source_known"),
    )

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    skill: Mapped[str] = mapped_column(String(60), primary_key=True)
    source: Mapped[str] = mapped_column(String(12), default="advancement")
    advancement_id: Mapped[int | None] = mapped_column(ForeignKey("advancement.id"), index=True)
