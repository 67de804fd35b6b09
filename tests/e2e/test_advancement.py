"""In a real browser: a coach spends SPP on a skill through the pages and sees the roster change."""

from __future__ import annotations

import pytest
from flask import Flask

from league.extensions import db
from league.models import Player
from tests.factories import DEFAULT_PASSWORD, make_active_team, make_league, make_user

pytestmark = pytest.mark.e2e


def test_coach_buys_a_skill(served_app: tuple[str, Flask], page) -> None:
    from playwright.sync_api import expect

    base, app = served_app
    with app.app_context():
        coach = make_user("grim")
        league = make_league(make_user("commish"), "bb2025", coach)
        team = make_active_team(
            coach, league, "human", "Reavers", (("human-blitzer", 1), ("human-lineman", 10))
        )
        player = db.session.get(Player, team.players[0].id)
        assert player is not None
        player.name, player.spp_earned = "Griff", 8  # as if earned in matches
        db.session.commit()
        team_id = team.id
        db.session.remove()

    page.goto(f"{base}/login")
    page.get_by_label("Username").fill("grim")
    page.get_by_label("Password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav-user")).to_have_text("Signed in as grim")

    page.goto(f"{base}/teams/{team_id}")
    roster_row = page.get_by_role("row", name="Griff")
    expect(roster_row).to_contain_text("can advance")
    page.get_by_role("link", name="Griff").click()
    expect(page.get_by_test_id("spp-available")).to_have_text("8")

    page.get_by_role("link", name="Choose: Chosen primary skill").click()
    expect(page.get_by_role("heading", name="Griff: Chosen primary skill")).to_be_visible()
    # Block is held from the start: not offered.
    expect(page.get_by_role("radio", name="Block", exact=True)).to_have_count(0)
    page.get_by_text("Why not these?").click()
    expect(page.locator(".why-not")).to_contain_text("Block (General): already has it")
    page.get_by_role("radio", name="Wrestle", exact=True).check()
    page.get_by_role("button", name="Continue").click()

    expect(page.get_by_test_id("advance-summary")).to_have_text(
        "Griff takes Wrestle as his 1st advancement: \u22126 SPP, value +20,000, "
        "TV 585,000 \u2192 605,000."
    )
    page.get_by_role("button", name="Take Wrestle").click()
    expect(page.locator(".flashes")).to_contain_text(
        "Griff took Wrestle as his 1st advancement: \u22126 SPP, value +20,000."
    )
    expect(page.get_by_test_id("spp-available")).to_have_text("2")
    expect(page.locator(".advancement-history")).to_contain_text("Wrestle")

    page.goto(f"{base}/teams/{team_id}")
    expect(page.get_by_test_id("team-value")).to_have_text("605,000")
    row = page.get_by_role("row", name="Griff")
    expect(row.locator("strong.skill-gained")).to_have_text("Wrestle")
    expect(row).to_contain_text("105,000")
    expect(row).to_contain_text("2 / 8")
