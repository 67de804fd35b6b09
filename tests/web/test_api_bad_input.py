"""Bad input to the API gets a clear error and changes nothing (issue 14, point 6).

Each case here was a 500, or a record a team export could not carry, before:
text that is not valid Unicode, ids outside 1 to 2**31 - 1, fields an
advancement kind does not take, a names across
lines or turned around by text-direction controls, and any other fault under /api/
(a JSON error there, never the HTML page).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.api.schemas import ErrorSchema
from league.extensions import db
from league.models import Advancement
from league.services import access, exchange
from tests.web.test_api_advancement import World as AdvancementWorld
from tests.web.test_api_advancement import with_table_dice
from tests.web.test_api_leagues_teams import API, assert_error, auth
from tests.web.test_api_leagues_teams import snapshot as api_snapshot
from tests.web.test_api_matches import World as MatchWorld
from tests.web.test_api_matches import snapshot as match_snapshot

#: Half a surrogate pair as JSON escapes it: Python reads it into a str no driver encodes.
SURROGATE = "\\ud800"


def post_json_text(client: FlaskClient, path: str, json_text: str, token: str) -> Any:
    """POST JSON text as is (the test client's `json=` cannot encode a lone surrogate)."""
    return client.post(
        f"{API}{path}", data=json_text, content_type="application/json", headers=auth(token)
    )


@pytest.fixture
def advancing(client: FlaskClient) -> AdvancementWorld:
    return AdvancementWorld.built_once(client, then=with_table_dice)


@pytest.fixture
def matches(client: FlaskClient) -> MatchWorld:
    return MatchWorld.built_once(client)


# ---------------------------------------------------------------------------
# Text that is not valid Unicode: refused where every JSON body is read


@pytest.mark.parametrize(
    ("json_text", "field"),
    [
        (f'{{"name": "{SURROGATE}x"}}', "name"),
        (f'{{"name": "Old World", "ruleset": "bb{SURROGATE}"}}', "ruleset"),
        # A member's name, and a string deep in lists and objects, are named by their path.
        (f'{{"{SURROGATE}": 1, "name": "Old World"}}', "\\ud800"),
        (f'{{"name": "Old World", "x": [{{"y": ["{SURROGATE}"]}}]}}', "x[0].y[0]"),
    ],
)
def test_a_lone_surrogate_is_400_naming_the_field(
    advancing: AdvancementWorld, json_text: str, field: str
) -> None:
    before = api_snapshot()
    response = post_json_text(advancing.client, "/leagues", json_text, advancing.boss_token)
    assert_error(response, 400, "invalid_field", f"'{field}'", "valid Unicode")
    assert api_snapshot() == before


def test_every_json_body_refuses_a_lone_surrogate(advancing: AdvancementWorld) -> None:
    world = advancing
    bodies = {
        f"/teams/{world.team_id}/players": (
            f'{{"position": "human-lineman", "name": "{SURROGATE}"}}'
        ),
        f"/leagues/{world.league_id}/teams": f'{{"name": "Ab{SURROGATE}", "team_type": "human"}}',
        f"/players/{world.blitzer}/advancements": (
            f'{{"kind": "chosen_primary", "skill": "Guard{SURROGATE}"}}'
        ),
        f"/teams/{world.team_id}/purchases": f'{{"item": "{SURROGATE}"}}',
    }
    world.give_spp(20)
    before = api_snapshot()
    for path, json_text in bodies.items():
        response = post_json_text(world.client, path, json_text, world.grim_token)
        assert response.status_code == 400, (path, response.json)
        assert response.json["error"]["code"] == "invalid_field", path
    assert api_snapshot() == before
    assert db.session.scalar(select(func.count(Advancement.id))) == 0


def test_an_import_with_a_lone_surrogate_is_400(advancing: AdvancementWorld) -> None:
    document = exchange.export_team(db.session, advancing.team_id)
    document["team"]["name"] = "Copy"
    json_text = advancing.client.application.json.dumps(document)
    json_text = json_text.replace('"Copy"', f'"Copy{SURROGATE}"')
    before = api_snapshot()
    path = f"/leagues/{advancing.league_id}/teams/import"
    response = post_json_text(advancing.client, path, json_text, advancing.boss_token)
    assert_error(response, 400, "invalid_field", "'team.name'")
    assert api_snapshot() == before


# ---------------------------------------------------------------------------
# Ids: 1 to 2**31 - 1, or the body is malformed


@pytest.mark.parametrize("player_id", [-(2**31) - 1, -(2**63) - 1, -1, 0])
def test_a_player_id_outside_the_id_range_is_400(matches: MatchWorld, player_id: int) -> None:
    report = matches.report()
    report["players"][1]["player_id"] = player_id
    before = match_snapshot(matches)
    response = matches.record(report)
    assert_error(
        response, 400, "invalid_field", "'players[1].player_id'", "from 1 to 2,147,483,647"
    )
    assert match_snapshot(matches) == before


@pytest.mark.parametrize("team", ["home_team", "away_team"])
@pytest.mark.parametrize("team_id", [-(2**63) - 1, -(2**31) - 1, 0])
def test_a_team_id_outside_the_id_range_is_400(
    matches: MatchWorld, team: str, team_id: int
) -> None:
    before = match_snapshot(matches)
    response = matches.record(matches.report(**{team: team_id}))
    assert_error(response, 400, "invalid_field", f"'{team}'")
    assert match_snapshot(matches) == before


# ---------------------------------------------------------------------------
# Advancement: fields a kind does not take are refused before anything is written


@pytest.mark.parametrize(
    ("body", "field"),
    [
        # Stored as the advancement's category, it was a 500 on PostgreSQL (two characters
        # wide) and, on SQLite, a record whose team export no longer imported.
        ({"kind": "chosen_primary", "skill": "Mighty Blow", "category": "ZZZZZZZZ"}, "category"),
        ({"kind": "chosen_primary", "skill": "Mighty Blow", "category": "G"}, "category"),
        ({"kind": "chosen_secondary", "skill": "Dodge", "dice": [3, 4]}, "dice"),
        ({"kind": "chosen_primary", "skill": "Guard", "characteristic": "st"}, "characteristic"),
        (
            {"kind": "random_characteristic", "dice": [7], "characteristic": "st", "category": "G"},
            "category",
        ),
    ],
)
def test_a_field_the_kind_does_not_take_is_422(
    advancing: AdvancementWorld, body: dict[str, Any], field: str
) -> None:
    advancing.give_spp(30)
    before = api_snapshot()
    response = advancing.advance(body)
    assert_error(response, 422, "field_not_taken", f"takes no {field}")
    assert api_snapshot() == before
    assert db.session.scalar(select(func.count(Advancement.id))) == 0
    assert advancing.player()["spp"]["spent"] == 0


def test_an_unknown_category_on_a_random_kind_is_422(advancing: AdvancementWorld) -> None:
    advancing.give_spp(30)
    body = {"kind": "random_primary", "category": "ZZZZZZZZ", "dice": [1, 2, 1, 3]}
    response = advancing.advance(body)
    assert_error(response, 422, "skill_not_allowed", "no skill category 'ZZZZZZZZ'")
    assert db.session.scalar(select(func.count(Advancement.id))) == 0


def test_what_a_kind_takes_is_still_accepted_and_exports(advancing: AdvancementWorld) -> None:
    """The refusals above take nothing from a valid request, and its export imports."""
    advancing.give_spp(30)
    body = {"kind": "random_primary", "category": "G", "dice": [1, 2, 1, 3], "skill": "Fend"}
    response = advancing.advance(body)
    assert response.status_code == 201, response.json
    assert response.json["advancement"]["category"] == "G"
    document = exchange.export_team(db.session, advancing.team_id)
    document["team"]["name"] = "Reikland Reavers II"
    path = f"/leagues/{advancing.league_id}/teams/import"
    response = advancing.post(path, document, advancing.boss_token)
    assert response.status_code == 201, response.json


# ---------------------------------------------------------------------------
# Names: one line, no text-direction controls


ONE_LINE_BREAKERS = ["Two\nLines", "Carriage\rReturn", "Evil\u202eOrcs", "Iso\u2066late\u2069"]


@pytest.mark.parametrize("name", ONE_LINE_BREAKERS)
def test_names_across_lines_or_turned_around_are_422(
    advancing: AdvancementWorld, name: str
) -> None:
    world = advancing
    calls = {
        "/leagues": ({"name": name}, world.boss_token),
        f"/leagues/{world.league_id}/teams": (
            {"name": name, "team_type": "human"},
            world.grim_token,
        ),
        f"/teams/{world.team_id}/players": (
            {"position": "human-lineman", "name": name},
            world.grim_token,
        ),
    }
    before = api_snapshot()
    for path, (body, token) in calls.items():
        response = world.post(path, body, token)
        assert_error(response, 422, "invalid_name", "one line of text")
    assert api_snapshot() == before


def test_a_line_break_at_either_end_is_trimmed(advancing: AdvancementWorld) -> None:
    body = {"position": "human-lineman", "name": "\r\nGriff Jr\n"}
    response = advancing.post(f"/teams/{advancing.team_id}/players", body, advancing.grim_token)
    assert response.status_code == 201, response.json
    assert response.json["name"] == "Griff Jr"


def test_an_imported_name_across_lines_is_a_document_problem(advancing: AdvancementWorld) -> None:
    document = exchange.export_team(db.session, advancing.team_id)
    document["team"]["name"] = "Reavers\u202eII"
    document["players"][0]["name"] = "Griff\nJr"
    before = api_snapshot()
    path = f"/leagues/{advancing.league_id}/teams/import"
    response = advancing.post(path, document, advancing.boss_token)
    assert response.status_code == 422, response.json
    problems = {p["path"]: p["message"] for p in response.json["error"]["problems"]}
    assert "one line of text" in problems["team.name"]
    assert "one line of text" in problems["players[0].name"]
    assert api_snapshot() == before


# ---------------------------------------------------------------------------
# Anything unexpected under /api/ is a JSON error


def test_an_unexpected_error_under_api_is_json(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(access, "get_league", fail)
    response = client.get(f"{API}/leagues/1")
    assert response.status_code == 500
    assert response.mimetype == "application/json"
    assert response.json == {
        "error": {
            "code": "internal",
            "message": "Something went wrong. The error has been logged; nothing was saved.",
        }
    }
    assert ErrorSchema().validate(response.json) == {}  # the documented shape
    assert "secret internals" not in response.text
    page = client.get("/leagues/1")  # the pages keep their themed HTML page
    assert page.status_code == 500
    assert page.mimetype == "text/html"
