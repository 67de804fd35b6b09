"""House rules: a league's overrides merged into its ruleset."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from league.rules.loader.matched_play import house_matched_play
from league.rules.loader.numbers import cost_row
from league.rules.loader.season import merged_tournament
from league.rules.loader.tables import Table
from league.rules.loader.validation import validate_ruleset
from league.rules.model import (
    ADVANCEMENT_KINDS,
    SPP_EVENTS,
    CostTable,
    Ruleset,
    RulesetError,
    SeasonRules,
    ValueIncreaseTable,
    frozen_mapping,
)

HOUSE_RULE_KEYS = (
    "costs",
    "value_increase",
    "spp_awards",
    "starting_treasury",
    "redraft_cap",
    "matched_play",
    "tournament",
)
HOUSE_RULES_FILE = "house rules"


def _house_redraft_cap(ruleset: Ruleset, doc: Table) -> SeasonRules:
    redraft = ruleset.season.redraft
    if redraft is None:
        raise doc.error("redraft_cap", f"ruleset {ruleset.id!r} has no off-season re-draft")
    cap = doc.integer("redraft_cap")
    if cap and cap < redraft.base:
        raise doc.error("redraft_cap", f"may not be below the base budget of {redraft.base}")
    return dataclasses.replace(
        ruleset.season, redraft=dataclasses.replace(redraft, cap=cap or None)
    )


def merge_house_rules(ruleset: Ruleset, overrides: Mapping[str, Any] | None) -> Ruleset:
    """A new ruleset with a league's overrides applied and validated.

    ``overrides`` may hold ``costs`` ({kind: [SPP per advancement]}),
    ``value_increase`` ({key: gold}), ``spp_awards`` ({event: SPP}),
    ``starting_treasury`` (gold), ``redraft_cap`` (gold; 0 lifts the cap) and
    ``matched_play`` ({setting: value}, see ``MATCHED_PLAY_SETTINGS``; an empty table
    keeps the ruleset's defaults) and ``tournament`` (any of ``[season.tournament]``'s
    keys, see ``TOURNAMENT_KEYS``). Anything else raises :class:`RulesetError`.
    """
    if not overrides:
        return ruleset
    if not isinstance(overrides, Mapping):
        raise RulesetError(HOUSE_RULES_FILE, "", "expected a table of overrides")
    doc = Table(HOUSE_RULES_FILE, overrides)
    doc.only(*HOUSE_RULE_KEYS)
    changes: dict[str, Any] = {}
    adv = ruleset.advancement

    costs_table = doc.maybe_table("costs")
    if costs_table is not None:
        if adv.mode != "spend":
            raise doc.error(
                "costs", f"ruleset {ruleset.id!r} does not spend SPP (mode = {adv.mode})"
            )
        costs_table.only(*ADVANCEMENT_KINDS)
        costs = dict(adv.costs)
        for kind in costs_table.data:
            costs[kind] = cost_row(costs_table, kind, adv.max_advancements)
        if any(k in costs for k in ("random_primary", "random_secondary")) and (
            adv.random_skill == "none"
        ):
            raise costs_table.error("", f"ruleset {ruleset.id!r} has no random skill tables")
        changes["advancement"] = dataclasses.replace(
            adv, cost_table=CostTable(frozen_mapping(costs))
        )

    value_table = doc.maybe_table("value_increase")
    if value_table is not None:
        value_table.only(*ValueIncreaseTable.KEYS, "elite_surcharge")
        new_values = {key: value_table.integer(key) for key in value_table.data}
        changes["value_increase"] = dataclasses.replace(ruleset.value_increase, **new_values)

    spp_table = doc.maybe_table("spp_awards")
    if spp_table is not None:
        spp_table.only(*SPP_EVENTS)
        awards = dict(ruleset.spp.awards)
        awards.update({event: spp_table.integer(event) for event in spp_table.data})
        changes["spp"] = dataclasses.replace(ruleset.spp, awards=frozen_mapping(awards))

    if doc.has("starting_treasury"):
        changes["team_building"] = dataclasses.replace(
            ruleset.team_building, starting_treasury=doc.integer("starting_treasury")
        )

    if doc.has("redraft_cap"):
        changes["season"] = _house_redraft_cap(ruleset, doc)

    if doc.has("matched_play"):
        changes["matched_play"] = house_matched_play(ruleset, doc)

    if doc.has("tournament"):
        season = changes.get("season", ruleset.season)
        tournament = merged_tournament(doc.table("tournament"), season.tournament)
        changes["season"] = dataclasses.replace(season, tournament=tournament)

    merged = dataclasses.replace(ruleset, **changes)
    validate_ruleset(merged, HOUSE_RULES_FILE)
    return merged
