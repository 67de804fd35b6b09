"""Rulesets, team types, inducements and star players (public reads)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_dump
from marshmallow.validate import OneOf

from league.api.schemas.base import ResponseSchema, doc
from league.rules.model import Inducement, Position, StarPlayer


class RulesetSummarySchema(ResponseSchema):
    """A ruleset in the list of rulesets."""

    id = fields.String(required=True, metadata=doc("e.g. `bb2025`, `bb2020`, `classic`"))
    name = fields.String(required=True)
    edition = fields.String(required=True)


class RulesetListSchema(ResponseSchema):
    """Every ruleset the server knows."""

    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class AdvancementRulesSchema(ResponseSchema):
    """How players advance under a ruleset."""

    mode = fields.String(
        required=True,
        validate=OneOf(("spend", "roll")),
        metadata=doc("`spend`: SPP buy advancements (BB2020, BB2025); `roll`: SPP earn rolls."),
    )
    max_advancements = fields.Integer(required=True)
    levels = fields.List(fields.String(), required=True, metadata=doc("Level names, Rookie first."))
    costs = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Integer()),
        required=True,
        metadata=doc(
            "Spend mode: SPP cost per kind of advancement; index 0 is the first advancement."
        ),
    )
    thresholds = fields.List(
        fields.Integer(),
        required=True,
        metadata=doc("Roll mode: the SPP totals that earn an improvement roll."),
    )


class ValueIncreaseSchema(ResponseSchema):
    """Gold a player's value rises by per kind of advancement (null: not offered)."""

    random_primary = fields.Integer(required=True, allow_none=True)
    chosen_primary = fields.Integer(required=True, allow_none=True)
    random_secondary = fields.Integer(required=True, allow_none=True)
    chosen_secondary = fields.Integer(required=True, allow_none=True)
    ma = fields.Integer(required=True, allow_none=True)
    st = fields.Integer(required=True, allow_none=True)
    ag = fields.Integer(required=True, allow_none=True)
    pa = fields.Integer(required=True, allow_none=True)
    av = fields.Integer(required=True, allow_none=True)


class SkillCategorySchema(ResponseSchema):
    """A skill category."""

    code = fields.String(required=True, metadata=doc("e.g. `G` (General)"))
    name = fields.String(required=True)


class SkillSchema(ResponseSchema):
    """A skill or trait, summarised in the project's own words."""

    name = fields.String(required=True)
    category = fields.String(required=True, metadata=doc("A skill category code."))
    summary = fields.String(required=True)
    trait = fields.Boolean(required=True)


class TeamTypeSummarySchema(ResponseSchema):
    """A team type in a ruleset."""

    id = fields.String(required=True, metadata=doc("e.g. `human`"))
    name = fields.String(required=True)


class RulesetSchema(ResponseSchema):
    """A ruleset: advancement, value increases, SPP awards, skills and team types."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    edition = fields.String(required=True)
    stat_style = fields.String(
        required=True,
        validate=OneOf(("target", "value")),
        metadata=doc("`target`: AG, PA and AV are target numbers (3 means 3+)."),
    )
    advancement = fields.Nested(AdvancementRulesSchema, required=True)
    value_increase = fields.Nested(ValueIncreaseSchema, required=True)
    spp_awards = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata=doc("SPP per event: `td`, `cas`, `comp`, `int`, `deflection`, `mvp`, ..."),
    )
    skill_categories = fields.List(fields.Nested(SkillCategorySchema), required=True)
    skills = fields.List(fields.Nested(SkillSchema), required=True)
    team_types = fields.List(fields.Nested(TeamTypeSummarySchema), required=True)


class PositionSchema(ResponseSchema):
    """A position a team type may hire."""

    id = fields.String(required=True, metadata=doc("Position id, as hiring names it."))
    name = fields.String(required=True)
    max = fields.Integer(required=True, metadata=doc("How many a team may have."))
    cost = fields.Integer(required=True, metadata=doc("Gold."))
    ma = fields.Integer(required=True)
    st = fields.Integer(required=True)
    ag = fields.Integer(required=True)
    pa = fields.Integer(required=True, allow_none=True, metadata=doc("null: no PA."))
    av = fields.Integer(required=True)
    skills = fields.List(fields.String(), required=True, metadata=doc("Starting skills."))
    primary = fields.List(fields.String(), required=True, metadata=doc("Category codes."))
    secondary = fields.List(fields.String(), required=True, metadata=doc("Category codes."))

    @pre_dump
    def _of_position(self, position: Position, **kwargs: Any) -> dict[str, Any]:
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


class TeamTypeSchema(ResponseSchema):
    """A team type (roster) with its positions."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    reroll_cost = fields.Integer(required=True)
    apothecary = fields.Boolean(required=True, metadata=doc("May the team hire one?"))
    tier = fields.Integer(required=True, allow_none=True)
    special_rules = fields.List(fields.String(), required=True)
    positions = fields.List(fields.Nested(PositionSchema), required=True)


