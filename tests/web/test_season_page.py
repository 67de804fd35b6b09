"""A season's page: final table, prizes paid (RULES-FACTS 6b, BB2025 Glittering
Prizes: 100,000 / 60,000 / 30,000) and the season's leaders."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.extensions import db
from league.models import Team
from league.services import seasons
from league.services.matches import PlayerEvents
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user
from tests.pages import text_of
from tests.services.test_standings import play

LINEMEN = (("human-lineman", 11),)


def test_closed_season_shows_table_prizes_and_leaders(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    scorer = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    play(comm, league, reavers, gouged, 2, 1, PlayerEvents(scorer.id, td=2, mvp=1))
    with unit_of_work() as session:
        seasons.close_season(session, comm, league.id, 1)

    page = client.get(f"/leagues/{league.id}/seasons/1")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Final table" in text
    assert "1st · Reavers : 100,000 gold and the League Trophy" in text
    assert "2nd · Gouged Eye : 60,000 gold" in text
    # Two touchdowns (3 SPP each, BB2025) and an MVP (4 SPP): 10 SPP.
    assert f"1 {scorer.name} Reavers 2" in text  # touchdowns
    assert f"1 {scorer.name} Reavers 10" in text  # SPP
    assert "(1); friendlies do not count" in text

    league_page = client.get(f"/leagues/{league.id}").text
    assert f'href="/leagues/{league.id}/seasons/1"' in league_page
    standings = client.get(f"/leagues/{league.id}/standings?season=1").text
    assert 'data-testid="season-page-link"' in standings
    # The open season 2 has no link on its standings.
    assert (
        'data-testid="season-page-link"' not in client.get(f"/leagues/{league.id}/standings").text
    )


def test_season_without_matches_says_so(client: FlaskClient) -> None:
    comm = make_user("comm")
    league = make_league(comm, "bb2025")
    with unit_of_work() as session:
        seasons.close_season(session, comm, league.id, 1)
    page = client.get(f"/leagues/{league.id}/seasons/1")
    assert page.status_code == 200
    assert "No league match of Season 1 has a result" in text_of(page.text)
    assert 'data-testid="season-prizes"' not in page.text
    open_page = client.get(f"/leagues/{league.id}/seasons/2").text
    assert 'data-testid="season-open"' in open_page
    assert client.get(f"/leagues/{league.id}/seasons/9").status_code == 404
