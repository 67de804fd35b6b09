"""A team's own iCalendar feed: its fixtures only, with the league feed's event ids."""

from __future__ import annotations

import re
from datetime import date

from league.services import matches, teams
from league.services.unit_of_work import unit_of_work
from tests.factories import make_league, make_user

# Long enough that its SUMMARY line must fold; the comma and semicolon must be escaped.
LONG_NAME = "Altdorf Ale-Swillers, Brewers; Brawlers of the Reik Valley"


def _calendar(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == "text/calendar"
    return response.get_data(as_text=True)


def _uids(body: str) -> list[str]:
    return re.findall(r"^UID:(.*)\r$", body.replace("\r\n ", ""), flags=re.MULTILINE)


def test_team_calendar_lists_only_that_teams_fixtures_with_the_league_uids(client) -> None:
    commissioner, coach = make_user("commish"), make_user("anna")
    league = make_league(commissioner, "bb2025", coach)
    with unit_of_work() as session:
        ours, b, c = (
            teams.create_team(session, coach, teams.NewTeam(league.id, name, "human", active=True))
            for name in (LONG_NAME, "Bravo", "Charlie")
        )
    with unit_of_work() as session:

        def fixture(home, away, day=None):
            return matches.schedule_match(
                session, commissioner, league.id, home.id, away.id, scheduled_for=day
            )

        home_game = fixture(ours, b, date(2025, 9, 6))
        fixture(b, c, date(2025, 9, 6))  # not ours
        away_game = fixture(c, ours, date(2025, 9, 13))
        fixture(b, ours)  # ours, but undated: no calendar day
        voided = fixture(ours, c, date(2025, 9, 20))
    with unit_of_work() as session:
        matches.void_match(session, commissioner, voided.id)

    path = f"/teams/{ours.id}/fixtures.ics"
    response = client.get(path)
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="team-{ours.id}-fixtures.ics"'
    )
    first, second = _calendar(client, path), _calendar(client, path)
    league_body = _calendar(client, f"/leagues/{league.id}/fixtures.ics")

    expected = [f"match-{home_game.id}@127.0.0.1", f"match-{away_game.id}@127.0.0.1"]
    assert _uids(first) == expected
    assert _uids(second) == expected  # stable across downloads
    assert set(expected) < set(_uids(league_body))  # same events as the league calendar
    assert len(_uids(league_body)) == 3

    # RFC 5545: CRLF line ends, TEXT escaped, lines folded at 75 octets (section 3.1).
    assert first.startswith("BEGIN:VCALENDAR\r\n")
    assert first.endswith("END:VCALENDAR\r\n")
    assert "\n" not in first.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in first.split("\r\n"))
    unfolded = first.replace("\r\n ", "")
    escaped = "Altdorf Ale-Swillers\\, Brewers\\; Brawlers of the Reik Valley"
    assert f"X-WR-CALNAME:{escaped} fixtures\r\n" in unfolded
    assert f"SUMMARY:{escaped} vs Bravo\r\n" in unfolded
    assert f"SUMMARY:Charlie vs {escaped}\r\n" in unfolded
    assert any(line.startswith(" ") for line in first.split("\r\n"))  # something was folded
    page = f"http://127.0.0.1:5000/leagues/{league.id}/fixtures"  # PUBLIC_URL, not the Host
    assert f"URL:{page}#match-{home_game.id}\r\n" in unfolded


def test_team_page_links_to_its_calendar(client) -> None:
    commissioner = make_user("commish")
    league = make_league(commissioner, "bb2025")
    with unit_of_work() as session:
        team = teams.create_team(session, commissioner, teams.NewTeam(league.id, "Bravo", "human"))
    page = client.get(f"/teams/{team.id}").get_data(as_text=True)
    assert f'href="/teams/{team.id}/fixtures.ics" data-testid="team-calendar"' in page


def test_unknown_team_calendar_is_404(client) -> None:
    assert client.get("/teams/999/fixtures.ics").status_code == 404