class ReducedPriceSchema(ResponseSchema):
    """A cheaper price of an inducement for teams with a special rule or of a team type."""

    for_ = fields.String(
        required=True,
        data_key="for",
        attribute="for",
        metadata=doc("The special rule or team type id."),
    )
    kind = fields.String(required=True, validate=OneOf(("special_rule", "team_type")))
    cost = fields.Integer(required=True)
    max = fields.Integer(required=True, allow_none=True, metadata=doc("null: the usual maximum."))


class InducementSchema(ResponseSchema):
    """An inducement a team may buy before a game."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    cost = fields.Integer(required=True, metadata=doc("Gold, the usual price."))
    max = fields.Integer(required=True, metadata=doc("How many a team may buy per game."))
    summary = fields.String(required=True)
    special_rules = fields.List(
        fields.String(),
        required=True,
        metadata=doc(
            'Only teams with one of these (if any); one ending in "..." ("Favoured of...") '
            "stands for every rule that starts with it."
        ),
    )
    team_types = fields.List(
        fields.String(), required=True, metadata=doc("Only these team types (if any).")
    )
    tiers = fields.List(
        fields.Integer(),
        required=True,
        metadata=doc("Only team types of these tiers (if any)."),
    )
    needs_apothecary = fields.Boolean(
        required=True, metadata=doc("Only teams whose roster may have an apothecary.")
    )
    excludes_stars = fields.List(
        fields.String(), required=True, metadata=doc("Star ids a buyer may not also hire.")
    )
    reduced = fields.List(fields.Nested(ReducedPriceSchema), required=True)

    @pre_dump
    def _of_item(self, item: Inducement, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": item.id,
            "name": item.name,
            "cost": item.cost,
            "max": item.max,
            "summary": item.summary,
            "special_rules": list(item.special_rules),
            "team_types": list(item.team_types),
            "tiers": list(item.tiers),
            "needs_apothecary": item.needs_apothecary,
            "excludes_stars": list(item.excludes_stars),
            "reduced": [
                {
                    "for": reduced.special_rule or reduced.team_type,
                    "kind": "special_rule" if reduced.special_rule else "team_type",
                    "cost": reduced.cost,
                    "max": reduced.max,
                }
                for reduced in item.reduced
            ],
        }


class PettyCashRulesSchema(ResponseSchema):
    """Who gets petty cash and who may spend treasury on inducements."""

    higher_spends_first = fields.Boolean(required=True)
    higher_spend_adds_to_petty_cash = fields.Boolean(
        required=True,
        metadata=doc("The lower team's petty cash is the CTV gap plus the higher team's spend."),
    )
    lower_adds_treasury_max = fields.Integer(
        required=True, allow_none=True, metadata=doc("Gold; null: no cap.")
    )
    equal_ctv_treasury = fields.Boolean(
        required=True, metadata=doc("With equal CTVs, may the teams spend treasury?")
    )


class JourneymenRulesSchema(ResponseSchema):
    """Journeymen: who, how many, and hiring them after the game."""

    fill_to = fields.Integer(required=True)
    keyword = fields.String(required=True, allow_none=True)
    position_max = fields.List(fields.Integer(), required=True)
    trait = fields.String(required=True)
    counts_in_ctv = fields.Boolean(required=True)
    hire_price = fields.String(required=True, validate=OneOf(("current_value", "position_cost")))
    hire_needs_room = fields.Boolean(required=True)


class MercenaryRulesSchema(ResponseSchema):
    """Mercenaries: price on top of the position fee, the extra skill, the cap."""

    extra_cost = fields.Integer(required=True)
    skill_cost = fields.Integer(required=True)
    max_skills = fields.Integer(required=True)
    trait = fields.String(required=True)
    max = fields.Integer(required=True, allow_none=True, metadata=doc("null: no cap."))


class StarPlayerRulesSchema(ResponseSchema):
    """How many stars a team may hire, and a star both teams want."""

    max = fields.Integer(required=True, metadata=doc("Per team and game; a pair counts once."))
    same_star = fields.String(required=True, validate=OneOf(("both", "neither")))


class InducementsSchema(ResponseSchema):
    """A ruleset's inducements and pre-game rules."""

    inducements = fields.List(fields.Nested(InducementSchema), required=True)
    petty_cash = fields.Nested(PettyCashRulesSchema, required=True)
    journeymen = fields.Nested(JourneymenRulesSchema, required=True)
    mercenaries = fields.Nested(MercenaryRulesSchema, required=True)
    star_players = fields.Nested(StarPlayerRulesSchema, required=True)


