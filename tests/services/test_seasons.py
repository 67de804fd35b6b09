"""Closing a season: the final table pays its prizes and passes on the League Trophy."""

from __future__ import annotations

import pytest

from league.extensions import db
from league.models import League, Match, Team, TreasuryEntry, User
from league.services import access, matches, seasons, teams
from league.services.errors import Conflict, Forbidden
from league.services.matches import MatchReport, SideReport
from league.services.recompute import check_all
from league.services.rosters import team_values
from league.services.unit_of_work import unit_of_work
from tests.factories import give_scorers, make_league, make_user
from tests.services.test_standings import play


@pytest.fixture
def commissioner() -> User:
    return make_user("commish")


@pytest.fixture
def coach() -> User:
    return make_user("anna")


def _league(commissioner: User, coach: User, ruleset: str) -> tuple[League, dict[str, Team]]:
    league = make_league(commissioner, ruleset, coach)
    with unit_of_work() as session:
        for name in ("Reavers", "Gouged Eye", "Bright Crusaders", "Darkside Cowboys"):
            teams.create_team(session, coach, teams.NewTeam(league.id, name, "human", active=True))
    give_scorers(coach, league)
    found = {t.name: t for t in access.get_league(db.session, league.id).teams}
    # Reavers win twice, Gouged Eye once, Bright Crusaders draw: a clear table.
    play(commissioner, league, found["Reavers"], found["Gouged Eye"], 2, 0)
    play(commissioner, league, found["Reavers"], found["Darkside Cowboys"], 1, 0)
    play(commissioner, league, found["Gouged Eye"], found["Darkside Cowboys"], 1, 0)
    play(commissioner, league, found["Bright Crusaders"], found["Darkside Cowboys"], 0, 0)
    return league, found


def _treasuries(league: League) -> dict[str, int]:
    return {t.name: t.treasury for t in access.get_league(db.session, league.id).teams}


def test_bb2025_close_pays_prizes_and_the_trophy(commissioner: User, coach: User) -> None:
    league, found = _league(commissioner, coach, "bb2025")
    before = _treasuries(league)
    tv_before = team_values(db.session.get(Team, found["Reavers"].id)).team_value
    with unit_of_work() as session:
        closed = seasons.close_season(session, commissioner, league.id, 1)
    # BB2025 Glittering Prizes: 1st 100,000 and the trophy, 2nd 60,000, 3rd 30,000.
    assert [(p.team_name, p.place, p.gold, p.trophy) for p in closed.prizes] == [
        ("Reavers", 1, 100_000, True),
        ("Gouged Eye", 2, 60_000, False),
        ("Bright Crusaders", 3, 30_000, False),
    ]
    after = _treasuries(league)
    assert {name: after[name] - before[name] for name in after} == {
        "Reavers": 100_000,
        "Gouged Eye": 60_000,
        "Bright Crusaders": 30_000,
        "Darkside Cowboys": 0,
    }
    rows = db.session.query(TreasuryEntry).filter_by(kind="prize").order_by(TreasuryEntry.id)
    assert [(r.amount, r.description, r.season_id) for r in rows] == [
        (100_000, "1st place, Season 1", closed.closed.id),
        (60_000, "2nd place, Season 1", closed.closed.id),
        (30_000, "3rd place, Season 1", closed.closed.id),
    ]
    # The trophy's free re-roll counts in TV at the Human roster price, 50,000.
    reavers = db.session.get(Team, found["Reavers"].id)
    assert reavers.league_trophy
    assert team_values(reavers).team_value == tv_before + 50_000
    assert check_all(db.session) == []
    fresh = access.get_league(db.session, league.id)
    shown = seasons.prizes_paid(db.session, fresh, closed.closed)
    assert [(p.team_name, p.gold, p.trophy) for p in shown] == [
        ("Reavers", 100_000, True),
        ("Gouged Eye", 60_000, False),
        ("Bright Crusaders", 30_000, False),
    ]


