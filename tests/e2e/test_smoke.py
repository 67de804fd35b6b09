"""Smoke test in a real browser: register, see the home page, log out, log in again."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def test_register_login_logout(live_server: str, page) -> None:
    page.goto(f"{live_server}/register")
    page.get_by_label("Username").fill("grim")
    page.get_by_label("Password", exact=True).fill("ironbeard!")
    page.get_by_label("Repeat password").fill("ironbeard!")
    page.get_by_role("button", name="Create account").click()
    assert "Welcome, grim!" in page.content()
    assert page.get_by_role("heading", name="Blood Bowl leagues").is_visible()

    page.get_by_role("button", name="Log out").click()
    assert "You are logged out." in page.content()

    page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("Username").fill("grim")
    page.get_by_label("Password").fill("ironbeard!")
    page.get_by_role("button", name="Log in").click()
    assert "Signed in as" in page.content()
    assert page.locator(".nav-user").inner_text() == "Signed in as grim"
