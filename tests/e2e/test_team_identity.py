"""A team's colours and logo in the browser, at a phone's size (390x844) and a laptop's
(1280x800): picked and uploaded through the team page's forms (CSRF on), for a team with
the longest name the form allows; the crest and the page fit the screen.

Screenshots go to build/test-artifacts/ (gitignored), to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import League
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.services.teams import NewTeam, create_team
from league.services.users import find_user
from tests import logo_files
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

#: 80 characters, the most a team name may have, with a long unbroken word in it.
LONG_TEAM = "Übermächtige Schwarzwaldmeisterschaftsmannschaftsfreunde von Altdorf und Nuln XI"
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int, str, Path]]:
    def fill(session: Session) -> tuple[int, int, str]:
        accounts = seed_demo(session)
        assert accounts is not None
        commissioner = find_user(session, DEMO_COMMISSIONER)
        league = session.scalars(select(League).order_by(League.id)).first()
        assert league is not None
        team = create_team(session, commissioner, NewTeam(league.id, LONG_TEAM, "human"))
        return team.id, league.id, accounts.password

    folder = tmp_path_factory.mktemp("identity")
    with serving(folder, "league_e2e", fill) as (base, app, made):
        assert made is not None
        app.config["LOGO_DIR"] = str(folder / "logos")
        team_id, league_id, password = made
        yield base, team_id, league_id, password, folder


def _fits(tab) -> None:
    overflow = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{overflow}px wider than the screen"


@pytest.mark.parametrize("size", list(SIZES))
def test_colours_then_a_logo_through_the_team_page(browser, server, size: str) -> None:
    base, team_id, league_id, password, folder = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    logo = folder / f"crest-{size}.png"
    logo.write_bytes(logo_files.image_bytes((600, 300), colour="#1f4e9c"))
    with signed_in_tab(browser, base, size, DEMO_COMMISSIONER, password) as tab:
        tab.goto(f"{base}/teams/{team_id}")
        colours = tab.get_by_test_id("colours-form")
        # Too alike first: refused next to the field (#ff0000 on #00ff00: 2.9:1).
        colours.get_by_label("Main colour as #rrggbb").fill("#ff0000")
        colours.get_by_label("Second colour as #rrggbb").fill("#00ff00")
        colours.get_by_role("button", name="Save the colours").click()
        assert "2.9:1" in tab.locator("#colours-errors").inner_text()
        colours = tab.get_by_test_id("colours-form")
        colours.get_by_label("Main colour as #rrggbb").fill("#C81E1E")
        colours.get_by_label("Second colour as #rrggbb").fill("#ffffff")
        colours.get_by_role("button", name="Save the colours").click()
        tab.get_by_text("Colours saved.").wait_for()
        crest = tab.get_by_test_id("team-colours")
        assert crest.locator("text").text_content() == "ÜS"
        box = crest.bounding_box()
        assert box is not None
        assert box["width"] <= 96
        _fits(tab)
        tab.evaluate("window.scrollTo(0, 0)")
        tab.screenshot(path=str(ARTIFACTS / f"team-colours-{size}.png"), full_page=False)

        tab.get_by_label("Logo (PNG, JPEG or WebP, up to 2 MB)").set_input_files(str(logo))
        tab.get_by_role("button", name="Upload the logo").click()
        tab.get_by_text("Logo saved.").wait_for()
        shown = tab.get_by_test_id("team-logo")
        # The browser loaded it: a 256-pixel square PNG, drawn at the crest's size.
        assert shown.evaluate("img => img.complete && img.naturalWidth") == 256
        _fits(tab)
        tab.evaluate("window.scrollTo(0, 0)")
        tab.screenshot(path=str(ARTIFACTS / f"team-logo-{size}.png"), full_page=False)
        tab.goto(f"{base}/teams/{team_id}#identity")
        tab.locator("#identity").screenshot(path=str(ARTIFACTS / f"team-identity-form-{size}.png"))

        # The league's team list: the logo beside the name, the table on the screen.
        tab.goto(f"{base}/leagues/{league_id}")
        row = tab.locator("table.league-teams tr", has_text="Übermächtige")
        assert row.locator("img.team-logo").evaluate("img => img.naturalWidth") == 64
        _fits(tab)
        row.screenshot(path=str(ARTIFACTS / f"league-teams-badge-{size}.png"))
        tab.goto(f"{base}/teams/{team_id}#identity")

        tab.get_by_test_id("remove-logo").click()
        tab.get_by_role("button", name="Yes, remove the logo").click()
        tab.get_by_text("Logo removed.").wait_for()
        assert tab.get_by_test_id("team-logo").count() == 0
        assert tab.get_by_test_id("team-colours").count() == 1
