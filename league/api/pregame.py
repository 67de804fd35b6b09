"""A match's pre-game: GET /api/v1/matches/<id>/pregame, PUT .../pregame/<home|away>.

The body is loaded by `PregameChoicesSchema` (400 naming the field for a wrong
shape); the rules' refusals (over a limit, not eligible, over budget, out of
turn) come from the pre-game service as 422 `rule_violation` naming the item.
"""

from __future__ import annotations

from typing import Any

from flask import g
from marshmallow import ValidationError

from league.api import bp
from league.api.auth import token_required
from league.api.errors import invalid_field
from league.api.parsing import json_object
from league.api.schemas import PregameChoicesSchema, PregameSchema
from league.extensions import db
from league.models.match import SIDES
from league.rules import MercenaryOrder, match_day_rules
from league.services import pregame
from league.services.access import team_type_of
from league.services.errors import NotFound
from league.services.pregame import PregameView, SideChoices, SideView
from league.services.unit_of_work import unit_of_work

MATCH = "/matches/<id:match_id>"


def _side_json(view: PregameView, side: SideView) -> dict[str, Any]:
    ruleset = side.facts.ruleset
    trait = str(match_day_rules(ruleset).journeymen.trait)
    merc_trait = str(match_day_rules(ruleset).mercenaries.trait)
    team_type = team_type_of(side.facts.team)
    lines = pregame.item_lines(side)
    journeymen = [line.ref for line in lines if line.kind == "journeyman"]
    if side.saved is None and len(side.journeyman_positions) == 1:
        journeymen = [side.journeyman_positions[0].id] * side.facts.journeymen_needed
    playing = {c.hire.id: c.plays for c in pregame.chosen_stars(view, side.side)}
    return {
        "team_id": side.facts.team.id,
        "team_name": side.facts.team.name,
        "chosen": side.saved is not None,
        "may_choose_now": bool(side.turn),
        "players_available": side.facts.available,
        "journeymen_needed": side.facts.journeymen_needed,
        "ctv": side.ctv,
        "petty_cash": side.petty_cash,
        "treasury": side.facts.team.treasury,
        "treasury_allowance": side.treasury_allowance,
        "treasury_spent": side.saved.treasury_spent if side.saved else 0,
        "total": side.saved.total if side.saved else 0,
        "journeymen": [
            {
                "position": position_id,
                "position_name": team_type.position(position_id).name,
                "trait": trait,
            }
            for position_id in journeymen
        ],
        "inducements": [
            {"id": line.ref, "name": line.name, "count": line.count, "cost": line.cost}
            for line in lines
            if line.kind == "inducement"
        ],
        "star_players": [
            {"id": line.ref, "name": line.name, "cost": line.cost, "plays": playing[line.ref]}
            for line in lines
            if line.kind == "star"
        ],
        "mercenaries": [
            {
                "position": line.ref,
                "position_name": line.name,
                "skill": line.skill,
                "trait": merc_trait,
                "cost": line.cost,
            }
            for line in lines
            if line.kind == "mercenary"
        ],
    }


def pregame_json(match_id: int) -> dict[str, Any]:
    match, view = pregame.get_pregame(db.session(), match_id)
    return PregameSchema.body(
        {
            "match_id": match.id,
            "stage": pregame.stage(match, view),
            "home": _side_json(view, view.home),
            "away": _side_json(view, view.away),
        }
    )


def _first_problem(messages: Any, path: str = "") -> tuple[str, str]:
    """The first refusal of a nested body as ("inducements[2].count", "is required.")."""
    if isinstance(messages, dict):
        key, value = next(iter(messages.items()))
        where = f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)
        return _first_problem(value, where)
    if isinstance(messages, list) and messages:
        return _first_problem(messages[0], path)
    return path or "body", str(messages)


def choices_from(body: dict[str, Any]) -> SideChoices:
    try:
        loaded = PregameChoicesSchema().load(body)
    except ValidationError as error:
        path, message = _first_problem(error.normalized_messages())
        raise invalid_field(path, f"'{path}' {message}") from None
    inducements: dict[str, int] = {}
    for entry in loaded.get("inducements") or ():
        inducements[entry["id"]] = inducements.get(entry["id"], 0) + entry["count"]
    return SideChoices(
        journeymen=tuple(j["position"] for j in loaded.get("journeymen") or ()),
        inducements=inducements,
        stars=tuple(loaded.get("star_players") or ()),
        mercenaries=tuple(
            MercenaryOrder(m["position"], m.get("skill") or None)
            for m in loaded.get("mercenaries") or ()
        ),
        treasury=loaded.get("treasury"),
    )


@bp.get(f"{MATCH}/pregame")
def get_pregame(match_id: int) -> dict[str, Any]:
    """A match's pre-game: both sides' journeymen, CTV, petty cash and inducements.

    `stage` says whose turn it is: `home_first` / `away_first` (the team with the
    higher CTV chooses first, where the edition says so), `open`, `ready` (both
    have chosen) or `closed` (the match is no longer scheduled). A side that has not
    chosen yet shows the journeymen it would take where there is no choice.
    ---
    get:
      tags: [Matches]
      responses:
        200: Pregame
      errors:
        404: No such match.
        422: The league's ruleset has no pre-game sequence.
    """
    return pregame_json(match_id)


@bp.put(f"{MATCH}/pregame/<side>")
@token_required
def put_pregame(match_id: int, side: str) -> dict[str, Any]:
    """Choose one side's pre-game (that team's coach, or a commissioner).

    Replaces what the side chose before. Journeymen name a position each (absent:
    the only journeyman position, as many as needed); `treasury` is the most of its
    treasury the team adds (absent: as much as the rules allow). Petty cash pays
    first; nothing is booked until the result.
    ---
    put:
      tags: [Matches]
      requestBody: PregameChoices
      responses:
        200: Pregame
      errors:
        400: Malformed body (`invalid_field` naming the field).
        403: The caller coaches neither this team nor is a commissioner.
        404: No such match, or the side is neither home nor away.
        409: >-
          The match is no longer scheduled, or the other side chose with the petty cash
          this side's choices gave it.
        422: >-
          The rules refuse it (`rule_violation`, the message naming the item): over a
          limit, not eligible, over budget, out of turn, wrong journeymen.
    """
    if side not in SIDES:
        raise NotFound("The side is home or away.")
    choices = choices_from(json_object())
    with unit_of_work() as session:
        pregame.record_side(session, g.api_user, match_id, side, choices)
    return pregame_json(match_id)
