"""The organiser's tournament pages in a browser at a laptop's size (1280x800) and a
phone's (390x844): the entries, a swap that warns before it is made, the profile's NAF
details. Nothing scrolls sideways; the warning shows before the swap.

Set ENTRIES_SCREENSHOTS to a folder to keep a screenshot of each page at each size.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from league.services import entries, leagues, tournament
from league.services.users import NewUser, create_user, set_naf_identity
from tests.e2e.conftest import SIZES, serving, signed_in_tab

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("ENTRIES_SCREENSHOTS")
PASSWORD = "correct horse battery"
CLUBS = ("Lustria", "Albion", "Lustria", "Albion", "Norsca", "Norsca")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """Six entries in three clubs, round 1 paired (at random, clubs kept apart)."""

    def fill(session: Session) -> int:
        organiser = create_user(session, NewUser("organiser", PASSWORD, False))
        coaches = [create_user(session, NewUser(f"coach{n}", PASSWORD, False)) for n in range(6)]
        for n, coach in enumerate(coaches):
            set_naf_identity(session, coach, f"NafCoach{n}", 1000 + n)
        league = leagues.create_league(
            session, organiser, leagues.LeagueSettings("Spring Open", "bb2025")
        )
        for coach in coaches:
            leagues.add_member(session, organiser, league, coach, "coach")
        names = (
            "Reikland Reavers",
            "Gouged Eye",
            "Athelorn Avengers",
            "Bright Crusaders",
            "Norsca Rampagers",
            "Underworld Creepers",
        )
        for n, name in enumerate(names):
            entries.add_entry(
                session,
                organiser,
                entries.NewEntry(
                    league.id,
                    name=name,
                    team_type_id="human",
                    coach=coaches[n].username,
                    club=CLUBS[n],
                    seed_rating=150 + 5 * n,
                ),
            )
        session.flush()
        tournament.pair_next_round(session, organiser, league.id, random.Random(3))
        return league.id

    with serving(tmp_path_factory.mktemp("entries"), "league_e2e", fill) as (base, _app, made):
        assert made is not None
        yield base, made


def _shot(page, name: str, size: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{size}.png"), full_page=True)


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.evaluate(
        "window.innerWidth"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_the_entries_page_and_a_swap(browser, server, size: str) -> None:
    base, league_id = server
    with signed_in_tab(browser, base, size, "organiser", PASSWORD) as page:
        page.goto(f"{base}/leagues/{league_id}/entries")
        rows = page.locator("[data-testid=entries] tbody tr")
        assert rows.count() == 6
        assert "NafCoach0 #1000" in page.locator("[data-testid=entries]").inner_text()
        _no_sideways_scroll(page)
        _shot(page, "entries", size)
        page.get_by_role("link", name="Swap two pairings of round 1").click()
        pairings = page.locator("[data-testid=pairings] li")
        assert pairings.count() == 3
        first = pairings.nth(0).inner_text().split(" \u2013 ")
        second = pairings.nth(1).inner_text().split(" \u2013 ")
        page.get_by_label("Entry", exact=True).select_option(label=first[1])
        page.get_by_label("Swap with").select_option(label=second[1])
        page.get_by_role("button", name="Check the swap").click()
        warned = page.locator("[data-testid=swap-warnings], [data-testid=swap-clean]")
        warned.wait_for()
        _no_sideways_scroll(page)
        _shot(page, "swap-check", size)
        page.get_by_role("button", name="Swap them").click()
        page.get_by_text("The pairings are swapped.").wait_for()
        after = page.locator("[data-testid=pairings] li").nth(0).inner_text()
        assert after == f"{first[0]} \u2013 {second[1]}"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_profile_takes_the_naf_details(browser, server, size: str) -> None:
    base, _league_id = server
    with signed_in_tab(browser, base, size, "coach1", PASSWORD) as page:
        page.goto(f"{base}/profile")
        page.get_by_label("NAF number").fill("0")
        page.get_by_role("button", name="Save NAF details").click()
        page.get_by_text("A NAF number is a whole number above 0.").wait_for()
        _no_sideways_scroll(page)
        _shot(page, "profile-naf-error", size)
        page.get_by_label("NAF number").fill("2024")
        page.get_by_role("button", name="Save NAF details").click()
        page.get_by_text("Your NAF details are saved.").wait_for()
        assert page.get_by_label("NAF number").input_value() == "2024"


@pytest.fixture(scope="module")
def manual_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int]]:
    """Five entries of a league whose first round is paired by hand."""

    def fill(session: Session) -> tuple[int, int]:
        organiser = create_user(session, NewUser("organiser", PASSWORD, False))
        coach = create_user(session, NewUser("coach", PASSWORD, False))
        league = leagues.create_league(
            session,
            organiser,
            leagues.LeagueSettings("Hand Cup", "bb2025", pairing_first_round="manual"),
        )
        leagues.add_member(session, organiser, league, coach, "coach")
        made = [
            entries.add_entry(
                session,
                organiser,
                entries.NewEntry(league.id, name=f"Team {n}", team_type_id="human", coach="coach"),
            )
            for n in range(1, 6)
        ]
        session.flush()
        return league.id, made[0].id

    with serving(tmp_path_factory.mktemp("manual"), "league_e2e", fill) as (base, _app, made):
        assert made is not None
        yield base, *made


@pytest.mark.parametrize("size", list(SIZES))
def test_the_first_round_by_hand_and_a_drop(browser, manual_server, size: str) -> None:
    base, league_id, first_team = manual_server
    with signed_in_tab(browser, base, size, "organiser", PASSWORD) as page:
        page.goto(f"{base}/leagues/{league_id}/entries/{first_team}/drop")
        page.get_by_role("button", name="Drop the entry").wait_for()
        _no_sideways_scroll(page)
        _shot(page, "drop", size)
        page.goto(f"{base}/leagues/{league_id}/entries")
        page.get_by_role("link", name="Pair the first round by hand").click()
        assert page.locator("fieldset").count() == 2  # five entries: two tables and a bye
        _no_sideways_scroll(page)
        _shot(page, "first-round", size)
        page.goto(f"{base}/leagues/{league_id}/settings")
        setting = page.get_by_label("First round")
        assert setting.input_value() == "manual"
        assert page.get_by_label("Keep entries of one club or nation apart").is_checked()
        _no_sideways_scroll(page)
        if SHOTS:
            page.locator("fieldset", has=setting).screenshot(
                path=str(Path(SHOTS) / f"settings-pairing-{size}.png")
            )
