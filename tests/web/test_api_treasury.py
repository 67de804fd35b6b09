"""API v1: POST /api/v1/teams/{id}/treasury, a commissioner's treasury adjustment."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Team, TreasuryEntry, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_team, make_user

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def treasury_and_ledger(team_id: int) -> tuple[int, list[tuple[int, str, str]]]:
    db.session.expire_all()
    team = db.session.get(Team, team_id)
    assert team is not None
    entries = db.session.scalars(
        select(TreasuryEntry).where(TreasuryEntry.team_id == team_id).order_by(TreasuryEntry.id)
    )
    return team.treasury, [(e.amount, e.kind, e.description) for e in entries]


@pytest.fixture
def boss() -> User:
    return make_user("boss")


@pytest.fixture
def team(boss: User) -> Team:
    coach = make_user("grim")
    league = make_league(boss, "bb2025", coach)
    return make_team(coach, league, "human")  # a new team holds the 1,000,000 starting gold


def test_a_commissioner_adjusts_a_treasury(client: FlaskClient, boss: User, team: Team) -> None:
    response = client.post(
        f"{API}/teams/{team.id}/treasury",
        json={"amount": -150_000, "reason": "  Fined for a pitch invasion "},
        headers=auth(boss),
    )
    assert response.status_code == 201, response.json
    assert response.json["entry"]["amount"] == -150_000
    assert response.json["entry"]["reason"] == "Fined for a pitch invasion"
    assert response.json["team"]["treasury"] == 850_000  # 1,000,000 - 150,000
    treasury, ledger = treasury_and_ledger(team.id)
    assert treasury == 850_000
    assert ledger[-1] == (-150_000, "adjustment", "Fined for a pitch invasion")


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({"reason": "Prize"}, 400, "'amount'"),
        ({"amount": "lots", "reason": "Prize"}, 400, "'amount'"),
        ({"amount": 10_000}, 400, "'reason'"),
        ({"amount": 10_000, "reason": "   "}, 422, "Say why"),
        ({"amount": 10_000, "reason": "x" * 201}, 422, "200 characters"),
        ({"amount": 0, "reason": "Nothing"}, 422, "other than 0"),
        ({"amount": 10_000_001, "reason": "Jackpot"}, 422, "10,000,000"),
        ({"amount": 2**63, "reason": "Overflow"}, 422, "10,000,000"),
        # The team holds 1,000,000 gold: it cannot lose more than that.
        ({"amount": -1_000_001, "reason": "Fine"}, 422, "Not enough gold"),
    ],
)
def test_a_bad_adjustment_is_refused_and_changes_nothing(
    client: FlaskClient, boss: User, team: Team, body: dict[str, Any], status: int, named: str
) -> None:
    before = treasury_and_ledger(team.id)
    response = client.post(f"{API}/teams/{team.id}/treasury", json=body, headers=auth(boss))
    assert response.status_code == status, response.json
    assert named in response.json["error"]["message"]
    assert treasury_and_ledger(team.id) == before


def test_only_a_commissioner_adjusts_a_treasury(client: FlaskClient, team: Team) -> None:
    coach = db.session.get(User, team.coach_id)
    assert coach is not None
    before = treasury_and_ledger(team.id)
    body = {"amount": 50_000, "reason": "Self-service"}
    refused = client.post(f"{API}/teams/{team.id}/treasury", json=body, headers=auth(coach))
    assert refused.status_code == 403
    assert client.post(f"{API}/teams/{team.id}/treasury", json=body).status_code == 401
    assert treasury_and_ledger(team.id) == before
