"""In a real browser on a phone-sized screen: a commissioner enters and finalises a result."""

from __future__ import annotations

import pytest
from flask import Flask

from league.models import Player, Team
from tests.factories import DEFAULT_PASSWORD, make_active_team, make_league, make_user

pytestmark = pytest.mark.e2e

HUMANS = (("human-lineman", 7), ("human-catcher", 2), ("human-thrower", 2))
ORCS = (("orc-lineman", 7), ("orc-thrower", 2), ("orc-blitzer", 2))
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"


def _first(team: Team, position_id: str) -> tuple[int, str]:
    player: Player = next(p for p in team.players if p.position_id == position_id)
    return player.id, player.name


def test_commissioner_enters_a_result_on_a_phone(served_app: tuple[str, Flask], page) -> None:
    from playwright.sync_api import expect

    base, app = served_app
    with app.app_context():
        commissioner = make_user("commish")
        anna, bram = make_user("anna"), make_user("bram")
        league = make_league(commissioner, "bb2025", anna, bram)
        humans = make_active_team(anna, league, "human", "Reavers", HUMANS)
        orcs = make_active_team(bram, league, "orc", "Gouged Eye", ORCS)
        league_id, humans_id, orcs_id = league.id, humans.id, orcs.id
        catcher_id, catcher = _first(humans, "human-catcher")
        victim_id, _ = _first(orcs, "orc-lineman")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/login")
    page.get_by_label("Username").fill("commish")
    page.get_by_label("Password").fill(DEFAULT_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".nav-user")).to_have_text("Signed in as commish")

    # Schedule the match: the report form comes next.
    page.goto(f"{base}/leagues/{league_id}/matches/new")
    page.get_by_label("Home team").select_option(label="Reavers")
    page.get_by_label("Away team").select_option(label="Gouged Eye")
    page.get_by_role("button", name="Schedule and enter the result").click()
    expect(page.get_by_role("heading", name="Match report")).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.get_by_label("Reavers", exact=True).fill("1")
    page.get_by_label("Gouged Eye", exact=True).fill("0")

    scorer = page.get_by_test_id(f"player-{catcher_id}")
    expect(scorer.get_by_label("TD", exact=True)).to_be_hidden()  # rows start collapsed
    scorer.locator("summary").click()
    scorer.get_by_label("TD", exact=True).fill("1")
    scorer.get_by_label("MVP").check()

    hurt = page.get_by_test_id(f"player-{victim_id}")
    hurt.locator("summary").click()
    lasting = hurt.get_by_label("Characteristic lost")
    expect(lasting).to_be_hidden()  # only a Lasting Injury asks for it
    hurt.get_by_label("Injury").select_option("lasting_injury")
    expect(lasting).to_be_visible()
    hurt.get_by_label("Injury").select_option("seriously_hurt")
    expect(lasting).to_be_hidden()

    page.get_by_label("Fan attendance").fill("10")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.get_by_role("button", name="Finalise result").click()

    expect(page.locator(".flashes")).to_contain_text(
        "Result recorded: Reavers 1\u20130 Gouged Eye."
    )
    expect(page.get_by_test_id("score")).to_have_text("1 \u2013 0")
    expect(page.get_by_role("row", name=catcher)).to_contain_text("1 TD, MVP")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    # The team pages: 3 (TD) + 4 (MVP) SPP for the scorer, the injured orc misses the next game.
    page.goto(f"{base}/teams/{humans_id}")
    row = page.locator("table.roster tr", has=page.locator(f'a[href="/players/{catcher_id}"]'))
    expect(row).to_contain_text("7 / 7")
    page.goto(f"{base}/teams/{orcs_id}")
    row = page.locator("table.roster tr", has=page.locator(f'a[href="/players/{victim_id}"]'))
    expect(row).to_contain_text("MNG")
