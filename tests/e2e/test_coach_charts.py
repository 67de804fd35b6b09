"""Coach profiles, the rating column and the charts in a real browser, at a phone's size
(390x844) and a laptop's (1280x800), with the longest names a team may have (80
characters, markup characters included): nothing scrolls the page sideways, every chart
is drawn (the SVG images load), and no name is run as markup.

Set CHART_SCREENSHOTS to a folder to keep a screenshot of each page at each size.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import League, Match
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.services.access import get_team
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_result
from league.services.users import find_user
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("CHART_SCREENSHOTS")
#: Team names at their longest (80 characters), one with markup characters in it.
LONG_NAMES = (
    ("<script>alert('x')</script> & \"Quoted\" Übermächtigeschwarzwaldmeisterschaften " * 2)[:80],
    ("Reikland Reavers of the Everlasting Glorious Middenheim Championship Cup " * 2)[:80],
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any], str]]:
    """The demo league, its teams renamed to the longest names, both rounds played."""

    def fill(session: Session) -> tuple[dict[str, Any], str]:
        accounts = seed_demo(session)
        assert accounts is not None
        commissioner = find_user(session, DEMO_COMMISSIONER)
        league = session.scalars(select(League).where(League.ruleset_id == "bb2025")).one()
        teams = [team for team in league.teams if team.status == "active"]
        for team, name in zip(teams, LONG_NAMES, strict=True):
            team.name = name
        session.flush()
        waiting = session.scalars(
            select(Match).where(Match.league_id == league.id, Match.state == "scheduled")
        ).first()
        assert waiting is not None
        away = get_team(session, waiting.away.team_id)
        scorer = away.players[-2]
        record_result(
            session,
            commissioner,
            waiting.id,
            MatchReport(
                home=SideReport(score=0, mistake_d6=6),
                away=SideReport(score=1, mistake_d6=6),
                players=(PlayerEvents(scorer.id, td=1),),
            ),
        )
        ids = {
            "league": league.id,
            "team": teams[0].id,
            "player": scorer.id,
            "coach": teams[0].coach.username,
        }
        return ids, accounts.password

    with serving(tmp_path_factory.mktemp("charts"), "league_e2e", fill) as (base, _app, made):
        assert made is not None
        ids, password = made
        yield base, ids, password


@pytest.fixture(scope="module", params=list(SIZES))
def tab(request: pytest.FixtureRequest, browser, server):
    base, _ids, password = server
    with signed_in_tab(browser, base, request.param, DEMO_COMMISSIONER, password) as page:
        page.size_name = request.param  # type: ignore[attr-defined]
        alerts: list[str] = []
        page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
        page.alerts = alerts  # type: ignore[attr-defined]
        yield page
        assert alerts == [], "a team name ran as a script"


def _visit(tab, url: str, name: str, images: str | None = None) -> None:
    response = tab.goto(url)
    assert response is not None
    assert response.status == 200
    tab.wait_for_load_state("load")
    if images is not None:
        _images_drawn(tab, images)
    width = tab.evaluate("window.innerWidth")
    assert tab.evaluate("document.scrollingElement.scrollWidth") <= width, name
    if SHOTS:
        tab.screenshot(path=str(Path(SHOTS) / f"{tab.size_name}-{name}.png"), full_page=True)


def _images_drawn(tab, selector: str) -> None:
    images = tab.locator(selector)
    assert images.count() > 0
    for index in range(images.count()):
        image = images.nth(index)
        image.scroll_into_view_if_needed()
        tab.wait_for_function("(img) => img.complete", arg=image.element_handle())
        assert image.evaluate("img => img.naturalWidth") > 0


def test_the_coach_profile(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/coaches/{ids['coach']}", "coach-profile")
    assert tab.get_by_test_id("site-rating").is_visible()
    assert tab.get_by_text(LONG_NAMES[0]).first.is_visible()


def test_the_standings_with_ratings_and_the_race(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/leagues/{ids['league']}/standings", "standings")
    assert tab.get_by_test_id("coach-rating").count() == 2
    chart = tab.get_by_test_id("league-race-chart")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] <= tab.evaluate("window.innerWidth")


def test_the_team_page_and_its_history(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/teams/{ids['team']}", "team", images="img.chart")
    _visit(tab, f"{base}/teams/{ids['team']}/history", "team-history")
    assert tab.get_by_test_id("team-value-chart").is_visible()
    assert tab.get_by_test_id("team-position-chart").is_visible()


def test_the_player_page(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/players/{ids['player']}", "player", images="img.chart")
