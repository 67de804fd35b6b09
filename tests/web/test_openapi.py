"""The OpenAPI document (GET /api/v1/openapi.json) and the API reference page (/api)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator
from sqlalchemy import select

from league.api.openapi import requires_token
from league.api.parsing import MAX_ID
from league.extensions import db
from league.models import League, Match, Player, Team, User
from league.seeding.demo import seed_demo
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token

API = "/api/v1"
METHODS = ("get", "post", "put", "patch", "delete")

#: Every endpoint clients rely on (docs/api.md); the document may have more.
CONTRACT = {
    ("get", "/api/v1/me"),
    ("get", "/api/v1/rulesets"),
    ("get", "/api/v1/rulesets/{ruleset_id}"),
    ("get", "/api/v1/rulesets/{ruleset_id}/team-types/{team_type_id}"),
    ("get", "/api/v1/rulesets/{ruleset_id}/inducements"),
    ("get", "/api/v1/rulesets/{ruleset_id}/star-players"),
    ("post", "/api/v1/leagues"),
    ("get", "/api/v1/leagues/{league_id}"),
    ("get", "/api/v1/leagues/{league_id}/standings"),
    ("post", "/api/v1/leagues/{league_id}/teams"),
    ("get", "/api/v1/teams/{team_id}"),
    ("post", "/api/v1/teams/{team_id}/players"),
    ("post", "/api/v1/teams/{team_id}/purchases"),
    ("delete", "/api/v1/players/{player_id}"),
    ("post", "/api/v1/leagues/{league_id}/matches"),
    ("get", "/api/v1/matches/{match_id}"),
    ("post", "/api/v1/matches/{match_id}/void"),
    ("get", "/api/v1/matches/{match_id}/pregame"),
    ("put", "/api/v1/matches/{match_id}/pregame/{side}"),
    ("post", "/api/v1/matches/{match_id}/journeymen/{player_id}/hire"),
    ("post", "/api/v1/matches/{match_id}/mvp-draw"),
    ("post", "/api/v1/matches/{match_id}/departures"),
    ("get", "/api/v1/players/{player_id}/advancement-options"),
    ("post", "/api/v1/players/{player_id}/advancements"),
    ("get", "/api/v1/openapi.json"),
    ("get", "/api/v1/matches/{match_id}/log"),
    ("post", "/api/v1/matches/{match_id}/log"),
    ("delete", "/api/v1/matches/{match_id}/log/{event_id}"),
    ("post", "/api/v1/matches/{match_id}/log/{event_id}/dispute"),
    ("post", "/api/v1/matches/{match_id}/log/confirm"),
    ("post", "/api/v1/matches/{match_id}/log/finalise"),
}


#: POSTs that take no body.
BODYLESS_POSTS = (
    *("/void", "/close", "/reopen", "/approve", "/advance", "/join-link", "/hire", "/rounds"),
    *("/dispute", "/keep", "/finalise", "/drop", "/undrop"),
)


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.json


def operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): item[method]
        for path, item in document["paths"].items()
        for method in METHODS
        if method in item
    }


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def validator(document: dict[str, Any], name: str) -> Draft202012Validator:
    """A JSON Schema validator for one component schema of the document."""
    schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
    return Draft202012Validator(schema)


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    OpenAPIV31SpecValidator(document).validate()  # raises on the first problem
    assert document["info"]["title"]
    assert "Bearer" in document["info"]["description"]


def test_every_api_route_is_documented_and_nothing_else(
    app: Flask, document: dict[str, Any]
) -> None:
    served = {
        (method.lower(), openapi_path(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(f"{API}/")
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert set(operations(document)) == served


def test_the_contract_and_the_extra_endpoints_are_described(document: dict[str, Any]) -> None:
    documented = set(operations(document))
    assert documented >= CONTRACT
    assert {
        ("get", "/api/v1/players/{player_id}"),
        ("get", "/api/v1/players/{player_id}/advancements"),
    } <= documented


def test_each_operation_has_a_summary_tag_and_unique_id(document: dict[str, Any]) -> None:
    tags = {tag["name"] for tag in document["tags"]}
    ids = [operation["operationId"] for operation in operations(document).values()]
    assert len(ids) == len(set(ids))
    for key, operation in operations(document).items():
        assert operation["summary"], key
        assert set(operation["tags"]) <= tags, key


def test_path_parameters_are_typed(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        names = re.findall(r"{([^}]+)}", path)
        parameters = {p["name"]: p for p in item.get("parameters", ()) if p["in"] == "path"}
        assert sorted(parameters) == sorted(names), path
        for name, parameter in parameters.items():
            assert parameter["required"] is True
            numbered = name.endswith("_id") or name == "season_number"
            if numbered and name not in ("ruleset_id", "team_type_id"):
                assert parameter["schema"] == {"type": "integer", "minimum": 0, "maximum": MAX_ID}
            else:
                assert parameter["schema"]["type"] == "string"


def test_bodies_and_responses_name_their_schemas(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for (method, path), operation in operations(document).items():
        if method == "post" and not path.endswith(BODYLESS_POSTS):
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            assert body["$ref"].rsplit("/", 1)[1] in schemas, path
        successes = [s for s in operation["responses"] if s.startswith("2")]
        assert successes, (method, path)
        for status in successes:
            if status == "204":  # No Content: nothing to describe
                assert "content" not in operation["responses"][status], (method, path)
                continue
            content = operation["responses"][status]["content"]
            # JSON, or the one XML document (the NAF results report), a string.
            media = "application/xml" if path.endswith("/naf-report.xml") else "application/json"
            assert set(content) == {media}, (method, path, status)
            assert "schema" in content[media], (method, path, status)
    assert operations(document)[("post", f"{API}/leagues")]["responses"].keys() >= {"201"}


def test_errors_share_one_documented_shape(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert schemas["Error"]["required"] == ["error"]
    assert set(schemas["ErrorDetail"]["required"]) == {"code", "message"}
    # Two errors say more: a match report's `fields`, a team document's `problems`.
    assert set(schemas["ErrorDetail"]["properties"]) == {"code", "message", "fields", "problems"}
    seen = set()
    for key, operation in operations(document).items():
        for status, response in operation["responses"].items():
            if status.startswith("4"):
                seen.add(status)
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (key, status)
                assert response["description"], (key, status)
            assert not status.startswith("5"), key
    assert seen == {"400", "401", "403", "404", "409", "422"}


def test_writes_need_the_bearer_token_and_public_reads_do_not(
    app: Flask, client: FlaskClient, document: dict[str, Any]
) -> None:
    scheme = document["components"]["securitySchemes"]["bearerAuth"]
    assert scheme == {**scheme, "type": "http", "scheme": "bearer"}
    views = {
        (method.lower(), openapi_path(rule.rule)): app.view_functions[rule.endpoint]
        for rule in app.url_map.iter_rules()
        for method in rule.methods or ()
    }
    for (method, path), operation in operations(document).items():
        url = re.sub(r"{[^}]+}", "1", path).replace("/rulesets/1", "/rulesets/bb2025")
        response = client.open(url, method=method.upper(), json={})
        if requires_token(views[(method, path)]):
            assert operation["security"] == [{"bearerAuth": []}], path
            assert "401" in operation["responses"], path
            assert response.status_code == 401, (method, path)
        else:
            assert method == "get", path
            assert operation["security"] == [], path
            assert response.status_code != 401, (method, path)
    me = operations(document)[("get", f"{API}/me")]
    assert me["security"] == [{"bearerAuth": []}]


def test_real_responses_match_the_documented_schemas(
    client: FlaskClient, document: dict[str, Any]
) -> None:
    with unit_of_work() as session:
        accounts = seed_demo(session)
        assert accounts is not None
        boss = session.scalar(select(User).where(User.username == accounts.username))
        token = issue_token(session, boss)
    league = db.session.scalars(select(League)).first()
    team = db.session.scalars(select(Team)).first()
    player = db.session.scalars(select(Player)).first()
    match = db.session.scalars(select(Match).where(Match.state == "played")).first()
    assert league is not None
    assert team is not None
    assert player is not None
    assert match is not None
    reads = {
        "/me": "Me",
        "/rulesets": "RulesetList",
        "/rulesets/bb2025": "Ruleset",
        "/rulesets/classic/team-types/human": "TeamType",
        "/rulesets/bb2025/inducements": "Inducements",
        "/rulesets/classic/inducements": "Inducements",
        "/rulesets/bb2020/star-players": "StarPlayers",
        "/rulesets/classic/star-players": "StarPlayers",
        f"/leagues/{league.id}": "League",
        f"/leagues/{league.id}/standings": "Standings",
        f"/teams/{team.id}": "Team",
        f"/players/{player.id}": "Player",
        f"/players/{player.id}/advancement-options": "AdvancementOptions",
        f"/players/{player.id}/advancements": "AdvancementList",
        f"/matches/{match.id}": "Match",
        f"/teams/{team.id}/export": "TeamDocument",
        "/teams/999999": "Error",
    }
    for path, schema in reads.items():
        response = client.get(f"{API}{path}", headers={"Authorization": f"Bearer {token}"})
        errors = list(validator(document, schema).iter_errors(response.json))
        assert not errors, (path, [error.message for error in errors])
    report = client.post(
        f"{API}/leagues/{league.id}/matches",
        json={"home_team": team.id, "away_team": team.id, "home_score": -1, "away_score": 0},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert report.status_code == 422
    assert not list(validator(document, "Error").iter_errors(report.json))


def test_out_of_range_ids_are_404_whatever_the_method(client: FlaskClient) -> None:
    # Werkzeug's int(max=...) made these 405 where GET and POST share the path.
    for method, path in (
        ("POST", "/players/99999999999/advancements"),
        ("DELETE", "/players/99999999999"),
        ("GET", "/players/99999999999/advancements"),
        ("POST", "/matches/99999999999/void"),
    ):
        response = client.open(f"{API}{path}", method=method, json={})
        assert response.status_code == 404, (method, path)
        assert response.json["error"]["code"] == "not_found"


def test_a_number_with_a_zero_fraction_is_an_integer(client: FlaskClient) -> None:
    # JSON Schema's `integer` accepts 7.0; so does the API (the fuzzer found the mismatch).
    with unit_of_work() as session:
        seed_demo(session)
        boss = session.scalar(select(User).where(User.username == "commissioner"))
        token = issue_token(session, boss)
    team = db.session.scalars(select(Team).order_by(Team.id)).first()
    assert team is not None
    body = {"number": 42.0, "name": "Float Fred", "position": team.players[-1].position_id}
    response = client.post(
        f"{API}/teams/{team.id}/players", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code in (201, 422), response.json  # 422: the treasury may be short
    if response.status_code == 201:
        assert response.json["number"] == 42
    response = client.post(
        f"{API}/teams/{team.id}/players",
        json={**body, "number": 4.5},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400
    assert response.json["error"]["code"] == "invalid_field"


# ---------------------------------------------------------------------------
# The page


def test_the_api_page_renders_the_document(client: FlaskClient, document: dict[str, Any]) -> None:
    response = client.get("/api")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    for (method, path), operation in operations(document).items():
        assert f'id="op-{operation["operationId"]}"' in page
        assert f"<code>{path}</code>" in page or f'<code class="api-path">{path}</code>' in page
        assert method.upper() in page
    for name in document["components"]["schemas"]:
        assert f'id="schema-{name}"' in page
    for text in ("bearer token", "public", "required", "MatchReport", "idempotency_key", "422"):
        assert text in page
    assert 'href="/api/v1/openapi.json"' in page


def test_the_api_page_has_no_inline_script_or_style(client: FlaskClient) -> None:
    response = client.get("/api")
    page = response.get_data(as_text=True)
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert "<style" not in page
    assert " style=" not in page
    assert not re.search(r"\son[a-z]+=", page)  # no inline event handlers


def test_the_api_page_is_linked_from_every_page(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/api"' in page


def test_query_parameters_are_declared_once_and_referred_to(document: dict[str, Any]) -> None:
    shared = document["components"]["parameters"]
    assert shared["season"] == {**shared["season"], "name": "season", "in": "query"}
    referred = set()
    for key, operation in operations(document).items():
        for parameter in operation.get("parameters", ()):
            assert set(parameter) == {"$ref"}, key  # never written out again
            referred.add(parameter["$ref"].rsplit("/", 1)[1])
    assert referred == set(shared)
    standings = operations(document)[("get", f"{API}/leagues/{{league_id}}/standings")]
    assert standings["parameters"] == [{"$ref": "#/components/parameters/season"}]


def test_the_api_page_shows_shared_parameters(client: FlaskClient) -> None:
    page = client.get("/api").get_data(as_text=True)
    assert "Season number (default the current season)." in page
