"""The figures people open a table for, at a phone's size (390x844) and a laptop's
(1280x800): on screen without scrolling sideways (the league's teams and TV, the standings'
touchdowns and points, the treasury ledger's gold), and no column label or row action
broken inside a word beside a long name.

Set TABLE_SCREENSHOTS to a folder to keep a screenshot of each page at each size.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import League
from league.seeding.demo import DEMO_COMMISSIONER, seed_demo
from league.services.teams import HirePlayer, NewTeam, create_team, hire_player
from league.services.users import find_user
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("TABLE_SCREENSHOTS")
#: As long as the hire form takes (60 characters), one unbroken word among others.
LONG_PLAYER = "Griffith Übermächtigeschwarzwaldmeisterschaftsmannschaftsspieler"[:60]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, int], str]]:
    """The demo league, and a team in its draft with a player of the longest name."""

    def fill(session: Session) -> tuple[dict[str, int], str]:
        accounts = seed_demo(session)
        assert accounts is not None
        commissioner = find_user(session, DEMO_COMMISSIONER)
        league = session.scalars(select(League).order_by(League.id)).first()
        assert league is not None
        active = next(team for team in league.teams if team.status == "active")
        draft = create_team(session, commissioner, NewTeam(league.id, "Altdorf Academy", "human"))
        hire_player(session, commissioner, draft.id, HirePlayer("human-lineman", LONG_PLAYER, 1))
        ids = {"league": league.id, "team": active.id, "draft": draft.id}
        return ids, accounts.password

    with serving(tmp_path_factory.mktemp("tables"), "league_e2e", fill) as (base, _app, made):
        assert made is not None
        ids, password = made
        yield base, ids, password


@pytest.fixture(scope="module", params=list(SIZES))
def tab(request: pytest.FixtureRequest, browser, server):
    base, _ids, password = server
    with signed_in_tab(browser, base, request.param, DEMO_COMMISSIONER, password) as page:
        page.size_name = request.param  # type: ignore[attr-defined]
        yield page


def _visit(tab, url: str, name: str) -> None:
    response = tab.goto(url)
    assert response is not None
    assert response.status == 200
    if SHOTS:
        shot = Path(SHOTS) / f"{tab.size_name}-{name}.png"
        tab.screenshot(path=str(shot), full_page=True)


def _on_screen(tab, selector: str) -> int:
    """How many elements ``selector`` finds; each lies inside the viewport's width and its
    table does not scroll sideways."""
    width = tab.evaluate("window.innerWidth")
    assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
    cells = tab.locator(selector)
    for index in range(cells.count()):
        cell = cells.nth(index)
        box = cell.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0, (selector, index, box)
        assert box["x"] + box["width"] <= width + 0.5, (selector, index, box)
        wrap = cell.evaluate(
            "el => { const w = el.closest('.table-wrap'); "
            "return w ? w.scrollWidth - w.clientWidth : 0 }"
        )
        assert wrap <= 1, (selector, index, "the table scrolls sideways")
    return cells.count()


# Text nodes whose words are split over two lines (a word broken letter by letter).
BROKEN_WORDS = """els => els.flatMap(el => {
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const found of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(found[0]);
    }
  }
  return broken;
})"""


def test_the_league_page_shows_each_teams_value(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/leagues/{ids['league']}", "league")
    assert _on_screen(tab, "table.league-teams tbody td:last-child") == 3  # TV, every team
    assert _on_screen(tab, "table.standings tbody td.points") == 2


def test_the_standings_show_touchdowns_and_points(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/leagues/{ids['league']}/standings", "standings")
    for column in (7, 8, 9):  # TD+, TD-, TD± (after #, team, P, W, D, L)
        assert _on_screen(tab, f"table.standings tbody td:nth-child({column})") == 2
    assert _on_screen(tab, "table.standings tbody td.points") == 2
    labels = tab.eval_on_selector_all(
        "table.standings tbody tr:first-child td[data-label]",
        "tds => tds.map(td => td.dataset.label)",
    )
    assert labels[4:7] == ["TD+", "TD\u2212", "TD±"]


def test_the_ledger_shows_the_gold_of_every_entry(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/teams/{ids['team']}", "team")
    entries = _on_screen(tab, "table.ledger tbody td.num")
    assert entries > 11  # the starting treasury and the hires, at least
    assert _on_screen(tab, "table.ledger tfoot th.num") == 1  # the treasury


def test_no_label_or_action_breaks_inside_a_word_beside_a_long_name(tab, server) -> None:
    base, ids, _password = server
    _visit(tab, f"{base}/teams/{ids['draft']}", "draft")
    assert tab.locator("table.roster td.row-actions a").first.inner_text() == "remove"
    words = tab.eval_on_selector_all(
        "table.roster thead th, table.roster td.row-actions, table.hire-table thead th",
        BROKEN_WORDS,
    )
    assert words == []
