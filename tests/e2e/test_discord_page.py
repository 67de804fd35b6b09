"""The league's Discord page and the page where coaches find a time to play, at a phone's
and a laptop's size: connect an application (the token is never shown back), then the
register button; offer times; nothing scrolls sideways."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import Match
from league.seeding.demo import seed_demo
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

TOKEN = "MTEy.e2e-bot-token.abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize("size", SIZES)
def test_connecting_a_league_to_discord(browser, tmp_path: Path, size: str) -> None:
    def fill(session: Session):
        return seed_demo(session)

    with serving(tmp_path, "league_e2e_discord", fill) as (base, _app, accounts):
        assert accounts is not None
        with signed_in_tab(browser, base, size, accounts.username, accounts.password) as tab:
            tab.goto(f"{base}/leagues/1/settings")
            tab.get_by_role("link", name="Discord", exact=True).click()
            tab.get_by_label("Application id").fill("112233445566778899")
            key = Ed25519PrivateKey.generate().public_key().public_bytes_raw().hex()
            tab.get_by_label("Public key").fill(key)
            tab.get_by_label("Bot token").fill(TOKEN)
            tab.get_by_label("Server id").fill("998877665544332211")
            tab.get_by_label("Channel id").fill("123456789012345678")
            tab.get_by_role("button", name="Save").click()
            tab.get_by_text("Discord connection saved.").wait_for()
            assert TOKEN not in tab.content()
            tab.get_by_text("A token is set (it is never shown again)").wait_for()
            assert tab.get_by_test_id("register-commands").is_visible()
            width = SIZES[size][0]
            assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
            tab.screenshot(path=str(tmp_path / f"discord-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_offering_times_for_a_fixture(browser, tmp_path: Path, size: str) -> None:
    def fill(session: Session):
        accounts = seed_demo(session)
        match_id = session.scalar(
            select(Match.id).where(Match.state == "scheduled").order_by(Match.id)
        )
        return accounts, match_id

    with serving(tmp_path, "league_e2e_times", fill) as (base, _app, filled):
        assert filled is not None
        accounts, match_id = filled
        assert match_id is not None
        with signed_in_tab(browser, base, size, accounts.username, accounts.password) as tab:
            tab.goto(f"{base}/matches/{match_id}")
            tab.get_by_role("link", name="Find a time to play").click()
            # The commissioner may offer for both sides: the home side's form.
            form = tab.locator("form.offer-times").first
            form.locator("input[name=first]").fill("2030-12-10T20:00")
            form.locator("input[name=second]").fill("2030-12-11T19:30")
            form.get_by_role("button", name="Offer these times").click()
            tab.get_by_text("Your times are offered.").wait_for()
            offered = tab.get_by_test_id("offered-home").locator("li")
            assert offered.count() == 2
            width = SIZES[size][0]
            assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
            tab.screenshot(path=str(tmp_path / f"times-{size}.png"), full_page=True)
