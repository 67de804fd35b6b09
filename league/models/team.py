"""Teams: a coach's roster in a league, with its staff and treasury."""

from __future__ import annotations

import random
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, String, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk, one_of
from league.models.user import User
from league.rules.competitions import draw_coin_toss

if TYPE_CHECKING:
    from league.models.league import League
    from league.models.ledger import TreasuryEntry
    from league.models.player import Player

TEAM_STATUSES = ("draft", "active", "retired")
#: A tournament roster's approval: not submitted yet, submitted, approved (locked), or sent
#: back by the organiser with a note.
ROSTER_STATES = ("open", "submitted", "approved", "returned")
#: A colour is stored as "#rrggbb" (lower case), or None: the team has not chosen one.
_HEX = "{column} IS NULL OR (length({column}) = 7 AND substr({column}, 1, 1) = '#')"


class Team(Model):
    __tablename__ = "team"
    __table_args__ = (
        CheckConstraint(one_of("status", TEAM_STATUSES), name="status_known"),
        CheckConstraint("treasury >= 0", name="treasury_not_negative"),
        CheckConstraint("rerolls >= 0", name="rerolls_not_negative"),
        CheckConstraint("assistant_coaches >= 0", name="assistant_coaches_not_negative"),
        CheckConstraint("cheerleaders >= 0", name="cheerleaders_not_negative"),
        CheckConstraint("dedicated_fans >= 0", name="dedicated_fans_not_negative"),
        CheckConstraint(_HEX.format(column="primary_colour"), name="primary_colour_hex"),
        CheckConstraint(_HEX.format(column="secondary_colour"), name="secondary_colour_hex"),
        CheckConstraint("seed_rating IS NULL OR seed_rating >= 0", name="seed_rating_not_negative"),
        CheckConstraint(one_of("roster_state", ROSTER_STATES), name="roster_state_known"),
    )

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    coach_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    team_type_id: Mapped[str] = mapped_column(String(60))
    status: Mapped[str] = mapped_column(String(10), default="draft")
    #: Cache of the ledger's sum, recomputed in the same transaction as each entry.
    treasury: Mapped[int] = mapped_column(default=0)
    rerolls: Mapped[int] = mapped_column(default=0)
    assistant_coaches: Mapped[int] = mapped_column(default=0)
    cheerleaders: Mapped[int] = mapped_column(default=0)
    apothecary: Mapped[bool] = mapped_column(default=False)
    dedicated_fans: Mapped[int] = mapped_column(default=1)
    #: Champion of the last closed season: holds the League Trophy (a free
    #: team re-roll, counted in TV) until the next season closes.
    league_trophy: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: The league's division the team plays in (None: the league has no divisions, or the
    #: team is not placed yet). Divisions are just these names: fixtures are generated and
    #: standings shown per division.
    division: Mapped[str | None] = mapped_column(String(40))
    #: The team's two colours ("#rrggbb"), shown on its pages, sheets and embeds.
    primary_colour: Mapped[str | None] = mapped_column(String(7))
    secondary_colour: Mapped[str | None] = mapped_column(String(7))
    #: Tournament entries (a league run as Swiss rounds): the club or nation the team's
    #: coach plays for (pairings avoid two of one club where the league says so), the
    #: rating the organiser seeds a first round with (None: the default), the round a
    #: late entry joined before (None: entered before the first round), and when the
    #: entry dropped out (None: still playing) after how many rounds (0: withdrew before
    #: the start). A dropped team is no longer paired; its games stand.
    club: Mapped[str | None] = mapped_column(String(60))
    seed_rating: Mapped[int | None]
    entered_round: Mapped[int | None]
    dropped_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    dropped_after_round: Mapped[int | None]
    #: The team's coin toss for the tie-breaker ``coin_toss``: a number the server draws
    #: once, when the team is created (the migration drew one for older teams), and
    #: stores, so the toss is the same on every page. Bigger wins; None ranks last.
    coin_toss: Mapped[int | None] = mapped_column(
        default=lambda: draw_coin_toss(random.SystemRandom())
    )
    #: The roster's approval for the league's event (ROSTER_STATES), when it last changed,
    #: and the organiser's note when the roster was sent back.
    roster_state: Mapped[str] = mapped_column(String(10), default="open", server_default="open")
    roster_state_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    roster_note: Mapped[str | None] = mapped_column(String(500))
    #: The team's logo on disk ("<team id>-<content hash>", see league.services.logos);
    #: None: no logo. A new logo is a new key, so its address can be cached for good.
    logo_key: Mapped[str | None] = mapped_column(String(80))
    created_at: Mapped[created_at]
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: Set when its coach was removed from the league and the commissioner kept the team
    #: without a coach: only commissioners act on it until it is handed to a member (the
    #: former coach does not get it back by joining again).
    coachless_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    league: Mapped[League] = relationship(back_populates="teams")
    coach: Mapped[User] = relationship()
    players: Mapped[list[Player]] = relationship(back_populates="team", order_by="Player.number")
    ledger: Mapped[list[TreasuryEntry]] = relationship(
        back_populates="team", order_by="TreasuryEntry.id"
    )
