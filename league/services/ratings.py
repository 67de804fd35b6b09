"""Coach ratings (read side): the NAF ranking formula over the results stored here.

Nothing is stored: the ratings are worked out from the played matches every time they
are asked for, so a voided match (its state is no longer 'played') or a corrected
score (the match row holds the result as it now stands) changes them at once.

- The games: every played match of a league (league, friendly and play-off matches
  alike: each is a game between two coaches), in the order they were played
  (`played_at`, then the match's id). A match between two teams of the same coach
  rates nobody. A team's matches count for the coach who coaches it now.
- Who won: `league.rules.competitions.outcome`, the one the standings use, so a
  team that concedes loses whatever the score.
- The competition: a league. Its K counts the coaches who played a rated game in it
  (NAF ranking formula: 2 x sqrt(min(coaches, 32))).
- Site-wide: every rated game of every league, in the order played, each moving the
  ratings by its own league's K, as the NAF's ranking takes each game with the K of the
  event it was played at.

docs/ratings.md says the same for the people who read the ratings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, and_, func, select
from sqlalchemy.orm import Session, aliased

from league.models import Match, MatchTeam, Team, User
from league.rules.competitions import SideResult, outcome
from league.rules.ratings import STARTING_RATING, RatedGame, k_factor, rate


@dataclass(frozen=True, slots=True)
class Game:
    """One played match between two coaches, home side first."""

    match_id: int
    league_id: int
    home_team_id: int
    away_team_id: int
    home_coach_id: int
    away_coach_id: int
    home: SideResult
    away: SideResult
    home_coach: str = ""
    away_coach: str = ""

    @property
    def home_result(self) -> str:
        """'won', 'drawn' or 'lost' for the home side (the standings' outcome)."""
        return outcome(self.home, self.away)


@dataclass(frozen=True, slots=True)
class Ratings:
    """Every coach's rating site-wide and per league, and how many games made it."""

    site: dict[int, float] = field(default_factory=dict)
    #: league id -> coach id -> rating in that league.
    leagues: dict[int, dict[int, float]] = field(default_factory=dict)
    #: league id -> the K its games move ratings by.
    k: dict[int, float] = field(default_factory=dict)
    #: coach id -> rated games site-wide.
    games: dict[int, int] = field(default_factory=dict)
    #: coach id -> username, for the coaches who played.
    usernames: dict[int, str] = field(default_factory=dict)

    def of(self, coach_id: int, league_id: int | None = None) -> float:
        """The coach's rating (site-wide, or in one league); the starting rating unplayed."""
        table = self.site if league_id is None else self.leagues.get(league_id, {})
        return table.get(coach_id, STARTING_RATING)


def _games_query() -> Select[Any]:
    home, away = aliased(MatchTeam), aliased(MatchTeam)
    home_team, away_team = aliased(Team), aliased(Team)
    home_user, away_user = aliased(User), aliased(User)
    return (
        select(
            Match.id,
            Match.league_id,
            home.team_id,
            away.team_id,
            home_team.coach_id,
            away_team.coach_id,
            home.score,
            home.conceded,
            away.score,
            away.conceded,
            home_user.username,
            away_user.username,
        )
        .select_from(Match)
        .join(home, and_(home.match_id == Match.id, home.side == "home"))
        .join(away, and_(away.match_id == Match.id, away.side == "away"))
        .join(home_team, home_team.id == home.team_id)
        .join(away_team, away_team.id == away.team_id)
        .join(home_user, home_user.id == home_team.coach_id)
        .join(away_user, away_user.id == away_team.coach_id)
        .where(Match.state == "played")
        .order_by(func.coalesce(Match.played_at, Match.created_at), Match.id)
    )


def played_games(session: Session, league_id: int | None = None) -> list[Game]:
    """The played matches between two coaches (of one league, or all), in order played."""
    query = _games_query()
    if league_id is not None:
        query = query.where(Match.league_id == league_id)
    return [
        Game(
            match_id,
            league,
            home_team,
            away_team,
            home_coach,
            away_coach,
            SideResult(int(home_score), bool(home_conceded)),
            SideResult(int(away_score), bool(away_conceded)),
            home_name,
            away_name,
        )
        for (
            match_id,
            league,
            home_team,
            away_team,
            home_coach,
            away_coach,
            home_score,
            home_conceded,
            away_score,
            away_conceded,
            home_name,
            away_name,
        ) in session.execute(query)
        if home_coach != away_coach
    ]


def ratings_of(games: Sequence[Game]) -> Ratings:
    """The ratings the `games` (in the order played) give, site-wide and per league."""
    coaches: dict[int, set[int]] = defaultdict(set)
    for game in games:
        coaches[game.league_id].update((game.home_coach_id, game.away_coach_id))
    k = {league_id: k_factor(len(members)) for league_id, members in coaches.items()}
    by_league: dict[int, list[RatedGame]] = defaultdict(list)
    everything: list[RatedGame] = []
    played: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    for game in games:
        names[game.home_coach_id] = game.home_coach
        names[game.away_coach_id] = game.away_coach
        rated = RatedGame(
            game.home_coach_id, game.away_coach_id, game.home_result, k[game.league_id]
        )
        by_league[game.league_id].append(rated)
        everything.append(rated)
        played[game.home_coach_id] += 1
        played[game.away_coach_id] += 1
    return Ratings(
        site=rate(everything),
        leagues={league_id: rate(rated) for league_id, rated in by_league.items()},
        k=k,
        games=dict(played),
        usernames=names,
    )


def league_ratings(session: Session, league_id: int) -> Ratings:
    """The ratings within one league (one query)."""
    return ratings_of(played_games(session, league_id))


def site_ratings(session: Session) -> Ratings:
    """The ratings site-wide and in every league (one query)."""
    return ratings_of(played_games(session))
