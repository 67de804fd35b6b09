"""Issue 31, tournament day pages: rosters, the start, the big screen and the round entry."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import League, Match, MatchPlayer, Player, Team, User
from league.services import access, roster_approval, tournament
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import login

HUMANS = (("human-lineman", 11),)


@pytest.fixture
def event() -> tuple[User, User, League, Team, Team]:
    boss, anna, bram = make_user("boss"), make_user("anna"), make_user("bram")
    league = make_league(boss, "bb2025", anna, bram)
    with unit_of_work() as session:
        found = access.get_league(session, league.id)
        found.house_rules = {
            "tournament": {"bonus": [{"kind": "touchdowns", "threshold": 3, "points": 1}]}
        }
    reavers = make_active_team(anna, league, "human", "Reavers", HUMANS)
    crusaders = make_active_team(bram, league, "human", "Crusaders", HUMANS)
    return boss, anna, league, reavers, crusaders


def csrf(page: str) -> str:
    """The page's form token (the test app checks none: then empty)."""
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    return found.group(1) if found else ""


def _pair(boss: User, league_id: int) -> Match:
    with unit_of_work() as session:
        pairing = tournament.pair_next_round(
            session, boss, league_id, random.Random(1), start_anyway=True
        )
    return pairing.matches[0]


def test_a_locked_roster_refuses_the_coachs_hire_on_the_page(client: FlaskClient, event) -> None:
    _boss, _anna, _league, reavers, _crusaders = event
    login(client, "boss")
    page = client.get(f"/leagues/{reavers.league_id}/event/rosters").text
    approved = client.post(
        f"/teams/{reavers.id}/roster/review", data={"csrf_token": csrf(page), "approved": "1"}
    )
    assert approved.status_code == 302
    login(client, "anna")
    team_page = client.get(f"/teams/{reavers.id}").text
    assert "Approved by the organiser: the roster is locked." in team_page
    assert 'id="hire"' not in team_page  # no hiring form on a locked roster
    before = db.session.scalar(
        select(func.count()).select_from(Player).where(Player.team_id == reavers.id)
    )
    # The form posted anyway (an old tab): refused by the service, nothing written.
    refused = client.post(
        f"/teams/{reavers.id}/hire",
        data={"csrf_token": csrf(team_page), "position_id": "human-lineman", "name": "Late"},
        follow_redirects=True,
    )
    assert "locked" in refused.text
    db.session.expire_all()
    assert (
        db.session.scalar(
            select(func.count()).select_from(Player).where(Player.team_id == reavers.id)
        )
        == before
    )


def test_sent_back_with_a_note_the_coach_reads_it_and_resubmits(client: FlaskClient, event) -> None:
    _boss, _anna, league, reavers, _crusaders = event
    login(client, "boss")
    page = client.get(f"/leagues/{league.id}/event/rosters").text
    long_note = client.post(
        f"/teams/{reavers.id}/roster/review",
        data={"csrf_token": csrf(page), "approved": "0", "note": "x" * 501},
    )
    assert long_note.status_code == 422
    assert "500" in long_note.text  # next to the note box
    assert db.session.get(Team, reavers.id).roster_state == "open"  # type: ignore[union-attr]
    client.post(
        f"/teams/{reavers.id}/roster/review",
        data={"csrf_token": csrf(page), "approved": "0", "note": "Swap a lineman for a blitzer."},
    )
    login(client, "anna")
    team_page = client.get(f"/teams/{reavers.id}").text
    assert "Swap a lineman for a blitzer." in team_page
    submitted = client.post(
        f"/teams/{reavers.id}/roster/submit",
        data={"csrf_token": csrf(team_page)},
        follow_redirects=True,
    )
    assert "Roster submitted for the organiser&#39;s approval." in submitted.text
    db.session.expire_all()
    assert db.session.get(Team, reavers.id).roster_state == "submitted"  # type: ignore[union-attr]


def test_only_the_organiser_sees_the_rosters_and_reviews(client: FlaskClient, event) -> None:
    _boss, _anna, league, reavers, _crusaders = event
    login(client, "anna")
    assert client.get(f"/leagues/{league.id}/event/rosters").status_code == 403
    page = client.get(f"/teams/{reavers.id}").text
    refused = client.post(
        f"/teams/{reavers.id}/roster/review", data={"csrf_token": csrf(page), "approved": "1"}
    )
    assert refused.status_code == 403
    assert client.get(f"/leagues/{league.id}/fixtures/rounds/start").status_code == 403


