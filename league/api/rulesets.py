"""Rulesets as JSON (public): GET /api/v1/rulesets[/<id>[/team-types/<team>]],
/rulesets/<id>/inducements and /rulesets/<id>/star-players."""

from __future__ import annotations

from typing import Any

from league.api import bp
from league.api.schemas import (
    InducementsSchema,
    RulesetListSchema,
    RulesetSchema,
    StarPlayersSchema,
    TeamTypeSchema,
)
from league.rules import Ruleset, load_ruleset, ruleset_ids
from league.rules.model import MatchDay
from league.services import rulesets
from league.services.errors import NotFound


@bp.get("/rulesets")
def list_rulesets() -> dict[str, Any]:
    """Every ruleset.
    ---
    get:
      tags: [Rules]
      responses:
        200: RulesetList
    """
    return RulesetListSchema.body({"rulesets": [load_ruleset(rid) for rid in ruleset_ids()]})


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
    return RulesetSchema.body(
        {
            "id": ruleset.id,
            "name": ruleset.name,
            "edition": ruleset.edition,
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
                {"code": category.code, "name": category.name}
                for category in ruleset.skill_categories
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
    )


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
    return TeamTypeSchema.body(
        {
            "id": team.id,
            "name": team.name,
            "reroll_cost": team.reroll_cost,
            "apothecary": team.apothecary,
            "tier": team.tier,
            "special_rules": list(team.special_rules),
            "positions": list(team.positions),
        }
    )


def _match_day(ruleset: Ruleset) -> MatchDay:
    if ruleset.match_day is None:
        raise NotFound(f"{ruleset.name} has no inducements or star players.")
    return ruleset.match_day


@bp.get("/rulesets/<ruleset_id>/inducements")
def get_inducements(ruleset_id: str) -> dict[str, Any]:
    """A ruleset's inducements and its pre-game rules (petty cash, journeymen, mercenaries).
    ---
    get:
      tags: [Rules]
      responses:
        200: Inducements
      errors:
        404: No such ruleset, or it has no inducements.
    """
    match_day = _match_day(rulesets.get_ruleset(ruleset_id))
    petty = match_day.petty_cash
    journeymen = match_day.journeymen
    mercenaries = match_day.mercenaries
    return InducementsSchema.body(
        {
            "inducements": list(match_day.inducements),
            "petty_cash": {
                "higher_spends_first": petty.higher_spends_first,
                "higher_spend_adds_to_petty_cash": petty.higher_spend_adds_to_petty_cash,
                "lower_adds_treasury_max": petty.lower_adds_treasury_max,
                "equal_ctv_treasury": petty.equal_ctv_treasury,
            },
            "journeymen": {
                "fill_to": journeymen.fill_to,
                "keyword": journeymen.keyword,
                "position_max": list(journeymen.position_max),
                "trait": str(journeymen.trait),
                "counts_in_ctv": journeymen.counts_in_ctv,
                "hire_price": journeymen.hire.price,
                "hire_needs_room": journeymen.hire.needs_room,
            },
            "mercenaries": {
                "extra_cost": mercenaries.extra_cost,
                "skill_cost": mercenaries.skill_cost,
                "max_skills": mercenaries.max_skills,
                "trait": str(mercenaries.trait),
                "max": mercenaries.max,
            },
            "star_players": {
                "max": match_day.star_rules.max,
                "same_star": match_day.star_rules.same_star,
            },
        }
    )


@bp.get("/rulesets/<ruleset_id>/star-players")
def get_star_players(ruleset_id: str) -> dict[str, Any]:
    """A ruleset's star players, and the pairs hired together.
    ---
    get:
      tags: [Rules]
      responses:
        200: StarPlayers
      errors:
        404: No such ruleset, or it has no star players.
    """
    match_day = _match_day(rulesets.get_ruleset(ruleset_id))
    return StarPlayersSchema.body(
        {
            "star_players": list(match_day.stars),
            "pairs": [
                {"id": pair.id, "name": pair.name, "cost": pair.cost, "members": list(pair.members)}
                for pair in match_day.pairs
            ],
        }
    )
