"""Our roster data against the public reference rosters in ``reference/`` beside this file.

* BB2025 / BB2020: every position is compared with ``reference/<ruleset>_rosters.json``
  (team and position matched by name; a trailing footnote ``*`` on a JSON name is
  ignored): cost, max, MA, ST, AG, PA (``null`` = no PA), AV, the sorted skill
  strings and the sorted primary / secondary letters. Per team: re-roll cost, apothecary,
  tier and special rules (the JSON's ``special_rules`` plus its ``league`` list: our
  rosters keep a team's leagues among its special rules).
* classic: every position is compared with the obblm/core LRB6 YAML
  (``reference/lrb6_rosters/*.yaml``, team by file stem, position by YAML key):
  cost, max, MA, ST, AG, AV, skills, normal / doubles access. Per team: re-roll cost,
  apothecary (``options.can_have_apothecary``), tier (LRB6 has no tiers: our rosters
  write 0) and special rules (the team's ``inducements`` options, through
  ``[special_rule_ids]``).

Intentional differences are listed, each with a reason, in ``reference_diffs_<ruleset>.toml``
beside this file; ``missing`` means a position exists on one side only. A test fails on
a difference that is not listed, on a listed entry that matches no difference any more
(stale) or whose recorded values are out of date, and on an entry without a reason.

The allow-list maps (all optional):

* ``[team_names]`` (JSON rulesets): JSON team name -> our team id, where our name differs.
* ``[team_ids]`` (classic): YAML file stem -> our team id, where it is not the stem with
  ``_`` -> ``-``; ``[position_ids.<stem>]``: YAML key -> our position id, likewise.
* ``[skill_ids]`` (classic): YAML skill id -> our skill name.
* ``[special_rule_ids]`` (classic): YAML team inducement option -> our special rule name;
  ``""`` marks an option that is not a special rule of ours (said why beside it).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from league.rules import load_ruleset

ALLOW_LISTS = Path(__file__).resolve().parent
REFERENCE = ALLOW_LISTS / "reference"

JSON_RULESETS = ("bb2025", "bb2020")
RULESETS = (*JSON_RULESETS, "classic")
#: Compared position fields per ruleset, in report order.
POSITION_FIELDS = {
    "bb2025": ("cost", "max", "ma", "st", "ag", "pa", "av", "skills", "primary", "secondary"),
    "bb2020": ("cost", "max", "ma", "st", "ag", "pa", "av", "skills", "primary", "secondary"),
    "classic": ("cost", "max", "ma", "st", "ag", "av", "skills", "primary", "secondary"),
}
#: Compared team fields, the same for every ruleset.
TEAM_FIELDS = ("reroll_cost", "apothecary", "tier", "special_rules")
#: LRB6 has no team tiers; our classic rosters write tier 0.
CLASSIC_TIER = 0
MISSING = "missing"
#: Allow-list keys that repeat the reference's value or names; checked when present.
REFERENCE_VALUE_KEYS = ("yaml", "json")


def slug(name: str) -> str:
    """Hyphenated lower-case id of a display name ("Chaos Troll" -> "chaos-troll")."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# ---------------------------------------------------------------------------
# A reader for the YAML subset of the obblm rosters (pyyaml is not a dependency):
# nested mappings by indentation, ``key: value`` scalars, inline lists ``[ a, b ]``
# and ``#`` comments.


def read_yaml(path: Path) -> dict[str, Any]:
    root: dict[str, Any] = {}
    stack: list[tuple[int, dict[str, Any]]] = [(-1, root)]
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not line:
            continue
        indent = len(line) - len(line.lstrip(" "))
        key, colon, value = line.strip().partition(":")
        if not colon or not key or "\t" in line[:indent]:
            raise ValueError(f"{path}:{number}: not in the supported YAML subset: {raw!r}")
        while indent <= stack[-1][0]:
            stack.pop()
        parent = stack[-1][1]
        if value.strip():
            parent[key] = yaml_value(value.strip())
        else:
            parent[key] = {}
            stack.append((indent, parent[key]))
    return root


