"""Every main page at a phone's size (390x844) and a laptop's (1280x800), with the demo data
and with names as long as the forms allow: no sideways page scrolling, and each page's
primary action and key figures inside the viewport.

One server and one browser for the module; one logged-in browser context per size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from league.models import League, Match, Team, WebhookDelivery
from league.models.webhook import URL_LENGTH
from league.seeding.demo import DEMO_COACHES, DEMO_COMMISSIONER, seed_demo
from league.services import webhooks
from league.services.fixtures import generate_fixtures
from league.services.leagues import LeagueSettings, add_member, create_league
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_result
from league.services.teams import (
    HirePlayer,
    NewTeam,
    buy_team_item,
    confirm_draft,
    create_team,
    hire_player,
)
from league.services.users import find_user
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e


def long_name(words: str, length: int) -> str:
    """`words` cut or padded (with a long unbroken word) to exactly `length` characters."""
    padded = f"{words} {'Übermächtigeschwarzwaldmeisterschaftsmannschaft' * 2}"
    return padded[:length]


# The longest names the forms take (leagues and teams: 80 characters; players: 60).
LONG_LEAGUE = long_name("The Grand Reikland Invitational", 80)
LONG_TEAMS = (long_name("Altdorf Reavers", 80), long_name("Gouged Eye Orcs", 80))
LONG_DRAFT_TEAM = long_name("Middenheim Draftees", 80)
LONG_PLAYER = long_name("Griffith Oberwald", 60)


@dataclass(frozen=True, slots=True)
class Site:
    """One league's pages to visit, and the names they show."""

    league_id: int
    active_team_id: int
    #: The active team's coach (a member the commissioner may remove).
    coach_id: int
    draft_team_id: int
    scorer_id: int
    played_match_id: int
    names: tuple[str, ...]


def _play(session, commissioner, match: Match) -> int:
    """Record a result in which the home side's last player scores twice (enough SPP for an
    advancement); returns that player's id."""
    scorer = match.home.team.players[-1]
    report = MatchReport(
        home=SideReport(score=2, mistake_d6=6),
        away=SideReport(score=0, mistake_d6=6),
        players=(PlayerEvents(scorer.id, td=2, mvp=1),),
        fan_attendance=6,
    )
    record_result(session, commissioner, match.id, report)
    return scorer.id


def _draft_team(session, actor, league: League, name: str, player: str) -> Team:
    team = create_team(session, actor, NewTeam(league.id, name, "human"))
    hire_player(session, actor, team.id, HirePlayer("human-lineman", player, 1))
    return team


def _demo_site(session) -> tuple[Site, str]:
    accounts = seed_demo(session)
    assert accounts is not None
    commissioner = find_user(session, DEMO_COMMISSIONER)
    league = session.scalars(select(League).order_by(League.id)).first()
    draft = _draft_team(session, commissioner, league, "Altdorf Academy", "Hans")
    played = session.scalars(
        select(Match).where(Match.league_id == league.id, Match.state == "played")
    ).one()
    home = played.home.team
    site = Site(league.id, home.id, home.coach_id, draft.id, home.players[-1].id, played.id, ())
    return site, accounts.password


def _long_webhook(session, commissioner, league: League) -> None:
    """A webhook with the longest address, and a failed delivery with a long error."""
    url = "https://1.1.1.1/" + "hooks/" * 80  # a number: nothing to look up
    settings = webhooks.WebhookSettings(url[:URL_LENGTH], ("team.redrafted",), "discord")
    hook = webhooks.create_webhook(session, commissioner, league.id, settings)
    hook.paused_at = hook.created_at
    session.add(
        WebhookDelivery(
            webhook_id=hook.id,
            event="team.redrafted",
            body="{}",
            status="failed",
            attempts=5,
            error=("Not delivered: " + "unreachable " * 20)[:200],
        )
    )


