"""Closing a season with prizes, and a team's re-draft, through the pages."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Match, Team
from league.services import matches
from league.services.matches import PlayerEvents
from league.services.recompute import check_all
from league.services.unit_of_work import unit_of_work
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
    # Ten players kept, each on the roster through Season 1: 50,000 + a season's agent's
    # fee of 20,000 each, and one re-roll 50,000: 750,000 spent, 550,000 left.
    assert "Submitted: 750,000 spent, 550,000 left for the treasury." in text_of(page)
    assert f'action="/teams/{reavers.id}/redraft/approve"' not in page  # coaches cannot

    login(client, "comm")
    asked = client.post(f"/teams/{reavers.id}/redraft/approve")
    assert "10 of 11 players stay" in text_of(asked.text)
    assert db.session.get(Team, reavers.id).rerolls == 0  # nothing changed yet
    done = client.post(f"/teams/{reavers.id}/redraft/approve", data={"confirmed": "yes"})
    assert done.headers["Location"] == f"/teams/{reavers.id}"
    db.session.expire_all()
    team = db.session.get(Team, reavers.id)
    assert (team.treasury, team.rerolls) == (550_000, 1)
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


def test_a_closed_season_is_reopened_after_a_confirmation(client: FlaskClient) -> None:
    league_id, reavers, _ = _closed_bb2025_season(client)
    played = db.session.scalars(select(Match).where(Match.league_id == league_id)).one()
    # The result of a closed season cannot change: the page says why, the form is not offered.
    page = client.get(f"/matches/{played.id}").text
    assert 'data-testid="season-closed"' in page
    refused = client.get(f"/matches/{played.id}/report")
    assert refused.status_code == 302
    assert flashes(client.get(refused.headers["Location"]).text) == [
        "Season 1 is closed: its results are final. A commissioner may reopen it to change them."
    ]
    # Nor does the closed season's fixture list offer to correct it.
    fixtures = client.get(f"/leagues/{league_id}/fixtures?season=1").text
    assert f"/matches/{played.id}/report" not in fixtures
    season_page = client.get(f"/leagues/{league_id}/seasons/1").text
    assert f'href="/leagues/{league_id}/seasons/1/reopen"' in season_page
    login(client, "coach")
    assert client.get(f"/leagues/{league_id}/seasons/1/reopen").status_code == 403
    login(client, "comm")
    before = db.session.get(Team, reavers.id).treasury
    # Asked first, on a GET or a post without the confirmation: nothing changes yet.
    for asked in (
        client.get(f"/leagues/{league_id}/seasons/1/reopen"),
        client.post(f"/leagues/{league_id}/seasons/1/reopen"),
    ):
        assert asked.status_code == 200
        text = text_of(asked.text)
        assert "Reopen Season 1?" in text
        assert "(100,000 from Reavers and 60,000 from Gouged Eye)" in text
    db.session.expire_all()
    assert db.session.get(Team, reavers.id).treasury == before
    done = client.post(f"/leagues/{league_id}/seasons/1/reopen", data={"confirmed": "yes"})
    assert done.headers["Location"] == f"/leagues/{league_id}"
    assert flashes(client.get(done.headers["Location"]).text) == [
        "Season 1 is open again: its results can change, and its prizes were taken back."
    ]
    db.session.expire_all()
    assert db.session.get(Team, reavers.id).treasury == before - 100_000
    assert check_all(db.session) == []
    assert client.get(f"/matches/{played.id}/report").status_code == 200


def test_closing_lists_the_unplayed_matches_and_marks_them(client: FlaskClient) -> None:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    reavers = make_active_team(coach, league, "human", "Reavers", LINEMEN)
    gouged = make_active_team(coach, league, "human", "Gouged Eye", LINEMEN)
    with unit_of_work() as session:
        waiting = matches.schedule_match(
            session, comm, league.id, reavers.id, gouged.id, round_number=1
        ).id
    login(client, "comm")
    page = client.get(f"/leagues/{league.id}/seasons/next").text
    listed = text_of(page)
    assert "These matches have no result yet." in listed
    assert f"Match #{waiting} : Reavers v Gouged Eye , round 1" in listed
    assert 'name="mark_unplayed"' in page
    client.post(f"/leagues/{league.id}/seasons/next", data={"mark_unplayed": "y"})
    db.session.expire_all()
    assert db.session.get(Match, waiting).state == "unplayed"
    assert "Not played: the season closed without a result for this match." in text_of(
        client.get(f"/matches/{waiting}").text
    )
