"""Closing a season with prizes, and a team's re-draft, through the pages."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.extensions import db
from league.models import Team
from league.services.matches import PlayerEvents
from tests.factories import make_active_team, make_league, make_user
from tests.pages import field_errors, flashes, login, text_of
from tests.services.test_standings import play

LINEMEN = (("human-lineman", 11),)


def _closed_bb2025_season(client: FlaskClient) -> tuple[int, Team, Team]:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    scorer = min(db.session.get(Team, reavers.id).players, key=lambda p: p.number)
    play(comm, league, reavers, gouged, 2, 1, PlayerEvents(scorer.id, td=2))
    login(client, "comm")
    page = client.get(f"/leagues/{league.id}/seasons/next").text
    # BB2025's Glittering Prizes are announced before the season is closed.
    assert "1st place 100,000, 2nd place 60,000, and 3rd place 30,000" in text_of(page)
    response = client.post(f"/leagues/{league.id}/seasons/next")
    shown = flashes(client.get(response.headers["Location"]).text)
    assert "Reavers (1st) wins 100,000 gold and the League Trophy." in shown
    assert "Gouged Eye (2nd) wins 60,000 gold." in shown
    return league.id, reavers, gouged


def test_closed_season_shows_its_prizes(client: FlaskClient) -> None:
    league_id, _, _ = _closed_bb2025_season(client)
    page = text_of(client.get(f"/leagues/{league_id}/standings?season=1").text)
    assert "1st · Reavers : 100,000 gold and the League Trophy" in page
    assert "2nd · Gouged Eye : 60,000 gold" in page


def test_redraft_submitted_by_the_coach_and_approved(client: FlaskClient) -> None:
    _, reavers, _ = _closed_bb2025_season(client)
    login(client, "coach")
    team_page = client.get(f"/teams/{reavers.id}").text
    assert 'data-testid="redraft-link"' in team_page
    page = client.get(f"/teams/{reavers.id}/redraft").text
    # 1,000,000 + treasury + 1 fixture + 1 win, far over the cap: 1,300,000.
    assert 'data-testid="redraft-budget">1,300,000<' in page
    players = sorted(p.id for p in db.session.get(Team, reavers.id).players)

    refused = client.post(
        f"/teams/{reavers.id}/redraft",
        data={"keep": players, "rerolls": "9", "assistant_coaches": "0", "cheerleaders": "0"},
    )
    assert refused.status_code == 422
    assert field_errors(refused.text, "rerolls") == ["From 0 to 8 team re-rolls."]

    kept = players[:-1]
    response = client.post(
        f"/teams/{reavers.id}/redraft",
        data={"keep": kept, "rerolls": "1", "assistant_coaches": "0", "cheerleaders": "0"},
    )
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).text
    # The scorer costs 50,000 + a season's fee of 20,000, nine more 50,000 each, and
    # one re-roll 50,000: 570,000 spent, 730,000 left.
    assert "Submitted: 570,000 spent, 730,000 left for the treasury." in text_of(page)
    assert f'action="/teams/{reavers.id}/redraft/approve"' not in page  # coaches cannot

    login(client, "comm")
    asked = client.post(f"/teams/{reavers.id}/redraft/approve")
    assert "10 of 11 players stay" in text_of(asked.text)
    assert db.session.get(Team, reavers.id).rerolls == 0  # nothing changed yet
    done = client.post(f"/teams/{reavers.id}/redraft/approve", data={"confirmed": "yes"})
    assert done.headers["Location"] == f"/teams/{reavers.id}"
    db.session.expire_all()
    team = db.session.get(Team, reavers.id)
    assert (team.treasury, team.rerolls) == (730_000, 1)
    assert sorted(p.id for p in team.players if p.status == "active") == kept


def test_redraft_is_refused_before_any_season_closed(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    team = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    login(client, "coach")
    response = client.get(f"/teams/{team.id}/redraft")
    assert response.headers["Location"] == f"/teams/{team.id}"
    assert "has not closed a season yet" in " ".join(flashes(client.get(f"/teams/{team.id}").text))
    login(client, "comm")
    assert client.get("/teams/999999/redraft").status_code == 404
