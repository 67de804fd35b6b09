"""Security headers on every response and throttled log-in attempts."""

from __future__ import annotations

from flask.testing import FlaskClient

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
