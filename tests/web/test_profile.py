"""The profile page: API tokens made, listed and revoked by their owner."""

from __future__ import annotations

import hashlib
import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import Connection, event, select

from league.extensions import WRITES, db
from league.models import ApiToken, User
from league.services import users
from league.services.unit_of_work import unit_of_work
from tests.factories import make_user
from tests.pages import login


def new_token(client: FlaskClient, name: str) -> str:
    response = client.post("/profile/tokens", data={"name": name})
    assert response.status_code == 200, response.text
    found = re.search(r'id="new-token" type="text" value="([^"]+)"', response.text)
    assert found, response.text
    return html.unescape(found.group(1))


def me(client: FlaskClient, token: str):
    return client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})


def tokens_of(username: str) -> list[ApiToken]:
    db.session.expire_all()
    return list(
        db.session.scalars(
            select(ApiToken).join(User).where(User.username == username).order_by(ApiToken.id)
        )
    )


@pytest.fixture
def grim(client: FlaskClient) -> User:
    user = make_user("grim")
    login(client, "grim")
    return user


def test_the_profile_needs_a_login_and_is_in_the_navigation(client: FlaskClient) -> None:
    response = client.get("/profile")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]
    assert 'href="/profile"' not in client.get("/").text
    make_user("grim")
    login(client, "grim")
    assert 'href="/profile"' in client.get("/").text
    page = client.get("/profile")
    assert page.status_code == 200
    assert "You have no API tokens." in page.text


def test_a_new_token_is_shown_once_and_only_its_digest_is_kept(
    client: FlaskClient, grim: User
) -> None:
    response = client.post("/profile/tokens", data={"name": "Discord bot"})
    assert response.headers["Cache-Control"] == "no-store"
    token = new_token(client, "Discord bot")
    stored = tokens_of("grim")
    assert [t.name for t in stored] == ["Discord bot", "Discord bot"]
    assert stored[-1].token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert all(token not in t.token_hash for t in stored)
    page = client.get("/profile").text
    assert token not in page
    assert page.count("<td><bdi>Discord bot</bdi></td>") == 2
    assert "never" in page

    response = me(client, token)
    assert response.status_code == 200
    assert response.json == {"username": "grim", "admin": False}
    used = tokens_of("grim")[-1].last_used_at
    assert used is not None
    assert "never" in client.get("/profile").text  # the other one was not used
    me(client, token)
    assert tokens_of("grim")[-1].last_used_at == used  # written at most once a minute


def test_token_names_are_checked_next_to_the_field(client: FlaskClient, grim: User) -> None:
    for name, words in (("", "Name the token"), ("x" * 61, "60 characters")):
        response = client.post("/profile/tokens", data={"name": name})
        assert response.status_code == 400
        errors = re.search(r'<ul class="errors" id="name-errors">(.*?)</ul>', response.text, re.S)
        assert errors, response.text
        assert words in errors.group(1)
        assert 'id="new-token"' not in response.text
    assert tokens_of("grim") == []


def test_revoking_asks_first_and_stops_the_token_at_once(client: FlaskClient, grim: User) -> None:
    token = new_token(client, "script")
    assert me(client, token).status_code == 200
    row = tokens_of("grim")[0]
    page = client.get(f"/profile/tokens/{row.id}/revoke")
    assert page.status_code == 200
    assert "Revoke the token “script”?" in page.text
    assert tokens_of("grim")[0].revoked_at is None  # asking changes nothing
    response = client.post(f"/profile/tokens/{row.id}/revoke", follow_redirects=True)
    assert "is revoked" in response.text
    assert "You have no API tokens." in response.text
    assert me(client, token).status_code == 401
    assert client.post(f"/profile/tokens/{row.id}/revoke").status_code == 404


def test_nobody_sees_or_revokes_anothers_tokens(client: FlaskClient, grim: User) -> None:
    other = make_user("hild")
    with unit_of_work() as session:
        theirs = users.issue_token(session, other, "hild's bot")
    row = tokens_of("hild")[0]
    assert "hild&#39;s bot" not in client.get("/profile").text
    assert client.get(f"/profile/tokens/{row.id}/revoke").status_code == 404
    assert client.post(f"/profile/tokens/{row.id}/revoke").status_code == 404
    assert me(client, theirs).status_code == 200


def test_a_token_acts_with_the_users_rights_of_the_moment(client: FlaskClient, grim: User) -> None:
    token = new_token(client, "admin tool")
    assert me(client, token).json["admin"] is False
    with unit_of_work():
        db.session.get(User, grim.id).is_admin = True
    assert me(client, token).json["admin"] is True


def test_every_form_carries_a_csrf_token(app: Flask, client: FlaskClient, grim: User) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get("/profile").text
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert csrf
    refused = client.post("/profile/tokens", data={"name": "no csrf"})
    assert refused.status_code == 400
    assert "Form expired" in refused.text
    token = new_token_with_csrf(client, csrf.group(1))
    row = tokens_of("grim")[0]
    confirm = client.get(f"/profile/tokens/{row.id}/revoke").text
    assert 'name="csrf_token"' in confirm
    assert client.post(f"/profile/tokens/{row.id}/revoke").status_code == 400
    assert me(client, token).status_code == 200


def new_token_with_csrf(client: FlaskClient, csrf: str) -> str:
    response = client.post("/profile/tokens", data={"name": "with csrf", "csrf_token": csrf})
    assert response.status_code == 200, response.text
    found = re.search(r'id="new-token" type="text" value="([^"]+)"', response.text)
    assert found
    return html.unescape(found.group(1))


def test_the_cli_token_has_a_name(runner: FlaskCliRunner) -> None:
    make_user("grim")
    result = runner.invoke(args=["users", "token", "grim"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["users", "token", "grim", "--name", "nightly export"])
    assert result.exit_code == 0, result.output
    assert [t.name for t in tokens_of("grim")] == ["cli", "nightly export"]
    result = runner.invoke(args=["users", "token", "grim", "--name", "  "])
    assert result.exit_code != 0
    assert "1 to 60 characters" in result.output


def test_old_uses_are_refreshed(client: FlaskClient, grim: User) -> None:
    token = new_token(client, "old")
    me(client, token)
    long_ago = datetime.now(UTC) - timedelta(hours=1)
    with unit_of_work():
        tokens_of("grim")[0].last_used_at = long_ago
    me(client, token)
    refreshed = tokens_of("grim")[0].last_used_at
    assert refreshed is not None
    assert refreshed.replace(tzinfo=UTC) > long_ago + timedelta(minutes=59)


def test_a_use_within_the_minute_only_reads(client: FlaskClient, grim: User) -> None:
    """Noting the use costs a write transaction (on SQLite the write lock) once a minute,
    not on every request."""
    token = new_token(client, "bot")
    transactions: list[bool] = []

    def began(connection: Connection) -> None:
        transactions.append(bool(connection.get_execution_options().get(WRITES)))

    event.listen(db.engine, "begin", began)
    try:
        assert me(client, token).status_code == 200  # the first use is written
        assert True in transactions
        transactions.clear()
        assert me(client, token).status_code == 200
        assert me(client, token).status_code == 200
    finally:
        event.remove(db.engine, "begin", began)
    assert True not in transactions
