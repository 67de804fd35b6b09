"""The commissioner's to-do list (league.services.todo)."""

from __future__ import annotations

from datetime import date

import pytest

from league.extensions import db
from league.models import League, Team, User
from league.services import matches, seasons
from league.services.errors import Forbidden
from league.services.pregame import SideChoices, record_side
from league.services.redraft import RedraftChoice, redraft_plan, submit_redraft
from league.services.todo import commissioner_todo
from league.services.unit_of_work import unit_of_work
from tests.services.test_standings import play

TODAY = date(2026, 9, 10)


def _fixture(commissioner: User, league: League, home: Team, away: Team, day: date) -> int:
    with unit_of_work() as session:
        return matches.schedule_match(
            session, commissioner, league.id, home.id, away.id, scheduled_for=day
        ).id


def _todo(commissioner: User, league: League):
    return commissioner_todo(db.session, commissioner, db.session.get(League, league.id), TODAY)


def test_an_empty_league_has_nothing_to_do(commissioner: User, league_2025) -> None:
    league, _, _ = league_2025
    todo = _todo(commissioner, league)
    assert todo.empty


def test_what_waits_is_listed_by_kind(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    overdue = _fixture(commissioner, league, humans, orcs, date(2026, 9, 5))
    _fixture(commissioner, league, orcs, humans, TODAY)  # due today: not overdue
    pregame = _fixture(commissioner, league, humans, orcs, date(2026, 9, 20))
    drafted = _fixture(commissioner, league, orcs, humans, date(2026, 9, 27))
    with unit_of_work() as session:
        # The Humans (higher CTV) choose first; the Orcs have not chosen yet.
        record_side(session, anna, pregame, "home", SideChoices(inducements={"bribes": 1}))
        matches.save_unfinished_report(session, anna, drafted, {"home_score": "1"})

    todo = _todo(commissioner, league)
    assert [m.match_id for m in todo.overdue_fixtures] == [overdue]
    assert [(w.match.match_id, w.waiting_for) for w in todo.pregames_waiting] == [
        (pregame, "Gouged Eye")
    ]
    assert [m.match_id for m in todo.reports_to_finalise] == [drafted]
    assert todo.redrafts_to_approve == []
    assert not todo.empty


def test_a_submitted_redraft_waits_for_approval(commissioner: User, league_2025) -> None:
    league, humans, orcs = league_2025
    anna = db.session.get(User, humans.coach_id)
    play(commissioner, league, humans, orcs, 0, 0)
    with unit_of_work() as session:
        seasons.close_season(session, commissioner, league.id, 1)
    plan = redraft_plan(db.session, humans.id)
    keep = frozenset(p.player_id for p in plan.players)
    with unit_of_work() as session:
        submit_redraft(
            session,
            anna,
            humans.id,
            RedraftChoice(keep, rerolls=0, assistant_coaches=0, cheerleaders=0, apothecary=False),
        )
    todo = _todo(commissioner, league)
    assert [r.team_id for r in todo.redrafts_to_approve] == [humans.id]


def test_only_a_commissioner_sees_the_list(league_2025) -> None:
    league, humans, _ = league_2025
    anna = db.session.get(User, humans.coach_id)
    with pytest.raises(Forbidden):
        commissioner_todo(db.session, anna, db.session.get(League, league.id), TODAY)
