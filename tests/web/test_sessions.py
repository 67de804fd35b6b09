"""Sessions end: log-out, a password change and "log out everywhere" stop old cookies.

A session or "keep me logged in" cookie copied from a browser must stop opening
the account once its owner logs out (issue 14, point 4).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from flask import Flask, g
from flask.testing import FlaskClient
from sqlalchemy import select

from league import config
from league.extensions import db
from league.models import AuditEntry, User
from league.services import users
from league.services.unit_of_work import unit_of_work
from tests.factories import DEFAULT_PASSWORD, make_user

COOKIES = ("session", "remember_token")
NEW_PASSWORD = "mighty zug smashes"


@pytest.fixture(autouse=True)
def _each_request_loads_its_user(app: Flask) -> None:
    """The tests' app context outlives each request, and Flask-Login caches the user in
    `g`: drop it, so every request (from whichever browser) reads its own cookies."""

    @app.before_request
    def forget_the_cached_user() -> None:
        g.pop("_login_user", None)


def log_in(client: FlaskClient, username: str = "grim", password: str = DEFAULT_PASSWORD):
    response = client.post(
        "/login", data={"username": username, "password": password, "remember": "y"}
    )
    assert response.status_code == 302, response.text
    return response


def copy_of(client: FlaskClient, app: Flask) -> FlaskClient:
    """Another browser holding the same session and remember cookies (a stolen copy)."""
    thief = app.test_client()
    for name in COOKIES:
        cookie = client.get_cookie(name)
        assert cookie is not None, name
        thief.set_cookie(name, cookie.value)
    return thief


def remember_only(client: FlaskClient, app: Flask) -> FlaskClient:
    """A browser restarted since: only the remember cookie is left."""
    browser = app.test_client()
    cookie = client.get_cookie("remember_token")
    assert cookie is not None
    browser.set_cookie("remember_token", cookie.value)
    return browser


def signed_in(client: FlaskClient) -> bool:
    return client.get("/profile").status_code == 200


def test_copied_cookies_work_until_the_log_out(app: Flask, client: FlaskClient) -> None:
    make_user("grim")
    log_in(client)
    thief, restarted = copy_of(client, app), remember_only(client, app)
    assert signed_in(thief)
    assert signed_in(restarted)

    client.post("/logout")

    assert not signed_in(client)
    assert not signed_in(thief)
    assert not signed_in(restarted)


def test_a_new_log_in_after_a_log_out_gets_a_new_remember_token(client: FlaskClient) -> None:
    make_user("grim")
    log_in(client)
    first = client.get_cookie("remember_token").value
    client.post("/logout")
    log_in(client)
    assert client.get_cookie("remember_token").value != first


def test_the_remember_cookie_is_lax_http_only_and_lasts_30_days(client: FlaskClient) -> None:
    make_user("grim")
    response = log_in(client)
    remember = next(
        header
        for header in response.headers.getlist("Set-Cookie")
        if header.startswith("remember_token=")
    )
    attributes = [part.strip() for part in remember.split(";")]
    assert "HttpOnly" in attributes
    assert "SameSite=Lax" in attributes
    expires = parsedate_to_datetime(
        next(part for part in attributes if part.startswith("Expires=")).split("=", 1)[1]
    )
    assert expires <= datetime.now(UTC) + timedelta(days=30, minutes=1)


def test_cookies_are_secure_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEAGUE_ENV", "production")
    settings = config.from_environment(Path("instance"))
    assert settings["SESSION_COOKIE_SECURE"] is True
    assert settings["REMEMBER_COOKIE_SECURE"] is True
    assert settings["REMEMBER_COOKIE_DURATION"] == timedelta(days=30)


def test_log_out_everywhere_ends_every_session(app: Flask, client: FlaskClient) -> None:
    make_user("grim")
    log_in(client)
    other_browser = app.test_client()
    log_in(other_browser)
    restarted = remember_only(other_browser, app)

    page = client.get("/profile").text
    assert "Log out everywhere" in page
    response = client.post("/profile/sessions/end", follow_redirects=True)
    assert "You are logged out on every device." in response.text

    assert not signed_in(client)
    assert not signed_in(other_browser)
    assert not signed_in(restarted)
    assert db.session.scalar(select(AuditEntry.action).order_by(AuditEntry.id.desc())) == (
        "user.end_sessions"
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_log_out_everywhere_asks_first_and_revokes_the_api_tokens_by_default(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 33, point 11: a token copied from a lost device used to outlive the log-out."""
    grim = make_user("grim")
    with unit_of_work() as session:
        tokens = [users.issue_token(session, grim, name) for name in ("Discord bot", "export")]
    log_in(client)
    assert client.get("/api/v1/me", headers=bearer(tokens[0])).status_code == 200

    page = client.get("/profile/sessions/end")
    assert page.status_code == 200
    assert "Your 2 API tokens are not log-ins" in page.text
    assert "Discord bot" in page.text
    assert "never used" in page.text  # the export
    assert re.search(r'<input [^>]*checked id="revoke_tokens" name="revoke_tokens"', page.text)
    assert signed_in(client)  # asking changes nothing

    # A browser sends a ticked box as "y".
    response = client.post(
        "/profile/sessions/end", data={"revoke_tokens": "y"}, follow_redirects=True
    )
    assert "your 2 API tokens are revoked" in response.text
    assert not signed_in(client)
    for token in tokens:
        assert client.get("/api/v1/me", headers=bearer(token)).status_code == 401
    actions = db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert actions[-3:] == ["token.revoke", "token.revoke", "user.end_sessions"]


