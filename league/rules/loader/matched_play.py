"""Matched play: a tournament roster's budget and skill points, and its house rules."""

from __future__ import annotations

import dataclasses
from typing import Any

from league.rules.loader.tables import REQUIRED, Table
from league.rules.model import MatchedPlay, Ruleset

# The organiser's matched-play settings (house rule ``matched_play``); ``elite_cap`` is
# the edition's and only the ruleset data sets it.
MATCHED_PLAY_SETTINGS = (
    "budget",
    "skill_points",
    "primary_cost",
    "secondary_cost",
    "max_secondary",
    "elite_costs_extra",
)
#: Far beyond any tournament: a budget stays 32-bit, points and counts stay small.
MATCHED_PLAY_MAX_BUDGET = 10_000_000
MATCHED_PLAY_MAX_NUMBER = 100


def read_matched_play(doc: Table) -> MatchedPlay | None:
    table = doc.maybe_table("matched_play")
    if table is None:
        return None
    table.only(*MATCHED_PLAY_SETTINGS, "elite_cap")
    return MatchedPlay(
        budget=table.integer("budget", REQUIRED),
        skill_points=_skill_points(table, None),
        primary_cost=table.integer("primary_cost", REQUIRED, minimum=1),
        secondary_cost=table.integer("secondary_cost", REQUIRED, minimum=1),
        max_secondary=table.integer("max_secondary", None),
        elite_costs_extra=table.flag("elite_costs_extra", False),
        elite_cap=table.integer("elite_cap", None, minimum=1),
    )


def _skill_points(table: Table, tiers: int | None) -> tuple[int, ...]:
    points: tuple[int, ...] = table.integers("skill_points", REQUIRED)
    if not points:
        raise table.error("skill_points", "give the skill points of each team tier")
    if tiers is not None and len(points) != tiers:
        raise table.error(
            "skill_points", f"expected {tiers} numbers (one per team tier), got {len(points)}"
        )
    return points


def house_matched_play(ruleset: Ruleset, doc: Table) -> MatchedPlay:
    base = ruleset.matched_play
    if base is None:
        raise doc.error("matched_play", f"ruleset {ruleset.id!r} has no matched-play rules")
    table = doc.table("matched_play")
    table.only(*MATCHED_PLAY_SETTINGS)
    changes: dict[str, Any] = {}
    if table.has("budget"):
        changes["budget"] = table.integer("budget")
        if changes["budget"] > MATCHED_PLAY_MAX_BUDGET:
            raise table.error("budget", f"must be at most {MATCHED_PLAY_MAX_BUDGET}")
    if table.has("skill_points"):
        changes["skill_points"] = _skill_points(table, len(base.skill_points))
        if max(changes["skill_points"]) > MATCHED_PLAY_MAX_NUMBER:
            raise table.error("skill_points", f"must be at most {MATCHED_PLAY_MAX_NUMBER}")
    for key in ("primary_cost", "secondary_cost", "max_secondary"):
        if table.has(key):
            changes[key] = table.integer(key, minimum=0 if key == "max_secondary" else 1)
            if changes[key] > MATCHED_PLAY_MAX_NUMBER:
                raise table.error(key, f"must be at most {MATCHED_PLAY_MAX_NUMBER}")
    if table.has("elite_costs_extra"):
        changes["elite_costs_extra"] = table.flag("elite_costs_extra")
    return dataclasses.replace(base, **changes)
