"""In a real browser: create a BB2025 league, draft a Human team through the pages, confirm it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

# (position, how many): 140,000 + 2 x 85,000 + 75,000 + 2 x 75,000 + 5 x 50,000
HIRES = [
    ("Ogre", 1),
    ("Human Blitzer", 2),
    ("Human Thrower", 1),
    ("Human Catcher", 2),
    ("Human Lineman", 5),
]


def test_draft_a_team_in_a_new_league(live_server: str, page) -> None:
    from playwright.sync_api import expect

    page.goto(f"{live_server}/register")
    page.get_by_label("Username").fill("grim")
    page.get_by_label("Password", exact=True).fill("ironbeard!")
    page.get_by_label("Repeat password").fill("ironbeard!")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator(".nav-user")).to_have_text("Signed in as grim")

    # The league: BB2025 is preselected.
    page.goto(f"{live_server}/leagues/new")
    expect(page.get_by_label("Ruleset")).to_have_value("bb2025")
    page.get_by_label("League name").fill("Old World Cup")
    page.get_by_role("button", name="Save league").click()
    expect(page.get_by_role("heading", name="Old World Cup")).to_be_visible()
    expect(page.locator(".flashes")).to_contain_text("League created.")
    expect(page.get_by_role("link", name="Blood Bowl 2025")).to_be_visible()

    # The team.
    page.get_by_role("link", name="Draft a team").first.click()
    page.get_by_label("Team name").fill("Reikland Reavers")
    page.get_by_label("Team type").select_option(label="Human")
    page.get_by_role("button", name="Start the draft").click()
    expect(page.get_by_role("heading", name="Reikland Reavers")).to_be_visible()
    expect(page.get_by_test_id("treasury")).to_have_text("1,000,000")

    hired = 0
    for position, times in HIRES:
        for _ in range(times):
            hired += 1
            page.get_by_role("button", name=f"Hire {position}").click()
            expect(page.locator(".flashes")).to_contain_text(
                f"Hired #{hired} \u2068{position} {hired}\u2069."
            )
    expect(page.get_by_test_id("treasury")).to_have_text("215,000")
    expect(page.get_by_test_id("team-value")).to_have_text("785,000")
    expect(page.locator("table.roster tbody tr")).to_have_count(11)
    # Both Blitzer slots are taken: no more Hire button for them.
    expect(page.get_by_role("button", name="Hire Human Blitzer")).to_have_count(0)

    page.get_by_role("button", name="Buy team re-roll").click()
    expect(page.locator(".flashes")).to_contain_text("Bought a team re-roll.")
    expect(page.get_by_test_id("treasury")).to_have_text("165,000")
    expect(page.get_by_test_id("treasury-left")).to_have_text("165,000")
    expect(page.get_by_test_id("team-value")).to_have_text("835,000")

    page.get_by_role("button", name="Confirm the draft (11 players)").click()
    # It cannot be undone, so the server asks first: re-rolls then cost double.
    expect(
        page.get_by_role("heading", name="Confirm the draft of Reikland Reavers?")
    ).to_be_visible()
    expect(page.get_by_test_id("confirm-explanation")).to_contain_text(
        "a team re-roll costs 100,000 instead of 50,000"
    )
    page.get_by_role("button", name="Yes, confirm the draft").click()
    expect(page.locator(".flashes")).to_contain_text(
        "The draft is confirmed: the team is ready to play."
    )
    expect(page.get_by_role("button", name="Confirm the draft")).to_have_count(0)
    expect(page.get_by_test_id("treasury")).to_have_text("165,000")
    expect(page.get_by_test_id("team-value")).to_have_text("835,000")

    # The league page lists the team with its value.
    page.get_by_role("link", name="Old World Cup").click()
    row = page.get_by_role("row", name="Reikland Reavers")
    expect(row).to_contain_text("active")
    expect(row).to_contain_text("835,000")