def test_the_trophy_passes_on_when_the_next_season_closes(commissioner: User, coach: User) -> None:
    league, found = _league(commissioner, coach, "bb2025")
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    play(commissioner, league, found["Gouged Eye"], found["Reavers"], 3, 0)
    with unit_of_work() as session:
        closed = seasons.close_season(session, commissioner, league.id, 2)
    assert closed.prizes[0].team_name == "Gouged Eye"
    holders = [t.name for t in access.get_league(db.session, league.id).teams if t.league_trophy]
    assert holders == ["Gouged Eye"]


def test_bb2020_pays_no_prizes(commissioner: User, coach: User) -> None:
    league, _ = _league(commissioner, coach, "bb2020")
    before = _treasuries(league)
    with unit_of_work() as session:
        closed = seasons.close_season(session, commissioner, league.id, 1)
    assert closed.prizes == ()
    assert _treasuries(league) == before
    assert not any(t.league_trophy for t in access.get_league(db.session, league.id).teams)


def test_a_season_without_results_pays_nothing(commissioner: User, coach: User) -> None:
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        teams.create_team(session, coach, teams.NewTeam(league.id, "Reavers", "human", active=True))
    with unit_of_work() as session:
        assert seasons.close_season(session, commissioner, league.id, 1).prizes == ()


def test_closing_twice_or_without_the_right_pays_once(commissioner: User, coach: User) -> None:
    league, _ = _league(commissioner, coach, "bb2025")
    with pytest.raises(Forbidden), unit_of_work() as session:
        seasons.close_season(session, coach, league.id, 1)
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    with pytest.raises(Conflict), unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    assert db.session.query(TreasuryEntry).filter_by(kind="prize").count() == 3


# ---------------------------------------------------------------------------
# A closed season is closed; reopening it takes the prizes back


def _refusal(call) -> Conflict:  # type: ignore[no-untyped-def]
    with pytest.raises(Conflict) as refused, unit_of_work() as session:
        call(session)
    return refused.value


def test_a_closed_season_refuses_results_corrections_and_voids(
    commissioner: User, coach: User
) -> None:
    league, found = _league(commissioner, coach, "bb2025")
    played = db.session.query(Match).filter_by(league_id=league.id).order_by(Match.id).first()
    with unit_of_work() as session:
        waiting = matches.schedule_match(
            session, commissioner, league.id, found["Reavers"].id, found["Bright Crusaders"].id
        )
    before = _treasuries(league)
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    after_close = _treasuries(league)
    nil = MatchReport(home=SideReport(mistake_d6=6), away=SideReport(mistake_d6=6))
    reason = (
        "Season 1 is closed: its results are final. A commissioner may reopen it to change them."
    )
    # A new result, a correction (Reavers' 2-0 made 0-0) and a void: each refused, with why.
    for call in (
        lambda session: matches.record_result(session, commissioner, waiting.id, nil),
        lambda session: matches.record_result(session, commissioner, played.id, nil),
        lambda session: matches.void_match(session, commissioner, played.id),
    ):
        refused = _refusal(call)
        assert refused.code == "season_closed"
        assert refused.message == reason
    # Nothing changed: the table, the matches, the treasuries.
    db.session.expire_all()
    assert db.session.get(Match, waiting.id).state == "scheduled"
    assert db.session.get(Match, played.id).state == "played"
    assert (played.side("home").score, played.side("away").score) == (2, 0)
    assert _treasuries(league) == after_close != before
    assert check_all(db.session) == []


def test_closing_lists_and_may_mark_the_unplayed_matches(commissioner: User, coach: User) -> None:
    league, found = _league(commissioner, coach, "bb2025")
    with unit_of_work() as session:
        waiting = matches.schedule_match(
            session,
            commissioner,
            league.id,
            found["Reavers"].id,
            found["Bright Crusaders"].id,
            round_number=3,
        )
    current = access.get_league(db.session, league.id).current_season
    assert [m.id for m in seasons.unplayed_matches(db.session, current)] == [waiting.id]
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1, mark_unplayed=True)
    assert db.session.get(Match, waiting.id).state == "unplayed"
    # Reopening schedules it again.
    with unit_of_work() as session:
        seasons.reopen_season(session, commissioner, league.id, 1)
    assert db.session.get(Match, waiting.id).state == "scheduled"


