"""Teams and players: GET /api/v1/teams/<id>, hiring, purchases, GET/DELETE players."""

from __future__ import annotations

from typing import Any

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.serializers import (
    MAX_ID,
    json_object,
    optional_int,
    player_json,
    player_line,
    required_str,
    team_json,
)
from league.extensions import db
from league.services import teams
from league.services.unit_of_work import unit_of_work

TEAM = f"/teams/<int(max={MAX_ID}):team_id>"
PLAYER = f"/players/<int(max={MAX_ID}):player_id>"


@bp.get(TEAM)
def get_team(team_id: int) -> dict[str, Any]:
    return team_json(teams.get_team(db.session, team_id))


@bp.post(f"{TEAM}/players")
@token_required
def hire_player(team_id: int) -> tuple[dict[str, Any], int]:
    body = json_object()
    command = teams.HirePlayer(
        position_id=required_str(body, "position"),
        name=required_str(body, "name"),
        number=optional_int(body, "number"),
    )
    with unit_of_work() as session:
        player = teams.hire_player(session, g.api_user, team_id, command)
        result = player_json(player_line(player))
    return result, 201


@bp.post(f"{TEAM}/purchases")
@token_required
def buy_item(team_id: int) -> dict[str, Any]:
    # 200, not 201: a purchase changes the team and returns it; it creates no resource.
    item = required_str(json_object(), "item")
    with unit_of_work() as session:
        team = teams.buy_team_item(session, g.api_user, team_id, item)
        return team_json(team)


@bp.get(PLAYER)
def get_player(player_id: int) -> dict[str, Any]:
    return player_json(player_line(teams.get_player(db.session, player_id)))


@bp.delete(PLAYER)
@token_required
def fire_player(player_id: int) -> dict[str, Any]:
    with unit_of_work() as session:
        # The line is taken first: during a draft, firing undoes the hire and
        # removes the player from the team altogether.
        line = player_line(teams.get_player(session, player_id))
        teams.fire_player(session, g.api_user, player_id)
        return player_json(line)
