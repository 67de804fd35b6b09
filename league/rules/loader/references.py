"""Checks of names that ``match_day.toml`` and ``star_players.toml`` point at."""

from __future__ import annotations

from collections.abc import Mapping

from league.rules.loader.tables import Table
from league.rules.match_day import rule_matches
from league.rules.model import Skill, SkillRef, TeamType, parse_skill_ref


def _known_rule(pattern: str, team_types: tuple[TeamType, ...]) -> bool:
    return any(rule_matches(pattern, r) for t in team_types for r in t.special_rules)


def skill_ref(table: Table, name: str, skills: Mapping[str, Skill], value: str) -> SkillRef:
    ref = parse_skill_ref(value)
    if ref.name not in skills:
        raise table.error(name, f"unknown skill {ref.name!r}")
    return ref


def check_rules_exist(
    table: Table, name: str, patterns: tuple[str, ...], team_types: tuple[TeamType, ...]
) -> None:
    """A rule no team has is a typo (it would silently never match)."""
    for i, pattern in enumerate(patterns):
        if not _known_rule(pattern, team_types):
            raise table.error(f"{name}[{i}]", f"no team type has the special rule {pattern!r}")


def check_team_ids(table: Table, name: str, ids: tuple[str, ...], known: set[str]) -> None:
    for i, team_id in enumerate(ids):
        if team_id not in known:
            raise table.error(f"{name}[{i}]", f"unknown team type {team_id!r}")
