"""Team export and import: GET /api/v1/teams/<id>/export, POST /api/v1/leagues/<id>/teams/import.

The document format is described in league.services.exchange.
"""

from __future__ import annotations

from typing import Any

from flask import g, request

from league.api import bp
from league.api.auth import token_required
from league.api.leagues import LEAGUE
from league.api.parsing import json_object
from league.api.schemas import TeamSchema
from league.api.teams import TEAM
from league.extensions import db
from league.services import exchange
from league.services.unit_of_work import unit_of_work


@bp.get(f"{TEAM}/export")
def export_team(team_id: int) -> dict[str, Any]:
    """A team as a portable document, to import into another league of the same ruleset.

    Public like the team. The document (`"format": "bbleague-team"`, `"version": 1`)
    carries no ids: the team's staff and treasury, every player who was ever on it
    with SPP, injuries and advancements, and the treasury ledger.
    ---
    get:
      tags: [Teams]
      responses:
        200: TeamDocument
      errors:
        404: No such team.
    """
    # Dumped through the document's one shape (`TeamDocumentSchema`) by the service.
    return exchange.export_team(db.session(), team_id)


@bp.post(f"{LEAGUE}/teams/import")
@token_required
def import_team(league_id: int) -> tuple[dict[str, Any], int]:
    """Recreate an exported team in this league.

    The body is a document from `GET /api/v1/teams/{id}/export`; the league must
    play the same ruleset. Everything is checked against the league's rules
    (team type, positions, skills, advancement costs and values, the ledger
    against the treasury, roster limits, ...); a document with problems imports
    nothing and the 422 lists every problem in `error.fields` (messages by path),
    and in `error.problems` as `{"path", "message"}`. Only a commissioner of the
    league (or a site admin) imports, for themselves or for a coach of the league
    named by `?coach=`.
    SPP and injuries the players earned before become their opening balance.
    ---
    post:
      tags: [Leagues]
      parameters: [coach]
      requestBody: TeamDocument
      responses:
        201: Team
      errors:
        400: The body is not a JSON object.
        403: The caller is not a commissioner of the league.
        404: No such league, or no such coach in it.
        422: The document has problems (`invalid_document`, with `fields` and `problems`).
    """
    document = json_object()
    coach = request.args.get("coach")
    with unit_of_work() as session:
        team = exchange.import_team(session, g.api_user, league_id, document, coach=coach)
        result = TeamSchema.body(team)
    return result, 201
