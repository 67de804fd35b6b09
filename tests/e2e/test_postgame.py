"""In a real browser on a phone: the report lists the match-day players, then after the
result the conceding Orcs' coach draws his MVP, rolls the departures and hires his
journeyman for good (BB2025, table dice)."""

from __future__ import annotations

import os

import pytest
from flask import Flask

from league.extensions import db
from league.models import User
from league.services import matches
from league.services.matches import MatchReport, PlayerEvents, SideReport
from league.services.pregame import SideChoices
from league.services.unit_of_work import unit_of_work
from tests.e2e.test_pregame import NO_SIDEWAYS_SCROLL, _log_in
from tests.factories import with_match_touchdowns
from tests.web.test_postgame_pages import World, _advance, _fire_one_orc

pytestmark = pytest.mark.e2e

#: Where the screenshots go (looked at by hand; not compared).
SHOTS = os.environ.get("POSTGAME_SCREENSHOTS")


def _shot(page, name: str, *, full_page: bool = True) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=full_page)


def test_after_the_game_on_a_phone(served_app: tuple[str, Flask], page) -> None:
    from playwright.sync_api import expect

    base, app = served_app
    with app.app_context():
        # Humans 13 x 50,000 against Orcs 10 linemen + a journeyman: 100,000 of petty cash,
        # which pays Akhorne the Squirrel (80,000).
        world = World(humans=13)
        world.league.table_dice_allowed = True
        db.session.commit()
        _fire_one_orc(world)
        veteran = world.orc_players()[0]
        _advance(veteran, 3)
        veteran_id, veteran_name = veteran.id, veteran.name
        players = world.pregame(SideChoices(), SideChoices(stars=("akhorne-the-squirrel",)))
        journeyman = next(p for p in players if p.status == "journeyman")
        star = next(p for p in players if p.status == "star")
        journeyman_id, journeyman_name, star_id = journeyman.id, journeyman.name, star.id
        match_id, boss_id = world.match_id, world.boss.id
    page.set_viewport_size({"width": 390, "height": 844})

    _log_in(page, base, "boss")
    page.goto(f"{base}/matches/{match_id}/report")
    expect(page.get_by_test_id(f"tag-{journeyman_id}")).to_have_text("journeyman")
    expect(page.get_by_test_id(f"tag-{star_id}")).to_have_text("star player")
    page.get_by_test_id(f"player-{star_id}").locator("summary").click()
    expect(page.get_by_test_id(f"no-mvp-{star_id}")).to_have_text("A star player cannot be MVP.")
    expect(page.locator(f"#p{star_id}_mvp")).to_be_disabled()
    page.get_by_test_id(f"player-{star_id}").locator("summary").scroll_into_view_if_needed()
    _shot(page, "report-star", full_page=False)
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    _shot(page, "report")

    with app.app_context():
        gave_up = SideReport(score=1, winnings=0, mistake_d6=6, conceded=True)
        with unit_of_work() as session:
            matches.record_result(
                session,
                db.session.get(User, boss_id),
                match_id,
                with_match_touchdowns(
                    MatchReport(
                        home=SideReport(score=2, winnings=0, mistake_d6=6),
                        away=gave_up,
                        players=(PlayerEvents(journeyman_id, td=1),),
                    ),
                    match_id,
                ),
            )

    page.get_by_role("button", name="Log out").click()
    _log_in(page, base, "bram")
    page.goto(f"{base}/matches/{match_id}")
    panel = page.get_by_test_id("away-postgame")
    expect(panel.get_by_test_id(f"journeyman-{journeyman_id}")).to_contain_text("Price: 50,000")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    _shot(page, "match-after")

    # The MVP: six nominees, the table rolled a 2.
    boxes = panel.locator('input[name="away-mvp-nominees"]')
    for index in range(6):
        boxes.nth(index).check()
    panel.get_by_label("D6 rolled at the table").fill("2")
    panel.get_by_role("button", name="Draw the MVP").click()
    expect(page.locator(".flashes")).to_contain_text("is the MVP.")
    expect(page.get_by_test_id("away-mvp-result")).to_contain_text("the table rolled 2")

    # The veteran (three advancements) rolls a 5: he stays.
    page.locator(f"#away-departures-d{veteran_id}").fill("5")
    page.get_by_role("button", name="Roll the departures").click()
    expect(page.get_by_test_id("away-departures")).to_have_text(
        f"{veteran_name} rolled 5 and stays."
    )
    _shot(page, "match-drawn")

    page.get_by_test_id(f"journeyman-{journeyman_id}").get_by_role(
        "link", name="Hire for good"
    ).click()
    expect(page.get_by_test_id("confirm-explanation")).to_contain_text("50,000 gold")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    _shot(page, "confirm")
    page.get_by_role("button", name=f"Yes, hire {journeyman_name}").click()
    expect(page.locator(".flashes")).to_contain_text(
        f"{journeyman_name} is hired for good, for 50,000 gold."
    )
