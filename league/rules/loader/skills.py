"""``skills.toml``: skill categories and skills."""

from __future__ import annotations

from league.rules.loader.tables import REQUIRED, Table
from league.rules.model import Skill, SkillCategory


def read_skills(doc: Table) -> tuple[tuple[SkillCategory, ...], tuple[Skill, ...]]:
    doc.only("category", "skill")
    categories = _read_categories(doc)
    skills = _read_skill_list(doc, {c.code: c.learnable for c in categories})
    _check_references(doc, categories, skills)
    return tuple(categories), tuple(skills)


def _read_categories(doc: Table) -> list[SkillCategory]:
    categories: list[SkillCategory] = []
    codes: set[str] = set()
    names: set[str] = set()
    for table in doc.subs("category"):
        table.only("code", "name", "table", "learnable")
        code = table.text("code", REQUIRED)
        if len(code) != 1 or not code.isupper():
            raise table.error("code", f"expected one upper-case letter, got {code!r}")
        if code in codes:
            raise table.error("code", f"duplicate category code {code!r}")
        name = table.text("name", REQUIRED)
        if name in names:
            raise table.error("name", f"duplicate category name {name!r}")
        codes.add(code)
        names.add(name)
        random_table = table.texts("table", ())
        if random_table and len(random_table) != 12:
            raise table.error("table", f"expected 12 skills (rows 1-12), got {len(random_table)}")
        categories.append(SkillCategory(code, name, random_table, table.flag("learnable", True)))
    return categories


def _read_skill_list(doc: Table, learnable: dict[str, bool]) -> list[Skill]:
    skills: list[Skill] = []
    seen: set[str] = set()
    for table in doc.subs("skill"):
        table.only(
            "name",
            "category",
            "summary",
            "elite",
            "trait",
            "buyable",
            "excludes",
            "requires_any",
            "parameter",
        )
        name = table.text("name", REQUIRED)
        if name in seen:
            raise table.error("name", f"duplicate skill {name!r}")
        seen.add(name)
        category = table.text("category", REQUIRED)
        if category not in learnable:
            raise table.error("category", f"unknown category code {category!r} (skill {name!r})")
        trait = table.flag("trait", False)
        skills.append(
            Skill(
                name=name,
                category=category,
                summary=table.text("summary", ""),
                trait=trait,
                buyable=table.flag("buyable", not trait and learnable[category]),
                elite=table.flag("elite", False),
                excludes=table.texts("excludes", ()),
                requires_any=table.texts("requires_any", ()),
                parameter=table.text("parameter"),
            )
        )
    return skills


def _check_references(doc: Table, categories: list[SkillCategory], skills: list[Skill]) -> None:
    """Skills named by other skills and by the random tables exist, in the right category."""
    by_name = {s.name: s for s in skills}
    tables = doc.subs("skill")
    for table, skill in zip(tables, skills, strict=True):
        for field_name in ("excludes", "requires_any"):
            for i, other in enumerate(getattr(skill, field_name)):
                if other not in by_name:
                    raise table.error(
                        f"{field_name}[{i}]", f"unknown skill {other!r} (in skill {skill.name!r})"
                    )
                if other == skill.name:
                    raise table.error(f"{field_name}[{i}]", f"skill {skill.name!r} names itself")
    for table, category in zip(doc.subs("category"), categories, strict=True):
        for row, name in enumerate(category.table):
            if name not in by_name:
                raise table.error(f"table[{row}]", f"unknown skill {name!r}")
            if by_name[name].category != category.code:
                raise table.error(
                    f"table[{row}]",
                    f"skill {name!r} is in category {by_name[name].category!r}, "
                    f"not {category.code!r}",
                )
        if len(set(category.table)) != len(category.table):
            raise table.error("table", "a skill appears twice")
