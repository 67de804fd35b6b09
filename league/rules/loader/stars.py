"""``star_players.toml``: star players and the pairs hired together."""

from __future__ import annotations

from collections.abc import Mapping

from league.rules.loader.references import check_rules_exist, check_team_ids, skill_ref
from league.rules.loader.tables import REQUIRED, Table
from league.rules.model import RulesetError, Skill, StarPair, StarPlayer, TeamType


def read_stars(
    doc: Table,
    skills: Mapping[str, Skill],
    team_ids: set[str],
    team_types: tuple[TeamType, ...],
    stat_style: str,
) -> tuple[tuple[StarPlayer, ...], tuple[StarPair, ...]]:
    doc.only("star", "pair")
    pairs = _read_pairs(doc)
    stars: list[StarPlayer] = []
    names: set[str] = set()
    for table in doc.subs("star"):
        table.only(
            "id",
            "name",
            "cost",
            "ma",
            "st",
            "ag",
            "pa",
            "av",
            "skills",
            "special_rule",
            "plays_for",
            "plays_for_teams",
            "any_team",
            "plays_for_except",
            "mega_star",
            "pair",
        )
        star_id = table.text("id", REQUIRED)
        if star_id in {s.id for s in stars} or star_id in pairs:
            raise table.error("id", f"duplicate star or pair id {star_id!r}")
        name = table.text("name", REQUIRED)
        if name in names:
            raise table.error("name", f"duplicate star name {name!r}")
        names.add(name)
        pair_id = table.text("pair")
        cost = _star_cost(table, star_id, pair_id, pairs)
        pa = table.integer("pa", minimum=1)
        if stat_style == "value" and pa is not None:
            raise table.error("pa", "value-style rulesets have no PA")
        plays_for = table.texts("plays_for", ())
        check_rules_exist(table, "plays_for", plays_for, team_types)
        excepted = table.texts("plays_for_except", ())
        check_rules_exist(table, "plays_for_except", excepted, team_types)
        teams = table.texts("plays_for_teams", ())
        check_team_ids(table, "plays_for_teams", teams, team_ids)
        any_team = table.flag("any_team", False)
        if not (any_team or plays_for or teams):
            raise table.error("plays_for", "name the leagues, rules or teams he plays for")
        stars.append(
            StarPlayer(
                id=star_id,
                name=name,
                cost=cost,
                ma=table.integer("ma", REQUIRED, minimum=1),
                st=table.integer("st", REQUIRED, minimum=1),
                ag=table.integer("ag", REQUIRED, minimum=1),
                pa=pa,
                av=table.integer("av", REQUIRED, minimum=1),
                skills=tuple(
                    skill_ref(table, f"skills[{i}]", skills, text)
                    for i, text in enumerate(table.texts("skills", ()))
                ),
                special_rule=table.text("special_rule", ""),
                plays_for=plays_for,
                plays_for_teams=teams,
                any_team=any_team,
                plays_for_except=excepted,
                mega_star=table.flag("mega_star", False),
                pair=pair_id,
            )
        )
    star_ids = {s.id for s in stars}
    for pair in pairs.values():
        for member in pair.members:
            if member not in star_ids:
                raise RulesetError(doc.file, f"pair {pair.id}", f"unknown member {member!r}")
    return tuple(stars), tuple(pairs.values())


def _read_pairs(doc: Table) -> dict[str, StarPair]:
    pairs: dict[str, StarPair] = {}
    for table in doc.subs("pair", required=False):
        table.only("id", "name", "cost", "members")
        pair = StarPair(
            id=table.text("id", REQUIRED),
            name=table.text("name", REQUIRED),
            cost=table.integer("cost", REQUIRED),
            members=table.texts("members", REQUIRED),
        )
        if pair.id in pairs:
            raise table.error("id", f"duplicate pair id {pair.id!r}")
        if len(pair.members) != 2 or len(set(pair.members)) != 2:
            raise table.error("members", "a pair has two different members")
        pairs[pair.id] = pair
    return pairs


def _star_cost(table: Table, star_id: str, pair_id: str | None, pairs: dict[str, StarPair]) -> int:
    """A star's own fee, or the fee of the pair he is hired with."""
    if pair_id is None:
        cost: int = table.integer("cost", REQUIRED)
        return cost
    if table.has("cost"):
        raise table.error("cost", "a pair member has no fee of its own (the pair's cost)")
    if pair_id not in pairs or star_id not in pairs[pair_id].members:
        raise table.error("pair", f"no [[pair]] {pair_id!r} listing {star_id!r}")
    return pairs[pair_id].cost
