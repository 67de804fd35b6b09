"""``rosters/*.toml``: one team type and its positions."""

from __future__ import annotations

from collections.abc import Mapping

from league.rules.loader.tables import REQUIRED, Table
from league.rules.model import Position, Skill, TeamType, parse_skill_ref


def read_roster(
    doc: Table, file_id: str, skills: Mapping[str, Skill], codes: set[str], stat_style: str
) -> TeamType:
    doc.only(
        "id",
        "name",
        "reroll_cost",
        "apothecary",
        "tier",
        "special_rules",
        "max_big_guys",
        "position",
        "notes",
    )
    team_id = doc.text("id", REQUIRED)
    if team_id != file_id:
        raise doc.error("id", f"{team_id!r} does not match the file name {file_id!r}.toml")
    positions: list[Position] = []
    position_ids: set[str] = set()
    position_names: set[str] = set()
    for table in doc.subs("position"):
        positions.append(
            _read_position(table, skills, codes, stat_style, position_ids, position_names)
        )
    if not positions:
        raise doc.error("position", "a team type needs at least one position")
    return TeamType(
        id=team_id,
        name=doc.text("name", REQUIRED),
        reroll_cost=doc.integer("reroll_cost", REQUIRED),
        apothecary=doc.flag("apothecary", REQUIRED),
        positions=tuple(positions),
        tier=doc.integer("tier"),
        special_rules=doc.texts("special_rules", ()),
        max_big_guys=doc.integer("max_big_guys"),
        notes=doc.text("notes", ""),
    )


def _read_position(
    table: Table,
    skills: Mapping[str, Skill],
    codes: set[str],
    stat_style: str,
    position_ids: set[str],
    position_names: set[str],
) -> Position:
    table.only(
        "id",
        "name",
        "keywords",
        "max",
        "cost",
        "ma",
        "st",
        "ag",
        "pa",
        "av",
        "skills",
        "primary",
        "secondary",
        "notes",
    )
    position_id = table.text("id", REQUIRED)
    if position_id in position_ids:
        raise table.error("id", f"duplicate position id {position_id!r}")
    position_ids.add(position_id)
    name = table.text("name", REQUIRED)
    if name in position_names:
        raise table.error("name", f"duplicate position name {name!r}")
    position_names.add(name)
    refs = []
    for i, text in enumerate(table.texts("skills", ())):
        ref = parse_skill_ref(text)
        if ref.name not in skills:
            raise table.error(
                f"skills[{i}]", f"unknown skill {ref.name!r} (position {position_id!r})"
            )
        refs.append(ref)
    access: dict[str, tuple[str, ...]] = {}
    for field_name in ("primary", "secondary"):
        access[field_name] = table.texts(field_name, ())
        for i, code in enumerate(access[field_name]):
            if code not in codes:
                raise table.error(
                    f"{field_name}[{i}]",
                    f"unknown category code {code!r} (position {position_id!r})",
                )
    overlap = set(access["primary"]) & set(access["secondary"])
    if overlap:
        raise table.error("secondary", f"categories also primary: {sorted(overlap)}")
    pa = table.integer("pa")
    if stat_style == "value" and pa is not None:
        raise table.error("pa", "value-style rulesets have no PA")
    return Position(
        id=position_id,
        name=name,
        max=table.integer("max", REQUIRED, minimum=1),
        cost=table.integer("cost", REQUIRED),
        ma=table.integer("ma", REQUIRED, minimum=1),
        st=table.integer("st", REQUIRED, minimum=1),
        ag=table.integer("ag", REQUIRED, minimum=1),
        pa=pa,
        av=table.integer("av", REQUIRED, minimum=1),
        skills=tuple(refs),
        primary=access["primary"],
        secondary=access["secondary"],
        keywords=table.texts("keywords", ()),
        notes=table.text("notes", ""),
    )
