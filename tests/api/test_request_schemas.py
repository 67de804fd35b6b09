"""Request bodies loaded by the schemas that document them: each malformed body is the
400 `invalid_field` naming the field (a nested one by its path), worded as the hand
parsers worded it, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, User
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_user

API = "/api/v1"


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def invalid(field: str, message: str) -> dict[str, Any]:
    return {"error": {"code": "invalid_field", "message": f"'{field}' {message}"}}


@pytest.fixture
def boss() -> User:
    return make_user("boss")


# ---------------------------------------------------------------------------
# Leagues: POST /leagues and PATCH /leagues/<id>

SETTINGS_REFUSALS = [
    ({"name": None}, "name", "is required."),
    ({"name": 7}, "name", "must be a string."),
    ({"name": "Nul\x00League"}, "name", "must not contain NUL characters."),
    ({"ruleset": None}, "ruleset", "is required."),
    ({"ruleset": ["bb2025"]}, "ruleset", "must be a string."),
    ({"starting_treasury": None}, "starting_treasury", "must be an integer."),
    ({"starting_treasury": 1.5}, "starting_treasury", "must be an integer."),
    ({"starting_treasury": True}, "starting_treasury", "must be an integer."),
    ({"points": None}, "points", "must be a JSON object."),
    ({"points": "3-1-0"}, "points", "must be a JSON object."),
    ({"points": {"win": None}}, "points.win", "must be an integer."),
    ({"points": {"draw": "1"}}, "points.draw", "must be an integer."),
    (
        {"points": {"loss": -(2**31) - 1}},
        "points.loss",
        "must be between -2147483648 and 2147483647.",
    ),
    ({"tie_breakers": None}, "tie_breakers", "must be a list of tie-breaker names."),
    ({"tie_breakers": ["points", 3]}, "tie_breakers", "must be a list of tie-breaker names."),
    ({"tie_breakers": {"points": 1}}, "tie_breakers", "must be a list of tie-breaker names."),
    ({"house_rules": None}, "house_rules", "must be a JSON object."),
    ({"house_rules": "none"}, "house_rules", "must be a JSON object."),
    ({"table_dice_allowed": None}, "table_dice_allowed", "must be true or false."),
    ({"table_dice_allowed": 1}, "table_dice_allowed", "must be true or false."),
    ({"table_dice_allowed": "true"}, "table_dice_allowed", "must be true or false."),
    ({"paper_size": None}, "paper_size", "is required."),
    ({"paper_size": 4}, "paper_size", "must be a string."),
    ({"paper_size": "a4\x00"}, "paper_size", "must not contain NUL characters."),
    # The first field in the order the schema declares them is the one named.
    ({"paper_size": 4, "points": {"win": "x"}, "name": 1}, "name", "must be a string."),
    ({"paper_size": 4, "points": {"win": "x"}}, "points.win", "must be an integer."),
]


@pytest.mark.parametrize(("body", "field", "message"), SETTINGS_REFUSALS)
def test_a_malformed_setting_is_refused_by_patch_naming_it(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    league = make_league(boss, "bb2025")
    before = (league.name, league.ruleset_id, league.points_win, league.paper_size)
    response = client.patch(f"{API}/leagues/{league.id}", json=body, headers=auth(boss))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    db.session.expire_all()
    league = db.session.get(League, league.id)
    assert league is not None
    assert (league.name, league.ruleset_id, league.points_win, league.paper_size) == before


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        *(
            (body, field, message)
            for body, field, message in SETTINGS_REFUSALS
            if field != "ruleset"
        ),
        ({"ruleset": ["bb2025"]}, "ruleset", "must be a string."),
        ({}, "name", "is required."),
    ],
)
def test_a_malformed_new_league_is_refused_naming_the_field(
    client: FlaskClient, boss: User, body: dict[str, Any], field: str, message: str
) -> None:
    body = {"name": "Old World Cup", **body} if "name" not in body and body else body
    response = client.post(f"{API}/leagues", json=body, headers=auth(boss))
    assert response.status_code == 400
    assert response.json == invalid(field, message)
    assert db.session.scalar(select(func.count(League.id))) == 0


def test_a_null_ruleset_takes_the_default_and_unknown_members_are_ignored(
    client: FlaskClient, boss: User
) -> None:
    response = client.post(
        f"{API}/leagues",
        # Members the API does not know are ignored, even one named as a setting inside.
        json={
            "name": "Old World Cup",
            "ruleset": None,
            "ruleset_id": "classic",
            "points_win": 7,
            "points": {"win": 2, "tie": 5},
        },
        headers=auth(boss),
    )
    assert response.status_code == 201, response.json
    league = db.session.get(League, response.json["id"])
    assert league is not None
    assert (league.ruleset_id, league.points_win, league.points_draw) == ("bb2025", 2, 1)


def test_patch_changes_only_the_settings_given(client: FlaskClient, boss: User) -> None:
    league = make_league(boss, "bb2025")
    response = client.patch(
        f"{API}/leagues/{league.id}",
        json={"points": {"draw": 0}, "tie_breakers": ["td_scored"], "starting_treasury": 2.0},
        headers=auth(boss),
    )
    assert response.status_code == 200, response.json
    db.session.expire_all()
    league = db.session.get(League, league.id)
    assert league is not None
    assert (league.points_win, league.points_draw, league.points_loss) == (3, 0, 0)
    assert list(league.tie_breakers) == ["td_scored"]
    assert league.starting_treasury == 2
