"""``match_day.toml``: petty cash, journeymen, mercenaries, star player rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from league.rules.loader.inducements import read_inducements
from league.rules.loader.references import skill_ref
from league.rules.loader.skills import read_skills
from league.rules.loader.stars import read_stars
from league.rules.loader.tables import REQUIRED, Table, choice, read_toml
from league.rules.match_day import is_journeyman_position
from league.rules.model import (
    JourneymanHire,
    JourneymenRules,
    MatchDay,
    MercenaryRules,
    PettyCashRules,
    RulesetError,
    Skill,
    StarPlayerRules,
    TeamType,
)

SAME_STAR_RULES = ("both", "neither")
JOURNEYMAN_PRICES = ("current_value", "position_cost")
MERCENARY_SKILL_ACCESS = ("primary",)


def _match_day_source(root: Path, ruleset_id: str, based_on: str | None, name: str) -> str | None:
    """The folder whose ``name`` file this ruleset uses: its own, else ``based_on``'s."""
    for folder in (ruleset_id, based_on):
        if folder is not None and (root / folder / name).is_file():
            return folder
    return None


def read_match_day(
    root: Path,
    ruleset_id: str,
    numbers: Mapping[str, Any],
    skills: Mapping[str, Skill],
    team_types: tuple[TeamType, ...],
) -> MatchDay | None:
    based_on = numbers["based_on"]
    source = _match_day_source(root, ruleset_id, based_on, "match_day.toml")
    star_source = _match_day_source(root, ruleset_id, based_on, "star_players.toml")
    if source is None:
        if star_source is not None:
            raise RulesetError(
                f"{star_source}/star_players.toml", "", "star players need a match_day.toml"
            )
        return None
    doc = read_toml(root, f"{source}/match_day.toml")
    doc.only("petty_cash", "journeymen", "mercenaries", "star_players", "inducement")
    team_ids = {t.id for t in team_types}
    journeymen = _read_journeymen(doc, skills, team_types)
    match_day = MatchDay(
        petty_cash=_read_petty_cash(doc),
        journeymen=journeymen,
        mercenaries=_read_mercenaries(doc, skills),
        star_rules=_read_star_rules(doc),
        inducements=read_inducements(doc, team_ids, team_types),
    )
    if star_source is None:
        return match_day
    # Star skills are checked against the skills of the folder that holds the
    # file: a borrowed list keeps its own edition's skill names.
    star_skills = skills
    if star_source != ruleset_id:
        _, own = read_skills(read_toml(root, f"{star_source}/skills.toml"))
        star_skills = {s.name: s for s in own}
    stars, pairs = read_stars(
        read_toml(root, f"{star_source}/star_players.toml"),
        star_skills,
        team_ids,
        team_types,
        numbers["stat_style"],
    )
    hire_ids = {s.id for s in stars} | {p.id for p in pairs}
    for index, item in enumerate(match_day.inducements):
        for star_id in item.excludes_stars:
            if star_id not in hire_ids:
                raise RulesetError(
                    f"{source}/match_day.toml",
                    f"inducement[{index}].excludes_stars",
                    f"unknown star player {star_id!r}",
                )
    return dataclasses.replace(match_day, stars=stars, pairs=pairs)


def _read_petty_cash(doc: Table) -> PettyCashRules:
    table = doc.table("petty_cash")
    table.only(
        "higher_spends_first",
        "higher_spend_adds_to_petty_cash",
        "lower_adds_treasury_max",
        "equal_ctv_treasury",
    )
    return PettyCashRules(
        higher_spends_first=table.flag("higher_spends_first", REQUIRED),
        higher_spend_adds_to_petty_cash=table.flag("higher_spend_adds_to_petty_cash", REQUIRED),
        lower_adds_treasury_max=table.integer("lower_adds_treasury_max"),
        equal_ctv_treasury=table.flag("equal_ctv_treasury", REQUIRED),
    )


def _read_journeymen(
    doc: Table, skills: Mapping[str, Skill], team_types: tuple[TeamType, ...]
) -> JourneymenRules:
    table = doc.table("journeymen")
    table.only("fill_to", "keyword", "position_max", "trait", "counts_in_ctv", "hire")
    position_max = table.integers("position_max", REQUIRED)
    if not position_max:
        raise table.error("position_max", "name at least one position quantity")
    hire = table.table("hire")
    hire.only("price", "needs_room", "loses_trait", "keeps_spp")
    rules = JourneymenRules(
        fill_to=table.integer("fill_to", REQUIRED, minimum=1),
        position_max=position_max,
        keyword=table.text("keyword"),
        trait=skill_ref(table, "trait", skills, table.text("trait", REQUIRED)),
        counts_in_ctv=table.flag("counts_in_ctv", REQUIRED),
        hire=JourneymanHire(
            price=choice(hire, "price", JOURNEYMAN_PRICES),
            needs_room=hire.flag("needs_room", REQUIRED),
            loses_trait=hire.flag("loses_trait", REQUIRED),
            keeps_spp=hire.flag("keeps_spp", REQUIRED),
        ),
    )
    for team in team_types:
        if not any(is_journeyman_position(rules, p) for p in team.positions):
            raise table.error("position_max", f"team type {team.id!r} has no journeyman position")
    return rules


def _read_mercenaries(doc: Table, skills: Mapping[str, Skill]) -> MercenaryRules:
    table = doc.table("mercenaries")
    table.only("extra_cost", "skill_cost", "max_skills", "skill_access", "trait", "max")
    return MercenaryRules(
        extra_cost=table.integer("extra_cost", REQUIRED),
        skill_cost=table.integer("skill_cost", REQUIRED),
        max_skills=table.integer("max_skills", REQUIRED),
        skill_access=choice(table, "skill_access", MERCENARY_SKILL_ACCESS),
        trait=skill_ref(table, "trait", skills, table.text("trait", REQUIRED)),
        max=table.integer("max", minimum=1),
    )


def _read_star_rules(doc: Table) -> StarPlayerRules:
    table = doc.table("star_players")
    table.only("max", "same_star")
    return StarPlayerRules(
        max=table.integer("max", REQUIRED, minimum=1),
        same_star=choice(table, "same_star", SAME_STAR_RULES),
    )
