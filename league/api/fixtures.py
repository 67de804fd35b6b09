"""Fixtures: GET /api/v1/leagues/<id>/fixtures, POST .../fixtures (one fixture),
POST .../fixtures/generate (a round robin), POST /api/v1/matches/<id>/result.

The same services as the fixture pages; a fixture's result is entered with the
report body of `POST /leagues/{id}/matches`.
"""

from __future__ import annotations

from typing import Any

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.leagues import season_number_param
from league.api.matches import report_from
from league.api.parsing import json_object
from league.api.schemas import (
    FixtureListSchema,
    FixtureSchema,
    GenerateFixturesSchema,
    MatchResultSchema,
    MatchSchema,
    NewFixtureSchema,
)
from league.extensions import db
from league.services import access, matches
from league.services import fixtures as fixture_service
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"


@bp.get(f"{LEAGUE}/fixtures")
def list_fixtures(league_id: int) -> dict[str, Any]:
    """A season's fixtures and results (voided matches left out), by round then date.
    ---
    get:
      tags: [Fixtures]
      parameters: [season]
      responses:
        200: FixtureList
      errors:
        400: "`season` is not a season number (`invalid_field`)."
        404: No such league, or no such season in it.
    """
    league = access.get_league(db.session(), league_id)
    listed = fixture_service.season_fixtures(db.session(), league, season_number_param())
    every = [f for r in listed.rounds for f in r.fixtures] + list(listed.others)
    return FixtureListSchema.body({"season": listed.season_name, "fixtures": every})


@bp.post(f"{LEAGUE}/fixtures")
@token_required
def add_fixture(league_id: int) -> tuple[dict[str, Any], int]:
    """Add one fixture to the current season (commissioner), as on the "Add fixture" page.
    ---
    post:
      tags: [Fixtures]
      requestBody: NewFixture
      responses:
        201: Fixture
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league.
        422: >-
          Teams that cannot meet (the same team twice, not active, not of the league), or the
          two teams already meet in that round and `add_another` is not true (`fixture_exists`).
    """
    body = NewFixtureSchema().load(json_object())
    with unit_of_work() as session:
        match = matches.schedule_match(
            session,
            g.api_user,
            league_id,
            body["home_team"],
            body["away_team"],
            round_number=body.get("round"),
            scheduled_for=body.get("date"),
            friendly=body.get("friendly", False),
            add_another=body.get("add_another", False),
        )
        result = FixtureSchema.body(fixture_service.fixture_of(match))
    return result, 201


@bp.post(f"{LEAGUE}/fixtures/generate")
@token_required
def generate_fixtures(league_id: int) -> tuple[dict[str, Any], int]:
    """Generate the current season's round robin between the active teams (commissioner).

    Only for a season without league matches, as on the "Generate fixtures" page. Round n
    is dated `start_date` + (n - 1) x `days_between` when a start date is given.
    ---
    post:
      tags: [Fixtures]
      requestBody: GenerateFixtures
      responses:
        201: FixtureList
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is not a commissioner of the league.
        404: No such league.
        409: The season already has league matches (`season_has_fixtures`), or none is open.
        422: Fewer than two active teams, or rounds too far apart.
    """
    body = GenerateFixturesSchema().load(json_object())
    days_between = body.get("days_between")
    with unit_of_work() as session:
        created = fixture_service.generate_fixtures(
            session,
            g.api_user,
            league_id,
            body.get("format") == "double",
            body.get("start_date"),
            7 if days_between is None else days_between,
        )
        season = access.get_league(session, league_id).current_season
        result = FixtureListSchema.body(
            {
                "season": season.name if season else "",
                "fixtures": [fixture_service.fixture_of(m) for m in created],
            }
        )
    return result, 201


@bp.post("/matches/<id:match_id>/result")
@token_required
def record_result(match_id: int) -> dict[str, Any]:
    """Enter (or correct) the result of a fixture (commissioner).

    The body is the report of `POST /leagues/{id}/matches` without the teams; a played
    match is corrected: what the old result gave is taken back first.
    ---
    post:
      tags: [Matches]
      requestBody: MatchResult
      responses:
        200: Match
      errors:
        400: Malformed report (`bad_request`, `invalid_field` naming the field).
        403: The caller is not a commissioner of the league.
        404: No such match.
        409: The match is voided.
        422: The rules refuse the report (`invalid_report` lists every problem in `fields`).
    """
    report = report_from(MatchResultSchema().load(json_object()))
    with unit_of_work() as session:
        result = MatchSchema.body(matches.record_result(session, g.api_user, match_id, report))
    return result
