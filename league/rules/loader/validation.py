"""Cross-checks between the numbers and the skills of a whole ruleset."""

from __future__ import annotations

from league.rules.loader.numbers import TABLE_PROCEDURES
from league.rules.model import SKILL_KINDS, Ruleset, RulesetError


def validate_ruleset(ruleset: Ruleset, file: str) -> None:
    """Cross-checks between the numbers and the skills (also run after house rules)."""
    adv = ruleset.advancement
    values = ruleset.value_increase
    if adv.mode == "spend":
        for kind, row in adv.costs.items():
            if len(row) != adv.max_advancements:
                raise RulesetError(
                    file,
                    f"advancement.costs.{kind}",
                    f"expected {adv.max_advancements} costs, got {len(row)}",
                )
            if kind in SKILL_KINDS and getattr(values, kind) is None:
                raise RulesetError(
                    file, f"value_increase.{kind}", f"{kind} has a cost but no value increase"
                )
        if ruleset.characteristic_table is None:
            raise RulesetError(file, "characteristic_table", "missing (spend mode)")
        for kind in ruleset.characteristic_table.fallback:
            if getattr(values, kind) is None:
                raise RulesetError(file, f"value_increase.{kind}", f"missing (fallback {kind})")
    else:
        if ruleset.improvement_roll is None:
            raise RulesetError(file, "improvement_roll", "missing (roll mode)")
        improvement = ruleset.improvement_roll
        for rolled_kind in (improvement.skill_kind, improvement.doubles_kind):
            if rolled_kind is not None and getattr(values, rolled_kind) is None:
                raise RulesetError(
                    file, f"value_increase.{rolled_kind}", f"missing (kind {rolled_kind})"
                )
    for char in ruleset.characteristics:
        if getattr(values, char) is None:
            raise RulesetError(file, f"value_increase.{char}", "missing")
    matched = ruleset.matched_play
    if matched is not None:
        for team_type in ruleset.team_types:
            if team_type.tier is None or not 1 <= team_type.tier <= len(matched.skill_points):
                raise RulesetError(
                    file,
                    "matched_play.skill_points",
                    f"no skill points for team type {team_type.id!r} (tier {team_type.tier})",
                )
    if adv.random_skill in TABLE_PROCEDURES:
        for category in ruleset.skill_categories:
            if category.learnable and not category.table:
                raise RulesetError(
                    file,
                    "advancement.random_skill",
                    f"category {category.code!r} has no random table "
                    f"(skills.toml) but random_skill = {adv.random_skill!r}",
                )
    elif adv.random_skill == "roll_list":
        # One die over the category's skills in skills.toml order: a 2D6 table
        # would give the category a second, different random order.
        for category in ruleset.skill_categories:
            if not category.learnable:
                continue
            if category.table:
                raise RulesetError(
                    file,
                    "advancement.random_skill",
                    f"category {category.code!r} has a 2D6 random table (skills.toml); "
                    "random_skill = 'roll_list' is for categories without one",
                )
            if not any(s.category == category.code for s in ruleset.skills):
                raise RulesetError(
                    file,
                    "advancement.random_skill",
                    f"category {category.code!r} has no skills to roll "
                    "(random_skill = 'roll_list')",
                )
