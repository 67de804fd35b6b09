"""Rulesets as JSON: GET /api/v1/rulesets[/<id>[/team-types/<team>]] (public)."""

from __future__ import annotations

from typing import Any

from league.api import bp
from league.rules import Ruleset, load_ruleset, ruleset_ids
from league.rules.model import Position
from league.services import rulesets


def _summary(ruleset: Ruleset) -> dict[str, Any]:
    return {"id": ruleset.id, "name": ruleset.name, "edition": ruleset.edition}


@bp.get("/rulesets")
def list_rulesets() -> dict[str, Any]:
    """Every ruleset.
    ---
    get:
      tags: [Rules]
      responses:
        200: RulesetList
    """
    return {"rulesets": [_summary(load_ruleset(rid)) for rid in ruleset_ids()]}


@bp.get("/rulesets/<ruleset_id>")
def get_ruleset(ruleset_id: str) -> dict[str, Any]:
    """A ruleset: advancement costs, value increases, SPP awards, skills, team types.
    ---
    get:
      tags: [Rules]
      responses:
        200: Ruleset
      errors:
        404: No such ruleset.
    """
    ruleset = rulesets.get_ruleset(ruleset_id)
    advancement = ruleset.advancement
    return {
        **_summary(ruleset),
        "stat_style": ruleset.stat_style,
        "advancement": {
            "mode": advancement.mode,
            "max_advancements": advancement.max_advancements,
            "levels": list(advancement.levels),
            "costs": {kind: list(costs) for kind, costs in advancement.costs.items()},
            "thresholds": list(advancement.thresholds),
        },
        "value_increase": ruleset.value_increase.as_dict(),
        "spp_awards": dict(ruleset.spp.awards),
        "skill_categories": [
            {"code": category.code, "name": category.name} for category in ruleset.skill_categories
        ],
        "skills": [
            {
                "name": skill.name,
                "category": skill.category,
                "summary": skill.summary,
                "trait": skill.trait,
            }
            for skill in ruleset.skills
        ],
        "team_types": [{"id": team.id, "name": team.name} for team in ruleset.team_types],
    }


def _position(position: Position) -> dict[str, Any]:
    return {
        "id": position.id,
        "name": position.name,
        "max": position.max,
        "cost": position.cost,
        **dict(position.stats),
        "skills": [str(ref) for ref in position.skills],
        "primary": list(position.primary),
        "secondary": list(position.secondary),
    }


@bp.get("/rulesets/<ruleset_id>/team-types/<team_type_id>")
def get_team_type(ruleset_id: str, team_type_id: str) -> dict[str, Any]:
    """A team type of a ruleset, with its positions.
    ---
    get:
      tags: [Rules]
      responses:
        200: TeamType
      errors:
        404: No such ruleset, or no such team type in it.
    """
    ruleset = rulesets.get_ruleset(ruleset_id)
    team = rulesets.get_team_type(ruleset, team_type_id)
    return {
        "id": team.id,
        "name": team.name,
        "reroll_cost": team.reroll_cost,
        "apothecary": team.apothecary,
        "tier": team.tier,
        "special_rules": list(team.special_rules),
        "positions": [_position(position) for position in team.positions],
    }
