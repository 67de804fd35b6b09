"""Read rulesets from TOML, validate them, and cache the result.

A ruleset is a folder ``data/<id>/`` holding ``ruleset.toml``, ``skills.toml``,
``rosters/*.toml`` and, for the pre-game, ``match_day.toml`` and
``star_players.toml`` (see ``data/FORMAT.md``). Every problem found raises
:class:`RulesetError` naming the file and the key.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from league.rules.loader.house_rules import merge_house_rules
from league.rules.loader.match_day import read_match_day
from league.rules.loader.matched_play import MATCHED_PLAY_SETTINGS
from league.rules.loader.numbers import CASUALTY_CODES, read_ruleset_numbers
from league.rules.loader.rosters import read_roster
from league.rules.loader.skills import read_skills
from league.rules.loader.tables import read_toml
from league.rules.loader.translations import borrow_translations, read_translations
from league.rules.loader.validation import validate_ruleset
from league.rules.model import Ruleset, RulesetError, TeamType, frozen_mapping

__all__ = [
    "CASUALTY_CODES",
    "DATA_DIR",
    "DEFAULT_RULESET_ID",
    "MATCHED_PLAY_SETTINGS",
    "RulesetError",
    "load_ruleset",
    "load_ruleset_from_path",
    "merge_house_rules",
    "ruleset_ids",
    "validate_ruleset",
]

#: The shipped rulesets, one folder each.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DEFAULT_RULESET_ID = "bb2025"


@functools.cache
def ruleset_ids() -> tuple[str, ...]:
    """Ids of the shipped rulesets (folders with a ``ruleset.toml``), sorted."""
    return tuple(sorted(p.name for p in DATA_DIR.iterdir() if (p / "ruleset.toml").is_file()))


@functools.cache
def load_ruleset(ruleset_id: str) -> Ruleset:
    """The shipped ruleset ``ruleset_id``, loaded and validated once."""
    if ruleset_id not in ruleset_ids():
        raise RulesetError(
            f"{ruleset_id}/ruleset.toml", "", f"no such ruleset (known: {', '.join(ruleset_ids())})"
        )
    return _load(DATA_DIR, ruleset_id)


def load_ruleset_from_path(path: str | Path) -> Ruleset:
    """Load (uncached) the ruleset in folder ``path``; ``based_on`` looks in its parent."""
    folder = Path(path)
    if not (folder / "ruleset.toml").is_file():
        raise RulesetError(f"{folder.name}/ruleset.toml", "", "file not found")
    return _load(folder.parent, folder.name)


def _load(root: Path, ruleset_id: str) -> Ruleset:
    numbers = read_ruleset_numbers(read_toml(root, f"{ruleset_id}/ruleset.toml"), ruleset_id)
    roster_source = numbers["based_on"] or ruleset_id
    if numbers["based_on"] is not None and not (root / roster_source / "ruleset.toml").is_file():
        raise RulesetError(
            f"{ruleset_id}/ruleset.toml", "based_on", f"no ruleset folder {roster_source!r}"
        )
    # Skills are always the ruleset's own; ``based_on`` only lends the rosters.
    categories, skills = read_skills(read_toml(root, f"{ruleset_id}/skills.toml"))
    by_name = {s.name: s for s in skills}
    codes = {c.code for c in categories}
    roster_dir = root / roster_source / "rosters"
    if not roster_dir.is_dir():
        raise RulesetError(f"{roster_source}/rosters", "", "folder not found")
    team_types: list[TeamType] = []
    team_names: dict[str, str] = {}
    for path in sorted(roster_dir.glob("*.toml")):
        relative = f"{roster_source}/rosters/{path.name}"
        doc = read_toml(root, relative)
        team = read_roster(doc, path.stem, by_name, codes, numbers["stat_style"])
        if team.name in team_names:
            raise doc.error(
                "name", f"duplicate team name {team.name!r} (also in {team_names[team.name]})"
            )
        team_names[team.name] = relative
        team_types.append(team)
    if not team_types:
        raise RulesetError(f"{roster_source}/rosters", "", "no roster files")
    ruleset = Ruleset(
        **numbers,
        skill_categories=categories,
        skills=skills,
        team_types=tuple(team_types),
        match_day=read_match_day(root, ruleset_id, numbers, by_name, tuple(team_types)),
    )
    validate_ruleset(ruleset, f"{ruleset_id}/ruleset.toml")
    translations = read_translations(root, ruleset_id, ruleset)
    if numbers["based_on"] is not None:
        translations = borrow_translations(
            translations, read_translations(root, numbers["based_on"], ruleset, borrowed=True)
        )
    return dataclasses.replace(ruleset, translations=frozen_mapping(translations))
