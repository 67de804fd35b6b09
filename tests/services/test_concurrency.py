"""Spending is safe under concurrent requests (docs/architecture.md): PostgreSQL row locks."""

from __future__ import annotations

import threading
import time

import pytest
from flask import Flask

from league.extensions import db
from league.models import Team, User
from league.services import access, teams
from league.services.errors import DomainError
from league.services.unit_of_work import unit_of_work
from tests.conftest import ON_POSTGRES
from tests.factories import hire, make_league, make_team, make_user

pytestmark = pytest.mark.skipif(
    not ON_POSTGRES, reason="SQLite serialises writers; the row locks matter on PostgreSQL"
)


def _race(app: Flask, coach_id: int, team_id: int, position_id: str) -> list[str]:
    """Two hires at once; returns 'hired' or the refusal code of each."""
    results: list[str] = []
    barrier = threading.Barrier(2)

    def attempt(name: str) -> None:
        with app.app_context():
            actor = db.session.get(User, coach_id)
            barrier.wait()
            try:
                with unit_of_work() as session:
                    teams.hire_player(session, actor, team_id, teams.HirePlayer(position_id, name))
                results.append("hired")
            except DomainError as error:
                results.append(error.code)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=attempt, args=(name,)) for name in ("Left", "Right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(results)


@pytest.fixture
def slow_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen the race window: pause after the checks, before the write."""
    original = teams._refuse_hire

    def slow(*args: object, **kwargs: object) -> None:
        original(*args, **kwargs)
        time.sleep(0.3)

    monkeypatch.setattr(teams, "_refuse_hire", slow)


@pytest.mark.usefixtures("slow_checks")
def test_concurrent_hires_cannot_overspend_the_treasury(app: Flask) -> None:
    coach = make_user("coach")
    commissioner = make_user("commish")
    league = make_league(commissioner, "bb2025", coach)
    team = make_team(coach, league, "human")
    with unit_of_work() as session:
        teams.adjust_treasury(session, commissioner, team.id, -900_000, "Room for one Blitzer")
    results = _race(app, coach.id, team.id, "human-blitzer")  # 85,000 each, 100,000 in the bank
    assert results == ["hired", "insufficient_treasury"]
    db.session.expire_all()
    fresh = db.session.get(Team, team.id)
    assert fresh.treasury == 15_000
    assert len(access.roster(fresh)) == 1


@pytest.mark.usefixtures("slow_checks")
def test_concurrent_hires_cannot_pass_a_position_maximum(app: Flask) -> None:
    coach = make_user("coach")
    league = make_league(make_user("commish"), "bb2025", coach)
    team = make_team(coach, league, "human")
    results = _race(app, coach.id, team.id, "ogre")  # 0-1 Ogre
    assert results == ["hired", "position_full"]
    db.session.expire_all()
    fresh = db.session.get(Team, team.id)
    assert [p.position_id for p in access.roster(fresh)] == ["ogre"]
    assert fresh.treasury == 1_000_000 - 140_000


def test_concurrent_advancements_spend_the_spp_once(app: Flask) -> None:
    from league.services.advancement import AdvancementRequest, buy_advancement

    coach = make_user("coach")
    league = make_league(make_user("commish"), "bb2025", coach)
    team = make_team(coach, league, "human")
    player = hire(coach, team, "human-blitzer")[0]
    player.spp_earned = 6  # one chosen primary skill's worth
    db.session.commit()
    results: list[str] = []
    barrier = threading.Barrier(2)

    def attempt(skill: str) -> None:
        with app.app_context():
            actor = db.session.get(User, coach.id)
            barrier.wait()
            try:
                with unit_of_work() as session:
                    buy_advancement(
                        session, actor, player.id, AdvancementRequest("chosen_primary", skill)
                    )
                results.append("bought")
            except DomainError as error:
                results.append(error.code)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=attempt, args=(s,)) for s in ("Wrestle", "Dauntless")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["bought", "insufficient_spp"]
    db.session.expire_all()
    fresh = db.session.get(type(player), player.id)
    assert (fresh.spp_spent, len(fresh.active_advancements)) == (6, 1)
