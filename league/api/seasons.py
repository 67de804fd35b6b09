"""The season cycle: GET/POST /api/v1/teams/<id>/redraft and its approval."""

from __future__ import annotations

from typing import Any

from flask import g

from league.api import bp
from league.api.auth import token_required
from league.api.serializers import BadRequest, json_object, optional_int, team_json
from league.extensions import db
from league.services import teams
from league.services.redraft import (
    RedraftChoice,
    RedraftPlan,
    approve_redraft,
    redraft_plan,
    submit_redraft,
)
from league.services.unit_of_work import unit_of_work

REDRAFT = "/teams/<id:team_id>/redraft"


def _chosen(plan: RedraftPlan) -> RedraftChoice:
    submitted = plan.submitted
    if submitted is None:
        return plan.current
    return RedraftChoice(
        frozenset(submitted.kept_player_ids),
        submitted.rerolls,
        submitted.assistant_coaches,
        submitted.cheerleaders,
        submitted.apothecary,
    )


def redraft_json(plan: RedraftPlan) -> dict[str, Any]:
    budget, prices, chosen = plan.budget, plan.prices, _chosen(plan)
    return {
        "team_id": plan.team.id,
        "season": plan.season.number,
        "budget": {
            "base": budget.base,
            "treasury": budget.treasury,
            "fixtures": budget.fixtures,
            "wins": budget.wins,
            "draws": budget.draws,
            "cap": budget.cap,
            "lost_to_cap": budget.lost_to_cap,
            "total": budget.total,
        },
        "players": [
            {
                "player_id": p.player_id,
                "name": p.name,
                "number": p.number,
                "position": p.position_id,
                "value": p.value,
                "seasons_played": p.seasons_played,
                "cost": p.cost,
            }
            for p in plan.players
        ],
        "prices": {
            "reroll": prices.reroll,
            "assistant_coach": prices.assistant_coach,
            "cheerleader": prices.cheerleader,
            "apothecary": prices.apothecary,
        },
        "state": plan.submitted.state if plan.submitted else "open",
        "keep": sorted(chosen.keep),
        "rerolls": chosen.rerolls,
        "assistant_coaches": chosen.assistant_coaches,
        "cheerleaders": chosen.cheerleaders,
        "apothecary": chosen.apothecary,
        "spent": plan.cost(chosen),
    }


def _choice(body: dict[str, Any], current: RedraftChoice) -> RedraftChoice:
    keep = body.get("keep", sorted(current.keep))
    if not isinstance(keep, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in keep
    ):
        raise BadRequest("'keep' must be a list of player ids.", code="invalid_field", field="keep")
    apothecary = body.get("apothecary", current.apothecary)
    if not isinstance(apothecary, bool):
        raise BadRequest(
            "'apothecary' must be true or false.", code="invalid_field", field="apothecary"
        )

    def count(name: str, default: int) -> int:
        value = optional_int(body, name)
        return default if value is None else value

    return RedraftChoice(
        frozenset(keep),
        count("rerolls", current.rerolls),
        count("assistant_coaches", current.assistant_coaches),
        count("cheerleaders", current.cheerleaders),
        apothecary,
    )


@bp.get(REDRAFT)
def get_redraft(team_id: int) -> dict[str, Any]:
    """A team's off-season re-draft: its budget, what each player costs to keep.

    The budget is the edition's (BB2025, BB2020): 1,000,000 plus the treasury plus
    gold per game played, win and draw, capped unless the league lifted the cap.
    ---
    get:
      tags: [Seasons]
      responses:
        200: Redraft
      errors:
        404: No such team.
        409: The league has not closed a season yet.
        422: The edition has no re-draft (`no_redraft`).
    """
    return redraft_json(redraft_plan(db.session, team_id))


@bp.post(REDRAFT)
@token_required
def submit(team_id: int) -> dict[str, Any]:
    """Submit the team's re-draft (its coach or a commissioner); a commissioner approves it.

    Submitting again replaces what was submitted, until it is approved.
    ---
    post:
      tags: [Seasons]
      requestBody: RedraftChoice
      responses:
        200: Redraft
      errors:
        400: Malformed body (`bad_request`, `invalid_field`).
        403: The caller may not change this team.
        404: No such team.
        409: No closed season yet, or the re-draft is approved already.
        422: Over the budget, a player not on the roster, staff over its limit (`redraft_refused`).
    """
    body = json_object()
    with unit_of_work() as session:
        choice = _choice(body, redraft_plan(session, team_id).current)
        submit_redraft(session, g.api_user, team_id, choice)
        return redraft_json(redraft_plan(session, team_id))


@bp.post(f"{REDRAFT}/approve")
@token_required
def approve(team_id: int) -> dict[str, Any]:
    """Approve the submitted re-draft (commissioner): the team changes now.

    Players not kept leave the team (they stay in its history), players missing a game
    recover, and the treasury becomes what is left of the budget.
    ---
    post:
      tags: [Seasons]
      responses:
        200: Team
      errors:
        403: The caller is not a commissioner of the team's league.
        404: No such team, or nothing submitted.
        409: Approved already, or the team changed since it was submitted.
    """
    with unit_of_work() as session:
        approve_redraft(session, g.api_user, team_id)
        return team_json(teams.get_team(session, team_id))
