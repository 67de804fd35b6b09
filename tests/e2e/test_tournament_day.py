"""Issue 31, tournament day in a browser: the big screen at a projector's 1920x1080, and the
organiser's round entry at a laptop's 1280x800 typed with the keyboard only.

Set EVENT_SCREENSHOTS to a folder to keep the screenshots (they are taken in any case).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from league.extensions import db
from league.models import Match, Team
from league.services import access, tournament
from league.services.unit_of_work import unit_of_work
from tests.e2e.conftest import signed_in_tab
from tests.factories import DEFAULT_PASSWORD, make_active_team, make_league, make_user

pytestmark = pytest.mark.e2e

NAMES = ("Reavers", "Crusaders", "Gouged Eye", "Grudgebearers", "Elfheim Eagles", "Skavenblight")
HUMANS = (("human-lineman", 11),)


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("EVENT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _event(app) -> tuple[int, list[tuple[int, str, str]]]:
    """Six teams, round 1 paired (three tables), a touchdowns bonus; the tables in order
    with their teams' names."""
    with app.app_context():
        boss = make_user("boss")
        coaches = [make_user(f"coach{i}") for i in range(len(NAMES))]
        league = make_league(boss, "bb2025", *coaches)
        with unit_of_work() as session:
            access.get_league(session, league.id).house_rules = {
                "tournament": {"bonus": [{"kind": "touchdowns", "threshold": 3, "points": 1}]}
            }
        for coach, name in zip(coaches, NAMES, strict=True):
            make_active_team(coach, league, "human", name, HUMANS)
        with unit_of_work() as session:
            pairing = tournament.pair_next_round(session, boss, league.id, random.Random(3))
        tables = []
        for number, match in enumerate(pairing.matches, start=1):
            found = db.session.get(Match, match.id)
            assert found is not None
            names = [db.session.get(Team, found.side(s).team_id).name for s in ("home", "away")]  # type: ignore[union-attr]
            tables.append((number, names[0], names[1]))
        league_id = league.id
        db.session.remove()
    return league_id, tables


def test_the_big_screen_on_a_projector(browser, served_app, tmp_path: Path) -> None:
    base, app = served_app
    league_id, tables = _event(app)
    shots = _shots(tmp_path)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        page.goto(f"{base}/leagues/{league_id}/screen")
        # The script shows one panel at a time: the pairings first, table by table.
        pairings = page.get_by_test_id("screen-pairings")
        pairings.wait_for()
        assert page.locator(".panel:visible").count() == 1
        first_row = pairings.locator("tbody tr").first
        assert first_row.locator("td").nth(0).inner_text() == "1"
        assert first_row.locator("td").nth(1).inner_text() == tables[0][1]
        # Large type: 2.1% of the width, about 40 pixels on a 1920-pixel projector.
        size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert size >= 36
        # No navigation and nothing off the screen sideways.
        assert page.locator("nav").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 1920
        page.screenshot(path=str(shots / "screen-1920-pairings.png"), animations="disabled")
    finally:
        context.close()
    # Without the script every panel shows, one under the other.
    plain = browser.new_context(viewport={"width": 1920, "height": 1080}, java_script_enabled=False)
    try:
        page = plain.new_page()
        page.goto(f"{base}/leagues/{league_id}/screen")
        assert page.locator(".panel:visible").count() == 3
        page.screenshot(path=str(shots / "screen-1920-no-script.png"), full_page=True)
    finally:
        plain.close()


def test_a_round_typed_with_the_keyboard_only(browser, served_app, tmp_path: Path) -> None:
    base, app = served_app
    league_id, _tables = _event(app)
    shots = _shots(tmp_path)
    with signed_in_tab(browser, base, "laptop", "boss", DEFAULT_PASSWORD) as page:
        page.goto(f"{base}/leagues/{league_id}/fixtures/rounds/1/results")
        # The first box has the focus: no mouse needed.
        assert page.evaluate("document.activeElement.id") == "t1_home_td"
        # Table by table: home TD, home CAS, away TD, away CAS, Tab between the boxes.
        typed = {1: ("3", "1", "1", "2"), 2: ("0", "0", "0", "1"), 3: ("1", "0", "2", "3")}
        for number in (1, 2, 3):
            for at, value in enumerate(typed[number]):
                page.keyboard.type(value)
                if not (number == 3 and at == 3):
                    page.keyboard.press("Tab")
        # The points as typed: table 1's home side won with 3 touchdowns (3 + the bonus 1),
        # table 2 is a draw (1 each, no bonus), table 3's away side won with 2 (3, no bonus).
        assert page.get_by_test_id("points-1-home").inner_text() == "Points 3 · bonus +1"
        assert page.get_by_test_id("points-1-away").inner_text() == "Points 0 · bonus +0"
        assert page.get_by_test_id("points-2-home").inner_text() == "Points 1 · bonus +0"
        assert page.get_by_test_id("points-3-away").inner_text() == "Points 3 · bonus +0"
        page.screenshot(path=str(shots / "entry-1280-typed.png"), full_page=True)
        # Enter records the whole round.
        page.keyboard.press("Enter")
        page.get_by_text("Round 1: 3 results recorded.").wait_for()
        page.screenshot(path=str(shots / "entry-1280-recorded.png"), full_page=True)
        assert page.locator("#t1_home_td").input_value() == "3"
        assert page.locator("#t3_away_cas").input_value() == "3"


def test_a_bad_box_is_shown_next_to_it_and_nothing_is_recorded(
    browser, served_app, tmp_path: Path
) -> None:
    base, app = served_app
    league_id, _tables = _event(app)
    shots = _shots(tmp_path)
    with signed_in_tab(browser, base, "laptop", "boss", DEFAULT_PASSWORD) as page:
        page.goto(f"{base}/leagues/{league_id}/fixtures/rounds/1/results")
        for value in ("2", "x", "1", "0"):
            page.keyboard.type(value)
            page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
        error = page.locator("#t1_home_cas-error")
        error.wait_for()
        assert error.inner_text() == "Enter a number from 0 to 99."
        # The faulty box has the focus again, and what was typed is still there.
        assert page.evaluate("document.activeElement.id") == "t1_home_cas"
        assert page.locator("#t1_home_td").input_value() == "2"
        page.screenshot(path=str(shots / "entry-1280-error.png"), full_page=True)
    with app.app_context():
        assert (
            db.session.scalar(
                db.select(db.func.count()).select_from(Match).where(Match.state == "played")
            )
            == 0
        )
        db.session.remove()


def test_the_organisers_pages_on_a_phone(browser, served_app, tmp_path: Path) -> None:
    """The rosters page and the round entry at 390 pixels: nothing off the page sideways
    (the entry's table scrolls in its own box)."""
    base, app = served_app
    league_id, _tables = _event(app)
    shots = _shots(tmp_path)
    with signed_in_tab(browser, base, "phone", "boss", DEFAULT_PASSWORD) as page:
        for name, path in (
            ("rosters", f"/leagues/{league_id}/event/rosters"),
            ("entry", f"/leagues/{league_id}/fixtures/rounds/1/results"),
        ):
            page.goto(f"{base}{path}")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
            page.screenshot(path=str(shots / f"{name}-390.png"), full_page=True)
