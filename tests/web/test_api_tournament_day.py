"""Issue 31, tournament day through the API: a roster's approval and its lock."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Player, Team, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user

API = "/api/v1"
HUMANS = (("human-lineman", 11),)


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


@pytest.fixture
def event() -> tuple[User, User, League, Team]:
    boss, anna = make_user("boss"), make_user("anna")
    league = make_league(boss, "bb2025", anna)
    return boss, anna, league, make_active_team(anna, league, "human", "Reavers", HUMANS)


def _players(team_id: int) -> int:
    return (
        db.session.scalar(select(func.count()).select_from(Player).where(Player.team_id == team_id))
        or 0
    )


def test_the_organiser_approves_and_the_roster_is_locked(client: FlaskClient, event) -> None:
    boss, anna, _league, team = event
    url = f"{API}/teams/{team.id}/approval"
    approved = client.post(url, json={"approved": True}, headers=auth(boss))
    assert approved.status_code == 200, approved.json
    assert approved.json["team_id"] == team.id
    assert approved.json["state"] == "approved"
    assert approved.json["locked"] is True
    assert approved.json["note"] is None
    assert approved.json["changed_at"] is not None
    assert client.get(f"{API}/teams/{team.id}").json["roster_approval"]["state"] == "approved"

    # The coach's hire is refused with the registered code, and nothing is written.
    before = _players(team.id)
    hire = client.post(
        f"{API}/teams/{team.id}/players",
        json={"position": "human-lineman", "name": "Late Signing"},
        headers=auth(anna),
    )
    assert hire.status_code == 409
    assert hire.json["error"]["code"] == "roster_locked"
    assert "locked" in hire.json["error"]["message"]
    assert _players(team.id) == before

    # Unlocked: open for changes again, counted as submitted.
    unlocked = client.post(url, json={"approved": False}, headers=auth(boss))
    assert unlocked.json["state"] == "submitted"
    assert unlocked.json["locked"] is False
    assert client.post(url, json={"approved": True}, headers=auth(boss)).json["locked"] is True

    # Sent back with a note: unlocked, and the coach reads the note in the team JSON.
    returned = client.post(
        url, json={"approved": False, "note": "One lineman too many."}, headers=auth(boss)
    )
    assert returned.json["state"] == "returned"
    assert returned.json["locked"] is False
    shown = client.get(f"{API}/teams/{team.id}").json["roster_approval"]
    assert shown["note"] == "One lineman too many."
    hire = client.post(
        f"{API}/teams/{team.id}/players",
        json={"position": "human-lineman", "name": "Late Signing"},
        headers=auth(anna),
    )
    assert hire.status_code == 201, hire.json
    assert _players(team.id) == before + 1


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({}, 400, "'approved'"),
        ({"approved": "yes"}, 400, "'approved'"),
        ({"approved": False, "note": 5}, 400, "'note'"),
        ({"approved": False, "note": "x" * 501}, 422, "500"),
    ],
)
def test_a_bad_review_is_refused_and_writes_nothing(
    client: FlaskClient, event, body: dict[str, object], status: int, named: str
) -> None:
    boss, _anna, _league, team = event
    response = client.post(f"{API}/teams/{team.id}/approval", json=body, headers=auth(boss))
    assert response.status_code == status, response.json
    assert named in response.json["error"]["message"]
    db.session.expire_all()
    assert db.session.get(Team, team.id).roster_state == "open"  # type: ignore[union-attr]


def test_only_the_organiser_reviews_a_roster(client: FlaskClient, event) -> None:
    _boss, anna, _league, team = event
    response = client.post(
        f"{API}/teams/{team.id}/approval", json={"approved": True}, headers=auth(anna)
    )
    assert response.status_code == 403
    anonymous = client.post(f"{API}/teams/{team.id}/approval", json={"approved": True})
    assert anonymous.status_code == 401
    assert (
        client.post(f"{API}/teams/{team.id}/approval", json={"approved": True}).status_code == 401
    )


def test_the_first_round_waits_for_the_rosters_unless_started_anyway(
    client: FlaskClient, event
) -> None:
    boss, anna, league, _team = event
    make_active_team(anna, league, "human", "Bright Crusaders", HUMANS)
    client.patch(
        f"{API}/leagues/{league.id}",
        json={"roster_deadline": "2026-12-05T09:00:00Z"},
        headers=auth(boss),
    )
    refused = client.post(f"{API}/leagues/{league.id}/rounds", headers=auth(boss))
    assert refused.status_code == 409
    assert refused.json["error"]["code"] == "rosters_unapproved"
    assert refused.json["error"]["message"] == (
        "2 rosters are not approved yet: Bright Crusaders and Reavers."
    )
    started = client.post(f"{API}/leagues/{league.id}/rounds?start_anyway=true", headers=auth(boss))
    assert started.status_code == 201, started.json
