"""Matches (fixtures and results) and what each player did in them.

The rows here are the truth: player and team balances (SPP, injuries, fans,
treasury) are caches that the match services recompute from them.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from league.extensions import Model
from league.models.types import created_at, intpk, one_of
from league.rules.loader import CASUALTY_CODES

if TYPE_CHECKING:
    from league.models.league import League, Season
    from league.models.player import Player
    from league.models.team import Team
    from league.models.user import User

#: "unplayed": a match its season closed without (see seasons.close_season).
MATCH_STATES = ("scheduled", "draft", "played", "voided", "unplayed")
SIDES = ("home", "away")
#: What a match may record as a player's injury: the casualty results the rules know.
INJURY_CODES = CASUALTY_CODES


class Match(Model):
    __tablename__ = "match"
    __table_args__ = (CheckConstraint(one_of("state", MATCH_STATES), name="state_known"),)

    id: Mapped[intpk]
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id"), index=True)
    season_id: Mapped[int | None] = mapped_column(ForeignKey("season.id"), index=True)
    #: Round of a generated schedule (None: a single fixture or a friendly).
    round: Mapped[int | None]
    scheduled_for: Mapped[date | None] = mapped_column(Date)
    #: When the two coaches agreed to play (a time both offered); None: not agreed yet.
    kickoff_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(10), default="scheduled", index=True)
    #: League matches count in the standings; friendlies do not.
    friendly: Mapped[bool] = mapped_column(default=False)
    #: Total fan attendance (both teams' fan factors), when entered.
    fan_attendance: Mapped[int | None]
    #: The form's one-time token: a resubmitted form records once.
    idempotency_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    #: A saved, unfinished report (form data) while state is 'draft'.
    draft_report: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    played_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    recorded_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    voided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    voided_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    #: The voided match whose fixture this one plays again (same round, same teams).
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("match.id"), unique=True)
    #: A knock-out match: its bracket, round (1 = first) and place in that round
    #: (the final is slot 0 of the last round, the third-place match slot 1).
    bracket_id: Mapped[int | None] = mapped_column(ForeignKey("playoff_bracket.id"), index=True)
    bracket_round: Mapped[int | None]
    bracket_slot: Mapped[int | None]
    #: Who went through from a drawn knock-out match (after extra time, as recorded).
    winner_team_id: Mapped[int | None] = mapped_column(ForeignKey("team.id"))
    #: Events in its live log (a cache kept by services.live_log: pages skip the query at 0).
    log_events: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[created_at]

    league: Mapped[League] = relationship()
    season: Mapped[Season | None] = relationship()
    voided_by: Mapped[User | None] = relationship(foreign_keys=[voided_by_id])
    replaces: Mapped[Match | None] = relationship(
        remote_side="Match.id", foreign_keys=[replaces_id]
    )
    sides: Mapped[list[MatchTeam]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="MatchTeam.side.desc()"
    )
    players: Mapped[list[MatchPlayer]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="MatchPlayer.id"
    )

    def side(self, side: str) -> MatchTeam:
        return next(s for s in self.sides if s.side == side)

    @property
    def home(self) -> MatchTeam:
        return self.side("home")

    @property
    def away(self) -> MatchTeam:
        return self.side("away")


class MatchTeam(Model):
    """One team's side of a match: its score and its post-game sequence."""

    __tablename__ = "match_team"
    __table_args__ = (
        UniqueConstraint("match_id", "side"),
        UniqueConstraint("match_id", "team_id"),
        CheckConstraint(one_of("side", SIDES), name="side_known"),
        CheckConstraint("score >= 0", name="score_not_negative"),
        # +1 after a win, down to -3 for a team that concedes (it loses D3).
        CheckConstraint("fans_change BETWEEN -3 AND 1", name="fans_change_range"),
    )

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    side: Mapped[str] = mapped_column(String(4))
    score: Mapped[int] = mapped_column(default=0)
    conceded: Mapped[bool] = mapped_column(default=False)
    #: Gold won, as entered or computed by the edition's formula.
    winnings: Mapped[int] = mapped_column(default=0)
    #: The commissioner typed the winnings; otherwise the formula computed them.
    winnings_entered: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: The formula's inputs besides score and attendance (classic D6 and FAME, BB2025 stalling).
    winnings_d6: Mapped[int | None]
    fame: Mapped[int] = mapped_column(default=0, server_default="0")
    stalled: Mapped[bool] = mapped_column(default=False, server_default=false())
    fans_change: Mapped[int] = mapped_column(default=0)
    #: The D3 the server rolled for a conceding team's Dedicated Fans loss (None: the
    #: table's roll was entered, or the team did not concede); a correction keeps it.
    concession_fans_roll: Mapped[int | None]
    #: Expensive Mistakes: outcome code and gold lost (0 when not triggered).
    mistake: Mapped[str | None] = mapped_column(String(20))
    mistake_loss: Mapped[int] = mapped_column(default=0)
    #: The roll behind it: the treasury it was made on, the D6 on the table, the loss
    #: roll's total and, when the server rolled it, each die; whether the server rolled the
    #: D6 (rather than the commissioner typing the table's roll). None before they were kept.
    mistake_treasury: Mapped[int | None]
    mistake_d6: Mapped[int | None]
    mistake_roll: Mapped[int | None]
    mistake_dice: Mapped[list[int] | None] = mapped_column(JSON)
    mistake_rolled: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: BB2025's MVP draw: {"nominees": [player ids], "die": 1-6, "rolled": by the server?}.
    mvp_draw: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: A conceding team's departure rolls: {"rolls": {"player id": D6, ...}, "left": [player
    #: ids], "rolled": by the server?}; a void brings those who left back.
    departures: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: When this side's coach confirmed the live log (None: not confirmed, or changed since).
    log_confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: The team's value (TV, the rules' team value as the roster page shows it) as it took
    #: the field: worked out when the result is first recorded, from the roster before the
    #: match's own effects (SPP, injuries, deaths, post-game hires). A correction keeps it (it
    #: is the value the team played with); a void takes the match off the chart with it.
    #: None for results recorded before it was kept: a past value cannot be rebuilt.
    team_value: Mapped[int | None]

    match: Mapped[Match] = relationship(back_populates="sides")
    team: Mapped[Team] = relationship()


