"""The rules browser and roster names in the page's language (rules data i18n files)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale

from league import caching
from league.web import rules


def _page(app: Flask, path: str, view: object, locale: str, **args: object) -> str:
    with app.test_request_context(path), force_locale(locale):
        answer = view(**args)  # type: ignore[operator]
        return answer if isinstance(answer, str) else answer.get_data(as_text=True)


def test_the_skills_page_in_french_names_skills_in_french(app: Flask) -> None:
    html = _page(app, "/rules/bb2025/skills", rules.skills, "fr", ruleset_id="bb2025")
    assert "<dt>Châtaigne" in html
    assert '<span class="muted" lang="en">(Mighty Blow)</span>' in html
    assert "il ajoute +1 au jet d&#39;armure" in html
    assert "<h2>Force <span" in html  # the Strength category


def test_the_skills_page_in_german_keeps_english_names_with_german_summaries(
    app: Flask,
) -> None:
    html = _page(app, "/rules/bb2025/skills", rules.skills, "de", ruleset_id="bb2025")
    assert "<dt>Mighty Blow" in html
    assert "(Mighty Blow)</span>" not in html
    assert "Schlägt dieser Spieler einen Gegner mit einem Block nieder" in html
    assert "<h2>Stärke <span" in html


def test_the_french_filter_finds_a_skill_by_either_name(app: Flask) -> None:
    for query in ("châtaigne", "mighty blow"):
        with app.test_request_context(f"/rules/bb2025/skills?q={query}"), force_locale("fr"):
            html = rules.skills(ruleset_id="bb2025")
        assert "<dt>Châtaigne" in html
        assert "<dt>Blocage" not in html


def test_the_inducements_page_in_french(app: Flask) -> None:
    html = _page(app, "/rules/bb2025/inducements", rules.inducements, "fr", ruleset_id="bb2025")
    assert '<td class="card-title">Pots-de-vin</td>' in html
    assert "Chaque pot-de-vin peut annuler une expulsion sur 2+." in html
    assert "avec Solitaire (4+)." in html  # the journeymen's trait, by its French name


def test_a_language_without_a_file_is_english(app: Flask) -> None:
    html = _page(app, "/rules/bb2025/skills", rules.skills, "pt", ruleset_id="bb2025")
    assert "<dt>Mighty Blow" in html
    assert "Châtaigne" not in html


def test_english_pages_are_unchanged(client: FlaskClient) -> None:
    html = client.get("/rules/bb2025/skills").get_data(as_text=True)
    assert "<dt>Mighty Blow" in html
    assert "<h2>Strength <span" in html
    assert 'lang="en"' not in html.split("<main", 1)[-1].split("</main>", 1)[0]


def test_the_team_page_names_roster_skills_in_french(app: Flask) -> None:
    from league.web import teams as team_pages
    from tests.pdf import sample

    commissioner, coach = sample.make_users()
    league = sample.make_sample_league(commissioner, coach)
    team = sample.make_sample_team(coach, league, "Les Francs", players=2)
    path = f"/teams/{team.id}"
    html = _page(app, path, team_pages.show, "fr", team_id=team.id)
    roster = html.split('<table class="roster">', 1)[1]
    assert "Cerveau lent, Solitaire (3+), Châtaigne, Crâne épais, Lancer de coéquipier" in roster
    # The signed-out page cache is keyed on the path only (its language is the
    # i18n core's business): start afresh for the English page.
    caching.pages.clear()
    english = _page(app, path, team_pages.show, "en", team_id=team.id)
    assert "Bone Head, Loner (3+), Mighty Blow" in english


def test_team_type_names_in_french_on_the_rules_pages(app: Flask) -> None:
    teams = _page(app, "/rules/bb2025/teams", rules.teams, "fr", ruleset_id="bb2025")
    assert '/rules/bb2025/teams/human">Humains</a>' in teams
    # Sorted by the French names: Élus du Chaos after Elfes sylvains, before Gnomes.
    order = [teams.index(f">{name}</a>") for name in ("Elfes sylvains", "Élus du Chaos", "Gnomes")]
    assert order == sorted(order)
    team = _page(
        app,
        "/rules/bb2025/teams/human",
        rules.team,
        "fr",
        ruleset_id="bb2025",
        team_type_id="human",
    )
    assert "<h1>Humains</h1>" in team
    stars = _page(app, "/rules/bb2025/star-players?team=human", rules.star_players, "fr",
                  ruleset_id="bb2025")  # fmt: skip
    assert "<strong>Humains</strong>" in stars
    assert '<option value="dwarf">Nains</option>' in stars
