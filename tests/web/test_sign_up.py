"""Signing up: an invite link survives registration; every password fault at once."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import User
from tests.factories import make_league, make_user
from tests.pages import field_errors, flashes

NEW_COACH = {"username": "newbie", "password": "blocking-dwarf", "confirm": "blocking-dwarf"}


def _link(page: str, text: str) -> str:
    """The address of the page's last link reading `text` (the form's, not the menu's)."""
    found = re.findall(rf'<a href="([^"]*)">{re.escape(text)}</a>', page)
    assert found, f"no link {text!r}"
    return html.unescape(found[-1])


def test_an_invite_link_opened_signed_out_leads_to_the_join_page_after_registering(
    client: FlaskClient,
) -> None:
    league = make_league(make_user("comm"), "bb2025")
    join_path = f"/leagues/{league.id}/join/{league.join_token}"

    response = client.get(join_path)
    assert response.status_code == 302
    login_url = response.headers["Location"]
    # The login page's "Create an account" link carries the invite on.
    register_url = _link(client.get(login_url).text, "Create an account")
    assert register_url.startswith("/register?next=")
    # ...and so does the register page's "Log in" link back.
    assert unquote(_link(client.get(register_url).text, "Log in")) == unquote(login_url)

    response = client.post(register_url, data=NEW_COACH)
    assert response.status_code == 302
    assert response.headers["Location"] == join_path
    page = client.get(join_path).text
    assert "Welcome, newbie! Your account is ready." in flashes(page)
    assert "Join bb2025 league?" in page
    assert "Join the league</button>" in page


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "/\t/evil.example/",
        "javascript:alert(1)",
    ],
)
def test_registering_never_redirects_off_site(client: FlaskClient, target: str) -> None:
    page = client.get("/login", query_string={"next": target}).text
    assert _link(page, "Create an account") == "/register"  # not passed on either

    response = client.post("/register", query_string={"next": target}, data=NEW_COACH)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert db.session.scalar(select(User.username).where(User.username == "newbie"))


def test_logging_in_never_follows_a_backslash_next(client: FlaskClient) -> None:
    make_user("grim")
    client.get("/login")
    response = client.post(
        "/login",
        query_string={"next": "/\\evil.example/"},
        data={"username": "grim", "password": "correct horse battery"},
    )
    assert response.headers["Location"] == "/"


def test_a_short_password_that_also_differs_reports_both_faults(client: FlaskClient) -> None:
    response = client.post(
        "/register", data={"username": "grim", "password": "short", "confirm": "other"}
    )
    assert response.status_code == 200
    assert field_errors(response.text, "password") == ["A password needs at least 8 characters."]
    assert field_errors(response.text, "confirm") == ["The passwords differ."]
    assert db.session.scalar(select(User).where(User.username == "grim")) is None