class StarPlayerSchema(ResponseSchema):
    """A star player."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    cost = fields.Integer(required=True, metadata=doc("Gold; a pair member: the pair's fee."))
    ma = fields.Integer(required=True)
    st = fields.Integer(required=True)
    ag = fields.Integer(required=True)
    pa = fields.Integer(required=True, allow_none=True, metadata=doc("null: no PA."))
    av = fields.Integer(required=True)
    skills = fields.List(fields.String(), required=True)
    special_rule = fields.String(required=True, allow_none=True)
    plays_for = fields.List(
        fields.String(),
        required=True,
        metadata=doc('Leagues and special rules; "Favoured of..." matches every Favoured rule.'),
    )
    plays_for_teams = fields.List(fields.String(), required=True, metadata=doc("Team type ids."))
    any_team = fields.Boolean(required=True)
    plays_for_except = fields.List(fields.String(), required=True)
    mega_star = fields.Boolean(required=True)
    pair = fields.String(required=True, allow_none=True, metadata=doc("The pair's id."))

    @pre_dump
    def _of_star(self, star: StarPlayer, **kwargs: Any) -> dict[str, Any]:
        return {
            "id": star.id,
            "name": star.name,
            "cost": star.cost,
            **dict(star.stats),
            "skills": [str(ref) for ref in star.skills],
            "special_rule": star.special_rule or None,
            "plays_for": list(star.plays_for),
            "plays_for_teams": list(star.plays_for_teams),
            "any_team": star.any_team,
            "plays_for_except": list(star.plays_for_except),
            "mega_star": star.mega_star,
            "pair": star.pair,
        }


class StarPairSchema(ResponseSchema):
    """Two stars hired together for one fee (one star choice, two roster places)."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    cost = fields.Integer(required=True)
    members = fields.List(fields.String(), required=True)


class StarPlayersSchema(ResponseSchema):
    """A ruleset's star players."""

    star_players = fields.List(fields.Nested(StarPlayerSchema), required=True)
    pairs = fields.List(fields.Nested(StarPairSchema), required=True)
