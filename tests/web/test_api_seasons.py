"""API v1: POST /api/v1/leagues/{id}/seasons/{n}/close (docs/api.md, Leagues)."""

from __future__ import annotations

from flask.testing import FlaskClient

from league.extensions import db
from league.models import League, User
from league.services import matches
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import make_active_team, make_league, make_user

API = "/api/v1"
HUMANS = (("human-lineman", 11),)


def auth(user: User) -> dict[str, str]:
    with unit_of_work() as session:
        return {"Authorization": f"Bearer {issue_token(session, user)}"}


def seasons(league_id: int) -> list[tuple[int, bool]]:
    """(number, closed) of each season of the league."""
    db.session.expire_all()
    league = db.session.get(League, league_id)
    assert league is not None
    return [(s.number, s.closed_at is not None) for s in league.seasons]


def test_closing_a_season_answers_its_final_table_and_opens_the_next(
    client: FlaskClient,
) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    home = make_active_team(coach, league, "human", "Altdorf Amblers", HUMANS)
    away = make_active_team(coach, league, "human", "Bögenhafen Bruisers", HUMANS)
    report = MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(score=1))
    with unit_of_work() as session:
        matches.record_new_match(session, boss, league.id, home.id, away.id, report)

    response = client.post(f"{API}/leagues/{league.id}/seasons/1/close", headers=auth(boss))
    assert response.status_code == 200, response.json
    body = response.json
    assert (body["season"], body["next_season"]) == (1, 2)
    # The league's points by default: 3 for a win, 0 for a loss.
    assert [
        (r["team"], r["played"], r["won"], r["lost"], r["td_for"], r["td_against"], r["points"])
        for r in body["rows"]
    ] == [("Altdorf Amblers", 1, 1, 0, 2, 1, 3), ("Bögenhafen Bruisers", 1, 0, 1, 1, 2, 0)]
    assert seasons(league.id) == [(1, True), (2, False)]
    # The closed season's table stays as it was; the new one starts at zero.
    standings = client.get(f"{API}/leagues/{league.id}/standings?season=1").json
    assert standings["rows"] == body["rows"]
    assert client.get(f"{API}/leagues/{league.id}").json["season"] == 2


def test_a_season_closes_once(client: FlaskClient) -> None:
    boss = make_user("boss")
    league = make_league(boss, "bb2025")
    path = f"{API}/leagues/{league.id}/seasons/1/close"
    assert client.post(path, headers=auth(boss)).status_code == 200
    again = client.post(path, headers=auth(boss))
    assert again.status_code == 409
    assert again.json["error"] == {"code": "conflict", "message": "Season 1 is already closed."}
    assert seasons(league.id) == [(1, True), (2, False)]  # no third season
    missing = client.post(f"{API}/leagues/{league.id}/seasons/7/close", headers=auth(boss))
    assert missing.status_code == 404
    assert seasons(league.id) == [(1, True), (2, False)]


def test_only_a_commissioner_closes_a_season(client: FlaskClient) -> None:
    boss, coach = make_user("boss"), make_user("grim")
    league = make_league(boss, "bb2025", coach)
    path = f"{API}/leagues/{league.id}/seasons/1/close"
    refused = client.post(path, headers=auth(coach))
    assert refused.status_code == 403
    assert client.post(path).status_code == 401
    assert seasons(league.id) == [(1, False)]