def yaml_value(text: str) -> Any:
    if text.startswith("[") and text.endswith("]"):
        return [yaml_value(item.strip()) for item in text[1:-1].split(",") if item.strip()]
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text.strip("'\"")


# ---------------------------------------------------------------------------
# Both sides as {team id: Team}, positions keyed by our position id.


@dataclass
class Team:
    fields: dict[str, Any] = field(default_factory=dict)
    positions: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Reference names of the team and each position, for allow-list cross-checks.
    names: dict[str, str] = field(default_factory=dict)
    position_names: dict[str, dict[str, str]] = field(default_factory=dict)


@cache
def allow_list(ruleset_id: str) -> dict[str, Any]:
    with (ALLOW_LISTS / f"reference_diffs_{ruleset_id}.toml").open("rb") as file:
        return tomllib.load(file)


@cache
def our_teams(ruleset_id: str) -> dict[str, Team]:
    teams = {}
    for team_type in load_ruleset(ruleset_id).team_types:
        team = Team(
            fields={
                "reroll_cost": team_type.reroll_cost,
                "apothecary": team_type.apothecary,
                "tier": team_type.tier,
                "special_rules": sorted(team_type.special_rules),
            }
        )
        for position in team_type.positions:
            team.positions[position.id] = {
                "cost": position.cost,
                "max": position.max,
                "ma": position.ma,
                "st": position.st,
                "ag": position.ag,
                "pa": position.pa,
                "av": position.av,
                "skills": sorted(str(skill) for skill in position.skills),
                "primary": sorted(position.primary),
                "secondary": sorted(position.secondary),
            }
        teams[team_type.id] = team
    return teams


@cache
def reference_teams(ruleset_id: str) -> dict[str, Team]:
    if ruleset_id in JSON_RULESETS:
        return json_reference(ruleset_id)
    return yaml_reference()


def json_reference(ruleset_id: str) -> dict[str, Team]:
    path = REFERENCE / f"{ruleset_id}_rosters.json"
    ids_by_name = {
        team_type.name: team_type.id for team_type in load_ruleset(ruleset_id).team_types
    }
    ids_by_name.update(allow_list(ruleset_id).get("team_names", {}))
    teams = {}
    for raw_team in json.loads(path.read_text(encoding="utf-8")):
        team = Team(
            fields={
                "reroll_cost": raw_team["reroll_cost"],
                "apothecary": raw_team["apothecary"],
                "tier": raw_team["tier"],
                "special_rules": sorted({*raw_team["special_rules"], *raw_team["league"]}),
            },
            names={"json_team": raw_team["name"]},
        )
        for raw in raw_team["positions"]:
            name = raw["name"].removesuffix("*")
            team.positions[slug(name)] = {
                "cost": raw["cost"],
                "max": raw["max"],
                "ma": raw["ma"],
                "st": raw["st"],
                "ag": raw["ag"],
                "pa": raw["pa"],
                "av": raw["av"],
                "skills": sorted(raw["skills"]),
                "primary": sorted(raw["primary"]),
                "secondary": sorted(raw["secondary"]),
            }
            team.position_names[slug(name)] = {"json_position": raw["name"]}
        teams[ids_by_name.get(raw_team["name"], slug(raw_team["name"]))] = team
    return teams


