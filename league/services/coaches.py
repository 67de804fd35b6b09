"""A coach's profile (read side): their teams in every league here, their record and
their ratings (`league.services.ratings`, the NAF ranking formula).

The record counts the games the rating counts: every played match (voided ones are
not), with the outcome the standings use; a team's matches count for its coach now.
Four queries: the user, their teams, the played games, the casualties of their teams.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session, joinedload

from league.i18n import gettext
from league.models import Match, MatchPlayer, Team, User
from league.services.errors import NotFound
from league.services.ratings import Game, Ratings, played_games, ratings_of


@dataclass(slots=True)
class Record:
    """Won, drawn and lost, touchdowns and casualties for and against."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    td_for: int = 0
    td_against: int = 0
    cas_for: int = 0
    cas_against: int = 0

    def add(self, other: Record) -> None:
        for name in Record.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass(frozen=True, slots=True)
class CoachTeam:
    team_id: int
    team_name: str
    team_type_id: str
    status: str
    league_id: int
    league_name: str
    record: Record


@dataclass(frozen=True, slots=True)
class LeagueRating:
    league_id: int
    league_name: str
    rating: float
    #: The K the league's games move ratings by (NAF ranking formula).
    k: float


@dataclass(frozen=True, slots=True)
class CoachProfile:
    user_id: int
    username: str
    naf_name: str | None
    teams: tuple[CoachTeam, ...]
    record: Record
    #: Site-wide rating (NAF ranking formula).
    rating: float
    rated_games: int
    league_ratings: tuple[LeagueRating, ...]


def get_coach(session: Session, username: str) -> User:
    user = session.scalar(select(User).where(User.username == username))
    if user is None:
        raise NotFound(gettext("There is no coach called %(name)s.", name=username))
    return user


def _team_records(
    games: list[Game], team_ids: set[int], casualties: dict[tuple[int, int], int]
) -> dict[int, Record]:
    """Each of the coach's teams' record from the played games."""
    records: dict[int, Record] = defaultdict(Record)
    for game in games:
        for own_id, other_id, own, other in (
            (game.home_team_id, game.away_team_id, game.home, game.away),
            (game.away_team_id, game.home_team_id, game.away, game.home),
        ):
            if own_id not in team_ids:
                continue
            record = records[own_id]
            result = game.home_result if own_id == game.home_team_id else _flip(game.home_result)
            record.played += 1
            setattr(record, result, getattr(record, result) + 1)
            record.td_for += own.score
            record.td_against += other.score
            record.cas_for += casualties.get((game.match_id, own_id), 0)
            record.cas_against += casualties.get((game.match_id, other_id), 0)
    return records


def _flip(result: str) -> str:
    return {"won": "lost", "lost": "won"}.get(result, result)


def _casualties(session: Session, team_ids: set[int]) -> dict[tuple[int, int], int]:
    """Casualties caused per (match, team) in the played matches of the coach's teams."""
    own_matches = select(MatchPlayer.match_id).where(MatchPlayer.team_id.in_(team_ids))
    rows = session.execute(
        select(MatchPlayer.match_id, MatchPlayer.team_id, func.sum(MatchPlayer.cas))
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(Match.state == "played", MatchPlayer.match_id.in_(own_matches))
        .group_by(MatchPlayer.match_id, MatchPlayer.team_id)
    )
    return {(match_id, team_id): int(total or 0) for match_id, team_id, total in rows}


def coach_profile(session: Session, username: str) -> CoachProfile:
    """The coach's teams, record and ratings; NotFound for a username nobody has."""
    user = get_coach(session, username)
    teams = session.scalars(
        select(Team)
        .where(Team.coach_id == user.id)
        .options(joinedload(Team.league))
        .order_by(Team.created_at, Team.id)
    ).all()
    games = played_games(session)
    ratings: Ratings = ratings_of(games)
    team_ids = {team.id for team in teams}
    casualties = _casualties(session, team_ids) if team_ids else {}
    records = _team_records(games, team_ids, casualties)
    total = Record()
    coach_teams = []
    for team in teams:
        record = records.get(team.id, Record())
        total.add(record)
        coach_teams.append(
            CoachTeam(
                team.id,
                team.name,
                team.team_type_id,
                team.status,
                team.league_id,
                team.league.name,
                record,
            )
        )
    leagues = {team.league_id: team.league.name for team in teams}
    return CoachProfile(
        user_id=user.id,
        username=user.username,
        naf_name=user.naf_name,
        teams=tuple(coach_teams),
        record=total,
        rating=ratings.of(user.id),
        rated_games=ratings.games.get(user.id, 0),
        league_ratings=tuple(
            LeagueRating(
                league_id, name, ratings.of(user.id, league_id), ratings.k.get(league_id, 0.0)
            )
            for league_id, name in sorted(leagues.items(), key=lambda item: item[1])
        ),
    )