def _long_site(session) -> Site:
    """A league, its teams and players with names of the maximum length."""
    commissioner = find_user(session, DEMO_COMMISSIONER)
    league = create_league(session, commissioner, LeagueSettings(LONG_LEAGUE, "bb2025"))
    for name, username in zip(LONG_TEAMS, DEMO_COACHES, strict=True):
        coach = find_user(session, username)
        add_member(session, commissioner, league, coach, "coach")
        team = create_team(session, commissioner, NewTeam(league.id, name, "human", coach=username))
        for number in range(1, 12):
            player = f"{number:02d} {LONG_PLAYER}"[:60]
            hire_player(session, commissioner, team.id, HirePlayer("human-lineman", player, number))
        # The staff panel then refuses a second one, naming the team ("… already has …").
        buy_team_item(session, commissioner, team.id, "apothecary")
        confirm_draft(session, commissioner, team.id)
    draft = _draft_team(session, commissioner, league, LONG_DRAFT_TEAM, LONG_PLAYER)
    fixtures = generate_fixtures(
        session, commissioner, league.id, double=True, start_date=date.today(), shuffle=False
    )
    scorer_id = _play(session, commissioner, fixtures[0])
    _long_webhook(session, commissioner, league)
    home = fixtures[0].home.team
    names = (LONG_LEAGUE, *LONG_TEAMS, LONG_DRAFT_TEAM, f"11 {LONG_PLAYER}"[:60])
    return Site(league.id, home.id, home.coach_id, draft.id, scorer_id, fixtures[0].id, names)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Site], str]]:
    """The app served with the demo data plus a league of maximum-length names."""

    def fill(session: Session) -> tuple[dict[str, Site], str]:
        demo, password = _demo_site(session)
        return {"demo": demo, "long": _long_site(session)}, password

    with serving(tmp_path_factory.mktemp("layout"), "league_e2e", fill) as (base, _app, filled):
        assert filled is not None
        sites, password = filled
        yield base, sites, password


@pytest.fixture(scope="module", params=list(SIZES))
def tab(request: pytest.FixtureRequest, browser, server):
    """A tab of the given size, logged in as the demo commissioner (who may do everything)."""
    base, _sites, password = server
    with signed_in_tab(browser, base, request.param, DEMO_COMMISSIONER, password) as page:
        yield page


# Each page, and what must be on screen without scrolling sideways.
PAGES = {
    "home": ("/", []),
    "league": ("/leagues/{s.league_id}", []),
    "fixtures": ("/leagues/{s.league_id}/fixtures", ["role=link[name='Enter result'] >> nth=0"]),
    "standings": (
        "/leagues/{s.league_id}/standings",
        # Place, team, P, W, D, L, TD+, TD-, TD± and the points (on a phone, a card each).
        [f"table.standings tbody tr >> nth=0 >> td >> nth={i}" for i in range(9)]
        + ["table.standings tbody tr >> nth=0 >> td.points"],
    ),
    "stats": ("/leagues/{s.league_id}/stats", []),
    "roster": (
        "/teams/{s.active_team_id}",
        [
            f"table.roster tbody tr >> nth=0 >> td.{cell}"
            for cell in ("name", "position", "spp", "value", "status")
        ],
    ),
    "draft": (
        "/teams/{s.draft_team_id}",
        [
            "role=button[name=/^Hire /] >> nth=0",
            "role=button[name=/^Buy /] >> nth=0",
            "[data-testid=treasury-left]",
        ],
    ),
    "player": ("/players/{s.scorer_id}", ["role=link[name=/^Choose/] >> nth=0"]),
    "match": ("/matches/{s.played_match_id}", []),
    "report": ("/matches/{s.played_match_id}/report", []),
    # The other pages: forms, confirmations, the rules browser, the profile.
    "round": ("/leagues/{s.league_id}/fixtures/rounds/1", []),
    "printed round": ("/leagues/{s.league_id}/fixtures/rounds/1/print", []),
    "add a fixture": ("/leagues/{s.league_id}/fixtures/new", []),
    "generate fixtures": ("/leagues/{s.league_id}/fixtures/generate", []),
    "record a match": ("/leagues/{s.league_id}/matches/new", []),
    "members": ("/leagues/{s.league_id}/members", ["role=link[name='Remove…'] >> nth=0"]),
    "remove a member": (
        "/leagues/{s.league_id}/members/{s.coach_id}/remove",
        ["#hand_teams_to", "role=button[name='Remove from the league']"],
    ),
    "league pack": ("/leagues/{s.league_id}/rosters", []),
    "next season": ("/leagues/{s.league_id}/seasons/next", []),
    "settings": ("/leagues/{s.league_id}/settings", []),
    "webhooks": ("/leagues/{s.league_id}/webhooks", []),
    "new team": ("/leagues/{s.league_id}/teams/new", []),
    "new league": ("/leagues/new", []),
    "void": ("/matches/{s.played_match_id}/void", []),
    "fire": ("/players/{s.scorer_id}/fire", []),
    "hand over": ("/teams/{s.active_team_id}/coach", []),
    "profile": ("/profile", []),
    "log out everywhere": ("/profile/sessions/end", []),
    "rules": ("/rules", []),
    "ruleset": ("/rules/bb2025", []),
    "skills": ("/rules/bb2025/skills", []),
    "team types": ("/rules/bb2025/teams", []),
    "team type": ("/rules/bb2025/teams/human", []),
    "inducements": ("/rules/bb2025/inducements?team=goblin", ["#bribes"]),
    "death zone inducements": (
        "/rules/bb2020/inducements?team=chaos-chosen",
        ["#famous-coaching-staff-papa-skullbones"],
    ),
    "star players": ("/rules/bb2025/star-players", ["#the-black-gobbo"]),
    "classic star players": ("/rules/classic/star-players?team=ogre", ["#grotty"]),
}

