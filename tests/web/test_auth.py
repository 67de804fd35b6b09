from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.routing import IntegerConverter

from league.extensions import db
from league.models import AuditEntry, User
from tests.factories import DEFAULT_PASSWORD, make_user


def register(client: FlaskClient, username: str, password: str, confirm: str | None = None):
    return client.post(
        "/register",
        data={"username": username, "password": password, "confirm": confirm or password},
        follow_redirects=True,
    )


def login(client: FlaskClient, username: str, password: str):
    return client.post(
        "/login", data={"username": username, "password": password}, follow_redirects=True
    )


def test_register_logs_in_and_hashes_the_password(client: FlaskClient) -> None:
    response = register(client, "grim", "ironbeard!")
    assert response.status_code == 200
    assert "Signed in as" in response.text
    user = db.session.scalar(select(User).where(User.username == "grim"))
    assert user is not None
    assert user.password_hash.startswith("scrypt:")
    assert "ironbeard!" not in user.password_hash
    assert db.session.scalar(select(AuditEntry.action)) == "user.create"


def test_register_shows_errors_next_to_the_fields(client: FlaskClient) -> None:
    make_user("grim")
    response = register(client, "grim", "ironbeard!")
    assert "The username &#39;grim&#39; is taken." in response.text
    response = register(client, "x", "short", "other")
    assert "3 to 40 letters" in response.text
    assert "The passwords differ." in response.text
    assert db.session.scalar(select(User.username).where(User.username == "x")) is None


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("short", "at least 8 characters"),
        ("x" * 257, "at most 256 characters"),
        ("Password123", "too easy to guess"),  # a well-known password
        ("aaaaaaaa", "too easy to guess"),  # a repeat
        ("qwertyuiop", "too easy to guess"),  # a keyboard run
        ("zxcvbnm,./", "too easy to guess"),
        ("grimgrim-rules", "must not contain the username"),
        # Longer than zxcvbn judges (72): still weighed, on its first 72 characters.
        ("ab" * 50, "too easy to guess"),
    ],
)
def test_weak_passwords_are_refused_next_to_the_field(
    client: FlaskClient, password: str, message: str
) -> None:
    response = register(client, "grim", password)
    assert "Signed in as" not in response.text
    assert message in response.text
    assert db.session.scalar(select(User).where(User.username == "grim")) is None


def test_login_and_logout(client: FlaskClient) -> None:
    make_user("grim")
    response = login(client, "grim", DEFAULT_PASSWORD)
    assert "Logged in as grim." in response.text
    response = client.post("/logout", follow_redirects=True)
    assert "You are logged out." in response.text
    assert "Signed in as" not in response.text


def test_wrong_password_is_refused(client: FlaskClient) -> None:
    make_user("grim")
    response = login(client, "grim", "not the password")
    assert "Unknown username or wrong password." in response.text
    assert "Signed in as" not in response.text
    response = login(client, "nobody", "whatever1")
    assert "Unknown username or wrong password." in response.text


def test_login_never_redirects_off_site(client: FlaskClient) -> None:
    make_user("grim")
    response = client.post(
        "/login?next=https://evil.example/",
        data={"username": "grim", "password": DEFAULT_PASSWORD},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_csrf_is_enforced(app: Flask, client: FlaskClient) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    response = client.post(
        "/register",
        data={"username": "sneaky", "password": "password123", "confirm": "password123"},
    )
    assert response.status_code == 400
    assert "Form expired" in response.text
    assert db.session.scalar(select(User).where(User.username == "sneaky")) is None


def _write_urls(app: Flask) -> dict[str, str]:
    """Every POST route outside the API (which has its own token check), with sample ids."""
    adapter = app.url_map.bind("localhost")
    urls = {}
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or set()) or rule.rule.startswith("/api/"):
            continue
        if rule.rule in {"/login", "/register", "/language"}:
            continue  # open to visitors (the language switcher: tests/web/test_i18n.py)
        values = {
            name: 1 if isinstance(converter, IntegerConverter) else "x"
            for name, converter in rule._converters.items()
        }
        urls[rule.rule] = adapter.build(rule.endpoint, values, method="POST")
    return urls


def test_anonymous_posts_to_write_routes_are_refused(app: Flask, client: FlaskClient) -> None:
    urls = _write_urls(app)
    assert "/logout" in urls
    for rule, url in urls.items():
        response = client.post(url)
        assert response.status_code in {302, 401, 403}, rule
        if response.status_code == 302:
            assert "/login" in response.headers["Location"], rule


@pytest.mark.parametrize("path", ["/", "/login", "/register"])
def test_public_pages_render(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert "League Manager" in response.text
