"""The translation catalogues: they compile, and the check names what is not ready."""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.support import Translations

from league.i18n import catalogues


def test_every_catalogue_compiles(tmp_path: Path) -> None:
    folder = tmp_path / "translations"
    shutil.copytree(catalogues.TRANSLATIONS, folder, ignore=shutil.ignore_patterns("*.mo"))
    written = catalogues.compile_catalogues(folder)
    assert sorted(mo.parent.parent.name for mo in written) == ["de", "es", "fr", "it"]
    # Compiled again only when a .po is newer than its .mo.
    assert catalogues.compile_catalogues(folder) == []
    german = Translations.load(str(folder), ["de"])
    assert german.gettext("Change language") == "Sprache ändern"
    assert german.gettext("Not in any catalogue") == "Not in any catalogue"


def test_the_check_lists_untranslated_and_fuzzy_entries() -> None:
    catalog = Catalog(locale="fr")
    catalog.add("Language", "Langue")
    catalog.add("Change language", "")
    catalog.add("Save language", "Enregistrer", flags=["fuzzy"])
    catalog.add(("%(num)d team", "%(num)d teams"), ("%(num)d équipe", ""))
    catalog.add(("%(num)d match", "%(num)d matches"), ("%(num)d match", "%(num)d matchs"))
    assert catalogues.problems(catalog) == [
        "untranslated: 'Change language'",
        "fuzzy: 'Save language'",
        "untranslated: '%(num)d team'",
    ]


def test_the_catalogues_exist_for_the_four_languages_besides_english() -> None:
    assert catalogues.translated_languages() == ("fr", "de", "es", "it")
    for language in catalogues.translated_languages():
        assert catalogues.po_path(language).exists(), language
