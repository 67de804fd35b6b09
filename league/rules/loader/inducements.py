"""``match_day.toml`` ``[[inducement]]``: what a team may buy before a match."""

from __future__ import annotations

from league.rules.loader.references import check_rules_exist, check_team_ids
from league.rules.loader.tables import REQUIRED, Table
from league.rules.model import Inducement, ReducedPrice, TeamType


def _read_tiers(table: Table, team_types: tuple[TeamType, ...]) -> tuple[int, ...]:
    """An inducement's team tiers; a tier no team type has is a typo (it would match none)."""
    tiers: tuple[int, ...] = table.integers("tiers", ())
    known = {t.tier for t in team_types}
    for i, tier in enumerate(tiers):
        if tier not in known:
            raise table.error(f"tiers[{i}]", f"no team type is of tier {tier}")
    return tiers


def read_inducements(
    doc: Table, team_ids: set[str], team_types: tuple[TeamType, ...]
) -> tuple[Inducement, ...]:
    items: list[Inducement] = []
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    for table in doc.subs("inducement"):
        table.only(
            "id",
            "name",
            "cost",
            "max",
            "summary",
            "special_rules",
            "team_types",
            "needs_apothecary",
            "tiers",
            "reduced",
            "notes",
            "excludes_stars",
        )
        item_id = table.text("id", REQUIRED)
        name = table.text("name", REQUIRED)
        if item_id in seen_ids:
            raise table.error("id", f"duplicate inducement id {item_id!r}")
        if name in seen_names:
            raise table.error("name", f"duplicate inducement name {name!r}")
        seen_ids.add(item_id)
        seen_names.add(name)
        special_rules = table.texts("special_rules", ())
        check_rules_exist(table, "special_rules", special_rules, team_types)
        teams = table.texts("team_types", ())
        check_team_ids(table, "team_types", teams, team_ids)
        reduced = []
        for sub in table.subs("reduced", required=False):
            sub.only("special_rule", "team_type", "cost", "max")
            rule, team = sub.text("special_rule"), sub.text("team_type")
            if (rule is None) == (team is None):
                raise sub.error("", "name exactly one of special_rule and team_type")
            if rule is not None:
                check_rules_exist(sub, "special_rule", (rule,), team_types)
            if team is not None:
                check_team_ids(sub, "team_type", (team,), team_ids)
            reduced.append(
                ReducedPrice(
                    cost=sub.integer("cost", REQUIRED),
                    special_rule=rule,
                    team_type=team,
                    max=sub.integer("max", minimum=1),
                )
            )
        items.append(
            Inducement(
                id=item_id,
                name=name,
                cost=table.integer("cost", REQUIRED),
                max=table.integer("max", REQUIRED, minimum=1),
                summary=table.text("summary", ""),
                special_rules=special_rules,
                team_types=teams,
                needs_apothecary=table.flag("needs_apothecary", False),
                tiers=_read_tiers(table, team_types),
                reduced=tuple(reduced),
                notes=table.text("notes", ""),
                excludes_stars=table.texts("excludes_stars", ()),
            )
        )
    return tuple(items)
