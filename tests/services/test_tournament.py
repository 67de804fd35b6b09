"""Swiss tournaments through the services: pairing rounds, byes in the standings, refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from league.extensions import db
from league.models import AuditEntry, Match, SwissBye, Team, User
from league.services import access, matches, teams, tournament
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, hire, make_league, make_user, with_match_touchdowns


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
    give_scorers(coach, league)
    names = {t.id: t.name for t in access.get_league(db.session, league.id).teams}
    return league.id, names


def _pair(commissioner: User, league_id: int, seed: int = 0) -> tournament.SwissPairing:
    with unit_of_work() as session:
        return tournament.pair_next_round(session, commissioner, league_id, random.Random(seed))


def _play(commissioner: User, match_id: int, home: int, away: int) -> None:
    report = MatchReport(home=SideReport(score=home, mistake_d6=6), away=SideReport(score=away))
    report = with_match_touchdowns(report, match_id)
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
    table = standings(db.session, access.get_league(db.session, league_id))
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
    table = standings(db.session, access.get_league(db.session, league_id))
    row = next(r for r in table.rows if r.team_id == bye)
    # bb2025 [season.tournament]: a bye is a win counted 1-0; the league gives 3 for a win.
    assert (row.played, row.won, row.drawn, row.lost) == (1, 1, 0, 0)
    assert (row.td_for, row.td_against, row.points, row.byes) == (1, 0, 3, 1)
    assert table.rows[0].team_id == bye  # the only team with points so far
    # The round's page: the match at table 1, the bye named with what it counts as.
    sheet = tournament.round_sheet(db.session, access.get_league(db.session, league_id), 1)
    assert sheet is not None
    assert [(t.table, t.home.name, t.away.name) for t in sheet.tables] == [(1, home, away)]
    assert sheet.bye == names[bye]
    assert (sheet.bye_result, sheet.bye_touchdowns) == ("win", (1, 0))
    assert tournament.round_sheet(db.session, access.get_league(db.session, league_id), 2) is None


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
    league = access.get_league(db.session, league_id)
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


# An organiser's scoring (house rule `tournament`): 3/1/0 tournament points instead of the
# league's 2/1/0, and +1 each for 3+ touchdowns, 3+ casualties, losing by one touchdown.
SCORING = {
    "points": [3, 1, 0],
    "bonus": [
        {"kind": "touchdowns", "threshold": 3, "points": 1},
        {"kind": "casualties", "threshold": 3, "points": 1},
        {"kind": "close_loss", "threshold": 1, "points": 1},
    ],
}


def _teams(coach: User, league_id: int, *names: str) -> list[int]:
    with unit_of_work() as session:
        ids = [
            teams.create_team(
                session, coach, teams.NewTeam(league_id, name, "human", active=True)
            ).id
            for name in names
        ]
    give_scorers(coach, access.get_league(db.session, league_id))
    return ids


def _scheduled(commissioner: User, league_id: int, home: int, away: int) -> int:
    with unit_of_work() as session:
        return matches.schedule_match(session, commissioner, league_id, home, away).id


def test_tournament_points_and_bonus_points_rank_the_table(commissioner: User, coach: User) -> None:
    league = make_league(
        commissioner, "bb2025", coach, points_win=2, house_rules={"tournament": SCORING}
    )
    ids = _teams(coach, league.id, "Ants", "Bats", "Cats", "Dogs")
    (c_player,) = hire(coach, db.session.get(Team, ids[2]), "human-lineman")
    # Ants 1-0 Bats: Ants win (3, no bonus); Bats lost by one touchdown (0 + 1).
    _play(commissioner, _scheduled(commissioner, league.id, ids[0], ids[1]), 1, 0)
    # Cats 3-3 Dogs, a Cat causing 3 casualties: Cats draw (1) + 3 touchdowns (1) + 3
    # casualties (1) = 3; Dogs draw (1) + 3 touchdowns (1) = 2.
    report = MatchReport(
        home=SideReport(score=3, mistake_d6=6),
        away=SideReport(score=3, mistake_d6=6),
        players=(PlayerEvents(c_player.id, cas=3),),
    )
    with unit_of_work() as session:
        match_id = matches.schedule_match(session, commissioner, league.id, ids[2], ids[3]).id
    report = with_match_touchdowns(report, match_id)
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)
    table = standings(db.session, access.get_league(db.session, league.id))
    rows = [(r.team_name, r.points, r.bonus_points) for r in table.rows]
    # Ants and Cats level on 3: no match between them (head-to-head 0 each), then
    # touchdown difference, Ants +1 against Cats 0.
    assert rows == [("Ants", 3, 0), ("Cats", 3, 2), ("Dogs", 2, 1), ("Bats", 1, 1)]
    assert table.notes[0].tie_breaker == "td_difference"
    assert len(table.bonus_rules) == 3
    assert table.explanations[0] == (
        "Points: 3 for a win, 1 for a draw, 0 for a loss. "
        "Bonus: +1 for scoring at least 3 touchdowns in a match. "
        "Bonus: +1 for causing at least 3 casualties in a match. "
        "Bonus: +1 for losing a match by 1 touchdown."
    )


def test_without_tournament_scoring_the_league_points_count_and_no_bonus(
    commissioner: User, coach: User
) -> None:
    league = make_league(commissioner, "bb2025", coach, points_win=2)
    home, away = _teams(coach, league.id, "Ants", "Bats")
    _play(commissioner, _scheduled(commissioner, league.id, home, away), 3, 2)
    table = standings(db.session, access.get_league(db.session, league.id))
    # The league's 2 for a win (3-2); 3 touchdowns and a one-touchdown loss earn nothing.
    assert [(r.team_name, r.points, r.bonus_points) for r in table.rows] == [
        ("Ants", 2, 0),
        ("Bats", 0, 0),
    ]
    assert table.bonus_rules == ()


def test_a_house_rule_bye_is_counted_as_the_organiser_says(commissioner: User, coach: User) -> None:
    # The organiser's bye: a 0-0 draw (house rule over bb2025's 1-0 win), with 3/1/0
    # tournament points and +1 for 3 touchdowns, which a bye never earns (no match).
    league = make_league(
        commissioner,
        "bb2025",
        coach,
        house_rules={
            "tournament": {
                "bye_result": "draw",
                "bye_touchdowns": [0, 0],
                "points": [3, 1, 0],
                "bonus": [{"kind": "touchdowns", "threshold": 3, "points": 1}],
            }
        },
    )
    _teams(coach, league.id, "Ants", "Bats", "Cats")
    first = _pair(commissioner, league.id, seed=1)
    bye = first.bye_team_id
    table = standings(db.session, access.get_league(db.session, league.id))
    row = next(r for r in table.rows if r.team_id == bye)
    # A draw: one played, one drawn, the draw's 1 tournament point, no bonus, 0-0.
    assert (row.played, row.won, row.drawn, row.lost, row.points) == (1, 0, 1, 0, 1)
    assert (row.td_for, row.td_against, row.bonus_points, row.byes) == (0, 0, 0, 1)
    sheet = tournament.round_sheet(db.session, access.get_league(db.session, league.id), 1)
    assert sheet is not None
    assert (sheet.bye_result, sheet.bye_touchdowns) == ("draw", (0, 0))