# Elements showing a long name that are wider than the screen, or that cut it short
# without the whole name in a title.
NAMES_THAT_DO_NOT_FIT = """names => [...document.querySelectorAll('body *')].filter(el => {
  const text = [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
    .map(n => n.data).join(' ');
  const name = names.find(n => text.includes(n.slice(0, 20)));
  const box = el.getBoundingClientRect();
  if (!name || box.width === 0) return false;
  const cut = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  const titled = (el.closest('[title]')?.title || '').includes(name);
  return box.width > window.innerWidth || (cut && !titled);
}).map(el => `${el.tagName}.${el.className} (${el.getBoundingClientRect().width}px)`)"""


@pytest.mark.parametrize("dataset", ["demo", "long"])
@pytest.mark.parametrize("name", list(PAGES))
def test_page_fits_the_screen(tab, server, dataset: str, name: str) -> None:
    base, sites, _password = server
    site = sites[dataset]
    path, on_screen = PAGES[name]
    response = tab.goto(base + path.format(s=site))
    assert response is not None
    assert response.status == 200

    width = tab.evaluate("window.innerWidth")
    assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
    for selector in on_screen:
        box = tab.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0, selector
        assert box["x"] + box["width"] <= width + 0.5, (selector, box)
    assert tab.evaluate(NAMES_THAT_DO_NOT_FIT, list(site.names)) == []


def test_roster_cards_label_every_figure(tab, server) -> None:
    """On a phone each roster row is a card: its figures carry their column's name."""
    base, sites, _password = server
    tab.goto(f"{base}/teams/{sites['demo'].active_team_id}")
    labels = tab.eval_on_selector_all(
        "table.roster tbody tr:first-child td[data-label]",
        "cells => cells.map(c => c.dataset.label)",
    )
    assert labels == [
        *("MA", "ST", "AG", "PA", "AV"),  # BB2025's characteristics, from the header
        *("Skills", "SPP available / earned", "Level", "Value"),
    ]


def test_draft_labels_say_what_the_numbers_are(tab, server) -> None:
    """The shirt number field is wide enough for its value and has a visible label; the SPP
    column says its two numbers are available / earned."""
    base, sites, _password = server
    tab.goto(f"{base}/teams/{sites['demo'].draft_team_id}")
    number = tab.locator("form.hire-form input[name=number]").first
    label = tab.locator(f"label[for='{number.get_attribute('id')}']")
    assert label.inner_text() == "Number"
    label_box = label.bounding_box()
    assert label_box is not None
    assert label_box["width"] > 20  # shown, not visually hidden
    assert number.input_value() == "2"
    assert number.evaluate("el => el.scrollWidth <= el.clientWidth && el.clientWidth >= 40")
    spp_head = tab.locator("table.roster thead th.spp")
    assert " ".join(spp_head.inner_text().split()) == "SPP available / earned"


def test_the_members_page_names_the_owner(tab, server, tmp_path) -> None:
    """The owner's row says why it has no remove button, inside the screen at both sizes."""
    base, sites, _password = server
    tab.goto(f"{base}/leagues/{sites['demo'].league_id}/members")
    width = tab.evaluate("window.innerWidth")
    tab.screenshot(path=str(tmp_path / f"members-{width}.png"), full_page=True)
    owner_row = tab.locator("tr", has=tab.locator("[data-testid=owner]"))
    assert owner_row.count() == 1
    assert owner_row.get_by_role("link", name="Remove…").count() == 0
    for element in (owner_row.locator("[data-testid=owner]"), owner_row.locator(".muted")):
        box = element.bounding_box()
        assert box is not None
        assert box["x"] >= 0, box
        assert box["x"] + box["width"] <= width + 0.5, box
    assert tab.locator("#owner-rule").is_visible()