def yaml_reference() -> dict[str, Team]:
    allowed = allow_list("classic")
    skill_ids = allowed.get("skill_ids", {})
    special_rule_ids = allowed.get("special_rule_ids", {})
    teams = {}
    for path in sorted((REFERENCE / "lrb6_rosters").glob("*.yaml")):
        stem = path.stem
        raw_team = read_yaml(path)["rules"]["lrb6"]["rosters"][stem]
        position_ids = allowed.get("position_ids", {}).get(stem, {})
        options = raw_team.get("options", {})
        special_rules = [
            special_rule_ids.get(option, f"<unmapped YAML inducement option {option}>")
            for option, enabled in options.get("inducements", {}).items()
            if enabled is True
        ]
        team = Team(
            fields={
                "reroll_cost": raw_team["reroll_cost"],
                "apothecary": options["can_have_apothecary"],
                "tier": CLASSIC_TIER,
                "special_rules": sorted(rule for rule in special_rules if rule),
            },
            names={"yaml_team": stem},
        )
        for key, raw in raw_team["players"].items():
            position_id = position_ids.get(key, key.replace("_", "-"))
            stats = raw["characteristics"]
            team.positions[position_id] = {
                "cost": raw["cost"],
                "max": raw["max"],
                "ma": stats["ma"],
                "st": stats["st"],
                "ag": stats["ag"],
                "av": stats["av"],
                "skills": sorted(
                    skill_ids.get(skill, f"<unmapped YAML skill id {skill}>")
                    for skill in raw.get("skills", [])
                ),
                "primary": sorted(code.upper() for code in raw["available_skills"]),
                "secondary": sorted(code.upper() for code in raw["available_skills_on_double"]),
            }
            team.position_names[position_id] = {"yaml_position": key}
        teams[allowed.get("team_ids", {}).get(stem, stem.replace("_", "-"))] = team
    return teams


# ---------------------------------------------------------------------------
# Differences and the allow-list


@dataclass(frozen=True)
class Difference:
    team: str
    position: str  # "" for a team-level field
    field: str
    reference: Any
    ours: Any
    names: tuple[tuple[str, str], ...] = ()  # reference names, e.g. ("yaml_position", "zombi")

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.team, self.position, self.field)

    def __str__(self) -> str:
        where = f"{self.team}/{self.position}" if self.position else self.team
        if self.field == MISSING:
            side = "reference" if self.ours is None else "our data"
            return f"{where}: only in {side}"
        return f"{where} {self.field}: reference {self.reference!r}, ours {self.ours!r}"


def differences(ruleset_id: str, team_id: str) -> list[Difference]:
    reference = reference_teams(ruleset_id).get(team_id)
    ours = our_teams(ruleset_id).get(team_id)
    found = []
    if reference is not None and ours is not None:
        found += [
            Difference(team_id, "", name, reference.fields[name], ours.fields[name])
            for name in TEAM_FIELDS
            if reference.fields[name] != ours.fields[name]
        ]
    ref_positions = reference.positions if reference else {}
    our_positions = ours.positions if ours else {}
    for position_id in [*ref_positions, *(p for p in our_positions if p not in ref_positions)]:
        ref_values = ref_positions.get(position_id)
        our_values = our_positions.get(position_id)
        names = (
            {**reference.names, **reference.position_names.get(position_id, {})}
            if reference
            else {}
        )
        if ref_values is None or our_values is None:
            found.append(
                Difference(
                    team_id, position_id, MISSING, ref_values, our_values, tuple(names.items())
                )
            )
            continue
        found += [
            Difference(
                team_id, position_id, name, ref_values[name], our_values[name], tuple(names.items())
            )
            for name in POSITION_FIELDS[ruleset_id]
            if ref_values[name] != our_values[name]
        ]
    return found


def entries(ruleset_id: str) -> list[dict[str, Any]]:
    """Allow-list entries; team-level ``[[team_diff]]`` entries get ``position = ""``."""
    allowed = allow_list(ruleset_id)
    return [
        *allowed.get("diff", []),
        *({"position": "", **e} for e in allowed.get("team_diff", [])),
    ]


def entry_key(entry: dict[str, Any]) -> tuple[str, str, str]:
    return (entry.get("team", ""), entry.get("position", ""), entry.get("field", ""))


def comparable(value: Any) -> Any:
    return sorted(value) if isinstance(value, list) else value


def outdated(entry: dict[str, Any], difference: Difference) -> list[str]:
    """Values or reference names recorded in ``entry`` that no longer hold."""
    actual = dict.fromkeys(REFERENCE_VALUE_KEYS, difference.reference)
    actual |= {"ours": difference.ours, **dict(difference.names)}
    return [
        f"{key} = {entry[key]!r}, actual {value!r}"
        for key, value in actual.items()
        if key in entry and comparable(entry[key]) != comparable(value)
    ]


