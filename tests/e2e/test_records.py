"""The records page at a phone's size (390x844) and a laptop's (1280x800), with the longest
team (80 characters) and player (60) names the forms allow holding its records: on screen
without scrolling sideways, every record's lines inside the page.

Set RECORDS_SCREENSHOTS to a folder to keep a screenshot of each size.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import League, Match, MatchPlayer, Player, Team
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("RECORDS_SCREENSHOTS")
#: The team form takes 80 characters, the player forms 60: one long unbroken word each.
LONG_TEAM = ("Middenheim Schwarzwaldmeisterschaftsmannschaftsaufstellungskommissionsvorsitzende")[
    :80
]
LONG_OTHER = "W" * 80
LONG_PLAYER = "Griffith Übermächtigeschwarzwaldmeisterschaftsmannschaftsspieler"[:60]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, str]]:
    """The demo league, its scorer and his team renamed to the longest names allowed."""

    def fill(session: Session) -> tuple[int, str]:
        accounts = seed_demo(session)
        assert accounts is not None
        league = session.scalars(select(League).order_by(League.id)).first()
        assert league is not None
        line = session.scalars(
            select(MatchPlayer)
            .join(Match, Match.id == MatchPlayer.match_id)
            .where(Match.league_id == league.id, Match.state == "played", MatchPlayer.td > 0)
            .order_by(MatchPlayer.td.desc())
        ).first()
        assert line is not None
        scorer = session.get(Player, line.player_id)
        assert scorer is not None
        scorer.name = LONG_PLAYER
        for team in session.scalars(select(Team).where(Team.league_id == league.id)):
            team.name = LONG_TEAM if team.id == line.team_id else LONG_OTHER
        return league.id, accounts.password

    with serving(tmp_path_factory.mktemp("records"), "league_e2e", fill) as (base, _app, made):
        assert made is not None
        league_id, password = made
        yield base, league_id, password


@pytest.mark.parametrize("size", list(SIZES))
def test_the_records_page_fits_with_the_longest_names(browser, server, size: str) -> None:
    base, league_id, password = server
    with signed_in_tab(browser, base, size, DEMO_COMMISSIONER, password) as tab:
        for query in ("", "?scope=season"):
            response = tab.goto(f"{base}/leagues/{league_id}/records{query}")
            assert response is not None
            assert response.status == 200
            width = tab.evaluate("window.innerWidth")
            assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
            scorer = tab.locator("#record-td_match li").first
            assert LONG_PLAYER in scorer.inner_text()
            for line in tab.locator(".record-lines li").all():
                box = line.bounding_box()
                assert box is not None
                assert box["x"] >= 0
                assert box["x"] + box["width"] <= width + 0.5
            if SHOTS:
                name = "season" if query else "all"
                tab.screenshot(path=str(Path(SHOTS) / f"records-{size}-{name}.png"), full_page=True)
