"""An 8-team knock-out bracket from seeding to the final and the third-place match."""

from __future__ import annotations

import pytest

from league.extensions import db
from league.models import Match, User
from league.services import access, matches, playoffs, teams
from league.services.errors import Conflict, Forbidden, RuleViolation
from league.services.matches import MatchReport, SideReport
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, make_league, make_user, with_match_touchdowns


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def _league(commissioner: User, coach: User, count: int = 8) -> tuple[int, dict[str, int]]:
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        for number in range(1, count + 1):
            teams.create_team(
                session, coach, teams.NewTeam(league.id, f"T{number}", "human", active=True)
            )
    give_scorers(coach, league)
    found = {t.name: t.id for t in access.get_league(db.session, league.id).teams}
    return league.id, found


def _play(commissioner: User, match_id: int, home: int, away: int) -> None:
    report = MatchReport(home=SideReport(score=home, mistake_d6=6), away=SideReport(score=away))
    report = with_match_touchdowns(report, match_id)
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)


def _slots(league_id: int) -> list[list[tuple[str | None, str | None, str | None]]]:
    league = access.get_league(db.session, league_id)
    names = {t.id: t.name for t in league.teams}
    view = playoffs.bracket_view(db.session, league)
    assert view is not None
    return [
        [
            (names.get(s.home_team_id), names.get(s.away_team_id), names.get(s.winner_team_id))
            for s in slots
        ]
        for slots in view.rounds
    ]


def _match(league_id: int, number: int, slot: int) -> int:
    league = access.get_league(db.session, league_id)
    view = playoffs.bracket_view(db.session, league)
    assert view is not None
    match = view.rounds[number - 1][slot].match
    assert match is not None
    return match.id


def test_a_bracket_from_seeding_to_the_final(commissioner: User, coach: User) -> None:
    league_id, _ = _league(commissioner, coach)
    with pytest.raises(Forbidden), unit_of_work() as session:
        playoffs.create_bracket(session, coach, league_id, 8)
    with unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 8)
    # Level on points, the table goes by name: T1 is seed 1 ... T8 seed 8.
    # Bracket order: 1v8, 4v5, 2v7, 3v6.
    assert _slots(league_id)[0] == [
        ("T1", "T8", None),
        ("T4", "T5", None),
        ("T2", "T7", None),
        ("T3", "T6", None),
    ]
    with pytest.raises(Conflict), unit_of_work() as session:
        playoffs.advance(session, commissioner, league_id)

    _play(commissioner, _match(league_id, 1, 0), 2, 0)
    _play(commissioner, _match(league_id, 1, 1), 1, 1)  # a draw: extra time decides
    _play(commissioner, _match(league_id, 1, 2), 0, 1)  # seed 7 knocks out seed 2
    _play(commissioner, _match(league_id, 1, 3), 0, 1)
    rounds = _slots(league_id)
    assert [s[2] for s in rounds[0]] == ["T1", None, "T7", "T6"]
    # The semi-final waits for the draw's winner; the other one is known.
    assert rounds[1] == [("T1", None, None), ("T7", "T6", None)]

    drawn = _match(league_id, 1, 1)
    with pytest.raises(RuleViolation), unit_of_work() as session:
        playoffs.record_winner(session, commissioner, drawn, _team(league_id, "T1"))  # not in it
    with unit_of_work() as session:
        playoffs.record_winner(session, commissioner, drawn, _team(league_id, "T5"))
    with unit_of_work() as session:
        assert len(playoffs.advance(session, commissioner, league_id)) == 2

    _play(commissioner, _match(league_id, 2, 0), 3, 1)
    _play(commissioner, _match(league_id, 2, 1), 1, 2)
    with unit_of_work() as session:
        assert len(playoffs.advance(session, commissioner, league_id)) == 2
    # The final (slot 0) between the semi-final winners, third place between the losers.
    assert _slots(league_id)[2] == [("T1", "T6", None), ("T5", "T7", None)]

    # Knock-out matches do not count in the league table.
    table = standings(db.session, access.get_league(db.session, league_id))
    assert {row.played for row in table.rows} == {0}


def _team(league_id: int, name: str) -> int:
    return next(t.id for t in access.get_league(db.session, league_id).teams if t.name == name)


def test_a_bracket_needs_the_teams(commissioner: User, coach: User) -> None:
    league_id, _ = _league(commissioner, coach, count=6)
    too_few = "The table has 6 teams: too few for a bracket of 8"
    with pytest.raises(RuleViolation, match=too_few), unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 8)
    with pytest.raises(RuleViolation, match="4, 8 or 16"), unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 6)
    with unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 4)
    with pytest.raises(Conflict), unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 4)
    assert db.session.query(Match).count() == 2


def test_only_a_drawn_knockout_match_takes_a_winner(commissioner: User, coach: User) -> None:
    league_id, found = _league(commissioner, coach, count=4)
    with unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league_id, 4)
    decided = _match(league_id, 1, 0)
    _play(commissioner, decided, 2, 0)
    with pytest.raises(Conflict), unit_of_work() as session:
        playoffs.record_winner(session, commissioner, decided, found["T1"])
