"""The commissioner's to-do list: what in the league waits for somebody to act.

Four kinds of item, each a query over the league: match reports saved as drafts
(a commissioner finalises them), re-drafts submitted and not approved, pre-games
where one side has chosen and the other not, and fixtures whose date has passed
without a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from league.models import League, Match, MatchTeam, PregameSide, Redraft, Team, User
from league.models.types import utcnow
from league.services.leagues import require_commissioner


@dataclass(frozen=True, slots=True)
class WaitingPregame:
    match: Match
    #: The side that has not chosen yet.
    waiting_for: Team


@dataclass(frozen=True, slots=True)
class TodoList:
    reports_to_finalise: list[Match]
    redrafts_to_approve: list[Redraft]
    pregames_waiting: list[WaitingPregame]
    overdue_fixtures: list[Match]

    @property
    def empty(self) -> bool:
        return not (
            self.reports_to_finalise
            or self.redrafts_to_approve
            or self.pregames_waiting
            or self.overdue_fixtures
        )


def _matches(session: Session, league: League, *criteria: object) -> list[Match]:
    query = (
        select(Match)
        .where(Match.league_id == league.id, *criteria)  # type: ignore[arg-type]
        .options(selectinload(Match.sides).selectinload(MatchTeam.team))
        .order_by(Match.scheduled_for.is_(None), Match.scheduled_for, Match.round, Match.id)
    )
    return list(session.scalars(query))


def commissioner_todo(
    session: Session, actor: User, league: League, today: date | None = None
) -> TodoList:
    """What waits in `league` (commissioner only); `today` decides which fixtures are overdue
    (the server's date in UTC unless a test passes one)."""
    require_commissioner(league, actor)
    today = today or utcnow().date()
    reports = _matches(session, league, Match.state == "draft")
    overdue = _matches(session, league, Match.state == "scheduled", Match.scheduled_for < today)
    redrafts = list(
        session.scalars(
            select(Redraft)
            .join(Team, Team.id == Redraft.team_id)
            .where(Team.league_id == league.id, Redraft.state == "submitted")
            .options(selectinload(Redraft.team))
            .order_by(Redraft.created_at)
        )
    )
    # Scheduled matches where exactly one of the two sides has saved its pre-game.
    half_chosen = (
        select(PregameSide.match_id)
        .join(Match, Match.id == PregameSide.match_id)
        .where(Match.league_id == league.id, Match.state == "scheduled")
        .group_by(PregameSide.match_id)
        .having(func.count() == 1)
    )
    waiting = []
    for match in _matches(session, league, Match.id.in_(half_chosen)):
        chosen = set(
            session.scalars(select(PregameSide.side).where(PregameSide.match_id == match.id))
        )
        for side in match.sides:
            if side.side not in chosen:
                waiting.append(WaitingPregame(match=match, waiting_for=side.team))
    return TodoList(
        reports_to_finalise=reports,
        redrafts_to_approve=redrafts,
        pregames_waiting=waiting,
        overdue_fixtures=overdue,
    )
