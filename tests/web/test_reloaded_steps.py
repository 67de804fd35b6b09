"""A step that only posts (a confirmation, a button) answers a GET of its URL, as when
the page is reloaded from the address bar, with the page the step belongs to."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask
from flask.testing import FlaskClient

from tests.factories import buy, make_league, make_team, make_user
from tests.pages import login


def _posted_urls(app: Flask) -> set[str]:
    """Each URL of the site (not the API) that a form posts to, with 1 for its arguments."""
    adapter = app.url_map.bind("localhost")
    return {
        adapter.build(rule.endpoint, dict.fromkeys(rule.arguments, 1))
        for rule in app.url_map.iter_rules()
        if "POST" in (rule.methods or ()) and not rule.rule.startswith("/api/")
    }


def test_no_page_of_the_site_answers_a_get_with_405(app: Flask, client: FlaskClient) -> None:
    urls = _posted_urls(app)
    assert "/teams/1/give-back" in urls
    assert "/players/1/advance/confirm" in urls
    adapter = app.url_map.bind("localhost")
    for url in urls:
        response = client.get(url)
        assert response.status_code not in (405, 500), url
        if response.status_code == 302:
            location = urlsplit(response.headers["Location"]).path
            # To a page: a GET the site answers (not another step).
            endpoint, _args = adapter.match(location, method="GET")
            assert not endpoint.endswith("_reload"), (url, location)


def test_reloading_a_confirmation_shows_its_team_page(client: FlaskClient) -> None:
    coach = make_user("coach")
    team = make_team(coach, make_league(make_user("commish"), "bb2025", coach))
    buy(coach, team, "reroll")
    login(client, "coach")
    asked = client.post(f"/teams/{team.id}/give-back", data={"item": "reroll"})
    assert asked.status_code == 200
    assert "Give back" in asked.text  # the question, on the give-back URL

    reloaded = client.get(f"/teams/{team.id}/give-back")
    assert reloaded.status_code == 302
    assert reloaded.headers["Location"] == f"/teams/{team.id}"
    page = client.get(reloaded.headers["Location"])
    assert page.status_code == 200
    assert "<h1><bdi>Reikland Reavers</bdi>" in page.text


def test_a_step_of_a_match_side_shows_the_match(client: FlaskClient) -> None:
    # The side is part of the step's URL, not of the page's.
    response = client.get("/matches/7/mvp/home")
    assert response.status_code == 302
    assert response.headers["Location"] == "/matches/7"
    assert client.get("/matches/7/pregame/away").headers["Location"] == "/matches/7/pregame"
