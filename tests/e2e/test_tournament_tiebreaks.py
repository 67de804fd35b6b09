"""The organiser's tie-breaker settings, the standings' tie notes and the NAF report page
at a phone's size (390x844) and a laptop's (1280x800): no sideways scrolling, the
controls and figures on screen. Screenshots go to the test's temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from league.models import User
from league.services.leagues import LeagueSettings, add_member, create_league
from league.services.matches import MatchReport, PlayerEvents, SideReport, record_new_match
from league.services.teams import HirePlayer, NewTeam, confirm_draft, create_team, hire_player
from league.services.users import NewUser, create_user
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

PASSWORD = "correct horse battery staple 42"


def _event(session: Session) -> int:
    """Four coaches, three with NAF numbers; results that leave ties on points."""
    boss = create_user(session, NewUser("organiser", PASSWORD))
    boss.naf_name = "Organiser"
    league = create_league(
        session,
        boss,
        LeagueSettings(
            "Reikland Open",
            "bb2025",
            tie_breakers=("points", "opponents_points", "cas_caused", "coin_toss"),
            house_rules={"tournament": {"concession_points": -1, "concession_score": [2, 0]}},
        ),
    )
    teams = []
    entries = (
        ("anna", "Altdorf Alphas"),
        ("bert", "Bögenhafen Bulls"),
        ("cora", "Carroburg Crows"),
        ("dirk", "Delberz Dragons"),
    )
    for number, (name, team_name) in enumerate(entries, start=1):
        coach: User = create_user(session, NewUser(name, PASSWORD))
        if name != "dirk":
            coach.naf_name, coach.naf_number = name.title(), 2000 + number
        add_member(session, boss, league, coach, "coach")
        team = create_team(session, coach, NewTeam(league.id, team_name, "human"))
        for shirt in range(1, 12):
            hire_player(session, coach, team.id, HirePlayer("human-lineman", f"L{shirt}", shirt))
        confirm_draft(session, coach, team.id)
        teams.append(team)
    a, b, c, d = teams

    def play(home, away, score, *events) -> None:
        report = MatchReport(
            home=SideReport(score=score[0], mistake_d6=6),
            away=SideReport(score=score[1], mistake_d6=6),
            players=events,
        )
        record_new_match(session, boss, league.id, home.id, away.id, report)

    play(a, b, (1, 0), PlayerEvents(a.players[0].id, td=1, cas=2))
    play(c, d, (1, 0), PlayerEvents(c.players[0].id, td=1, cas=1))
    play(b, d, (0, 0))
    return league.id


@pytest.mark.parametrize("size", SIZES)
def test_tie_breaker_pages_fit(browser, tmp_path: Path, size: str) -> None:
    width, _ = SIZES[size]
    shots = Path(os.environ.get("SCREENSHOTS", tmp_path))
    with (
        serving(tmp_path, "league_e2e_tiebreaks", _event) as (base, _app, league_id),
        signed_in_tab(browser, base, size, "organiser", PASSWORD) as tab,
    ):
        tab.goto(f"{base}/leagues/{league_id}/settings")
        assert tab.locator("#tie_breaker_9").is_visible()
        assert tab.locator("#tie_breaker_2").input_value() == "opponents_points"
        # The house rules are in use (the concession settings): their section is open.
        assert tab.locator("details.advanced").get_attribute("open") is not None
        assert tab.locator("#concession_score").is_visible()
        assert tab.locator("#concession_score").input_value() == "2-0"
        assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
        tab.screenshot(path=str(shots / f"settings-{width}.png"), full_page=True)

        tab.goto(f"{base}/leagues/{league_id}/standings")
        notes = tab.locator(".tie-notes")
        assert "ahead of" in notes.inner_text()
        assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
        tab.screenshot(path=str(shots / f"standings-{width}.png"), full_page=True)

        tab.goto(f"{base}/leagues/{league_id}/naf-report")
        assert "dirk" in tab.locator(".naf-left-out").inner_text()
        download = tab.get_by_role("link", name="Download the NAF report (XML)")
        assert download.is_visible()
        assert tab.evaluate("document.scrollingElement.scrollWidth") <= width
        tab.screenshot(path=str(shots / f"naf-report-{width}.png"), full_page=True)
