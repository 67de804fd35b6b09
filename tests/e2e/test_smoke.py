"""Smoke test in a real browser: register, see the home page, log out, log in again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_register_login_logout(live_server: str, page) -> None:
    page.goto(f"{live_server}/register")
    page.get_by_label("Username").fill("grim")
    page.get_by_label("Password", exact=True).fill("ironbeard!")
    page.get_by_label("Repeat password").fill("ironbeard!")
    page.get_by_role("button", name="Create account").click()
    # expect() waits for the redirect to finish; page.content() read mid-navigation returns "".
    expect(page.get_by_text("Welcome, grim!")).to_be_visible()
    expect(page.get_by_role("heading", name="Blood Bowl leagues")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_text("You are logged out.")).to_be_visible()

    page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("Username").fill("grim")
    page.get_by_label("Password").fill("ironbeard!")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav-user")).to_have_text("Signed in as grim")
