"""In a real browser on a phone: both coaches fill in the pre-match page, then the sheet.

The issue's BB2025 fixture: Humans CTV 1,150,000 at home to Orcs CTV 1,000,000. Anna
(Humans, higher CTV) chooses first and buys a Bribe from her treasury; Bram (Orcs)
then has 250,000 of petty cash, adds 50,000 of treasury and buys for 290,000.
"""

from __future__ import annotations

import io
import os

import pytest
from flask import Flask
from pypdf import PdfReader

from tests.factories import DEFAULT_PASSWORD
from tests.services.test_pregame_sequence import LOWER_2025, _fixture

pytestmark = pytest.mark.e2e

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
#: Where the screenshots go (looked at by hand; not compared).
SHOTS = os.environ.get("PREGAME_SCREENSHOTS")


def _log_in(page, base: str, username: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav-user")).to_have_text(f"Signed in as {username}")


def test_both_coaches_fill_in_the_pre_match_page_on_a_phone(
    served_app: tuple[str, Flask], page
) -> None:
    from playwright.sync_api import expect

    base, app = served_app
    with app.app_context():
        match = _fixture("bb2025")[0]
        match_id = match.id
    page.set_viewport_size({"width": 390, "height": 844})

    _log_in(page, base, "anna")
    page.goto(f"{base}/matches/{match_id}")
    page.get_by_role("link", name="Pre-match: journeymen, inducements and the match sheet").click()
    expect(page.get_by_test_id("stage")).to_contain_text("It is Reavers's turn")
    expect(page.get_by_test_id("home-ctv")).to_have_text("1,150,000")
    expect(page.get_by_test_id("away-ctv")).to_have_text("1,000,000")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    home = page.get_by_test_id("home-side")
    home.locator("summary", has_text="Inducements").click()
    page.locator("#home-ind_bribes").fill("1")
    home.get_by_role("button", name="Save these choices").click()
    expect(page.locator(".flashes")).to_contain_text(
        "Pre-game of Reavers saved: 100,000 of inducements."
    )
    expect(page.get_by_test_id("home-treasury-spent")).to_have_text("100,000")
    page.get_by_role("button", name="Log out").click()

    _log_in(page, base, "bram")
    page.goto(f"{base}/matches/{match_id}/pregame")
    expect(page.get_by_test_id("away-petty-cash")).to_have_text("250,000")
    away = page.get_by_test_id("away-side")
    away.locator("summary", has_text="Inducements").click()
    for item_id, count in LOWER_2025.items():
        page.locator(f"#away-ind_{item_id.replace('-', '_')}").fill(str(count))
    page.locator("#away-treasury").fill("30000")
    away.get_by_role("button", name="Save these choices").click()
    # Refused next to the inducements, with the rules' numbers; nothing saved.
    expect(page.locator("#away-treasury-errors")).to_have_text(
        "This costs 290,000 but the team may spend 280,000."
    )
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.locator("#away-treasury").fill("50000")
    away.get_by_role("button", name="Save these choices").click()
    expect(page.get_by_test_id("away-total")).to_have_text("290,000")
    expect(page.get_by_test_id("away-treasury-spent")).to_have_text("40,000")
    expect(page.get_by_test_id("stage")).to_have_text("Both teams have chosen.")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    # Stacked on a phone: the away card starts below the home card.
    home_box = page.get_by_test_id("home-side").bounding_box()
    away_box = page.get_by_test_id("away-side").bounding_box()
    assert home_box
    assert away_box
    assert away_box["y"] >= home_box["y"] + home_box["height"]
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/pregame-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=f"{SHOTS}/pregame-1280.png", full_page=True)
        # Side by side on a wide screen.
        home_box = page.get_by_test_id("home-side").bounding_box()
        away_box = page.get_by_test_id("away-side").bounding_box()
        assert home_box
        assert away_box
        assert away_box["x"] > home_box["x"]

    # The match sheet: one page per team.
    link = page.get_by_role("link", name="Match sheet (PDF)")
    response = page.request.get(base + link.get_attribute("href"))
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.body()))
    assert len(reader.pages) == 2
    assert "1 \u00d7 Bribes: 100,000" in reader.pages[0].extract_text()