class MatchPlayer(Model):
    """What one player did in one match (the events SPP and injuries come from)."""

    __tablename__ = "match_player"
    __table_args__ = (
        UniqueConstraint("match_id", "player_id"),
        CheckConstraint(
            "td >= 0 AND cas >= 0 AND comp >= 0 AND interceptions >= 0 AND deflection >= 0 "
            "AND throw_completion >= 0 AND safe_landing >= 0 AND mvp >= 0",
            name="counters_not_negative",
        ),
        CheckConstraint("injury IS NULL OR " + one_of("injury", INJURY_CODES), name="injury_known"),
    )

    id: Mapped[intpk]
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    td: Mapped[int] = mapped_column(default=0)
    cas: Mapped[int] = mapped_column(default=0)
    comp: Mapped[int] = mapped_column(default=0)
    interceptions: Mapped[int] = mapped_column(default=0)
    deflection: Mapped[int] = mapped_column(default=0)
    throw_completion: Mapped[int] = mapped_column(default=0)
    safe_landing: Mapped[int] = mapped_column(default=0)
    mvp: Mapped[int] = mapped_column(default=0)
    #: Indexed: the graveyard looks up the dead.
    injury: Mapped[str | None] = mapped_column(String(20), index=True)
    #: Characteristic a lasting injury reduces (ma, st, ag, pa, av).
    lasting: Mapped[str | None] = mapped_column(String(2))
    apothecary_used: Mapped[bool] = mapped_column(default=False)
    #: SPP this match gave the player (by the ruleset, recomputed with the caches).
    spp: Mapped[int] = mapped_column(default=0)

    match: Mapped[Match] = relationship(back_populates="players")
    player: Mapped[Player] = relationship()
