"""The unit of work: one transaction per action, and what it does with the database's refusals."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from league.api.errors import status_of
from league.extensions import db
from league.models import Player, Team
from league.services.errors import ConcurrentChange
from league.services.unit_of_work import unit_of_work
from tests.factories import hire, make_league, make_team, make_user


def _renamed(session: Session, team_id: int) -> Team:
    team = session.get(Team, team_id)
    team.name = "Renamed"
    return team


def test_a_unique_rule_broken_by_a_twin_request_is_a_409_that_saves_nothing() -> None:
    """As if a twin request had hired a player with this shirt number after the check."""
    coach = make_user("coach")
    team = make_team(coach, make_league(make_user("commish"), "bb2025", coach))
    (first,) = hire(coach, team, "human-lineman")
    twin = Player(
        team_id=team.id,
        position_id="human-lineman",
        name="Twin",
        number=first.number,
        cost=50_000,
        value=50_000,
    )
    with pytest.raises(ConcurrentChange) as refused, unit_of_work() as session:
        session.add_all([twin, _renamed(session, team.id)])
    assert status_of(refused.value) == 409  # what the API answers
    assert refused.value.message == (
        "Someone made the same change at the same moment; nothing was saved. "
        "Reload the page to see it."
    )
    assert db.session.scalar(select(func.count()).select_from(Player)) == 1
    assert db.session.get(Team, team.id).name == "Reikland Reavers"


def test_other_refusals_of_the_database_stay_errors() -> None:
    """A broken CHECK is a bug to see, not a race to explain away."""
    coach = make_user("coach")
    team = make_team(coach, make_league(make_user("commish"), "bb2025", coach))
    db.session.get(Team, team.id).treasury = -1
    with pytest.raises(IntegrityError), unit_of_work():
        pass
