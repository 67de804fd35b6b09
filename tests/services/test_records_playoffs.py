"""Famous teams: a playoff final's winner (a drawn final goes to the recorded winner) is
the season's playoff champion once the season is closed, and counts among its trophies."""

from __future__ import annotations

from league.extensions import db
from league.services import access, matches, playoffs, seasons, teams
from league.services.matches import MatchReport, SideReport
from league.services.records import league_records
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, make_league, make_user, with_match_touchdowns


def _play(commissioner, match_id: int, home: int, away: int) -> None:
    report = MatchReport(home=SideReport(score=home, mistake_d6=6), away=SideReport(score=away))
    report = with_match_touchdowns(report, match_id)
    with unit_of_work() as session:
        matches.record_result(session, commissioner, match_id, report)


def _slot(league_id: int, number: int, slot: int) -> int:
    view = playoffs.bracket_view(db.session, access.get_league(db.session, league_id))
    assert view is not None
    match = view.rounds[number - 1][slot].match
    assert match is not None
    return match.id


def test_a_playoff_final_makes_a_champion(commissioner) -> None:
    coach = make_user("anna")
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        for number in range(1, 5):
            teams.create_team(
                session, coach, teams.NewTeam(league.id, f"T{number}", "human", active=True)
            )
    give_scorers(coach, league)
    with unit_of_work() as session:
        playoffs.create_bracket(session, commissioner, league.id, 4)
    # Level on points, seeds by name: 1v4 and 2v3. T1 and T3 go through.
    _play(commissioner, _slot(league.id, 1, 0), 2, 0)
    _play(commissioner, _slot(league.id, 1, 1), 0, 1)
    with unit_of_work() as session:
        playoffs.advance(session, commissioner, league.id)
    final = _slot(league.id, 2, 0)
    _play(commissioner, final, 1, 1)  # drawn: the commissioner records who went through
    t3 = next(t.id for t in access.get_league(db.session, league.id).teams if t.name == "T3")
    with unit_of_work() as session:
        playoffs.record_winner(session, commissioner, final, t3)

    def records():
        db.session.expire_all()
        return league_records(db.session, access.get_league(db.session, league.id))

    # Not closed yet: no champion. Knock-out matches count in the records.
    assert records().champions == ()
    assert records().matches_played == 3
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id)
    found = records()
    # No league match was played: the table pays no prize, so no league champion.
    assert [
        (c.season_number, c.team_name, c.playoff_team_name, c.final_match_id)
        for c in found.champions
    ] == [(1, None, "T3", final)]
    assert [(t.team_name, t.titles, t.playoff_wins) for t in found.trophies] == [("T3", 0, 1)]
