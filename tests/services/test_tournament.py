"""Swiss tournaments through the services: pairing rounds, byes in the standings, refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from league.extensions import db
from league.models import AuditEntry, Match, SwissBye, User
from league.services import leagues, matches, teams, tournament
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import MatchReport, SideReport
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work
from tests.factories import make_league, make_user


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def _league(commissioner: User, coach: User, count: int) -> tuple[int, dict[int, str]]:
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        for number in range(1, count + 1):
            teams.create_team(
                session, coach, teams.NewTeam(league.id, f"T{number}", "human", active=True)
            )
    names = {t.id: t.name for t in leagues.get_league(db.session, league.id).teams}
    return league.id, names


def _pair(commissioner: User, league_id: int, seed: int = 0) -> tournament.SwissPairing:
    with unit_of_work() as session:
        return tournament.pair_next_round(session, commissioner, league_id, random.Random(seed))


def _play(commissioner: User, match_id: int, home: int, away: int) -> None:
    report = MatchReport(home=SideReport(score=home, mistake_d6=6), away=SideReport(score=away))
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)


def _pairs(pairing: tournament.SwissPairing, names: dict[int, str]) -> list[tuple[str, str]]:
    return [(names[m.home.team_id], names[m.away.team_id]) for m in pairing.matches]


def _counts() -> tuple[int, int, int]:
    return (
        db.session.scalar(select(func.count()).select_from(Match)) or 0,
        db.session.scalar(select(func.count()).select_from(SwissBye)) or 0,
        db.session.scalar(
            select(func.count())
            .select_from(AuditEntry)
            .where(AuditEntry.action == "league.swiss_round")
        )
        or 0,
    )


# The test: a 9-team Swiss tournament over 4 rounds, any results, played through
# the services: no two teams meet twice, nobody sits out twice, every team plays or sits
# out once a round, and the standings count each bye as a 1-0 win (3 points by default).
@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    scores=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=16, max_size=16),
)
def test_nine_teams_over_four_rounds(
    commissioner: User, coach: User, seed: int, scores: list[tuple[int, int]]
) -> None:
    league_id, names = _league(commissioner, coach, 9)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    results = iter(scores)
    expected_points = dict.fromkeys(names, 0)
    for number in range(1, 5):
        pairing = _pair(commissioner, league_id, seed + number)
        assert pairing.number == number
        assert not pairing.rematches
        assert len(pairing.matches) == 4
        assert pairing.bye_team_id is not None
        assert pairing.bye_team_id not in byes
        byes.append(pairing.bye_team_id)
        expected_points[pairing.bye_team_id] += 3
        seen = [pairing.bye_team_id]
        for match in pairing.matches:
            pair = frozenset((match.home.team_id, match.away.team_id))
            assert pair not in met
            met.add(pair)
            seen += list(pair)
            assert match.round == number
            home, away = next(results)
            _play(commissioner, match.id, home, away)
            for own, other, team in ((home, away, match.home), (away, home, match.away)):
                expected_points[team.team_id] += 3 if own > other else 1 if own == other else 0
        assert sorted(seen) == sorted(names)
    assert len(set(byes)) == 4
    table = standings(db.session, leagues.get_league(db.session, league_id))
    assert {row.team_id: row.byes for row in table.rows} == {
        team_id: int(team_id in byes) for team_id in names
    }
    assert all(row.played == 4 for row in table.rows)
    assert {row.team_id: row.points for row in table.rows} == expected_points
    assert table.matches_played == 16


def test_a_bye_is_a_one_nil_win_in_the_round_and_the_standings(
    commissioner: User, coach: User
) -> None:
    league_id, names = _league(commissioner, coach, 3)
    first = _pair(commissioner, league_id, seed=1)
    assert first.number == 1
    assert len(first.matches) == 1
    bye = first.bye_team_id
    assert bye is not None
    (home, away) = _pairs(first, names)[0]
    assert {home, away, names[bye]} == {"T1", "T2", "T3"}
    table = standings(db.session, leagues.get_league(db.session, league_id))
    row = next(r for r in table.rows if r.team_id == bye)
    # bb2025 [season.tournament]: a bye is a win counted 1-0; the league gives 3 for a win.
    assert (row.played, row.won, row.drawn, row.lost) == (1, 1, 0, 0)
    assert (row.td_for, row.td_against, row.points, row.byes) == (1, 0, 3, 1)
    assert table.rows[0].team_id == bye  # the only team with points so far
    # The round's page: the match at table 1, the bye named with what it counts as.
    sheet = tournament.round_sheet(db.session, leagues.get_league(db.session, league_id), 1)
    assert sheet is not None
    assert [(t.table, t.home.name, t.away.name) for t in sheet.tables] == [(1, home, away)]
    assert sheet.bye == names[bye]
    assert (sheet.bye_result, sheet.bye_touchdowns) == ("win", (1, 0))
    assert tournament.round_sheet(db.session, leagues.get_league(db.session, league_id), 2) is None


def test_later_rounds_pair_down_the_standings_and_swap_to_avoid_rematches(
    commissioner: User, coach: User
) -> None:
    league_id, _ = _league(commissioner, coach, 4)
    first = _pair(commissioner, league_id, seed=3)
    assert first.bye_team_id is None
    # Whatever the draw, the home sides win: they lead the table 2-0 / 1-0 ...
    scores = iter([(2, 0), (1, 0)])
    for match in first.matches:
        _play(commissioner, match.id, *next(scores))
    winners = [m.home.team_id for m in first.matches]
    losers = [m.away.team_id for m in first.matches]
    second = _pair(commissioner, league_id)
    assert second.number == 2
    # ... so round 2 pairs the two winners and the two losers (1st v 2nd, 3rd v 4th):
    # neither pair has met, so no swap is needed.
    assert [frozenset((m.home.team_id, m.away.team_id)) for m in second.matches] == [
        frozenset(winners),
        frozenset(losers),
    ]
    # Round 2: the winners' match is drawn 1-1, the losers' match won by its home team.
    _play(commissioner, second.matches[0].id, 1, 1)
    _play(commissioner, second.matches[1].id, 1, 0)
    league = leagues.get_league(db.session, league_id)
    ranking = [r.team_id for r in standings(db.session, league).rows]
    third = _pair(commissioner, league_id)
    # 1st has met 2nd (round 2) and is paired with the next team it has not met, swapping
    # down; 2nd and the remaining team then meet.
    pairs = [frozenset((m.home.team_id, m.away.team_id)) for m in third.matches]
    assert frozenset(ranking[:2]) not in pairs
    met = {frozenset((m.home.team_id, m.away.team_id)) for m in (*first.matches, *second.matches)}
    assert not set(pairs) & met
    assert not third.rematches


def test_refused_while_a_match_waits_for_its_result(commissioner: User, coach: User) -> None:
    league_id, _ = _league(commissioner, coach, 4)
    first = _pair(commissioner, league_id)
    _play(commissioner, first.matches[0].id, 1, 0)
    before = _counts()
    with pytest.raises(Conflict) as refused, unit_of_work() as session:
        tournament.pair_next_round(session, commissioner, league_id, random.Random(0))
    assert refused.value.code == "round_unplayed"
    assert refused.value.message == (
        "1 match of Season 1 is still waiting for its result; "
        "the next round is paired once every match is played."
    )
    assert _counts() == before


def test_only_a_commissioner_pairs_a_round(commissioner: User, coach: User) -> None:
    league_id, _ = _league(commissioner, coach, 4)
    before = _counts()
    with pytest.raises(Forbidden), unit_of_work() as session:
        tournament.pair_next_round(session, coach, league_id, random.Random(0))
    assert _counts() == before


def test_a_round_needs_two_active_teams(commissioner: User, coach: User) -> None:
    league_id, _ = _league(commissioner, coach, 1)
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        tournament.pair_next_round(session, commissioner, league_id, random.Random(0))
    assert refused.value.code == "not_enough_teams"
    assert _counts() == (0, 0, 0)
