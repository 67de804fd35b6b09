"""``i18n/<language>.toml``: the ruleset's texts in other languages."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path

from league.rules.loader.tables import REQUIRED, Table, choice, read_toml
from league.rules.model import Ruleset, RulesTranslation, TextEntry, frozen_mapping

SKILL_NAME_CONVENTIONS = ("translated", "english")


def read_translations(
    root: Path, folder: str, ruleset: Ruleset, borrowed: bool = False
) -> dict[str, RulesTranslation]:
    """The ``i18n/*.toml`` files of ``folder``, checked against ``ruleset``.

    ``borrowed``: the folder is the ``based_on`` of ``ruleset``; only its
    inducement, team type, position and level texts are used (the skills are the ruleset's own),
    and entries the ruleset does not have are skipped rather than refused.
    """
    directory = root / folder / "i18n"
    if not directory.is_dir():
        return {}
    found: dict[str, RulesTranslation] = {}
    for path in sorted(directory.glob("*.toml")):
        doc = read_toml(root, f"{folder}/i18n/{path.name}")
        translation = _read_translation(doc, path.stem, ruleset, borrowed)
        found[translation.language] = translation
    return found


def _read_translation(
    doc: Table, file_language: str, ruleset: Ruleset, borrowed: bool
) -> RulesTranslation:
    doc.only(
        "language",
        "skill_names",
        "categories",
        "skills",
        "inducements",
        "team_types",
        "positions",
        "levels",
    )
    language = doc.text("language", REQUIRED)
    if language != file_language:
        raise doc.error("language", f"expected {file_language!r} (the file name), got {language!r}")
    if not (2 <= len(language) <= 3 and language.isalpha() and language.islower()):
        raise doc.error("language", f"expected a language code such as 'fr', got {language!r}")
    if language == "en":
        raise doc.error("language", "English is the data itself; no translation file for it")
    skill_names = choice(doc, "skill_names", SKILL_NAME_CONVENTIONS)

    texts = _Texts(doc, borrowed)
    entries, names = texts.entries, texts.names

    match_day = ruleset.match_day
    inducement_ids = [item.id for item in match_day.inducements] if match_day else []
    position_names = {p.name for t in ruleset.team_types for p in t.positions}
    team_types = frozen_mapping(
        names("team_types", (t.id for t in ruleset.team_types), "team type")
    )
    positions = frozen_mapping(names("positions", position_names, "position"))
    levels = frozen_mapping(names("levels", ruleset.advancement.levels, "level"))
    if borrowed:
        return RulesTranslation(
            language=language,
            skill_names=skill_names,
            inducements=frozen_mapping(entries("inducements", inducement_ids, "inducement")),
            team_types=team_types,
            positions=positions,
            levels=levels,
        )
    return RulesTranslation(
        language=language,
        skill_names=skill_names,
        skills=frozen_mapping(
            entries(
                "skills",
                (s.name for s in ruleset.skills),
                "skill",
                allow_name=skill_names == "translated",
            )
        ),
        categories=frozen_mapping(
            names("categories", (c.code for c in ruleset.skill_categories), "skill category")
        ),
        inducements=frozen_mapping(entries("inducements", inducement_ids, "inducement")),
        team_types=team_types,
        positions=positions,
        levels=levels,
    )


@dataclasses.dataclass(frozen=True)
class _Texts:
    """The tables of one translation file, keyed by what the ruleset knows."""

    doc: Table
    borrowed: bool

    def known_keys(self, table: Table, known: Iterable[str], what: str) -> list[str]:
        """The table's keys the ruleset knows; an unknown one is an error, except in a
        file borrowed from another ruleset (it may name what this one lacks)."""
        wanted = set(known)
        unknown = [key for key in table.data if key not in wanted]
        if unknown and not self.borrowed:
            raise table.error(unknown[0], f"unknown {what} {unknown[0]!r}")
        return [key for key in table.data if key in wanted]

    def entries(
        self, name: str, known: Iterable[str], what: str, allow_name: bool = True
    ) -> dict[str, TextEntry]:
        table = self.doc.maybe_table(name)
        if table is None:
            return {}
        result: dict[str, TextEntry] = {}
        for key in self.known_keys(table, known, what):
            entry = table.table(key)
            entry.only("name", "summary")
            if entry.has("name") and not allow_name:
                raise entry.error(
                    "name", 'this file keeps the English skill names (skill_names = "english")'
                )
            text = TextEntry(entry.text("name", ""), entry.text("summary", ""))
            if not text.name and not text.summary:
                raise entry.error("", "expected a name or a summary")
            result[key] = text
        return result

    def names(self, name: str, known: Iterable[str], what: str) -> dict[str, str]:
        table = self.doc.maybe_table(name)
        if table is None:
            return {}
        return {key: table.text(key, REQUIRED) for key in self.known_keys(table, known, what)}


def borrow_translations(
    own: Mapping[str, RulesTranslation], lent: Mapping[str, RulesTranslation]
) -> dict[str, RulesTranslation]:
    """``own`` completed with the inducement and team type texts of the ``based_on`` folder."""
    merged = dict(own)
    for language, other in lent.items():
        mine = merged.get(language)
        if mine is None:
            merged[language] = other
            continue
        merged[language] = dataclasses.replace(
            mine,
            inducements=frozen_mapping({**other.inducements, **mine.inducements}),
            team_types=frozen_mapping({**other.team_types, **mine.team_types}),
            positions=frozen_mapping({**other.positions, **mine.positions}),
            levels=frozen_mapping({**other.levels, **mine.levels}),
        )
    return merged
