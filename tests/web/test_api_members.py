"""Membership through the API (issue 33): removing a member says what becomes of their
teams and changes the join link; the league's owner is named, kept and handed over."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import League, Team, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_team, make_user

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def _teams(league_id: int) -> dict[str, tuple[str, bool]]:
    db.session.expire_all()
    found = db.session.scalars(select(Team).where(Team.league_id == league_id))
    return {t.name: (t.coach.username, t.coachless_since is not None) for t in found}


def _league(league_id: int) -> League:
    db.session.expire_all()
    league = db.session.get(League, league_id)
    assert league is not None
    return league


def test_members_name_the_owner(client: FlaskClient) -> None:
    boss, grim = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", grim)
    answer = client.get(f"{API}/leagues/{league.id}/members")
    assert answer.json["members"] == [
        {"user_id": boss.id, "username": "boss", "role": "commissioner", "owner": True},
        {"user_id": grim.id, "username": "grim", "role": "coach", "owner": False},
    ]


def test_removing_without_a_body_leaves_the_teams_without_a_coach(client: FlaskClient) -> None:
    boss, grim = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", grim)
    make_team(grim, league, "human", "Reavers")
    old = client.get(f"{API}/leagues/{league.id}/join-link", headers=auth(boss)).json["token"]
    answer = client.delete(f"{API}/leagues/{league.id}/members/{grim.id}", headers=auth(boss))
    assert answer.status_code == 200
    assert answer.json == {"user_id": grim.id, "username": "grim", "role": "coach", "owner": False}
    assert _teams(league.id) == {"Reavers": ("grim", True)}
    team_id = db.session.scalars(select(Team.id)).one()
    team = client.get(f"{API}/teams/{team_id}").json
    assert (team["coach"], team["coachless"]) == ("grim", True)
    # The old link's token no longer lets him back in.
    grim_auth = auth(grim)
    again = client.post(f"{API}/leagues/{league.id}/join", headers=grim_auth, json={"token": old})
    assert again.status_code == 403
    new = _league(league.id).join_token
    assert new != old
    back = client.post(f"{API}/leagues/{league.id}/join", headers=grim_auth, json={"token": new})
    assert back.status_code == 201
    bought = client.post(
        f"{API}/teams/{team_id}/purchases", headers=grim_auth, json={"item": "reroll"}
    )
    assert bought.status_code == 403


def test_the_teams_go_to_the_member_named(client: FlaskClient) -> None:
    boss, grim, ulf = make_user("boss"), make_user("grim"), make_user("ulf")
    league = make_league(boss, "bb2025", grim, ulf)
    make_team(grim, league, "human", "Reavers")
    answer = client.delete(
        f"{API}/leagues/{league.id}/members/{grim.id}",
        headers=auth(boss),
        json={"hand_teams_to": "ulf"},
    )
    assert answer.status_code == 200
    assert _teams(league.id) == {"Reavers": ("ulf", False)}


def test_a_bad_heir_changes_nothing(client: FlaskClient) -> None:
    boss, grim = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", grim)
    make_team(grim, league, "human", "Reavers")
    token = league.join_token
    url = f"{API}/leagues/{league.id}/members/{grim.id}"
    headers = auth(boss)
    unknown = client.delete(url, headers=headers, json={"hand_teams_to": "nobody"})
    assert unknown.status_code == 404
    assert unknown.json["error"]["message"] == "'nobody' is not another member of bb2025 league."
    wrong_type = client.delete(url, headers=headers, json={"hand_teams_to": 7})
    assert wrong_type.status_code == 400
    assert wrong_type.json["error"]["code"] == "invalid_field"
    not_json = client.delete(url, headers=headers, data="hand_teams_to=boss")
    assert not_json.status_code == 400
    assert _teams(league.id) == {"Reavers": ("grim", False)}
    assert _league(league.id).join_token == token
    members = client.get(f"{API}/leagues/{league.id}/members").json["members"]
    assert [m["username"] for m in members] == ["boss", "grim"]


def test_a_co_commissioner_cannot_remove_the_owner(client: FlaskClient) -> None:
    boss, deputy = make_user("boss"), make_user("deputy")
    league = make_league(boss, "bb2025", deputy)
    headers = auth(deputy)
    promoted = client.patch(
        f"{API}/leagues/{league.id}/members/{deputy.id}",
        headers=auth(boss),
        json={"role": "commissioner"},
    )
    assert promoted.status_code == 200
    answer = client.delete(f"{API}/leagues/{league.id}/members/{boss.id}", headers=headers)
    assert answer.status_code == 409
    assert answer.json["error"]["message"] == (
        "boss owns bb2025 league and cannot be removed; "
        "only the owner can hand the league over to another commissioner."
    )
    taken = client.post(
        f"{API}/leagues/{league.id}/owner", headers=headers, json={"user_id": deputy.id}
    )
    assert taken.status_code == 403
    assert _league(league.id).owner_id == boss.id

    handed = client.post(
        f"{API}/leagues/{league.id}/owner", headers=auth(boss), json={"user_id": deputy.id}
    )
    assert handed.status_code == 200
    assert handed.json == {
        "user_id": deputy.id,
        "username": "deputy",
        "role": "commissioner",
        "owner": True,
    }
    removed = client.delete(f"{API}/leagues/{league.id}/members/{boss.id}", headers=headers)
    assert removed.status_code == 200


def test_the_owner_is_handed_to_a_commissioner_only(client: FlaskClient) -> None:
    boss, grim = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", grim)
    url = f"{API}/leagues/{league.id}/owner"
    headers = auth(boss)
    coach = client.post(url, headers=headers, json={"user_id": grim.id})
    assert coach.status_code == 409
    assert coach.json["error"]["message"] == (
        "Only a commissioner can own the league: make grim commissioner first."
    )
    assert client.post(url, headers=headers, json={"user_id": 999}).status_code == 404
    assert client.post(url, headers=headers, json={"user_id": "grim"}).status_code == 400
    assert client.post(url, headers=headers, json={}).status_code == 400
    assert _league(league.id).owner_id == boss.id