def test_log_out_everywhere_can_leave_the_api_tokens_working(
    app: Flask, client: FlaskClient
) -> None:
    grim = make_user("grim")
    with unit_of_work() as session:
        token = users.issue_token(session, grim, "Discord bot")
    log_in(client)
    # The box unticked: a browser sends no value for it.
    response = client.post("/profile/sessions/end", follow_redirects=True)
    assert "You are logged out on every device." in response.text
    assert not signed_in(client)
    assert client.get("/api/v1/me", headers=bearer(token)).status_code == 200


def test_without_tokens_log_out_everywhere_offers_nothing_to_revoke(client: FlaskClient) -> None:
    make_user("grim")
    log_in(client)
    page = client.get("/profile/sessions/end").text
    assert "revoke_tokens" not in page
    assert "Yes, log out everywhere" in page


def change_password(client: FlaskClient, current: str, new: str, confirm: str | None = None):
    return client.post(
        "/profile/password",
        data={"current_password": current, "new_password": new, "confirm": confirm or new},
    )


def password_hash_of(username: str) -> str:
    db.session.expire_all()
    return db.session.scalar(select(User.password_hash).where(User.username == username))


@pytest.mark.parametrize(
    ("current", "new", "confirm", "field", "message"),
    [
        ("not my password", NEW_PASSWORD, None, "current_password", "not your current password"),
        (DEFAULT_PASSWORD, "aaaaaaaa", None, "new_password", "too easy to guess"),
        (DEFAULT_PASSWORD, "short", None, "new_password", "at least 8 characters"),
        (DEFAULT_PASSWORD, NEW_PASSWORD, "something else", "confirm", "The passwords differ."),
        ("", NEW_PASSWORD, None, "current_password", "Enter your current password."),
    ],
)
def test_a_refused_password_change_says_why_next_to_the_field(
    client: FlaskClient, current: str, new: str, confirm: str | None, field: str, message: str
) -> None:
    make_user("grim")
    log_in(client)
    before = password_hash_of("grim")
    response = change_password(client, current, new, confirm)
    assert response.status_code == 400
    errors = response.text.split(f'id="{field}-errors"', 1)
    assert len(errors) == 2, response.text
    assert message in errors[1].split("</ul>", 1)[0]
    assert password_hash_of("grim") == before
    assert signed_in(client)


def test_a_password_change_ends_the_other_sessions(app: Flask, client: FlaskClient) -> None:
    make_user("grim")
    log_in(client)
    other_browser = app.test_client()
    log_in(other_browser)
    restarted = remember_only(client, app)

    response = change_password(client, DEFAULT_PASSWORD, NEW_PASSWORD)
    assert response.status_code == 302
    assert "Your password is changed" in client.get("/profile").text

    assert signed_in(client)  # the browser that changed it carries on
    assert not signed_in(other_browser)
    assert not signed_in(restarted)
    client.post("/logout")
    assert (
        client.post("/login", data={"username": "grim", "password": DEFAULT_PASSWORD}).status_code
        == 200
    )
    log_in(client, password=NEW_PASSWORD)
    assert db.session.scalar(
        select(AuditEntry.action).where(AuditEntry.action == "user.change_password")
    )
