"""API v1: webhooks (GET|POST /leagues/{id}/webhooks, DELETE /webhooks/{id},
GET /webhooks/{id}/deliveries) and membership through the API."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from league.models import User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_team, make_user
from tests.receiver import receiver

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def test_a_webhook_is_registered_listed_with_its_deliveries_and_deleted(
    app: Flask, client: FlaskClient
) -> None:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=True, WEBHOOK_DISPATCH="inline")
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    hooks = f"{API}/leagues/{league.id}/webhooks"
    with receiver() as listening:
        created = client.post(
            hooks, headers=auth(boss), json={"url": listening.url, "events": ["team.created"]}
        )
        assert created.status_code == 201, created.json
        hook = created.json
        assert (hook["format"], hook["events"], hook["paused"]) == ("json", ["team.created"], False)
        make_team(coach, league, "human", "Reikland Reavers")
    listed = client.get(hooks, headers=auth(boss)).json["webhooks"]
    assert [w["id"] for w in listed] == [hook["id"]]
    assert "secret" not in listed[0]  # shown once, when registered
    deliveries = client.get(f"{API}/webhooks/{hook['id']}/deliveries", headers=auth(boss)).json
    [delivery] = deliveries["deliveries"]
    assert (delivery["event"], delivery["status"], delivery["response_code"]) == (
        "team.created",
        "delivered",
        204,
    )
    assert client.get(hooks, headers=auth(coach)).status_code == 403
    assert client.delete(f"{API}/webhooks/{hook['id']}", headers=auth(coach)).status_code == 403
    assert client.delete(f"{API}/webhooks/{hook['id']}", headers=auth(boss)).status_code == 200
    assert client.get(hooks, headers=auth(boss)).json == {"webhooks": []}


def test_an_address_of_this_server_is_refused(app: Flask, client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss)
    response = client.post(
        f"{API}/leagues/{league.id}/webhooks",
        headers=auth(boss),
        json={"url": "http://127.0.0.1:5000/hook", "events": ["team.created"], "format": "discord"},
    )
    assert response.status_code == 422
    assert response.json["error"]["code"] == "invalid_url"
    unknown = client.post(
        f"{API}/leagues/{league.id}/webhooks",
        headers=auth(boss),
        json={"url": "https://1.1.1.1/hook", "events": ["match.played"]},
    )
    assert unknown.status_code == 422
    assert "match.finalised" in unknown.json["error"]["message"]


def test_the_last_commissioner_cannot_be_removed(app: Flask, client: FlaskClient) -> None:
    # The last commissioner is the owner (a league's creator), whom nobody removes.
    boss = make_user("boss")
    league = make_league(boss)
    response = client.delete(f"{API}/leagues/{league.id}/members/{boss.id}", headers=auth(boss))
    assert response.status_code == 409
    assert response.json["error"]["message"] == (
        "boss owns bb2025 league and cannot be removed; "
        "only the owner can hand the league over to another commissioner."
    )
    demoted = client.patch(
        f"{API}/leagues/{league.id}/members/{boss.id}", headers=auth(boss), json={"role": "coach"}
    )
    assert demoted.status_code == 400
    assert demoted.json["error"]["code"] == "invalid_field"


def test_fixtures_are_generated_once_per_season(app: Flask, client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    for name in ("Alpha", "Bravo", "Charlie"):
        client.post(
            f"{API}/leagues/{league.id}/teams",
            headers=auth(coach),
            json={"name": name, "team_type": "human"},
        )
    generate = f"{API}/leagues/{league.id}/fixtures/generate"
    first = client.post(generate, headers=auth(boss), json={})
    assert first.status_code == 201
    # Three teams, single round robin: 3 rounds of 1 match (one team has a bye each round).
    assert sorted(f["round"] for f in first.json["fixtures"]) == [1, 2, 3]
    again = client.post(generate, headers=auth(boss), json={"format": "double"})
    assert again.status_code == 409
    assert again.json["error"]["code"] == "season_has_fixtures"
    listed = client.get(f"{API}/leagues/{league.id}/fixtures").json
    assert len(listed["fixtures"]) == 3
    bad_date = client.post(generate, headers=auth(boss), json={"start_date": "2026-02-30"})
    assert bad_date.status_code == 400
