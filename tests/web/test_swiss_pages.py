"""Swiss rounds: the one-click pairing on the fixtures page, the printable round, the bye in
the standings; and POST /api/v1/leagues/{id}/rounds."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import func, select

from league.extensions import db
from league.models import Match, SwissBye, User
from league.services import access, divisions, matches, teams
from league.services import fixtures as fixture_service
from league.services.matches import MatchReport, SideReport
from league.services.unit_of_work import unit_of_work
from league.services.users import issue_token
from tests.factories import give_scorers, make_league, make_user, with_match_touchdowns
from tests.pages import field_errors, flashes, login, table_rows, text_of

#: The printed score and the bye's score are joined by an en dash.
EN_DASH = "\u2013"


def _league(count: int) -> int:
    comm, coach = make_user("comm"), make_user("coach")
    league = make_league(comm, "bb2025", coach)
    with unit_of_work() as session:
        for number in range(1, count + 1):
            teams.create_team(
                session, coach, teams.NewTeam(league.id, f"Team {number}", "human", active=True)
            )
    give_scorers(coach, league)
    return league.id


def _counts() -> tuple[int, int]:
    return (
        db.session.scalar(select(func.count()).select_from(Match)) or 0,
        db.session.scalar(select(func.count()).select_from(SwissBye)) or 0,
    )


def _names(league_id: int) -> dict[int, str]:
    return {t.id: t.name for t in access.get_league(db.session, league_id).teams}


def test_pair_a_round_print_it_and_see_the_bye_in_the_standings(client: FlaskClient) -> None:
    league_id = _league(3)
    fixtures = f"/leagues/{league_id}/fixtures"
    login(client, "coach")
    assert "Pair the next Swiss round" not in client.get(fixtures).text
    assert client.post(f"{fixtures}/rounds/next").status_code == 403
    assert _counts() == (0, 0)

    login(client, "comm")
    assert "Pair the next Swiss round" in client.get(fixtures).text
    response = client.post(f"{fixtures}/rounds/next")
    assert response.status_code == 302
    assert response.headers["Location"] == f"{fixtures}/rounds/1/print"
    page = client.get(response.headers["Location"]).text
    # All three teams are one coach's: the round says it could not keep them apart.
    assert flashes(page) == [
        "Round 1 paired: 1 match.",
        "No pairing kept a coach's two entries apart: they meet.",
    ]
    names = _names(league_id)
    bye = db.session.scalars(select(SwissBye)).one()
    match = db.session.scalars(select(Match)).one()
    home, away = names[match.home.team_id], names[match.away.team_id]
    assert {home, away, names[bye.team_id]} == {"Team 1", "Team 2", "Team 3"}
    # Table 1: the home team, its place and points now, a score to write in, the away team.
    # The bye (a 1-0 win, 3 points) leads the table; the other two are level, by name.
    places = {names[bye.team_id]: "1", min(home, away): "2", max(home, away): "3"}
    assert table_rows(page, 'data-testid="pairings"') == [
        ["1", home, places[home], "0", EN_DASH, away, places[away], "0"]
    ]
    assert f"Bye: {names[bye.team_id]} (counted as a 1{EN_DASH}0 win)." in text_of(page)
    assert 'href="/static/css/round-print.css"' in page

    # The round's page links to the printable pairings and names the bye.
    round_page = client.get(f"{fixtures}/rounds/1").text
    assert f"{fixtures}/rounds/1/print?season=1" in round_page
    assert f"Bye: {names[bye.team_id]}" in text_of(round_page)
    standings = client.get(f"/leagues/{league_id}/standings").text
    assert f"{names[bye.team_id]} (1 bye)" in text_of(standings)

    # The match still waits for its result: the next round is refused, nothing written.
    refused = client.post(f"{fixtures}/rounds/next")
    assert refused.headers["Location"] == fixtures
    assert flashes(client.get(fixtures).text) == [
        "1 match of Season 1 is still waiting for its result; "
        "the next round is paired once every match is played."
    ]
    assert _counts() == (1, 1)
    assert client.get(f"{fixtures}/rounds/2/print").status_code == 404


def test_swiss_rounds_through_the_api(client: FlaskClient) -> None:
    league_id = _league(5)
    league = access.get_league(db.session, league_id)
    comm = next(m.user for m in league.members if m.role == "commissioner")
    coach = next(m.user for m in league.members if m.role == "coach")
    with unit_of_work() as session:
        token = issue_token(session, comm)
        coach_token = issue_token(session, coach)
    url = f"/api/v1/leagues/{league_id}/rounds"
    assert client.post(url).status_code == 401
    forbidden = client.post(url, headers={"Authorization": f"Bearer {coach_token}"})
    assert forbidden.status_code == 403
    headers = {"Authorization": f"Bearer {token}"}
    assert client.post("/api/v1/leagues/999/rounds", headers=headers).status_code == 404
    assert _counts() == (0, 0)

    created = client.post(url, headers=headers)
    assert created.status_code == 201, created.json
    body = created.json
    assert body["round"] == 1
    assert body["rematches"] is False
    assert len(body["pairings"]) == 2
    seen = [body["bye"]] + [t for p in body["pairings"] for t in (p["home_team"], p["away_team"])]
    assert sorted(seen) == sorted(_names(league_id))
    for pairing in body["pairings"]:
        match = db.session.get(Match, pairing["match_id"])
        assert match is not None
        assert (match.round, match.home.team_id, match.away.team_id) == (
            1,
            pairing["home_team"],
            pairing["away_team"],
        )

    conflict = client.post(url, headers=headers)
    assert conflict.status_code == 409
    assert conflict.json["error"]["code"] == "round_unplayed"
    assert conflict.json["error"]["message"] == (
        "2 matches of Season 1 are still waiting for their results; "
        "the next round is paired once every match is played."
    )
    assert _counts() == (2, 1)

    # Both played: round 2 pairs, and the standings carry the bye.
    with unit_of_work() as session:
        for pairing in body["pairings"]:
            report = MatchReport(home=SideReport(score=1, mistake_d6=6), away=SideReport(score=0))
            report = with_match_touchdowns(report, pairing["match_id"])
            matches.record_result(session, comm, pairing["match_id"], report)
    second = client.post(url, headers=headers)
    assert second.status_code == 201
    assert second.json["round"] == 2
    assert second.json["bye"] != body["bye"]
    rows = client.get(f"/api/v1/leagues/{league_id}/standings").json["rows"]
    bye_row = next(r for r in rows if r["team_id"] == body["bye"])
    assert (bye_row["played"], bye_row["won"], bye_row["byes"], bye_row["points"]) == (1, 1, 1, 3)
    assert (bye_row["td_for"], bye_row["td_against"]) == (1, 0)


def test_a_round_needs_two_teams(client: FlaskClient) -> None:
    league_id = _league(1)
    comm = next(
        m.user for m in access.get_league(db.session, league_id).members if m.role != "coach"
    )
    with unit_of_work() as session:
        token = issue_token(session, comm)
    refused = client.post(
        f"/api/v1/leagues/{league_id}/rounds", headers={"Authorization": f"Bearer {token}"}
    )
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "not_enough_teams"
    assert refused.json["error"]["message"] == (
        "bb2025 league needs at least two active teams for a round; it has 1."
    )
    assert _counts() == (0, 0)


def test_the_rounds_endpoint_is_in_the_openapi_document(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").json
    operation = doc["paths"]["/api/v1/leagues/{league_id}/rounds"]["post"]
    assert operation["operationId"] == "pair_swiss_round"
    assert operation["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SwissRound"
    }
    assert set(operation["responses"]) >= {"201", "401", "403", "404", "409", "422"}
    assert "byes" in doc["components"]["schemas"]["StandingsRow"]["properties"]
    standings = doc["components"]["schemas"]["Standings"]
    assert set(standings["required"]) == {"rows", "divisions", "tie_breakers"}
    assert standings["properties"]["divisions"]["items"] == {
        "$ref": "#/components/schemas/DivisionStandings"
    }
    division = doc["components"]["schemas"]["DivisionStandings"]
    assert set(division["required"]) == {"name", "rows"}


# ---------------------------------------------------------------------------
# Divisions


def test_divisions_page_and_the_standings_per_division(client: FlaskClient) -> None:
    league_id = _league(3)
    ids = {name: team_id for team_id, name in _names(league_id).items()}
    url = f"/leagues/{league_id}/divisions"
    login(client, "coach")
    assert client.post(url, data={f"team_{ids['Team 1']}": "North"}).status_code == 403
    login(client, "comm")
    assert f'href="{url}"' in client.get(f"/leagues/{league_id}/settings").text
    refused = client.post(url, data={f"team_{ids['Team 1']}": "N" * 41})
    assert refused.status_code == 200
    assert field_errors(refused.text, f"team_{ids['Team 1']}") == [
        "Field cannot be longer than 40 characters."
    ]
    assert {t.division for t in access.get_league(db.session, league_id).teams} == {None}
    saved = client.post(
        url, data={f"team_{ids['Team 1']}": "North", f"team_{ids['Team 2']}": "South"}
    )
    assert saved.headers["Location"] == url
    page = client.get(url).text
    assert flashes(page) == ["Divisions saved."]
    assert "2 divisions: North, South." in text_of(page)
    standings = text_of(client.get(f"/leagues/{league_id}/standings").text)
    for heading in ("Whole league", "North", "South", "Without a division"):
        assert heading in standings


def test_divisions_through_the_api(client: FlaskClient) -> None:
    league_id = _league(3)
    ids = {name: team_id for team_id, name in _names(league_id).items()}
    league = access.get_league(db.session, league_id)
    comm = next(m.user for m in league.members if m.role == "commissioner")
    with unit_of_work() as session:
        token = issue_token(session, comm)
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/leagues/{league_id}/divisions"
    assert client.get(url).json == {
        "divisions": [],
        "without_division": sorted(ids.values()),
    }
    bad = client.post(url, json={"teams": ["North"]}, headers=headers)
    assert bad.status_code == 400
    assert bad.json["error"]["code"] == "invalid_field"
    refused = client.post(url, json={"teams": {"99999": "North"}}, headers=headers)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "invalid_division"
    assert {t.division for t in access.get_league(db.session, league_id).teams} == {None}
    body = {"teams": {str(ids["Team 1"]): "North", str(ids["Team 3"]): "North"}}
    saved = client.post(url, json=body, headers=headers)
    assert saved.status_code == 200, saved.json
    assert saved.json == {
        "divisions": [{"name": "North", "teams": [ids["Team 1"], ids["Team 3"]]}],
        "without_division": [ids["Team 2"]],
    }
    assert client.get(f"/api/v1/teams/{ids['Team 1']}").json["division"] == "North"


def test_the_standings_endpoint_gives_each_divisions_table(client: FlaskClient) -> None:
    league_id = _league(4)
    ids = {name: team_id for team_id, name in _names(league_id).items()}
    league = access.get_league(db.session, league_id)
    comm = next(m.user for m in league.members if m.role == "commissioner")
    url = f"/api/v1/leagues/{league_id}/standings"
    # No divisions yet: an empty list beside the rows.
    assert client.get(url).json["divisions"] == []
    with unit_of_work() as session:
        divisions.assign_divisions(
            session,
            comm,
            league_id,
            {ids["Team 1"]: "North", ids["Team 2"]: "South", ids["Team 3"]: "North"},
        )
        played = matches.schedule_match(session, comm, league_id, ids["Team 3"], ids["Team 2"])
    report = MatchReport(home=SideReport(score=2, mistake_d6=6), away=SideReport(mistake_d6=6))
    report = with_match_touchdowns(report, played.id)
    with unit_of_work() as session:
        matches.record_result(session, comm, played.id, report)
    body = client.get(url).json
    # Team 3 won 2-0 (3 points); the rest are level on 0 and listed by touchdown
    # difference (Team 2 lost by two), then by name.
    assert [row["team"] for row in body["rows"]] == ["Team 3", "Team 1", "Team 4", "Team 2"]
    # Divisions by name, then the team without one; each ranked as the whole table.
    assert [(d["name"], [r["team"] for r in d["rows"]]) for d in body["divisions"]] == [
        ("North", ["Team 3", "Team 1"]),
        ("South", ["Team 2"]),
        (None, ["Team 4"]),
    ]
    north = body["divisions"][0]["rows"][0]
    assert north == body["rows"][0]  # the same row, whichever table it is read from
    assert (north["points"], north["td_for"], north["won"]) == (3, 2, 1)


def test_a_round_robin_season_offers_no_swiss_pairing(client: FlaskClient) -> None:
    league_id = _league(4)
    fixtures = f"/leagues/{league_id}/fixtures"
    comm = db.session.scalar(select(User).where(User.username == "comm"))
    with unit_of_work() as session:
        generated = fixture_service.generate_fixtures(session, comm, league_id, double=False)
    # 4 teams, single round robin: 3 rounds of 2 matches.
    assert len(generated) == 6
    login(client, "comm")
    assert "Pair the next Swiss round" not in client.get(fixtures).text
    response = client.post(f"{fixtures}/rounds/next", follow_redirects=True)
    assert flashes(response.text)[-1].endswith(
        "is a round robin: its fixtures were generated. Swiss rounds are paired in a season "
        "that starts with a Swiss round."
    )
    assert _counts() == (6, 0)
