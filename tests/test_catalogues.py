"""The translation catalogues: they compile, and the check names what is not ready; and
the rules names a team page and its roster sheet print are in the reader's language."""

from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from league.extensions import db
from league.i18n import catalogues
from league.pdf.context import roster_context
from league.pdf.render import sheet_html
from league.rules import AdvancementRequest, load_ruleset
from league.services import access
from league.services.advancement import buy_advancement
from league.services.unit_of_work import unit_of_work
from tests.factories import make_active_team, make_league, make_user


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


def _english_left(page: str, names: list[tuple[str, str]]) -> list[str]:
    """The English rules names of ``names`` (English, translated) still printed on ``page``:
    only those whose translation differs can be told apart, and each translation must show."""
    missing = [shown for english, shown in names if english != shown and shown not in page]
    assert not missing, f"translations not shown: {missing}"
    return [
        english
        for english, shown in names
        if english != shown and re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", page)
    ]


@pytest.mark.parametrize("language", catalogues.translated_languages())
def test_a_team_page_and_its_roster_sheet_print_no_english_rules_names(
    app: Flask, client: FlaskClient, language: str
) -> None:
    coach = make_user("coach")
    league = make_league(make_user("commish"), "bb2025", coach)
    team = make_active_team(
        coach,
        league,
        "human",
        "Reavers",
        (
            ("human-lineman", 6),
            ("human-blitzer", 2),
            ("human-catcher", 1),
            ("human-thrower", 1),
            ("halfling-hopeful", 1),
            ("ogre", 1),
        ),
    )
    lineman = next(p for p in team.players if p.position_id == "human-lineman")
    lineman.spp_earned = 6  # as if earned in matches: one chosen primary skill (BB2025: 6 SPP)
    db.session.commit()
    with unit_of_work() as session:
        buy_advancement(session, coach, lineman.id, AdvancementRequest("chosen_primary", "Block"))

    ruleset = load_ruleset("bb2025")
    text = ruleset.text(language)
    human = ruleset.team_type("human")
    # The names a Human team's pages print: its type, its positions (one player of each),
    # the levels of its players (one Experienced lineman, the rest Rookies).
    experienced = ("Experienced", text.level_name("Experienced"))
    block = [("Block", text.skill_name("Block"))]  # equal (so not checked) but in French
    names = [("Human", text.team_type_name("human"))]
    names += [(p.name, text.position_name(p.name)) for p in human.positions]
    names += [("Rookie", text.level_name("Rookie")), experienced, *block]
    # Not a vacuous check: in every language at least the team type and a level differ.
    assert names[0][1] != "Human"
    assert text.level_name("Rookie") != "Rookie"

    headers = {"Accept-Language": language}
    team_page = client.get(f"/teams/{team.id}", headers=headers).get_data(as_text=True)
    assert f'lang="{language}"' in team_page
    assert _english_left(team_page, names) == []
    player_page = client.get(f"/players/{lineman.id}", headers=headers).get_data(as_text=True)
    # The advancement history names the skill as the rest of the page does ("Blocage").
    lineman_name = ("Human Lineman", text.position_name("Human Lineman"))
    assert _english_left(player_page, [lineman_name, experienced, *block]) == []

    with app.test_request_context(), force_locale(language):
        fresh = access.get_team(db.session, team.id)
        sheet = roster_context(
            fresh, url="http://x", printed_on=date(2026, 1, 1), paper="a4", language=language
        )
        html = sheet_html(sheet)
    assert _english_left(html, names) == []