def test_the_start_is_refused_with_the_list_then_started_anyway(client: FlaskClient, event) -> None:
    _boss, _anna, league, reavers, _crusaders = event
    with unit_of_work() as session:
        # The league collects rosters: a roster deadline is set.
        access.get_league(session, league.id).roster_deadline = datetime(2026, 12, 5, 9, tzinfo=UTC)
    login(client, "boss")
    page = client.get(f"/leagues/{league.id}/event/rosters").text
    client.post(
        f"/teams/{reavers.id}/roster/review", data={"csrf_token": csrf(page), "approved": "1"}
    )
    asked = client.post(
        f"/leagues/{league.id}/fixtures/rounds/next", data={"csrf_token": csrf(page)}
    )
    assert asked.status_code == 302
    assert asked.location.endswith(f"/leagues/{league.id}/fixtures/rounds/start")
    confirm = client.get(asked.location).text
    listed = re.search(r'data-testid="unapproved">(.*?)</ul>', confirm, re.S)
    assert listed is not None
    assert "Crusaders" in listed.group(1)
    assert "Reavers" not in listed.group(1)
    assert db.session.scalar(select(func.count()).select_from(Match)) == 0
    started = client.post(
        f"/leagues/{league.id}/fixtures/rounds/next",
        data={"csrf_token": csrf(confirm), "start_anyway": "1"},
    )
    assert started.location.endswith(f"/leagues/{league.id}/fixtures/rounds/1/print")
    assert db.session.scalar(select(func.count()).select_from(Match)) == 1


def test_the_big_screen_is_public_and_numbers_the_tables(client: FlaskClient, event) -> None:
    boss, _anna, league, _reavers, _crusaders = event
    match = _pair(boss, league.id)
    page = client.get(f"/leagues/{league.id}/screen").text
    assert '<meta http-equiv="refresh" content="60">' in page
    assert "site-nav" not in page
    assert "<nav" not in page
    home = db.session.get(Team, match.home.team_id).name  # type: ignore[union-attr]
    # Table 1: the first pairing of the round, as on the printable pairings.
    row = re.search(r'<td class="num table-number">1</td><td>(?:<bdi>)?([^<]+)', page)
    assert row is not None
    assert row.group(1) == home
    printed = client.get(f"/leagues/{league.id}/fixtures/rounds/1/print").text
    assert re.search(r'<td class="num">1</td>\s*<td class="team">(?:<bdi>)?' + home, printed)


def test_the_round_entry_records_every_table_and_bad_input_writes_nothing(
    client: FlaskClient, event
) -> None:
    boss, _anna, league, _reavers, _crusaders = event
    match = _pair(boss, league.id)
    url = f"/leagues/{league.id}/fixtures/rounds/1/results"
    login(client, "boss")
    page = client.get(url).text
    assert 'name="t1_home_td"' in page
    assert re.search(r'id="t1_home_td"[^>]*autofocus', page, re.S)
    bad = client.post(
        url,
        data={
            "csrf_token": csrf(page),
            "t1_home_td": "2",
            "t1_home_cas": "x",
            "t1_away_td": "",
            "t1_away_cas": "0",
        },
    )
    assert bad.status_code == 422
    assert re.search(r'id="t1_home_cas-error"[^>]*>Enter a number from 0 to 99.', bad.text)
    assert re.search(r'id="t1_away_td-error"', bad.text)
    db.session.expire_all()
    assert db.session.get(Match, match.id).state == "scheduled"  # type: ignore[union-attr]
    assert db.session.scalar(select(func.count()).select_from(MatchPlayer)) == 0
    done = client.post(
        url,
        data={
            "csrf_token": csrf(page),
            "t1_home_td": "3",
            "t1_home_cas": "1",
            "t1_away_td": "1",
            "t1_away_cas": "2",
        },
        follow_redirects=True,
    )
    assert "Round 1: 1 result recorded." in done.text
    # A win with three touchdowns: 3 points and the touchdowns bonus (+1); a loss: 0.
    assert "Points 3 · bonus +1" in done.text
    assert "Points 0 · bonus +0" in done.text
    db.session.expire_all()
    played = db.session.get(Match, match.id)
    assert played is not None
    assert (played.state, played.home.score, played.away.score) == ("played", 3, 1)


def test_only_the_organiser_enters_results(client: FlaskClient, event) -> None:
    boss, _anna, league, _reavers, _crusaders = event
    _pair(boss, league.id)
    url = f"/leagues/{league.id}/fixtures/rounds/1/results"
    assert client.get(url).status_code == 302  # to the sign-in page
    login(client, "anna")
    assert client.get(url).status_code == 403


def test_a_locked_roster_hides_the_player_edit_and_refuses_it(client: FlaskClient, event) -> None:
    boss, _anna, _league, reavers, _crusaders = event
    player = reavers.players[0]
    with unit_of_work() as session:
        roster_approval.review_roster(session, boss, reavers.id, approved=True)
    login(client, "anna")
    page = client.get(f"/players/{player.id}").text
    assert "Name and number" not in page
    refused = client.post(
        f"/players/{player.id}/edit", data={"name": "Renamed", "number": str(player.number)}
    )
    assert "approved and locked" in refused.text
    db.session.expire_all()
    assert db.session.get(Player, player.id).name == player.name  # type: ignore[union-attr]


def test_the_round_page_links_the_screen_and_the_organisers_entry(
    client: FlaskClient, event
) -> None:
    boss, _anna, league, _reavers, _crusaders = event
    _pair(boss, league.id)
    url = f"/leagues/{league.id}/fixtures/rounds/1"
    visitor = client.get(url).text
    assert f'href="/leagues/{league.id}/screen?round=1"' in visitor
    assert "enter-results-link" not in visitor
    login(client, "anna")
    assert "enter-results-link" not in client.get(url).text
    login(client, "boss")
    assert f'href="/leagues/{league.id}/fixtures/rounds/1/results"' in client.get(url).text
