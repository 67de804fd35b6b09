"""The rules data in the reader's language: skill, category, inducement, team type,
position and level names and texts.

Each ruleset folder may hold ``i18n/<language>.toml`` (see ``data/FORMAT.md``);
the loader reads and checks them into :attr:`Ruleset.translations`. This module
only looks texts up: :func:`localized` (or :meth:`Ruleset.text`) gives a
:class:`RulesText` for one language whose answers fall back to the English
data wherever the language has no entry, so a half-translated file is never an
error for the reader. The language is a parameter: the web layer passes the
request's locale, scripts and tests a plain code.
"""

from __future__ import annotations

from collections.abc import Iterable

from league.rules.model import Ruleset, RulesTranslation, TextEntry, parse_skill_ref

__all__ = ["RulesText", "language_code", "localized"]

_EMPTY = TextEntry()


def language_code(locale: object) -> str:
    """``"fr"`` for "fr", "fr_FR", "fr-FR", "FR" or a babel ``Locale('fr', 'FR')``; "" for None."""
    if locale is None:
        return ""
    text = str(locale).strip().replace("-", "_")
    return text.partition("_")[0].lower()


class RulesText:
    """Texts of ``ruleset`` in one language; English (the data itself) where untranslated."""

    __slots__ = ("language", "ruleset", "translation")

    def __init__(self, ruleset: Ruleset, translation: RulesTranslation | None) -> None:
        self.ruleset = ruleset
        self.translation = translation
        self.language = translation.language if translation else "en"

    @property
    def skill_names_translated(self) -> bool:
        """Whether this language names skills in its own words (else: English names)."""
        return self.translation is not None and self.translation.skill_names == "translated"

    def _skill_entry(self, name: str) -> TextEntry:
        if self.translation is None:
            return _EMPTY
        return self.translation.skills.get(name, _EMPTY)

    def skill_name(self, name: str) -> str:
        """The name of skill ``name``; a roster parameter is kept: "Loner (4+)"."""
        ref = parse_skill_ref(name)
        skill = self.ruleset.find_skill(name)
        if skill is None:
            return name
        translated = self._skill_entry(skill.name).name or skill.name
        if skill.name == ref.name and ref.parameter:
            return f"{translated} ({ref.parameter})"
        return translated

    def skill_names(self, names: Iterable[str]) -> list[str]:
        return [self.skill_name(str(name)) for name in names]

    def skill_summary(self, name: str) -> str:
        skill = self.ruleset.find_skill(name)
        if skill is None:
            return ""
        return self._skill_entry(skill.name).summary or skill.summary

    def has_summary(self, name: str) -> bool:
        """Whether the summary of ``name`` is in this language (False: English is shown)."""
        skill = self.ruleset.find_skill(name)
        return skill is not None and bool(self._skill_entry(skill.name).summary)

    def category_name(self, code: str) -> str:
        name = self.translation.categories.get(code, "") if self.translation else ""
        if name:
            return name
        return self.ruleset.category(code).name if self.ruleset.has_category(code) else code

    def _inducement_entry(self, inducement_id: str) -> TextEntry:
        if self.translation is None:
            return _EMPTY
        return self.translation.inducements.get(inducement_id, _EMPTY)

    def inducement_name(self, inducement_id: str) -> str:
        entry = self._inducement_entry(inducement_id)
        if entry.name:
            return entry.name
        match_day = self.ruleset.match_day
        return match_day.inducement(inducement_id).name if match_day else inducement_id

    def inducement_summary(self, inducement_id: str) -> str:
        entry = self._inducement_entry(inducement_id)
        if entry.summary:
            return entry.summary
        match_day = self.ruleset.match_day
        return match_day.inducement(inducement_id).summary if match_day else ""

    def team_type_name(self, team_type_id: str) -> str:
        name = self.translation.team_types.get(team_type_id, "") if self.translation else ""
        return name or self.ruleset.team_type(team_type_id).name

    def position_name(self, name: str) -> str:
        """Position ``name`` (the English name of the roster data) in this language."""
        translated = self.translation.positions.get(name, "") if self.translation else ""
        return translated or name

    def level_name(self, name: str) -> str:
        """Level ``name`` ("Rookie", "Experienced": the English of the ruleset) in this language."""
        translated = self.translation.levels.get(name, "") if self.translation else ""
        return translated or name


def localized(ruleset: Ruleset, locale: object) -> RulesText:
    """The texts of ``ruleset`` in ``locale``; unknown languages and English get the data."""
    return RulesText(ruleset, ruleset.translations.get(language_code(locale)))