def test_reopening_takes_the_prizes_back_and_closing_again_pays_once(
    commissioner: User, coach: User
) -> None:
    league, found = _league(commissioner, coach, "bb2025")
    before = _treasuries(league)
    with unit_of_work() as session:
        closed = seasons.close_season(session, commissioner, league.id, 1)
    season_id = closed.closed.id
    with pytest.raises(Forbidden), unit_of_work() as session:
        seasons.reopen_season(session, coach, league.id, 1)
    with unit_of_work() as session:
        seasons.reopen_season(session, commissioner, league.id, 1)
    fresh = access.get_league(db.session, league.id)
    # Season 1 is current again; the Season 2 its closing opened is gone.
    assert [(s.number, s.closed_at is None) for s in fresh.seasons] == [(1, True)]
    assert _treasuries(league) == before
    assert not any(t.league_trophy for t in fresh.teams)
    rows = db.session.query(TreasuryEntry).filter_by(kind="prize").order_by(TreasuryEntry.id)
    # BB2025 Glittering Prizes (100,000, 60,000, 30,000) booked, then booked back.
    assert [(r.amount, r.description, r.season_id) for r in rows] == [
        (100_000, "1st place, Season 1", season_id),
        (60_000, "2nd place, Season 1", season_id),
        (30_000, "3rd place, Season 1", season_id),
        (-100_000, "1st place, Season 1, taken back: reopened", season_id),
        (-60_000, "2nd place, Season 1, taken back: reopened", season_id),
        (-30_000, "3rd place, Season 1, taken back: reopened", season_id),
    ]
    assert check_all(db.session) == []
    # Open again, the season takes a result: Bright Crusaders beat Reavers 3-0. BB2025 points
    # (3 a win, 1 a draw): Reavers 6, Bright Crusaders 4, Gouged Eye 3, Darkside Cowboys 1.
    play(commissioner, league, found["Bright Crusaders"], found["Reavers"], 3, 0)
    before = _treasuries(league)
    with unit_of_work() as session:
        again = seasons.close_season(session, commissioner, league.id, 1)
    assert [(p.team_name, p.gold, p.trophy) for p in again.prizes] == [
        ("Reavers", 100_000, True),
        ("Bright Crusaders", 60_000, False),
        ("Gouged Eye", 30_000, False),
    ]
    after = _treasuries(league)
    assert {name: after[name] - before[name] for name in after} == {
        "Reavers": 100_000,
        "Gouged Eye": 30_000,
        "Bright Crusaders": 60_000,
        "Darkside Cowboys": 0,
    }
    shown = seasons.prizes_paid(db.session, access.get_league(db.session, league.id), again.closed)
    assert [(p.team_name, p.place, p.gold) for p in shown] == [
        ("Reavers", 1, 100_000),
        ("Bright Crusaders", 2, 60_000),
        ("Gouged Eye", 3, 30_000),
    ]
    assert check_all(db.session) == []


def test_only_the_last_season_reopens_while_the_next_is_empty(
    commissioner: User, coach: User
) -> None:
    league, found = _league(commissioner, coach, "bb2025")
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    play(commissioner, league, found["Reavers"], found["Gouged Eye"], 1, 0)
    refused = _refusal(lambda session: seasons.reopen_season(session, commissioner, league.id, 1))
    assert refused.code == "season_not_reopenable"
    assert refused.message == (
        "Season 2 has begun (it has matches); Season 1 can no longer be reopened."
    )
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 2)
    refused = _refusal(lambda session: seasons.reopen_season(session, commissioner, league.id, 1))
    assert refused.message == "Only the last season closed can be reopened; Season 1 is not."
    # Season 2 reopens: the trophy goes back to Season 1's champion, Reavers.
    with unit_of_work() as session:
        seasons.reopen_season(session, commissioner, league.id, 2)
    holders = [t.name for t in access.get_league(db.session, league.id).teams if t.league_trophy]
    assert holders == ["Reavers"]
    assert check_all(db.session) == []