# ---------------------------------------------------------------------------
# The tests


def team_cases() -> list[Any]:
    return [
        pytest.param(ruleset_id, team_id, id=f"{ruleset_id}-{team_id}")
        for ruleset_id in RULESETS
        for team_id in sorted({*reference_teams(ruleset_id), *our_teams(ruleset_id)})
    ]


@pytest.mark.parametrize(("ruleset_id", "team_id"), team_cases())
def test_team_matches_reference(ruleset_id: str, team_id: str) -> None:
    listed = {entry_key(e): e for e in entries(ruleset_id) if e.get("team") == team_id}
    problems = []
    for difference in differences(ruleset_id, team_id):
        entry = listed.pop(difference.key, None)
        if entry is None:
            problems.append(f"not allow-listed: {difference}")
        else:
            problems += [
                f"allow-list entry out of date: {difference}: {stale}"
                for stale in outdated(entry, difference)
            ]
    problems += [
        f"stale allow-list entry (no such difference): {'/'.join(filter(None, key))}"
        for key in listed
    ]
    assert not problems, (
        f"{ruleset_id} team {team_id!r} vs reference "
        f"(allow-list: tests/rules/reference_diffs_{ruleset_id}.toml):\n  " + "\n  ".join(problems)
    )


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_allow_list_is_well_formed(ruleset_id: str) -> None:
    teams = {*reference_teams(ruleset_id), *our_teams(ruleset_id)}
    fields = {MISSING, *POSITION_FIELDS[ruleset_id], *TEAM_FIELDS}
    problems = []
    seen = set()
    for entry in entries(ruleset_id):
        key = entry_key(entry)
        label = "/".join(filter(None, key)) or repr(entry)
        if not str(entry.get("reason", "")).strip():
            problems.append(f"{label}: empty reason")
        if key in seen:
            problems.append(f"{label}: listed twice")
        seen.add(key)
        if key[0] not in teams:
            problems.append(f"{label}: stale, no team {key[0]!r} on either side")
        if key[2] not in fields:
            problems.append(f"{label}: field {key[2]!r} is not compared")
    reference_keys = reference_names(ruleset_id)
    allowed = allow_list(ruleset_id)
    for table in ("team_names", "team_ids"):
        problems += [
            f"[{table}] {name!r}: stale, not in the reference"
            for name in allowed.get(table, {})
            if name not in reference_keys[table]
        ]
    for stem, mapping in allowed.get("position_ids", {}).items():
        problems += [
            f"[position_ids.{stem}] {key!r}: stale, not in the reference"
            for key in mapping
            if f"{stem}/{key}" not in reference_keys["position_ids"]
        ]
    assert not problems, f"reference_diffs_{ruleset_id}.toml:\n  " + "\n  ".join(problems)


def reference_names(ruleset_id: str) -> dict[str, set[str]]:
    """Keys the allow-list maps may use: JSON team names, YAML stems and "stem/key"s."""
    teams = reference_teams(ruleset_id).values()
    return {
        "team_names": {team.names["json_team"] for team in teams if "json_team" in team.names},
        "team_ids": {team.names["yaml_team"] for team in teams if "yaml_team" in team.names},
        "position_ids": {
            f"{team.names['yaml_team']}/{names['yaml_position']}"
            for team in teams
            for names in team.position_names.values()
            if "yaml_position" in names
        },
    }


def test_yaml_reader_handles_the_roster_subset(tmp_path: Path) -> None:
    path = tmp_path / "roster.yaml"
    path.write_text(
        "rules:\n  lrb6: # comment\n    team:\n      cost: 40000\n"
        "      skills: [ block, thick_skull ]\n      empty: [ ]\n"
        "      flag: true\n    other: x\n",
        encoding="utf-8",
    )
    assert read_yaml(path) == {
        "rules": {
            "lrb6": {
                "team": {
                    "cost": 40000,
                    "skills": ["block", "thick_skull"],
                    "empty": [],
                    "flag": True,
                },
                "other": "x",
            }
        }
    }
