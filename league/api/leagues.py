"""Leagues: POST /api/v1/leagues, GET /api/v1/leagues/<id>[/standings], POST .../teams."""

from __future__ import annotations

from typing import Any

from flask import g, request

from league.api import bp
from league.api.auth import token_required
from league.api.serializers import (
    BadRequest,
    json_object,
    league_json,
    optional_str,
    required_str,
    standings_json,
    team_json,
)
from league.extensions import db
from league.rules import DEFAULT_RULESET_ID
from league.services import leagues, teams
from league.services.standings import standings
from league.services.unit_of_work import unit_of_work

LEAGUE = "/leagues/<id:league_id>"


@bp.post("/leagues")
@token_required
def create_league() -> tuple[dict[str, Any], int]:
    """Create a league; the caller becomes its commissioner.

    The league starts its first season, with the ruleset's starting treasury.
    ---
    post:
      tags: [Leagues]
      requestBody: NewLeague
      responses:
        201: League
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        422: A name of the wrong length, an unknown ruleset.
    """
    body = json_object()
    settings = leagues.LeagueSettings(
        name=required_str(body, "name"),
        ruleset_id=(
            DEFAULT_RULESET_ID if body.get("ruleset") is None else required_str(body, "ruleset")
        ),
    )
    with unit_of_work() as session:
        league = leagues.create_league(session, g.api_user, settings)
        result = league_json(league)
    return result, 201


@bp.get(LEAGUE)
def get_league(league_id: int) -> dict[str, Any]:
    """A league, with its members and teams.
    ---
    get:
      tags: [Leagues]
      responses:
        200: League
      errors:
        404: No such league.
    """
    return league_json(leagues.get_league(db.session, league_id))


def _season_number() -> int | None:
    """The optional ?season=N of the standings (default: the current season)."""
    given = request.args.get("season")
    if given is None:
        return None
    if not given.isascii() or not given.isdigit() or len(given) > 9:
        raise BadRequest("'season' must be a season number.", code="invalid_field", field="season")
    return int(given)


@bp.get(f"{LEAGUE}/standings")
def get_standings(league_id: int) -> dict[str, Any]:
    """The standings of a season.

    Ranked rows of the current season (or `?season=N`); a league without seasons has none.
    Only played league matches count (not friendlies, not voided matches); every active
    team has a row, with zeros until it plays.
    ---
    get:
      tags: [Leagues]
      parameters:
        - name: season
          in: query
          required: false
          description: Season number (default the current season).
          schema: {type: integer, minimum: 0, maximum: 999999999}
      responses:
        200: Standings
      errors:
        400: "`season` is not a season number (`invalid_field`)."
        404: No such league, or no such season in it.
    """
    league = leagues.get_league(db.session, league_id)
    number = _season_number()
    if not league.seasons and number is None:
        return standings_json(None)
    return standings_json(standings(db.session, league, number))


@bp.post(f"{LEAGUE}/teams")
@token_required
def create_team(league_id: int) -> tuple[dict[str, Any], int]:
    """Create a team in the league.

    The team is active at once, with an empty roster and the league's starting treasury.
    A coach of the league creates their own team; a commissioner may name another coach.
    ---
    post:
      tags: [Leagues]
      requestBody: NewTeam
      responses:
        201: Team
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller is neither a coach nor a commissioner of the league.
        404: No such league, or no such coach.
        409: The league already has a team of that name.
        422: A name of the wrong length, a team type the ruleset does not have.
    """
    body = json_object()
    command = teams.NewTeam(
        league_id=league_id,
        name=required_str(body, "name"),
        team_type_id=required_str(body, "team_type"),
        coach=optional_str(body, "coach"),
        active=True,  # API teams skip the draft: active, empty roster, full treasury
    )
    with unit_of_work() as session:
        team = teams.create_team(session, g.api_user, command)
        result = team_json(team)
    return result, 201
