"""Leagues: POST /api/v1/leagues, GET /api/v1/leagues/<id>[/standings], POST .../teams."""

from __future__ import annotations

from typing import Any

from flask import g, request

from league.api import bp
from league.api.auth import token_required
from league.api.serializers import (
    MAX_ID,
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

LEAGUE = f"/leagues/<int(max={MAX_ID}):league_id>"


@bp.post("/leagues")
@token_required
def create_league() -> tuple[dict[str, Any], int]:
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
    """Ranked rows of the current season (or ?season=N); a league without seasons has none."""
    league = leagues.get_league(db.session, league_id)
    number = _season_number()
    if not league.seasons and number is None:
        return standings_json(None)
    return standings_json(standings(db.session, league, number))


@bp.post(f"{LEAGUE}/teams")
@token_required
def create_team(league_id: int) -> tuple[dict[str, Any], int]:
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
