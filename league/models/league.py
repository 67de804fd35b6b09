"""Leagues, who belongs to them, and their seasons."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    ForeignKey,
    String,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.i18n.languages import DEFAULT_LANGUAGE, LANGUAGE_CODES
from league.models.types import created_at, intpk, one_of
from league.models.user import User

# The tie-breakers a league may pick are a rule, decided in league.rules; the column
# below defaults to them, and callers may still import them from here.
from league.rules.competitions import DEFAULT_TIE_BREAKERS as DEFAULT_TIE_BREAKERS
from league.rules.competitions import TIE_BREAKERS as TIE_BREAKERS
from league.rules.pairing import FIRST_ROUNDS

if TYPE_CHECKING:
    from league.models.team import Team

ROLES = ("commissioner", "coach")

#: Paper sizes a league may print its roster sheets on (A4 first: the default).
PAPER_SIZES = ("a4", "letter")


class League(Model):
    __tablename__ = "league"
    __table_args__ = (
        CheckConstraint("starting_treasury >= 0", name="starting_treasury_not_negative"),
        CheckConstraint(one_of("paper_size", PAPER_SIZES), name="paper_size_known"),
        CheckConstraint(one_of("pairing_first_round", FIRST_ROUNDS), name="first_round_known"),
        CheckConstraint(one_of("default_language", LANGUAGE_CODES), name="default_language_known"),
    )

    id: Mapped[intpk]
    name: Mapped[str] = mapped_column(String(80))
    ruleset_id: Mapped[str] = mapped_column(String(40))
    starting_treasury: Mapped[int] = mapped_column(default=1_000_000)
    points_win: Mapped[int] = mapped_column(default=3)
    points_draw: Mapped[int] = mapped_column(default=1)
    points_loss: Mapped[int] = mapped_column(default=0)
    tie_breakers: Mapped[list[str]] = mapped_column(
        JSON, default=lambda: list(DEFAULT_TIE_BREAKERS)
    )
    #: House-rule overrides merged over the ruleset (see league.rules.merge_house_rules).
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: Coaches may enter dice rolled at the table (else the server rolls every die).
    table_dice_allowed: Mapped[bool] = mapped_column(default=False)
    #: A match's live log confirmed by both coaches finalises its result (else a commissioner).
    log_finalises: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: Swiss pairings: avoid pairing two entries of one club or nation where a pairing
    #: without can be found (rematches are avoided first), and how the first round is
    #: paired: one of FIRST_ROUNDS ("random", seeded by "rating", or "manual").
    pairing_avoid_same_club: Mapped[bool] = mapped_column(default=True, server_default=true())
    pairing_first_round: Mapped[str] = mapped_column(
        String(10), default="random", server_default="random"
    )
    #: Paper the roster sheets print on by default: one of PAPER_SIZES.
    paper_size: Mapped[str] = mapped_column(String(10), default="a4", server_default="a4")
    #: The league's language: its pages for visitors who chose none, its roster pack,
    #: webhook messages and calendar (one of league.i18n.LANGUAGES).
    default_language: Mapped[str] = mapped_column(
        String(5), default=DEFAULT_LANGUAGE, server_default=DEFAULT_LANGUAGE
    )
    #: Secret part of the join link; a new one invalidates old links.
    #: Tournament day: coaches submit their rosters by `roster_deadline`; after
    #: `correction_deadline` a coach can no longer change a roster that is not approved
    #: (docs/tournaments.md, "Roster submission and approval"). None: no such deadline.
    roster_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    correction_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    join_token: Mapped[str] = mapped_column(String(64), unique=True)
    #: The league's owner: its creator, or the commissioner the owner handed it to. Always
    #: a commissioner; nobody removes the owner (see services.leagues.remove_member).
    owner_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    created_at: Mapped[created_at]

    members: Mapped[list[LeagueMember]] = relationship(
        # In the order they joined: pages and the API list them the same way on every store.
        back_populates="league",
        cascade="all, delete-orphan",
        order_by="LeagueMember.id",
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="league", order_by="Season.number", cascade="all, delete-orphan"
    )
    teams: Mapped[list[Team]] = relationship(back_populates="league", order_by="Team.name")

    @property
    def current_season(self) -> Season | None:
        return next((s for s in reversed(self.seasons) if s.closed_at is None), None)


class LeagueMember(Model):
    __tablename__ = "league_member"
    __table_args__ = (
        UniqueConstraint("league_id", "user_id"),
        CheckConstraint(one_of("role", ROLES), name="role_known"),
    )

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    role: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[created_at]
    #: A removed coach keeps the row (their teams stay in the league's history).
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    league: Mapped[League] = relationship(back_populates="members")
    user: Mapped[User] = relationship()


class Season(Model):
    __tablename__ = "season"
    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    number: Mapped[int]
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[created_at]
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: How its league fixtures were first scheduled: "round_robin" (generated) or "swiss"
    #: (paired round by round); None until then, or with fixtures added by hand only.
    schedule: Mapped[str | None] = mapped_column(String(12))
    #: The first of the final table when the season closed (None: open, or closed before
    #: champions were kept); the records' famous teams name it.
    champion_team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id"), index=True)

    league: Mapped[League] = relationship(back_populates="seasons")
