"""Security headers on every response and throttled log-in attempts."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from league import config
from tests.conftest import make_app
from tests.factories import DEFAULT_PASSWORD, make_user


def test_security_headers(client: FlaskClient) -> None:
    for path in ("/", "/login", "/api/v1/rulesets", "/no/such/page"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"


def test_pages_carry_no_inline_script(client: FlaskClient) -> None:
    for path in ("/", "/login", "/register", "/rules/bb2025/skills"):
        page = client.get(path).text
        assert "<script>" not in page
        assert " onclick=" not in page
        assert " style=" not in page


def test_repeated_failed_logins_are_throttled(client: FlaskClient) -> None:
    make_user("grim")
    for _ in range(10):
        response = client.post("/login", data={"username": "grim", "password": "wrong pass"})
        assert response.status_code == 200
    response = client.post("/login", data={"username": "grim", "password": DEFAULT_PASSWORD})
    assert response.status_code == 429
    assert "Too Many Requests" in response.text
    assert "Traceback" not in response.text


def test_session_cookie_flags(client: FlaskClient) -> None:
    make_user("grim")
    response = client.post("/login", data={"username": "grim", "password": DEFAULT_PASSWORD})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


PRODUCTION = {
    "LEAGUE_ENV": "production",
    "PUBLIC_URL": "https://league.example.org",
    "RATELIMIT_SINGLE_PROCESS": True,
}
#: One year (365 days) in seconds: browsers keep to HTTPS that long after a visit.
ONE_YEAR = 31_536_000


def hsts(app: Flask) -> str | None:
    client = app.test_client()
    return client.get("/login", base_url="https://league.example.org").headers.get(
        "Strict-Transport-Security"
    )


def test_production_asks_browsers_to_keep_to_https(database_url: str) -> None:
    assert hsts(make_app(database_url, **PRODUCTION)) == f"max-age={ONE_YEAR}; includeSubDomains"
    own_host_only = make_app(database_url, **PRODUCTION, HSTS_INCLUDE_SUBDOMAINS=False)
    assert hsts(own_host_only) == f"max-age={ONE_YEAR}"
    # HSTS=0: a proxy in front sends the header; the app adds none of its own.
    assert hsts(make_app(database_url, **PRODUCTION, HSTS=False)) is None
    # Development serves plain HTTP on 127.0.0.1: no HSTS unless asked for.
    assert hsts(make_app(database_url)) is None
    assert hsts(make_app(database_url, HSTS=True)) == f"max-age={ONE_YEAR}; includeSubDomains"


def test_hsts_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert config.from_environment(Path("instance"))["HSTS"] is None
    monkeypatch.setenv("HSTS", "0")
    monkeypatch.setenv("HSTS_INCLUDE_SUBDOMAINS", "0")
    settings = config.from_environment(Path("instance"))
    assert (settings["HSTS"], settings["HSTS_INCLUDE_SUBDOMAINS"]) == (False, False)
    monkeypatch.setenv("HSTS", "off")
    with pytest.raises(RuntimeError, match="HSTS must be 1 or 0"):
        config.from_environment(Path("instance"))
