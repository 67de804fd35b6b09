"""Translations of the rules data (data/<ruleset>/i18n/<language>.toml, FORMAT.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from league.rules import (
    Ruleset,
    RulesetError,
    language_code,
    load_ruleset,
    load_ruleset_from_path,
    localized,
)
from league.rules.loader import DATA_DIR

FRENCH = """\
language = "fr"
skill_names = "translated"

[categories]
G = "Générale"

[skills."Block"]
name = "Blocage"
summary = "Reste debout sur Les deux à terre."

[skills."Loner"]
name = "Solitaire"
"""


def _write(folder: Path, language: str, text: str) -> None:
    (folder / "i18n").mkdir(exist_ok=True)
    (folder / "i18n" / f"{language}.toml").write_text(text, encoding="utf-8")


def test_a_translated_name_with_an_untranslated_summary_falls_back_to_english(
    mini_ruleset_dir: Path,
) -> None:
    _write(mini_ruleset_dir, "fr", FRENCH)
    ruleset = load_ruleset_from_path(mini_ruleset_dir)
    text = ruleset.text("fr")
    assert text.skill_name("Block") == "Blocage"
    assert text.skill_summary("Block") == "Reste debout sur Les deux à terre."
    # Loner has a French name only: its summary is the English one of skills.toml.
    assert text.skill_name("Loner (4+)") == "Solitaire (4+)"
    assert text.skill_summary("Loner") == "Poor team-mate."
    assert not text.has_summary("Loner")
    # Frenzy is not in the file at all: name and summary stay English.
    assert text.skill_name("Frenzy") == "Frenzy"
    assert text.skill_summary("Frenzy") == "Blocks twice."
    assert text.category_name("G") == "Générale"
    assert text.category_name("T") == "Traits"
    assert text.skill_names(["Block", "Grab"]) == ["Blocage", "Grab"]


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("fr", "Blocage"), ("fr_FR", "Blocage"), ("fr-CA", "Blocage"), ("FR", "Blocage"),
     ("pt", "Block"), ("en", "Block"), (None, "Block")],
)  # fmt: skip
def test_the_language_is_read_from_any_locale_spelling(
    mini_ruleset_dir: Path, locale: str | None, expected: str
) -> None:
    _write(mini_ruleset_dir, "fr", FRENCH)
    assert localized(load_ruleset_from_path(mini_ruleset_dir), locale).skill_name("Block") == (
        expected
    )


def test_language_code() -> None:
    assert language_code("de_AT") == "de"
    assert language_code(None) == ""


# (text of i18n/fr.toml, key named, words in the message)
BROKEN = [
    pytest.param(
        FRENCH.replace('[skills."Block"]', '[skills."Blok"]'),
        "skills.Blok",
        "unknown skill 'Blok'",
        id="unknown-skill",
    ),
    pytest.param(
        FRENCH.replace('G = "Générale"', 'X = "Inconnue"'),
        "categories.X",
        "unknown skill category 'X'",
        id="unknown-category",
    ),
    pytest.param(
        FRENCH + '\n[inducements.bribes]\nname = "Pots-de-vin"\n',
        "inducements.bribes",
        "unknown inducement 'bribes'",
        id="unknown-inducement",
    ),
    pytest.param(
        FRENCH + '\n[team_types]\norcs = "Orques"\n',
        "team_types.orcs",
        "unknown team type 'orcs'",
        id="unknown-team-type",
    ),
    pytest.param(
        FRENCH + '\n[positions]\n"Human Linemen" = "Trois-quarts humains"\n',
        "positions.Human Linemen",
        "unknown position 'Human Linemen'",
        id="unknown-position",
    ),
    pytest.param(
        FRENCH + '\n[levels]\n"Super Star" = "Superstar"\n',
        "levels.Super Star",
        "unknown level 'Super Star'",
        id="unknown-level",
    ),
    pytest.param(
        FRENCH.replace('language = "fr"', 'language = "de"'),
        "language",
        "expected 'fr' (the file name)",
        id="language-not-the-file-name",
    ),
    pytest.param(
        FRENCH.replace('"translated"', '"english"'),
        "skills.Block.name",
        "keeps the English skill names",
        id="name-under-english-convention",
    ),
    pytest.param(
        FRENCH.replace('"translated"', '"official"'),
        "skill_names",
        "must be one of translated, english",
        id="unknown-convention",
    ),
    pytest.param(
        FRENCH.replace('name = "Solitaire"', 'nom = "Solitaire"'),
        "skills.Loner.nom",
        "unknown key",
        id="unknown-key",
    ),
    pytest.param(
        FRENCH.replace('name = "Solitaire"', ""),
        "skills.Loner",
        "expected a name or a summary",
        id="empty-entry",
    ),
]


@pytest.mark.parametrize(("text", "key", "words"), BROKEN)
def test_a_broken_translation_is_refused_with_the_file_named(
    mini_ruleset_dir: Path, text: str, key: str, words: str
) -> None:
    _write(mini_ruleset_dir, "fr", text)
    with pytest.raises(RulesetError) as caught:
        load_ruleset_from_path(mini_ruleset_dir)
    assert caught.value.file == "mini/i18n/fr.toml"
    assert caught.value.key == key
    assert words in caught.value.detail


def test_bb2025_speaks_four_languages_with_each_convention(bb2025: Ruleset) -> None:
    assert set(bb2025.translations) == {"fr", "de", "es", "it"}
    french, german = bb2025.text("fr"), bb2025.text("de")
    # French coaches name skills in French; German ones keep the English names.
    assert french.skill_name("Mighty Blow") == "Châtaigne"
    assert french.skill_names_translated
    assert german.skill_name("Mighty Blow") == "Mighty Blow"
    assert not german.skill_names_translated
    assert german.skill_summary("Mighty Blow").startswith("Schlägt dieser Spieler")
    assert bb2025.text("es").category_name("S") == "Fuerza"
    assert bb2025.text("it").inducement_name("bribes") == "Mazzette"
    assert french.inducement_name("bribes") == "Pots-de-vin"
    assert french.inducement_summary("bribes") == (
        "Chaque pot-de-vin peut annuler une expulsion sur 2+."
    )


@pytest.mark.parametrize("ruleset_id", ["bb2025", "bb2020", "classic", "classic-spend"])
@pytest.mark.parametrize("language", ["fr", "de", "es", "it"])
def test_every_ruleset_is_complete_in_every_language(ruleset_id: str, language: str) -> None:
    ruleset = load_ruleset(ruleset_id)
    translation = ruleset.translations[language]
    assert set(translation.skills) == {s.name for s in ruleset.skills}
    assert all(entry.summary for entry in translation.skills.values())
    # French names every skill in French; the others keep the English names.
    assert all(bool(entry.name) == (language == "fr") for entry in translation.skills.values())
    assert set(translation.categories) == {c.code for c in ruleset.skill_categories}
    assert ruleset.match_day is not None
    assert set(translation.inducements) == {i.id for i in ruleset.match_day.inducements}
    assert set(translation.team_types) == {t.id for t in ruleset.team_types}
    assert set(translation.positions) == {p.name for t in ruleset.team_types for p in t.positions}
    assert set(translation.levels) == set(ruleset.advancement.levels)


def test_positions_and_levels_are_translated_by_their_english_name() -> None:
    bb2020, classic = load_ruleset("bb2020"), load_ruleset("classic")
    # BB2020's Human roster names its lineman "Human Lineman", but its thrower just
    # "Thrower", as do other teams: one entry serves them all.
    assert bb2020.text("fr").position_name("Human Lineman") == "Trois-quarts humain"
    assert bb2020.text("de").position_name("Thrower") == "Werfer"
    assert bb2020.text("fr").level_name("Experienced") == "Expérimenté"
    # classic-spend plays classic's rosters and levels, so it borrows their names.
    spend = load_ruleset("classic-spend")
    assert spend.text("de").position_name("Troll Slayer") == "Trollslayer"
    assert spend.text("de").level_name("Rookie") == classic.text("de").level_name("Rookie")
    # Not in the data (a name typed by hand): shown as it is.
    assert bb2020.text("fr").position_name("Star Player") == "Star Player"
    assert bb2020.text("en").level_name("Rookie") == "Rookie"


def test_every_shipped_translation_file_loads() -> None:
    for folder in sorted(DATA_DIR.iterdir()):
        files = sorted((folder / "i18n").glob("*.toml"))
        if files:
            ruleset = load_ruleset(folder.name)
            assert {f.stem for f in files} <= set(ruleset.translations)


def test_based_on_borrows_the_inducement_names() -> None:
    # classic-spend plays classic's pre-game; its own files hold no inducements,
    # so the names come from classic's files of the same language.
    spend = load_ruleset("classic-spend")
    assert spend.text("fr").inducement_name("bribes") == "Pots-de-vin"
    assert spend.text("de").inducement_name("extra-training") == "Zusatztraining"
    # ... while its skills are its own: Pro differs from classic's Pro.
    assert spend.text("fr").skill_summary("Pro") != load_ruleset("classic").text(
        "fr"
    ).skill_summary("Pro")
