"""The commissioner's to-do list: what in the league waits for somebody to act.

Four kinds of item: match reports saved as drafts (a commissioner finalises
them), re-drafts submitted and not approved, pre-games where one side has chosen
and the other not, and fixtures whose date has passed without a result. Beside
them, where finding a time stands for the fixtures of the coming week (agreed,
offered by one team at least, or silent). They come in one statement (the league
page's query budget, tests/perf).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Select, and_, case, exists, func, literal, null, or_, select, union_all
from sqlalchemy.orm import Session, aliased

from league.models import (
    FixtureSlot,
    League,
    Match,
    MatchTeam,
    PregameSide,
    Redraft,
    Team,
    User,
)
from league.models.types import utcnow
from league.services.access import require_commissioner


@dataclass(frozen=True, slots=True)
class MatchItem:
    """A match that waits: its id, the two teams' names, and its date."""

    match_id: int
    home: str
    away: str
    scheduled_for: date | None


@dataclass(frozen=True, slots=True)
class WaitingPregame:
    match: MatchItem
    #: The name of the team that has not chosen yet.
    waiting_for: str


@dataclass(frozen=True, slots=True)
class WaitingRedraft:
    team_id: int
    team: str


#: How far ahead the list shows where finding a time stands.
COMING_DAYS = timedelta(days=7)
#: Where finding a time stands: a time accepted, times offered, nothing offered yet.
TIME_STATES = ("agreed", "offered", "silent")


@dataclass(frozen=True, slots=True)
class FixtureTime:
    match: MatchItem
    #: One of TIME_STATES.
    state: str


@dataclass(frozen=True, slots=True)
class TodoList:
    reports_to_finalise: list[MatchItem]
    redrafts_to_approve: list[WaitingRedraft]
    pregames_waiting: list[WaitingPregame]
    overdue_fixtures: list[MatchItem]
    #: The coming week's fixtures and where finding their time stands (not a to-do of
    #: the commissioner's: `empty` leaves it out).
    fixture_times: list[FixtureTime] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.reports_to_finalise
            or self.redrafts_to_approve
            or self.pregames_waiting
            or self.overdue_fixtures
        )


def _fixture_times(league: League, today: date, aliases: tuple[Any, Any, Any, Any]) -> Select[Any]:
    """The coming week's fixtures, in the to-do statement's columns, with where finding
    their time stands."""
    home, away, home_team, away_team = aliases
    agreed = exists().where(FixtureSlot.match_id == Match.id, FixtureSlot.accepted_at.is_not(None))
    offered = exists().where(FixtureSlot.match_id == Match.id)
    return (
        select(
            literal("time"),
            Match.id,
            home_team.name,
            away_team.name,
            Match.scheduled_for,
            case((agreed, "agreed"), (offered, "offered"), else_="silent"),
            Match.round,
        )
        .join(home, and_(home.match_id == Match.id, home.side == "home"))
        .join(home_team, home_team.id == home.team_id)
        .join(away, and_(away.match_id == Match.id, away.side == "away"))
        .join(away_team, away_team.id == away.team_id)
        .where(
            Match.league_id == league.id,
            Match.state == "scheduled",
            Match.scheduled_for >= today,
            Match.scheduled_for <= today + COMING_DAYS,
        )
    )


def commissioner_todo(
    session: Session, actor: User, league: League, today: date | None = None
) -> TodoList:
    """What waits in `league` (commissioner only); `today` decides which fixtures are overdue
    (the server's date in UTC unless a test passes one)."""
    require_commissioner(league, actor)
    today = today or utcnow().date()
    home, away = aliased(MatchTeam), aliased(MatchTeam)
    home_team, away_team = aliased(Team), aliased(Team)
    chosen = select(func.count()).where(PregameSide.match_id == Match.id).scalar_subquery()
    home_chosen = exists().where(PregameSide.match_id == Match.id, PregameSide.side == "home")
    overdue = and_(Match.state == "scheduled", Match.scheduled_for < today)
    half_chosen = and_(Match.state == "scheduled", chosen == 1)
    matches = (
        select(
            case(
                (Match.state == "draft", "report"),
                (half_chosen, "pregame"),
                else_="overdue",
            ).label("kind"),
            Match.id,
            home_team.name,
            away_team.name,
            Match.scheduled_for,
            # The pre-game waits for the side that has not chosen.
            case((home_chosen, away_team.name), else_=home_team.name),
            Match.round,
        )
        .join(home, and_(home.match_id == Match.id, home.side == "home"))
        .join(home_team, home_team.id == home.team_id)
        .join(away, and_(away.match_id == Match.id, away.side == "away"))
        .join(away_team, away_team.id == away.team_id)
        .where(Match.league_id == league.id, or_(Match.state == "draft", overdue, half_chosen))
    )
    times = _fixture_times(league, today, (home, away, home_team, away_team))
    redrafts = (
        select(
            literal("redraft"),
            Team.id,
            Team.name,
            null(),
            null(),
            null(),
            null(),
        )
        .join(Redraft, Redraft.team_id == Team.id)
        .where(Team.league_id == league.id, Redraft.state == "submitted")
    )
    rows = sorted(
        session.execute(union_all(matches, times, redrafts)).all(),
        key=lambda r: (r[4] is None, r[4] or date.min, r[6] or 0, r[1]),
    )
    todo = TodoList([], [], [], [])
    for kind, ident, first, second, day, waiting, _round in rows:
        if kind == "redraft":
            todo.redrafts_to_approve.append(WaitingRedraft(ident, first))
            continue
        item = MatchItem(ident, first, second, day)
        if kind == "time":
            todo.fixture_times.append(FixtureTime(item, waiting))
        elif kind == "report":
            todo.reports_to_finalise.append(item)
        elif kind == "pregame":
            todo.pregames_waiting.append(WaitingPregame(item, waiting))
            if day is not None and day < today:  # waiting for a side, and late as well
                todo.overdue_fixtures.append(item)
        else:
            todo.overdue_fixtures.append(item)
    return todo
