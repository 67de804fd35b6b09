"""The Host header cannot force PDF renders (issue 14, point 8).

The sheet prints the team page's address from configuration (PUBLIC_URL), so
alternating Host headers neither render the sheet again nor evict the copy
other visitors get; production accepts only its own host names; signed-out
visitors get a limited number of renders.
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from league.models import Team
from tests.conftest import make_app
from tests.factories import make_league, make_team, make_user
from tests.pages import login
from tests.pdf import pdf_text


@pytest.fixture
def three_teams() -> list[Team]:
    coach = make_user("grim")
    league = make_league(coach)
    return [make_team(coach, league, name=name) for name in ("Reavers", "Marauders", "Bulls")]


def roster(client: FlaskClient, team: Team, host: str = "localhost"):
    return client.get(f"/teams/{team.id}/roster.pdf", headers={"Host": host})


def test_alternating_host_headers_get_the_cached_sheet(
    app: Flask, client: FlaskClient, three_teams: list[Team]
) -> None:
    app.config["PUBLIC_URL"] = "https://league.example.org"
    team = three_teams[0]
    caches = [
        roster(client, team, host).headers["X-PDF-Cache"]
        for host in ("a.example", "b.example", "a.example", "localhost")
    ]
    assert caches == ["miss", "hit", "hit", "hit"]
    text = " ".join(pdf_text(roster(client, team, "evil.example").data)[0].split())
    assert f"https://league.example.org/teams/{team.id}" in text
    assert "evil.example" not in text


def test_signed_out_renders_are_limited_per_address(
    app: Flask, client: FlaskClient, three_teams: list[Team]
) -> None:
    app.config["PDF_RENDER_LIMIT"] = "2 per minute"
    first, second, third = three_teams
    assert roster(client, first).headers["X-PDF-Cache"] == "miss"
    for _ in range(3):  # copies from the cache are not counted
        assert roster(client, first).headers["X-PDF-Cache"] == "hit"
    assert roster(client, second).headers["X-PDF-Cache"] == "miss"
    refused = roster(client, third)
    assert refused.status_code == 429
    assert "Traceback" not in refused.text

    login(client, "grim")  # signed-in coaches print their sheets as often as they need
    assert roster(client, third).status_code == 200


PRODUCTION = {
    "LEAGUE_ENV": "production",
    "PUBLIC_URL": "https://league.example.org",
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_SINGLE_PROCESS": True,
}


def test_production_accepts_only_its_own_host_names(database_url: str) -> None:
    client = make_app(database_url, **PRODUCTION).test_client()
    assert client.get("/login", headers={"Host": "league.example.org"}).status_code == 200
    assert client.get("/login", headers={"Host": "evil.example"}).status_code == 400

    listed = {**PRODUCTION, "TRUSTED_HOSTS": ["league.example.org", "bb.example.org"]}
    client = make_app(database_url, **listed).test_client()
    assert client.get("/login", headers={"Host": "bb.example.org"}).status_code == 200
    assert client.get("/login", headers={"Host": "evil.example"}).status_code == 400


def test_production_needs_a_public_address(database_url: str) -> None:
    with pytest.raises(RuntimeError, match="PUBLIC_URL is not set"):
        make_app(database_url, **{**PRODUCTION, "PUBLIC_URL": None})
    app = make_app(database_url, **{**PRODUCTION, "PUBLIC_URL": None, "SERVER_NAME": "bb.example"})
    assert app.config["TRUSTED_HOSTS"] == ["bb.example"]
