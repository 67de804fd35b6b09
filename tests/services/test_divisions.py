"""Divisions: placing teams, fixtures inside each division, per-division tables, playoffs."""

from __future__ import annotations

from itertools import combinations

import pytest

from league.extensions import db
from league.models import AuditEntry, Match, User
from league.services import access, divisions, fixtures, matches, playoffs, teams
from league.services.errors import Forbidden, RuleViolation
from league.services.matches import MatchReport, SideReport
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, make_league, make_user, with_match_touchdowns


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def _league(commissioner: User, coach: User, count: int) -> tuple[int, dict[str, int]]:
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        for number in range(1, count + 1):
            teams.create_team(
                session, coach, teams.NewTeam(league.id, f"T{number}", "human", active=True)
            )
    give_scorers(coach, league)
    return league.id, {t.name: t.id for t in access.get_league(db.session, league.id).teams}


def _split(commissioner: User, league_id: int, ids: dict[str, int], north: int) -> None:
    """T1..T<north> in North, the rest in South."""
    with unit_of_work() as session:
        divisions.assign_divisions(
            session,
            commissioner,
            league_id,
            {
                team_id: "North" if int(name[1:]) <= north else "South"
                for name, team_id in ids.items()
            },
        )


def test_fixtures_are_a_round_robin_inside_each_division(commissioner: User, coach: User) -> None:
    league_id, ids = _league(commissioner, coach, 8)
    _split(commissioner, league_id, ids, north=4)
    with unit_of_work() as session:
        created = fixtures.generate_fixtures(session, commissioner, league_id, double=False)
    names = {v: k for k, v in ids.items()}
    north = {f"T{n}" for n in range(1, 5)}
    pairs = [(m.round, frozenset(names[s.team_id] for s in (m.home, m.away))) for m in created]
    # Two divisions of four: 3 rounds of 2 matches each, side by side: 12 matches, every
    # pair inside a division exactly once, none across.
    assert len(created) == 12
    assert sorted({r for r, _ in pairs}) == [1, 2, 3]
    assert all(sum(1 for r, _ in pairs if r == n) == 4 for n in (1, 2, 3))
    expected = {frozenset(p) for p in combinations(sorted(north), 2)} | {
        frozenset(p) for p in combinations(sorted(set(ids) - north), 2)
    }
    assert sorted(map(sorted, (p for _, p in pairs))) == sorted(map(sorted, expected))
    # The generate page's count says the same (one league of 8 would be 7 rounds, 28).
    placed = list(access.get_league(db.session, league_id).teams)
    assert fixtures.division_schedule_size(placed) == (3, 12)


def test_standings_per_division_and_playoffs_from_them(commissioner: User, coach: User) -> None:
    league_id, ids = _league(commissioner, coach, 8)
    _split(commissioner, league_id, ids, north=4)
    # T5 (South) beats T6 2-0: 3 points, first in the league and in South.
    with unit_of_work() as session:
        match = matches.schedule_match(session, commissioner, league_id, ids["T5"], ids["T6"])
    report = MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(score=0))
    report = with_match_touchdowns(report, match.id)
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match.id, report)
    league = access.get_league(db.session, league_id)
    table = standings(db.session, league)
    tables = divisions.division_tables(league, table)
    assert [t.name for t in tables] == ["North", "South"]
    # North: all level, by name. South: T5 first, then T7, T8 level by name, T6 last (lost).
    assert [(r.position, r.team_name) for r in tables[0].rows] == [
        (1, "T1"),
        (2, "T2"),
        (3, "T3"),
        (4, "T4"),
    ]
    assert [(r.position, r.team_name, r.points) for r in tables[1].rows] == [
        (1, "T5", 3),
        (2, "T7", 0),
        (3, "T8", 0),
        (4, "T6", 0),
    ]
    assert table.rows[0].team_name == "T5"
    # BB2025: places shared out between divisions, no first-round match inside one.
    with unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 8)
    first = db.session.query(Match).filter(Match.bracket_round == 1).all()
    division = {t.id: t.division for t in league.teams}
    assert len(first) == 4
    assert all(division[m.home.team_id] != division[m.away.team_id] for m in first)


def test_bad_assignments_are_refused_and_nothing_changes(commissioner: User, coach: User) -> None:
    league_id, ids = _league(commissioner, coach, 2)
    _, other_ids = _league(make_user("bob"), make_user("cid"), 1)
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        divisions.assign_divisions(
            session,
            commissioner,
            league_id,
            {ids["T1"]: "North", other_ids["T1"]: "South", ids["T2"]: "x" * 41},
        )
    assert refused.value.code == "invalid_division"
    assert refused.value.fields == {
        f"team_{other_ids['T1']}": [f"bb2025 league has no team number {other_ids['T1']}."],
        f"team_{ids['T2']}": ["A division's name is at most 40 characters."],
    }
    with pytest.raises(RuleViolation) as refused, unit_of_work() as session:
        divisions.assign_divisions(
            session, commissioner, league_id, {ids["T1"]: "Evil\u202eNorth", ids["T2"]: "N\x00"}
        )
    line = "A division's name is one line of text, without line breaks or text-direction controls."
    assert refused.value.fields == {f"team_{ids['T1']}": [line], f"team_{ids['T2']}": [line]}
    with pytest.raises(Forbidden), unit_of_work() as session:
        divisions.assign_divisions(session, coach, league_id, {ids["T1"]: "North"})
    league = access.get_league(db.session, league_id)
    assert [t.division for t in league.teams] == [None, None]
    assert db.session.query(AuditEntry).filter_by(action="league.divisions").count() == 0


def test_names_are_trimmed_and_an_empty_name_takes_a_team_out(
    commissioner: User, coach: User
) -> None:
    league_id, ids = _league(commissioner, coach, 3)
    with unit_of_work() as session:
        divisions.assign_divisions(
            session, commissioner, league_id, {ids["T1"]: "  Old   World ", ids["T2"]: "North"}
        )
    with unit_of_work() as session:
        divisions.assign_divisions(session, commissioner, league_id, {ids["T2"]: "  "})
    league = access.get_league(db.session, league_id)
    assert {t.name: t.division for t in league.teams} == {
        "T1": "Old World",
        "T2": None,
        "T3": None,
    }
    assert divisions.division_names(league) == ("Old World",)
    table = divisions.division_tables(league, standings(db.session, league))
    assert [(t.name, [r.team_name for r in t.rows]) for t in table] == [
        ("Old World", ["T1"]),
        (None, ["T2", "T3"]),
    ]
