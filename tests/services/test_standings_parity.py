"""Property: the standings query counts every match as the rules' outcome function does.

The table is summed in SQL; `league.rules.competitions.match_outcome` (and
`bye_match_outcome` for a Swiss bye) is the one answer to who won and what a match is
worth. On generated seasons (concessions whatever the score, draws, casualties for the
bonus points, friendlies and voided matches that do not count, byes), each team's row
must equal the sum of its outcomes.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete

from league.extensions import db
from league.models import League, Match, MatchPlayer, MatchTeam, SwissBye, Team
from league.rules.competitions import SideResult, bye_match_outcome, match_outcome
from league.services.access import league_ruleset
from league.services.standings import league_points, standings
from league.services.unit_of_work import unit_of_work
from tests.factories import hire, make_league, make_team, make_user

TEAMS = 4


class Generated(NamedTuple):
    """One generated match: teams by index, the away team `shift` places after home."""

    home: int
    shift: int
    home_score: int
    away_score: int
    conceded: str | None  # "home", "away" or None
    home_cas: int
    away_cas: int
    friendly: bool
    voided: bool

    def sides(self, teams: list[Team]) -> dict[str, Team]:
        return {"home": teams[self.home], "away": teams[(self.home + self.shift) % TEAMS]}

    def result(self, side: str) -> SideResult:
        score, cas = (
            (self.home_score, self.home_cas) if side == "home" else (self.away_score, self.away_cas)
        )
        return SideResult(score, self.conceded == side, cas)


a_match = st.builds(
    Generated,
    st.integers(0, TEAMS - 1),
    st.integers(1, TEAMS - 1),  # added to home, so never the same team
    st.integers(0, 4),
    st.integers(0, 4),
    st.sampled_from([None, None, "home", "away"]),
    st.integers(0, 3),
    st.integers(0, 3),
    st.booleans(),
    st.booleans(),
)
#: The team sitting out each Swiss round that had a bye.
byes = st.lists(st.integers(0, TEAMS - 1), max_size=3)


@pytest.fixture(params=["as_played", "credited"])
def season(request):
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    with unit_of_work() as session:
        # Scored as a tournament, so the bonus points are part of what must agree.
        session.get(League, league.id).house_rules = {  # type: ignore[union-attr]
            "tournament": {
                "points": [3, 1, 0],
                "bonus": [
                    {"kind": "touchdowns", "threshold": 3, "points": 1},
                    {"kind": "casualties", "threshold": 2, "points": 1},
                    {"kind": "close_loss", "threshold": 1, "points": 1},
                ],
                # The event's concession scoring: -1 for the conceding coach, counted 2-0.
                **(
                    {"concession_points": -1, "concession_score": [2, 0]}
                    if request.param == "credited"
                    else {}
                ),
            }
        }
    found = []
    for number in range(TEAMS):
        team = make_team(boss, league, "human", f"Team {number}")
        hire(boss, team, "human-lineman")
        found.append(team)
    return boss, league, found


def _store(boss, league: League, teams: list[Team], matches, bye_teams) -> None:
    """The generated season as rows, replacing the previous example's."""
    with unit_of_work() as session:
        ids = [m.id for m in session.query(Match).filter_by(league_id=league.id)]
        session.execute(delete(MatchPlayer).where(MatchPlayer.match_id.in_(ids)))
        session.execute(delete(MatchTeam).where(MatchTeam.match_id.in_(ids)))
        session.execute(delete(Match).where(Match.id.in_(ids)))
        session.execute(delete(SwissBye).where(SwissBye.league_id == league.id))
        season_id = session.get(League, league.id).current_season.id  # type: ignore[union-attr]
        for generated in matches:
            match = Match(
                league_id=league.id,
                season_id=season_id,
                friendly=generated.friendly,
                state="voided" if generated.voided else "played",
                played_at=datetime.now(UTC),
            )
            for side, team in generated.sides(teams).items():
                result = generated.result(side)
                match.sides.append(
                    MatchTeam(
                        team_id=team.id, side=side, score=result.score, conceded=result.conceded
                    )
                )
                player = team.players[0]
                match.players.append(
                    MatchPlayer(player_id=player.id, team_id=team.id, cas=result.casualties)
                )
            session.add(match)
        for number, team in enumerate(bye_teams, start=1):
            session.add(
                SwissBye(
                    league_id=league.id,
                    season_id=season_id,
                    round=number,
                    team_id=teams[team].id,
                    created_by_id=boss.id,
                )
            )


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(matches=st.lists(a_match, max_size=8), bye_teams=byes)
def test_the_table_is_the_sum_of_the_match_outcomes(season, matches, bye_teams) -> None:
    boss, league, teams = season
    _store(boss, league, teams, matches, bye_teams)
    db.session.expire_all()
    league = db.session.get(League, league.id)
    rules = league_ruleset(league).season.tournament
    points = league_points(league)

    expected: dict[int, Counter[str]] = {team.id: Counter() for team in teams}
    for generated in matches:
        if generated.friendly or generated.voided:
            continue  # neither counts in the table
        sides = generated.sides(teams)
        results = {side: generated.result(side) for side in ("home", "away")}
        for side, other in (("home", "away"), ("away", "home")):
            found = match_outcome(rules, points, results[side], results[other])
            tally = expected[sides[side].id]
            tally["played"] += 1
            tally[found.result] += 1
            tally["points"] += found.tournament_points
            tally["bonus_points"] += found.bonus_points
            tally["concessions"] += found.conceded
            tally["td_for"] += found.score[0]
            tally["td_against"] += found.score[1]
    bye = bye_match_outcome(rules, points)
    for team in bye_teams:
        tally = expected[teams[team].id]
        tally["played"] += 1
        tally["byes"] += 1
        tally[bye.result] += 1
        tally["points"] += bye.tournament_points
        tally["td_for"] += rules.bye_touchdowns[0]
        tally["td_against"] += rules.bye_touchdowns[1]

    keys = (
        "played",
        "won",
        "drawn",
        "lost",
        "points",
        "bonus_points",
        "concessions",
        "td_for",
        "td_against",
        "byes",
    )
    table = {row.team_id: row for row in standings(db.session, league).rows}
    for team in teams:
        row = table.get(team.id)
        got = {key: getattr(row, key) if row is not None else 0 for key in keys}
        assert got == {key: expected[team.id][key] for key in keys}, team.name
