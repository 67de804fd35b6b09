"""The playoffs page: seeding, a drawn match's winner, the next round; and the API."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from league.extensions import db
from league.models import Match
from league.services import access, teams
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_league, make_user
from tests.pages import field_errors, flashes, login, text_of


def _league(count: int) -> int:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    with unit_of_work() as session:
        for number in range(1, count + 1):
            teams.create_team(
                session, coach, teams.NewTeam(league.id, f"Team {number}", "human", active=True)
            )
    return league.id


def test_seed_and_play_through_the_page(client: FlaskClient) -> None:
    league_id = _league(4)
    page = client.get(f"/leagues/{league_id}/playoffs").text
    assert "No playoffs this season yet" in text_of(page)
    login(client, "coach")
    assert client.post(f"/leagues/{league_id}/playoffs", data={"size": "4"}).status_code == 403

    login(client, "comm")
    refused = client.post(f"/leagues/{league_id}/playoffs", data={"size": "8"})
    assert refused.status_code == 422
    assert field_errors(refused.text, "size") == [
        "The table has 4 teams: too few for a bracket of 8."
    ]
    response = client.post(f"/leagues/{league_id}/playoffs", data={"size": "4"})
    page = client.get(response.headers["Location"]).text
    assert "The playoffs are seeded: 4 teams, first round scheduled." in flashes(page)
    text = text_of(page)
    for heading in ("Semi-finals", "Final", "Third place"):
        assert heading in text
    # Seed 1 meets seed 4, 2 meets 3 (level on points: by name).
    assert "Team 1 Team 4" in text
    assert "Team 2 Team 3" in text


def test_playoffs_through_the_api(client: FlaskClient) -> None:
    league_id = _league(4)
    league = access.get_league(db.session, league_id)
    comm = next(m.user for m in league.members if m.role == "commissioner")
    with unit_of_work() as session:
        token = issue_token(session, comm)
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/leagues/{league_id}/playoffs"
    assert client.get(url).json == {"size": 0, "rounds": []}
    bad = client.post(url, json={"teams": 5}, headers=headers)
    assert bad.status_code == 422
    created = client.post(url, json={"teams": 4}, headers=headers)
    assert created.status_code == 201, created.json
    ids = {t.name: t.id for t in access.get_league(db.session, league_id).teams}
    first, final = created.json["rounds"]
    assert [(m["home_team"], m["away_team"]) for m in first] == [
        (ids["Team 1"], ids["Team 4"]),
        (ids["Team 2"], ids["Team 3"]),
    ]
    assert all(m["match_id"] for m in first)
    assert [(m["match_id"], m["third_place"]) for m in final] == [(None, False), (None, True)]
    assert client.get(url).json == created.json
    assert client.post(f"{url}/advance", headers=headers).status_code == 409


def test_a_closed_seasons_bracket_stays_on_show(client: FlaskClient) -> None:
    league_id = _league(4)
    login(client, "comm")
    client.post(f"/leagues/{league_id}/playoffs", data={"size": "4"})
    semi = db.session.scalars(
        select(Match).where(Match.league_id == league_id, Match.bracket_round == 1)
    ).first()
    assert semi is not None
    # Closing lists the semi-finals as unplayed playoff matches, and marks them so.
    listed = text_of(client.get(f"/leagues/{league_id}/seasons/next").text)
    assert "Playoff matches" in listed
    # The final and the third-place match wait for the semi-finals.
    assert "2 playoff matches are not scheduled yet: they wait for the matches before them." in (
        listed
    )
    client.post(f"/leagues/{league_id}/seasons/next", data={"mark_unplayed": "y"})
    page = client.get(f"/leagues/{league_id}/playoffs?season=1").text
    text = text_of(page)
    assert "Playoffs · Season 1 · closed" in text
    for heading in ("Semi-finals", "Final", "Third place"):
        assert heading in text
    assert "unplayed" in text
    # Only shown: no seeding, no advancing, in a closed season.
    assert "/playoffs/advance" not in page
    assert 'name="size"' not in page
    # The season's page links to it, and its matches keep their round.
    season_page = client.get(f"/leagues/{league_id}/seasons/1").text
    assert f'href="/leagues/{league_id}/playoffs?season=1"' in season_page
    match_page = client.get(f"/matches/{semi.id}").text
    assert "Playoffs: Semi-finals" in text_of(match_page)
